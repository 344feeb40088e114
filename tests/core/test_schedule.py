"""Lateness measured from a round's start time."""

from __future__ import annotations

import datetime as dt

from mafiatab.core.schedule import minutes_late

START = dt.datetime(2026, 12, 5, 10, 0, tzinfo=dt.UTC)


def test_a_player_on_time_or_early_is_not_late():
    assert minutes_late(START, START) == 0
    assert minutes_late(START, START - dt.timedelta(minutes=3)) == 0


def test_every_minute_begun_after_the_start_counts():
    assert minutes_late(START, START + dt.timedelta(minutes=5)) == 5
    assert minutes_late(START, START + dt.timedelta(minutes=5, seconds=1)) == 6
    assert minutes_late(START, START + dt.timedelta(minutes=15, seconds=30)) == 16


def test_time_zones_do_not_change_the_minutes():
    moscow = dt.timezone(dt.timedelta(hours=3))
    arrived = dt.datetime(2026, 12, 5, 13, 7, tzinfo=moscow)
    assert minutes_late(START, arrived) == 7


def _file(schedule):
    from mafiatab.core.demo import demo_tournament
    from mafiatab.core.tournament_file import tournament_to_dict

    data = tournament_to_dict(demo_tournament())
    data["schedule"] = schedule
    return data


def test_the_tournament_file_keeps_the_schedule_both_ways():
    from mafiatab.core.tournament_file import parse_tournament, tournament_to_dict

    schedule = [
        {"stage": "qualifying", "round": 1, "starts_at": "2026-12-05T10:00:00+03:00"},
        {"stage": "final", "round": 1, "place": "Hall A", "link": "https://meet.example.org/f"},
    ]
    core = parse_tournament(_file(schedule))
    assert core.schedule[0].starts_at == dt.datetime(2026, 12, 5, 7, 0, tzinfo=dt.UTC)
    assert core.schedule[1].link == "https://meet.example.org/f"
    assert tournament_to_dict(core)["schedule"] == schedule


def test_a_file_without_a_schedule_is_written_without_one():
    from mafiatab.core.demo import demo_tournament
    from mafiatab.core.tournament_file import tournament_to_dict

    assert "schedule" not in tournament_to_dict(demo_tournament())


def test_a_schedule_with_a_naive_time_or_a_wrong_link_is_refused_naming_each():
    import pytest

    from mafiatab.core.tournament_file import TournamentFileError, parse_tournament

    schedule = [
        {"stage": "qualifying", "round": 1, "starts_at": "2026-12-05T10:00"},
        {"stage": "qualifying", "round": 2, "link": "javascript:alert(1)"},
        {"stage": "qualifying", "round": 2},
    ]
    with pytest.raises(TournamentFileError) as caught:
        parse_tournament(_file(schedule))
    codes = {(p.field, p.code) for p in caught.value.problems}
    assert codes == {
        ("schedule[1].starts_at", "datetime.not_iso"),
        ("schedule[2].link", "link.not_web"),
        ("schedule[3].round", "schedule.round_twice"),
    }


def test_a_schedule_of_the_wrong_shape_is_refused_with_its_place():
    import pytest

    from mafiatab.core.tournament_file import TournamentFileError, parse_tournament

    with pytest.raises(TournamentFileError) as caught:
        parse_tournament(_file([{"stage": "qualifying", "round": "one"}]))
    assert any(p.field.startswith("schedule[1]") for p in caught.value.problems)


def test_a_schedule_whose_round_starts_before_the_round_played_before_it_is_refused():
    import pytest

    from mafiatab.core.tournament_file import TournamentFileError, parse_tournament

    schedule = [
        {"stage": "qualifying", "round": 1, "starts_at": "2026-12-12T11:00:00+03:00"},
        {"stage": "qualifying", "round": 2, "starts_at": "2026-12-12T10:00:00+03:00"},
        {"stage": "final", "round": 1, "starts_at": "2026-12-13T10:00:00+03:00"},
    ]
    with pytest.raises(TournamentFileError) as caught:
        parse_tournament(_file(schedule))
    (found,) = caught.value.problems
    assert (found.field, found.code) == ("schedule[2].starts_at", "schedule.out_of_order")
    assert found.message == (
        "this round starts at 2026-12-12T10:00:00+03:00, not after schedule[1], a round "
        "played before it (2026-12-12T11:00:00+03:00): rounds follow each other in order"
    )


def test_rounds_out_of_order_are_found_across_stages_and_untimed_ones_ignored():
    from mafiatab.core.schedule import ScheduledRound, out_of_order

    def at(hour: int) -> dt.datetime:
        return dt.datetime(2026, 12, 12, hour, tzinfo=dt.UTC)

    q1 = ScheduledRound("qualifying", 1, at(10))
    q2 = ScheduledRound("qualifying", 2, None)
    q3 = ScheduledRound("qualifying", 3, at(14))
    final = ScheduledRound("final", 1, at(12))
    assert out_of_order([final, q3, q2, q1]) == [(q3, final)]
    assert out_of_order([q1, q2, q3]) == []
