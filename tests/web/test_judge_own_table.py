"""Nobody judges a game he plays: a table whose judge holds one of its seats is refused
by every door (a round made with its tables, a table added, a seating published, the
API and the rounds page giving a table another judge, a replacement seating the judge
as the reserve, a table seated again), each refusal naming him and the table. A
participant may judge another table."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from mafiatab.api.services import token_create
from mafiatab.games.models import Game, Round, Table
from mafiatab.games.services import (
    TablePlan,
    replacement_record,
    reseat_table,
    round_create,
    table_add,
    table_judge_set,
)
from mafiatab.registrations.models import Registration, Replacement, Status
from mafiatab.registrations.services import registration_add
from mafiatab.seating.models import DraftStatus
from mafiatab.seating.services import SeatingInputs, seating_generate, seating_publish
from mafiatab.tournaments.models import StaffRole
from mafiatab.tournaments.services import staff_assign

from . import test_games_fixtures as fx

two_tables = fx.two_tables

pytestmark = pytest.mark.django_db

#: Nine participants of the fixture's table 2, for a table with Кэп in seat 2.
OTHERS = fx.NICKS_2[:9]
WITH_KEP = (OTHERS[0], "Кэп", *OTHERS[1:])


@pytest.fixture(autouse=True)
def quick_search(settings: Any) -> None:
    settings.MAFIATAB_SEATING_ITERATIONS = 3_000


@pytest.fixture
def kep(two_tables: dict[str, Any], make_user: Any) -> Any:
    """Кэп: a table judge of the tournament and one of its participants."""
    tournament = two_tables["round"].tournament
    user = make_user("Кэп", username="kep")
    organiser = two_tables["organiser"]
    staff_assign(tournament=tournament, user=user, role=StaffRole.TABLE_JUDGE, by=organiser)
    registration_add(tournament=tournament, nickname="", user=user, by=organiser)
    return user


def _round_two(two_tables: dict[str, Any]) -> Round:
    return round_create(
        tournament=two_tables["round"].tournament,
        stage="qualifying",
        number=2,
        tables=[],
        by=two_tables["organiser"],
    )


def test_a_round_whose_table_judge_plays_at_it_is_refused_and_nothing_is_made(two_tables, kep):
    with pytest.raises(ValidationError) as refused:
        round_create(
            tournament=two_tables["round"].tournament,
            stage="qualifying",
            number=2,
            tables=[TablePlan(number=1, judge=kep, players=WITH_KEP)],
            by=two_tables["organiser"],
        )
    assert refused.value.messages == [
        "Table 1: Кэп plays at this table (seat 2) and cannot be its judge; choose another "
        "judge or seat him at another table."
    ]
    assert not Round.objects.filter(number=2).exists()


def test_a_participant_judges_another_table(two_tables, kep):
    round_ = _round_two(two_tables)
    table_add(
        round=round_,
        plan=TablePlan(number=1, judge=kep, players=tuple(fx.NICKS_2)),
        by=two_tables["organiser"],
    )
    assert Table.objects.get(round=round_, number=1).judge == kep


def test_the_rounds_page_refuses_a_table_its_judge_plays_at_in_russian(client, two_tables, kep):
    round_ = _round_two(two_tables)
    slug = round_.tournament.slug
    client.force_login(two_tables["organiser"])
    client.cookies["django_language"] = "ru"
    seats = {f"player_{n}": nick for n, nick in enumerate(WITH_KEP, start=1)}
    page = client.post(
        reverse("games:table_add", args=[slug, round_.pk]),
        {"number": "1", "judge": str(kep.pk), **seats},
        follow=True,
    ).content.decode()
    assert "Стол 1: Кэп играет за этим столом (место 2) и не может его судить" in page
    assert "Стол добавлен" not in page
    assert not Table.objects.filter(round=round_).exists()
    assert not Game.objects.filter(round=2).exists()


def test_a_judge_cannot_be_given_a_table_he_plays_at(two_tables, kep):
    round_ = _round_two(two_tables)
    organiser = two_tables["organiser"]
    table = table_add(
        round=round_, plan=TablePlan(number=1, judge=None, players=WITH_KEP), by=organiser
    )
    with pytest.raises(ValidationError) as refused:
        table_judge_set(table=table, judge=kep, by=organiser)
    assert refused.value.message_dict == {
        "judge": [
            "Table 1 of round 2: Кэп plays at this table (seat 2) and cannot be its judge; "
            "choose another judge or seat him at another table."
        ]
    }
    table.refresh_from_db()
    assert table.judge is None and table.game.judge is None
    assert not round_.tournament.audit_entries.filter(action="table.judge_changed").exists()


def test_the_rounds_page_and_the_api_refuse_the_judge_a_table_he_plays_at(client, two_tables, kep):
    round_ = _round_two(two_tables)
    slug = round_.tournament.slug
    organiser = two_tables["organiser"]
    table = table_add(
        round=round_, plan=TablePlan(number=1, judge=None, players=WITH_KEP), by=organiser
    )
    client.force_login(organiser)
    client.cookies["django_language"] = "ru"
    page = client.post(
        reverse("games:table_judge", args=[slug, table.pk]), {"judge": str(kep.pk)}, follow=True
    ).content.decode()
    assert "Стол 1 тура 2: Кэп играет за этим столом (место 2) и не может его судить" in page
    _token, key = token_create(user=organiser, name="script")
    refused = Client().put(
        f"/api/tournaments/{slug}/rounds/{round_.pk}/tables/1/judge",
        json.dumps({"judge": "кэп"}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {key}",
    )
    assert refused.status_code == 422
    assert "Кэп plays at this table (seat 2)" in " ".join(refused.json()["errors"]["judge"])
    table.refresh_from_db()
    assert table.judge is None


def test_a_table_seated_again_with_its_judge_is_refused(two_tables, kep):
    round_ = _round_two(two_tables)
    table = table_add(
        round=round_,
        plan=TablePlan(number=1, judge=kep, players=tuple(fx.NICKS_2)),
        by=two_tables["organiser"],
    )
    with pytest.raises(ValidationError, match="Table 1 of round 2: Кэп plays at this table"):
        reseat_table(table=table, players=WITH_KEP, by=two_tables["organiser"])
    assert [s.player for s in table.seats.all()] == fx.NICKS_2


PLAYERS = [f"P{n:02d}" for n in range(1, 21)]


@pytest.fixture
def judged(tournament: Any, organiser: Any, make_user: Any) -> dict[str, Any]:
    """20 participants on 2 tables; Кэп (a table judge, no participant) judges table 1
    of round 1, where P01 sits."""
    for name in PLAYERS:
        registration_add(tournament=tournament, nickname=name, by=organiser)
    inputs = SeatingInputs(stage="qualifying", games=4, tables=2, seed=3)
    draft = seating_generate(tournament=tournament, inputs=inputs, by=organiser)
    seating_publish(draft=draft, judges={}, by=organiser)
    kep = make_user("Кэп", username="kep")
    staff_assign(tournament=tournament, user=kep, role=StaffRole.TABLE_JUDGE, by=organiser)
    table = Table.objects.get(round__number=1, seats__registration__nickname="P01")
    table_judge_set(table=table, judge=kep, by=organiser)
    return {"tournament": tournament, "organiser": organiser, "kep": kep, "table": table}


def _replace_p01(judged: dict[str, Any], reserve: str, *, new_player: bool) -> Replacement:
    tournament = judged["tournament"]
    return replacement_record(
        tournament=tournament,
        absent=tournament.registrations.get(nickname="P01"),
        reserve_nickname=reserve,
        round=1,
        minutes_late=20,
        by=judged["organiser"],
        new_player=new_player,
    )


def test_a_replacement_seating_the_tables_judge_as_the_reserve_is_refused(judged):
    table = judged["table"]
    with pytest.raises(ValidationError) as refused:
        _replace_p01(judged, "кэп", new_player=True)
    said = refused.value.message_dict["reserve_nickname"]
    assert said == [
        f"Кэп judges table {table.number} of round 1, where P01 sits: the judge of a table "
        "cannot take a seat at it. Name another reserve or give the table another judge first."
    ]
    assert not Replacement.objects.exists()
    assert not judged["tournament"].registrations.filter(nickname_key="кэп").exists()
    assert table.seats.filter(registration__nickname="P01").exists()


def test_the_tables_judge_on_the_waiting_list_is_not_its_reserve(judged):
    tournament = judged["tournament"]
    Registration.objects.create(
        tournament=tournament,
        user=judged["kep"],
        nickname="Кэп",
        status=Status.WAITING,
        waiting_since=timezone.now(),
    )
    with pytest.raises(ValidationError, match="Кэп judges table"):
        _replace_p01(judged, "Кэп", new_player=False)
    assert not Replacement.objects.exists()
    assert tournament.registrations.get(nickname="Кэп").status == Status.WAITING


THIRTY = [f"Ace{i:02d}" for i in range(1, 31)]


@pytest.fixture
def seating(tournament: Any, organiser: Any, make_user: Any) -> dict[str, Any]:
    """30 participants, Ace01 also a table judge, and a draft of 4 games on 3 tables."""
    users = [make_user(name) for name in THIRTY]
    for user in users:
        registration_add(tournament=tournament, nickname="", user=user, by=organiser)
    other = make_user("Judge2")
    for judge in (users[0], other):
        staff_assign(tournament=tournament, user=judge, role=StaffRole.TABLE_JUDGE, by=organiser)
    inputs = SeatingInputs(stage="qualifying", games=4, tables=3, seed=5)
    draft = seating_generate(tournament=tournament, inputs=inputs, by=organiser)
    plays_at = {
        (int(r["round"]), int(t["table"]))
        for r in draft.rounds
        for t in r["tables"]
        if "Ace01" in t["seats"]
    }
    return {"draft": draft, "ace": users[0], "other": other, "plays_at": plays_at}


def test_the_publish_form_does_not_offer_a_judge_a_table_he_plays_at(client, seating, organiser):
    draft, ace = seating["draft"], seating["ace"]
    tables = {table for _round, table in seating["plays_at"]}
    client.force_login(organiser)
    form = client.get(draft.get_absolute_url()).context["publish_form"]
    for n in (1, 2, 3):
        field = form.fields[f"table_{n}"]
        offered = set(field.queryset)
        assert (ace in offered) == (n not in tables), n
        assert seating["other"] in offered
        assert field.initial != ace.pk or n not in tables


def test_publishing_a_judge_at_a_table_he_plays_at_is_refused_naming_him(seating, organiser):
    draft, ace = seating["draft"], seating["ace"]
    round_number, table = min(seating["plays_at"])
    with pytest.raises(ValidationError) as refused:
        seating_publish(draft=draft, judges={table: ace}, by=organiser)
    [said] = refused.value.messages
    assert said.startswith(f"Round {round_number}: Table {table}: Ace01 plays at this table (seat ")
    assert not Round.objects.exists()
    draft.refresh_from_db()
    assert draft.status == DraftStatus.DRAFT
