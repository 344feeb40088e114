"""A replacement is applied: the reserve takes the late participant's seat in that
round's table and protocol, the rounds not yet played are seated again with the played
ones fixed (a draft to publish), and the seating pages show the reserve."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from mafiatab.audit.models import AuditEntry
from mafiatab.games.models import Round
from mafiatab.games.services import protocol_save
from mafiatab.registrations.models import Registration, Status
from mafiatab.registrations.services import (
    checkin_record,
    registration_add,
    replacement_record,
)
from mafiatab.seating.models import DraftStatus, SeatingDraft
from mafiatab.seating.services import (
    SeatingInputs,
    seating_generate,
    seating_publish,
    seating_reseat,
)

pytestmark = pytest.mark.django_db

PLAYERS = [f"P{n:02d}" for n in range(1, 21)]


@pytest.fixture(autouse=True)
def quick_search(settings: Any) -> None:
    settings.MAFIATAB_SEATING_ITERATIONS = 3_000


@pytest.fixture
def published(tournament: Any, organiser: Any) -> dict[str, Any]:
    """20 participants, a published qualifying seating of 4 games on 2 tables."""
    for name in PLAYERS:
        registration_add(tournament=tournament, nickname=name, by=organiser)
    inputs = SeatingInputs(stage="qualifying", games=4, tables=2, seed=3)
    draft = seating_generate(tournament=tournament, inputs=inputs, by=organiser)
    seating_publish(draft=draft, judges={}, by=organiser)
    return {"tournament": tournament, "organiser": organiser, "draft": draft}


def _seat_of(tournament: Any, round_number: int, name: str) -> tuple[Any, int] | None:
    round_ = Round.objects.get(tournament=tournament, stage="qualifying", number=round_number)
    for table in round_.tables.all():
        for seat in table.seats.all():
            if seat.player == name:
                return table, seat.number
    return None


def _replace(published: dict[str, Any], absent: str, reserve: str, round_number: int) -> Any:
    tournament = published["tournament"]
    return replacement_record(
        tournament=tournament,
        absent=tournament.registrations.get(nickname=absent),
        reserve_nickname=reserve,
        round=round_number,
        minutes_late=20,
        by=published["organiser"],
    )


def test_the_reserve_takes_the_seat_in_the_rounds_table_and_its_protocol(published):
    tournament = published["tournament"]
    table, seat = _seat_of(tournament, 1, "P03")
    replacement = _replace(published, "P03", "Граф", 1)
    reserve = Registration.objects.get(tournament=tournament, nickname="Граф")
    assert reserve.status == Status.RESERVE and replacement.reserve == reserve
    assert _seat_of(tournament, 1, "P03") is None
    assert _seat_of(tournament, 1, "Граф") == (table, seat)
    game = table.game
    game.refresh_from_db()
    latest = game.versions.get(number=game.version)
    assert latest.action == "replaced"
    assert latest.data["seats"][seat - 1]["player"] == "Граф"
    assert game.seats.get(number=seat).registration == reserve
    assert _seat_of(tournament, 2, "P03") is not None  # later rounds wait for the new draft
    actions = set(AuditEntry.objects.values_list("action", flat=True))
    assert {"registration.reserve", "registration.replaced", "game.seat.replaced"} <= actions


def test_a_confirmed_protocol_is_not_changed_by_a_replacement(published, make_user):
    from mafiatab.games.services import protocol_confirm

    # the organiser created the tournament: he is its chief judge
    tournament, organiser = published["tournament"], published["organiser"]
    table, seat = _seat_of(tournament, 1, "P03")
    game = table.game
    from .test_games_fixtures import complete_data

    protocol_save(game=game, data=complete_data(game), by=organiser, base_version=1, submit=True)
    protocol_confirm(game=game, by=organiser)
    game.refresh_from_db()
    version = game.version
    _replace(published, "P03", "Граф", 1)
    game.refresh_from_db()
    assert game.version == version
    assert game.versions.get(number=version).data["seats"][seat - 1]["player"] == "P03"


def test_the_rounds_not_played_are_seated_again_with_the_reserve(published):
    tournament, organiser = published["tournament"], published["organiser"]
    _replace(published, "P03", "Граф", 1)
    draft = seating_reseat(tournament=tournament, by=organiser, at_least=1)
    assert draft is not None and draft.status == DraftStatus.DRAFT
    assert draft.options["fixed_rounds"] == 1
    assert draft.options["replacements"] == {"Граф": "P03"}
    rounds = draft.rounds
    first = [name for t in rounds[0]["tables"] for name in t["seats"]]
    assert "Граф" in first and "P03" not in first
    later = [name for r in rounds[1:] for t in r["tables"] for name in t["seats"]]
    assert later.count("Граф") == 3 and "P03" not in later
    seating_publish(draft=draft, judges={}, by=organiser)
    draft.refresh_from_db()
    published["draft"].refresh_from_db()
    assert draft.status == DraftStatus.PUBLISHED
    assert published["draft"].status == DraftStatus.DRAFT
    for number in (2, 3, 4):
        assert _seat_of(tournament, number, "P03") is None
        table, seat = _seat_of(tournament, number, "Граф")
        latest = table.game.versions.get(number=table.game.version)
        assert latest.action == "reseated"
        assert latest.data["seats"][seat - 1]["player"] == "Граф"
    assert AuditEntry.objects.filter(action="seating.reseated").exists()


def test_a_round_with_a_protocol_written_is_not_seated_again(published):
    tournament, organiser = published["tournament"], published["organiser"]
    _replace(published, "P03", "Граф", 1)
    draft = seating_reseat(tournament=tournament, by=organiser, at_least=1)
    table = Round.objects.get(tournament=tournament, number=2).tables.first()
    data = table.game.versions.get().data | {"date": "2026-03-02"}
    # the organiser created the tournament: he is its chief judge
    protocol_save(game=table.game, data=data, by=organiser, base_version=1)
    with pytest.raises(ValidationError, match="Round 2 has begun"):
        seating_publish(draft=draft, judges={}, by=organiser)
    assert draft.__class__.objects.get(pk=draft.pk).status == DraftStatus.DRAFT


def test_the_seating_pages_and_the_printable_sheet_show_the_reserve(client, published):
    tournament = published["tournament"]
    _replace(published, "P03", "Граф", 1)
    index = client.get(reverse("seating:index", args=[tournament.slug])).content.decode()
    sheet = client.get(
        reverse("seating:print", args=[tournament.slug, published["draft"].pk])
    ).content.decode()
    assert "Граф" in index and "Граф" in sheet
    found = client.get(reverse("seating:index", args=[tournament.slug]), {"q": "граф"})
    assert "Граф" in found.content.decode()


def test_the_replacement_page_offers_the_new_draft(client, published):
    tournament, organiser = published["tournament"], published["organiser"]
    client.force_login(organiser)
    absent = tournament.registrations.get(nickname="P05")
    response = client.post(
        reverse("registrations:replace", args=[tournament.slug]),
        {"absent": absent.pk, "reserve_nickname": "Граф", "round": "1", "minutes_late": "16"},
        follow=True,
    )
    page = response.content.decode()
    assert "Граф replaces P05 in round 1." in page
    draft = SeatingDraft.objects.filter(tournament=tournament).order_by("-id").first()
    assert draft.options.get("reseat_of") == published["draft"].pk
    assert draft.get_absolute_url() in page
    detail = client.get(draft.get_absolute_url()).content.decode()
    assert 'data-testid="reseat-note"' in detail


def test_publishing_round_one_warns_about_participants_not_checked_in(
    client, tournament, organiser
):
    for name in PLAYERS:
        registration_add(tournament=tournament, nickname=name, by=organiser)
    for registration in tournament.registrations.exclude(nickname__in=["P07", "P11"]):
        checkin_record(registration=registration, day=1, by=organiser)
    inputs = SeatingInputs(stage="qualifying", games=2, tables=2, seed=3)
    draft = seating_generate(tournament=tournament, inputs=inputs, by=organiser)
    client.force_login(organiser)
    detail = client.get(draft.get_absolute_url()).content.decode()
    assert "Not checked in for day 1 (2): P07, P11." in detail
    response = client.post(
        reverse("seating:publish", args=[tournament.slug, draft.pk]), {}, follow=True
    )
    assert "Not checked in for day 1: P07, P11." in response.content.decode()


def test_a_reserve_replacing_in_round_two_plays_the_games_the_participant_had_left(published):
    tournament, organiser = published["tournament"], published["organiser"]
    assert _seat_of(tournament, 2, "P03") is not None
    _replace(published, "P03", "Граф", 2)
    draft = seating_reseat(tournament=tournament, by=organiser, at_least=2)
    names = [[n for t in r["tables"] for n in t["seats"]] for r in draft.rounds]
    assert "P03" in names[0] and "Граф" in names[1]
    assert sum(row.count("Граф") for row in names[2:]) == 2  # 4 games, P03 played 1
    assert all("P03" not in row for row in names[1:])


def test_the_history_says_the_replacement_in_russian_without_raw_keys(client, published):
    tournament, organiser = published["tournament"], published["organiser"]
    _replace(published, "P03", "Граф", 1)
    client.force_login(organiser)
    url = reverse("tournaments:history", args=[tournament.slug])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Заменён игрок" in page or "Замена" in page or "замен" in page.lower()
    assert "опоздавший участник" in page and "Место отдано запасному" in page
    assert "minutes late" not in page, page[
        page.find("minutes late") - 300 : page.find("minutes late") + 100
    ]
