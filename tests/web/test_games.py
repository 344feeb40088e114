"""Rounds, tables and protocols through the services: versions, statuses, permissions,
optimistic locking, replays, and what counts in the standings."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from mafiatab.games.models import GameStatus, ProtocolVersion
from mafiatab.games.services import (
    ProtocolChanged,
    ProtocolInvalid,
    TablePlan,
    game_mark_replayed,
    protocol_confirm,
    protocol_save,
    round_create,
)
from mafiatab.messages import problem_text
from mafiatab.registrations.services import registration_add
from mafiatab.standings.inputs import core_tournament as core_tournament_of

from . import test_games_fixtures as fx
from .test_games_fixtures import NICKS_1, complete_data

two_tables = fx.two_tables

pytestmark = pytest.mark.django_db


def test_round_create_makes_tables_with_draft_protocols_holding_the_seats(two_tables):
    game = two_tables["game1"]
    assert game.label == "Q1-T1" and game.status == GameStatus.DRAFT
    assert [s.player for s in game.seats.all()] == NICKS_1
    assert game.judge == "TableJudge" and game.version == 1
    assert game.versions.get().action == "created"


def test_round_create_refuses_a_player_seated_twice_and_a_short_table(tournament, staff):
    for nickname in [*NICKS_1, *[f"Z{n}" for n in range(8)]]:
        registration_add(tournament=tournament, nickname=nickname, by=staff["organiser"])
    with pytest.raises(ValidationError) as caught:
        round_create(
            tournament=tournament,
            stage="qualifying",
            number=2,
            tables=[
                TablePlan(number=1, judge=None, players=tuple(NICKS_1)),
                TablePlan(number=2, judge=None, players=("ALPHA3", *[f"Z{n}" for n in range(8)])),
            ],
            by=staff["chief"],
        )
    text = " ".join(caught.value.messages)
    assert "Alpha3 is already seated at table 1" in text
    assert "a table has 10 players, not 9" in text


def test_a_table_seat_cannot_hold_somebody_who_is_no_participant(tournament, staff):
    for nickname in NICKS_1[:9]:
        registration_add(tournament=tournament, nickname=nickname, by=staff["organiser"])
    with pytest.raises(ValidationError) as caught:
        round_create(
            tournament=tournament,
            stage="qualifying",
            number=1,
            tables=[TablePlan(number=1, judge=None, players=(*NICKS_1[:9], "Nobody Here"))],
            by=staff["chief"],
        )
    assert caught.value.messages == [
        "Table 1, seat 10: Nobody Here is not a participant of this tournament."
    ]
    assert not tournament.rounds.exists()


def test_a_table_seat_holds_the_participant_in_his_own_spelling(tournament, staff):
    names = ["Кэп", "Шахматист", *[f"P{n}" for n in range(8)]]
    for nickname in names:
        registration_add(tournament=tournament, nickname=nickname, by=staff["organiser"])
    typed = ["кэп", "ШАХМАТИСТ", *[f"p{n}" for n in range(8)]]
    round_ = round_create(
        tournament=tournament,
        stage="qualifying",
        number=1,
        tables=[TablePlan(number=1, judge=None, players=tuple(typed))],
        by=staff["chief"],
    )
    table = round_.tables.get()
    assert [s.player for s in table.seats.all()] == names
    assert [s["player"] for s in table.game.versions.get().data["seats"]] == names


def test_a_protocol_seat_cannot_hold_a_non_participant_and_keeps_the_participants_spelling(
    two_tables,
):
    game, judge = two_tables["game1"], two_tables["judge"]
    data = complete_data(game)
    data["seats"][1]["player"] = "Nobody Here"
    data["seats"][2]["player"] = "alpha3"
    with pytest.raises(ProtocolInvalid) as caught:
        protocol_save(game=game, data=data, by=judge, base_version=1)
    assert [(p.seat, p.field) for p in caught.value.problems] == [(2, "player")]
    assert problem_text(caught.value.problems[0]) == (
        "Nobody Here is not a participant of this tournament"
    )
    data["seats"][1]["player"] = "ALPHA2"
    protocol_save(game=game, data=data, by=judge, base_version=1)
    game.refresh_from_db()
    assert [s.player for s in game.seats.all()][:3] == ["Alpha1", "Alpha2", "Alpha3"]
    assert all(s.registration is not None for s in game.seats.all())


def test_a_judge_saves_a_draft_then_submits_and_the_chief_confirms(two_tables):
    game, judge, chief = two_tables["game1"], two_tables["judge"], two_tables["chief"]
    protocol_save(game=game, data=complete_data(game, winner=None), by=judge, base_version=1)
    game.refresh_from_db()
    assert game.status == GameStatus.DRAFT and game.version == 2
    protocol_save(game=game, data=complete_data(game), by=judge, base_version=2, submit=True)
    game.refresh_from_db()
    assert game.status == GameStatus.SUBMITTED and game.submitted_at is not None
    tournament = game.tournament
    assert core_tournament_of(tournament).games == ()
    assert [g.id for g in core_tournament_of(tournament, provisional=True).games] == ["Q1-T1"]
    protocol_confirm(game=game, by=chief)
    game.refresh_from_db()
    assert game.status == GameStatus.CONFIRMED and game.confirmed_by == chief
    assert [g.id for g in core_tournament_of(tournament).games] == ["Q1-T1"]
    assert list(game.versions.values_list("action", flat=True)) == [
        "created",
        "saved",
        "submitted",
        "confirmed",
    ]


def test_submitting_an_invalid_protocol_lists_every_problem_and_saves_nothing(two_tables):
    game = two_tables["game1"]
    data = complete_data(game, judge_extra=[{"seat": 5, "points": 0.5, "reason": "x"}])
    data["seats"][0]["role"] = "black"
    with pytest.raises(ProtocolInvalid) as caught:
        protocol_save(game=game, data=data, by=two_tables["judge"], base_version=1, submit=True)
    fields = {p.field for p in caught.value.problems}
    assert {"role", "judge_extra"} <= fields
    game.refresh_from_db()
    assert game.version == 1 and game.status == GameStatus.DRAFT


def test_the_judge_of_table_2_cannot_edit_table_1(two_tables):
    game = two_tables["game1"]
    with pytest.raises(PermissionDenied):
        protocol_save(game=game, data=complete_data(game), by=two_tables["judge2"], base_version=1)
    assert game.versions.count() == 1


def test_a_player_cannot_confirm(two_tables):
    game = two_tables["game1"]
    protocol_save(
        game=game, data=complete_data(game), by=two_tables["judge"], base_version=1, submit=True
    )
    with pytest.raises(PermissionDenied):
        protocol_confirm(game=game, by=two_tables["alpha1"])
    game.refresh_from_db()
    assert game.status == GameStatus.SUBMITTED


def test_a_confirmed_protocol_is_changed_only_by_the_chief_as_a_new_version(two_tables):
    game, judge, chief = two_tables["game1"], two_tables["judge"], two_tables["chief"]
    protocol_save(game=game, data=complete_data(game), by=judge, base_version=1, submit=True)
    protocol_confirm(game=game, by=chief)
    game.refresh_from_db()
    with pytest.raises(PermissionDenied):
        protocol_save(game=game, data=complete_data(game, winner="black"), by=judge, base_version=3)
    before = game.versions.get(number=3).data
    protocol_save(
        game=game,
        data=complete_data(game, judge_extra=[]),
        by=chief,
        base_version=3,
        reason="extra points withdrawn",
    )
    game.refresh_from_db()
    assert game.status == GameStatus.CONFIRMED and game.version == 4
    assert game.versions.get(number=3).data == before
    latest = game.versions.get(number=4)
    assert latest.action == "changed" and latest.reason == "extra points withdrawn"
    assert core_tournament_of(game.tournament).games[0].judge_extra == ()


def test_the_second_of_two_judges_saving_at_once_is_told_the_protocol_changed(two_tables):
    game, judge, chief = two_tables["game1"], two_tables["judge"], two_tables["chief"]
    protocol_save(game=game, data=complete_data(game, winner="red"), by=judge, base_version=1)
    with pytest.raises(ProtocolChanged) as caught:
        protocol_save(game=game, data=complete_data(game, winner="black"), by=chief, base_version=1)
    assert caught.value.current_version == 2
    game.refresh_from_db()
    assert game.winner == "red"
    assert ProtocolVersion.objects.filter(game=game).count() == 2


def test_a_replayed_game_keeps_only_its_removal_penalties(two_tables):
    game, judge, chief = two_tables["game1"], two_tables["judge"], two_tables["chief"]
    data = complete_data(game, disqualified=[{"seat": 4, "reason": "insult", "online": False}])
    protocol_save(game=game, data=data, by=judge, base_version=1, submit=True)
    protocol_confirm(game=game, by=chief)
    game_mark_replayed(game=game, by=chief, replay=two_tables["game2"], reason="server crash")
    game.refresh_from_db()
    assert game.replayed and game.replay == two_tables["game2"]
    assert game.versions.last().action == "replayed"
    core = core_tournament_of(game.tournament)
    assert core.games[0].replayed
    from mafiatab.core.standings import compute_standings

    rows = {r.player: r for r in compute_standings(core).rows}
    assert rows["Alpha4"].total == rows["Alpha4"].extra < 0
    assert rows["Alpha3"].total == 0


def test_a_rename_to_a_seated_nickname_gives_no_seat_and_no_protest(two_tables):
    from mafiatab.accounts.services import profile_update
    from mafiatab.games.services import protest_file

    game, outsider = two_tables["game1"], two_tables["outsider"]
    protocol_save(
        game=game, data=complete_data(game), by=two_tables["judge"], base_version=1, submit=True
    )
    profile_update(user=outsider, nickname="alpha2", city="", club="")  # nobody's account
    game.refresh_from_db()
    assert game.seat_of_user(outsider) is None
    assert game.seat_of_user(two_tables["alpha1"]) == 1
    with pytest.raises(PermissionDenied):
        protest_file(game=game, by=outsider, text="my seat")


def test_a_player_removed_later_keeps_his_seat_when_the_protocol_changes(two_tables):
    from mafiatab.registrations.services import registration_remove

    game, chief = two_tables["game1"], two_tables["chief"]
    protocol_save(game=game, data=complete_data(game), by=chief, base_version=1, submit=True)
    protocol_confirm(game=game, by=chief)
    alpha2 = game.tournament.registrations.get(nickname="Alpha2")
    registration_remove(registration=alpha2, by=two_tables["organiser"], reason="conduct")
    game.refresh_from_db()
    changed = complete_data(game, date="2026-03-02")
    protocol_save(game=game, data=changed, by=chief, base_version=game.version, reason="date")
    game.refresh_from_db()
    assert game.status == GameStatus.CONFIRMED
    assert [s.player for s in game.seats.all()][1] == "Alpha2"
    other = two_tables["game2"]
    data = complete_data(other)
    data["seats"][0]["player"] = "Alpha2"  # no longer a participant: no new seat
    with pytest.raises(ProtocolInvalid):
        protocol_save(game=other, data=data, by=chief, base_version=1)


def test_saving_a_protocol_unchanged_stores_no_new_version(two_tables):
    game, judge = two_tables["game1"], two_tables["judge"]
    protocol_save(game=game, data=complete_data(game, winner=None), by=judge, base_version=1)
    game.refresh_from_db()
    seats = [s.pk for s in game.seats.all()]
    again = complete_data(game, winner=None) | {"date": "2026-03-01", "judge_extra": []}
    again["judge_extra"] = complete_data(game)["judge_extra"]
    kept = protocol_save(game=game, data=again, by=judge, base_version=2)
    game.refresh_from_db()
    assert kept.number == 2 and game.version == 2
    assert [s.pk for s in game.seats.all()] == seats
    protocol_save(game=game, data=again, by=judge, base_version=2, submit=False)
    assert ProtocolVersion.objects.filter(game=game).count() == 2
    protocol_save(game=game, data=complete_data(game), by=judge, base_version=2, submit=True)
    game.refresh_from_db()
    assert game.version == 3 and game.status == GameStatus.SUBMITTED
