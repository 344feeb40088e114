"""A published table given to another judge: the table, its game and protocol name him,
he may write the protocol and the judge it was taken from no longer may; both hear of
it; a confirmed protocol keeps its judge; only who manages the rounds may do it."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from mafiatab.games.models import ProtocolVersion
from mafiatab.games.services import protocol_confirm, protocol_save, table_judge_set
from mafiatab.notifications.models import Notification as Message
from mafiatab.tournaments.permissions import user_can

from . import test_games_fixtures as fx
from .test_games_fixtures import complete_data

two_tables = fx.two_tables

pytestmark = pytest.mark.django_db


def test_another_judge_takes_the_table_and_both_hear_of_it(two_tables):
    game, old, new = two_tables["game1"], two_tables["judge"], two_tables["judge2"]
    table = game.table_slot
    versions = game.version
    table_judge_set(table=table, judge=new, by=two_tables["chief"])
    game.refresh_from_db()
    table.refresh_from_db()
    assert table.judge == new and game.judge == new.nickname
    assert game.version == versions + 1
    latest = ProtocolVersion.objects.get(game=game, number=game.version)
    assert latest.action == "judge" and latest.data["judge"] == new.nickname
    assert user_can(new, game.tournament, "enter_protocol", game=game)
    assert not user_can(old, game.tournament, "enter_protocol", game=game)
    entry = game.tournament.audit_entries.get(action="table.judge_changed")
    assert entry.before == {"judge": old.nickname} and entry.after == {"judge": new.nickname}
    assert Message.objects.filter(recipient=new, kind="seating.judging").exists()
    ended = Message.objects.get(recipient=old, kind="seating.judging_ended")
    assert ended.params["game"] == game.label
    # nobody else hears of it
    assert not Message.objects.filter(kind="seating.judging_ended").exclude(recipient=old).exists()


def test_the_same_judge_again_records_nothing(two_tables):
    game = two_tables["game1"]
    versions = game.version
    table_judge_set(table=game.table_slot, judge=two_tables["judge"], by=two_tables["chief"])
    game.refresh_from_db()
    assert game.version == versions
    assert not game.tournament.audit_entries.filter(action="table.judge_changed").exists()


def test_a_confirmed_protocol_keeps_its_judge(two_tables):
    game = two_tables["game1"]
    protocol_save(
        game=game, data=complete_data(game), by=two_tables["judge"], base_version=1, submit=True
    )
    protocol_confirm(game=game, by=two_tables["chief"])
    with pytest.raises(ValidationError) as refused:
        table_judge_set(table=game.table_slot, judge=two_tables["judge2"], by=two_tables["chief"])
    assert "confirmed" in str(refused.value)


def test_only_a_judge_of_the_tournament_and_only_by_who_manages_rounds(two_tables, make_user):
    game = two_tables["game1"]
    stranger = make_user("Stranger")
    with pytest.raises(ValidationError):
        table_judge_set(table=game.table_slot, judge=stranger, by=two_tables["chief"])
    with pytest.raises(PermissionDenied):
        table_judge_set(table=game.table_slot, judge=two_tables["judge2"], by=two_tables["judge"])


def test_the_rounds_page_changes_the_judge_in_russian(client, two_tables):
    game, new = two_tables["game1"], two_tables["judge2"]
    slug = game.tournament.slug
    client.force_login(two_tables["chief"])
    client.cookies["django_language"] = "ru"
    page = client.get(reverse("games:rounds", args=[slug]))
    assert f'data-testid="judge-{game.label}"' in page.content.decode()
    response = client.post(
        reverse("games:table_judge", args=[slug, game.table_slot.pk]),
        {"judge": str(new.pk)},
        follow=True,
    )
    assert response.status_code == 200
    said = response.content.decode()
    assert "Теперь стол 1 тура 1 (" in said and f") судит {new.nickname}." in said
    game.refresh_from_db()
    assert game.judge == new.nickname
    # a judge of a table may not give it away
    client.force_login(two_tables["judge2"])
    refused = client.post(
        reverse("games:table_judge", args=[slug, game.table_slot.pk]), {"judge": ""}
    )
    assert refused.status_code == 403


def test_the_api_gives_a_table_another_judge(two_tables):
    import json

    from django.test import Client

    from mafiatab.api.services import token_create

    round_, game, new = two_tables["round"], two_tables["game1"], two_tables["judge2"]
    slug = round_.tournament.slug
    url = f"/api/tournaments/{slug}/rounds/{round_.pk}/tables/1/judge"
    _token, key = token_create(user=two_tables["organiser"], name="script")
    headers = {"HTTP_AUTHORIZATION": f"Bearer {key}"}
    client = Client()

    def put(body: object, address: str = url) -> object:
        return client.put(address, json.dumps(body), content_type="application/json", **headers)

    refused = put({"judge": "Nobody"})
    assert refused.status_code == 422 and "judge" in refused.json()["errors"]
    assert put({"judge": "x" * 151}).status_code == 422
    missing = put({"judge": None}, f"/api/tournaments/{slug}/rounds/{round_.pk}/tables/9/judge")
    assert missing.status_code == 404
    done = put({"judge": new.nickname.upper()})
    assert done.status_code == 200, done.content
    assert done.json() == {
        "round": round_.pk,
        "table": 1,
        "game": game.label,
        "judge": new.nickname,
    }
    _token, other = token_create(user=two_tables["judge"], name="mine")
    forbidden = client.put(
        url,
        json.dumps({"judge": None}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {other}",
    )
    assert forbidden.status_code == 403
