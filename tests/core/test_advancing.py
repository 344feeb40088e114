"""Advancing into the next stage, the qualification outlook, hidden extras (stages.md)."""

from __future__ import annotations

import itertools
from dataclasses import replace
from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from mafiatab.core.advancing import (
    Mark,
    advance,
    certain_mark,
    choosing_order,
    hidden_extras_games,
    max_gain,
    outlook,
    public_tournament,
    standings_json,
)
from mafiatab.core.regulations import get_regulation
from mafiatab.core.roles import Stage
from mafiatab.core.stages import StagePlan
from mafiatab.core.standings import Standing, Standings, compute_standings
from mafiatab.core.tournament_file import parse_tournament

from .factories import extra, game, tournament

PLAN = StagePlan.parse(
    [{"stage": "qualifying", "games": 2}, {"stage": "final", "players": 10, "games": 10}]
)


def _row(
    player: str,
    total: float,
    *,
    extra: float = 0,
    wins: int = 0,
    key_wins: int = 0,
    deaths: int = 0,
    games: int = 2,
) -> Standing:
    total_f = F(str(total))
    return Standing(
        rank=0,
        player=player,
        total=total_f,
        main=total_f - F(str(extra)),
        extra=F(str(extra)),
        penalties=F(0),
        compensation=F(0),
        wins=wins,
        wins_as_don_or_sheriff=key_wins,
        first_night_deaths=deaths,
        games=games,
        decided_by_lot=False,
        stage=Stage.QUALIFYING,
        by_stage=((Stage.QUALIFYING, total_f),),
        games_by_stage=((Stage.QUALIFYING, games),),
    )


def _standings(*rows: Standing, applies_k: bool = False) -> Standings:
    ranked = tuple(
        Standing(**{**{f: getattr(r, f) for f in Standing.__slots__}, "rank": i})
        for i, r in enumerate(rows, start=1)
    )
    return Standings("Cup", F(1), None, 0, ranked, (), plan=PLAN, applies_k=applies_k)


def _field(n: int = 14, **at_cut: Standing) -> list[Standing]:
    """n players with 2 - 0.1 * i points, i = 0..n-1, the given ones replacing theirs."""
    rows = [_row(f"P{i + 1:02}", round(2 - 0.1 * i, 1)) for i in range(n)]
    for name, row in at_cut.items():
        rows[int(name[1:]) - 1] = row
    return rows


def test_the_first_ten_advance():
    listed = advance(_standings(*_field()), Stage.FINAL)
    assert listed.source is Stage.QUALIFYING and listed.places == 10
    assert listed.advanced == tuple(f"P{i:02}" for i in range(1, 11))
    assert not any(e.remarks for e in listed.entries)
    assert listed.next_in_line() == "P11"
    assert listed.entries[0].to_json() == {
        "player": "P01",
        "rank": 1,
        "total": 2.0,
        "points": 2.0,
        "advances": True,
        "remarks": [],
    }


def test_withdrawn_and_removed_players_are_skipped_and_the_next_in_line_moves_up():
    listed = advance(_standings(*_field()), Stage.FINAL, withdrawn={"P02"}, removed={"P05"})
    assert listed.advanced == ("P01", "P03", "P04", "P06", "P07", "P08", "P09", "P10", "P11", "P12")
    remarks = {e.player: [r.code for r in e.remarks] for e in listed.entries if e.remarks}
    assert remarks == {"P02": ["advance.withdrawn"], "P05": ["advance.removed"]}
    assert listed.next_in_line() == "P13"


def test_a_tie_at_the_cut_settled_by_the_chain_names_the_clause_for_both_sides():
    rows = _field(P10=_row("P10", 1.1, extra=0.4, wins=1), P11=_row("P11", 1.1, extra=0.4, wins=0))
    listed = advance(_standings(*rows), Stage.FINAL)
    remarks = {
        e.player: [(r.code, dict(r.params)) for r in e.remarks] for e in listed.entries if e.remarks
    }
    assert remarks == {
        "P10": [("advance.tie_chain", {"clause": "8.8.2"})],
        "P11": [("advance.tie_chain", {"clause": "8.8.2"})],
    }
    assert "P10" in listed.advanced and "P11" not in listed.advanced
    (first,) = listed.entries[9].remarks
    assert first.message == "a tie at the cut, settled by 8.8.2"


def test_a_tie_at_the_cut_the_chain_cannot_break_is_settled_by_the_lot_for_the_whole_tie():
    rows = _field(
        P09=_row("P09", 1.1), P10=_row("P10", 1.1), P11=_row("P11", 1.1), P12=_row("P12", 1.1)
    )
    listed = advance(_standings(*rows), Stage.FINAL)
    lot = {e.player for e in listed.entries if [r.code for r in e.remarks] == ["advance.tie_lot"]}
    assert lot == {"P09", "P10", "P11", "P12"}
    assert {"P09", "P10"} <= set(listed.advanced)


def test_no_tie_remark_when_the_totals_at_the_cut_differ():
    rows = _field(P10=_row("P10", 1.15, extra=0.4))
    assert not any(e.remarks for e in advance(_standings(*rows), Stage.FINAL).entries)


# The outlook


def test_the_outlook_gives_places_margin_games_left_and_the_certain_marks():
    # Ten players far ahead with 1 game left: 2.1 is the most a game brings.
    rows = [_row(f"A{i}", 5, games=1) for i in range(10)]
    rows += [_row("B2", 2.8, games=1), _row("B1", 2.7, games=1)]
    view = outlook(_standings(*rows))
    assert set(view) == {r.player for r in rows}
    a0 = view["A0"]
    assert (a0.places, a0.games_left, a0.margin) == (10, 1, F(22, 10))
    # The nine others at 5 tie him already, but B2 reaches 4.9 at most: through.
    assert a0.mark is Mark.THROUGH
    assert view["B2"].mark is Mark.OUT  # 2.8 + 2.1 = 4.9 < 5
    assert view["B2"].margin == F(-22, 10)
    assert a0.to_json() == {"places": 10, "margin": 2.2, "games_left": 1, "mark": "through"}
    # B3 can reach 5.0: a tie counts against the ten for "through", for B3 for "out".
    view = outlook(_standings(*rows[:10], _row("B3", 2.9, games=1), *rows[10:]))
    assert view["A0"].mark is None and view["B3"].mark is None
    assert view["B1"].mark is Mark.OUT


def test_no_marks_where_8_7_applies_but_the_margin_still():
    rows = [_row(f"A{i}", 5, games=1) for i in range(10)] + [_row("B1", 1, games=1)]
    view = outlook(_standings(*rows, applies_k=True))
    assert view["A0"].mark is None and view["B1"].mark is None
    assert view["B1"].margin == F(-4)


def test_no_outlook_once_every_game_of_the_stage_is_played():
    rows = [_row(f"A{i}", 5, games=2) for i in range(12)]
    assert outlook(_standings(*rows)) == {}


def _brute_force(points: list[F], gains: list[F], places: int, index: int) -> tuple[bool, bool]:
    """(can miss the cut, can make it) when each player gains any of 0, a tenth, ..., his
    bound independently and a tie may go either way."""
    steps = [[F(k, 10) for k in range(int(g * 10) + 1)] for g in gains]
    can_miss = can_make = False
    for outcome in itertools.product(*steps):
        final = [p + g for p, g in zip(points, outcome, strict=True)]
        mine = final[index]
        above = sum(1 for j, v in enumerate(final) if j != index and v > mine)
        at_or_above = sum(1 for j, v in enumerate(final) if j != index and v >= mine)
        if at_or_above >= places:
            can_miss = True
        if above < places:
            can_make = True
    return can_miss, can_make


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 12), min_size=3, max_size=5),
    st.lists(st.integers(0, 3), min_size=5, max_size=5),
    st.integers(1, 3),
)
def test_the_marks_agree_with_a_brute_force_on_small_cases(tenths, gain_tenths, places):
    points = [F(t, 10) for t in tenths]
    gains = [F(g, 10) for g in gain_tenths[: len(points)]]
    if places >= len(points):
        places = len(points) - 1
    for index in range(len(points)):
        can_miss, can_make = _brute_force(points, gains, places, index)
        mark = certain_mark(index, points, gains, places)
        assert (mark is Mark.THROUGH) == (not can_miss)
        assert (mark is Mark.OUT) == (not can_make)


def test_the_outlook_of_a_file_counts_the_games_left_of_each_player():
    players = tuple(f"P{n:02}" for n in range(1, 21))
    data = tournament(
        game("Q1", players=players[:10], winner="red"),
        game("Q2", players=players[10:], winner="black"),
        participants=100,
        stages=[{"stage": "qualifying", "games": 3}, {"stage": "final", "games": 10}],
    )
    standings = compute_standings(parse_tournament(data))
    view = outlook(standings)
    assert {o.games_left for o in view.values()} == {2}
    assert all(o.mark is None for o in view.values())
    rows = standings_json(standings)["standings"]
    assert rows[0]["outlook"]["places"] == 10 and rows[0]["outlook"]["games_left"] == 2


# Hidden extras


def _with_final_extra(hide: bool) -> dict:
    return tournament(
        game("Q1", judge_extra=[extra(1, 0.3)]),
        game("F1", stage="final", judge_extra=[extra(2, 0.5)]),
        participants=100,
        stages=[
            {"stage": "qualifying", "games": 1},
            {"stage": "final", "games": 1, "hide_extras": hide},
        ],
    )


def test_the_final_extras_are_hidden_until_the_tournament_is_closed():
    read = parse_tournament(_with_final_extra(hide=True))
    assert hidden_extras_games(read, closed=False) == {"F1"}
    assert hidden_extras_games(read, closed=True) == frozenset()
    public = compute_standings(public_tournament(read, closed=False))
    assert public.row("Boris").total == 2  # the 0.5 is not shown
    assert public.row("Anna").total == F(23, 10)  # the qualifying extra is
    assert compute_standings(public_tournament(read, closed=True)).row("Boris").total == F(5, 2)


def test_extras_are_shown_when_the_plan_does_not_hide_them():
    read = parse_tournament(_with_final_extra(hide=False))
    assert hidden_extras_games(read, closed=False) == frozenset()
    assert public_tournament(read, closed=False) is read


def test_the_bound_grows_with_the_compensation_still_to_come():
    row = _row("A", 1, games=1)
    regulation = get_regulation("fiim")
    assert max_gain(row, 2, regulation) == F(42, 10)
    # Two compensated games at 0.1 each can still rise to 0.4 each: 0.6 more.
    compensated = replace(row, compensation=F(1, 5), compensated_games=2)
    assert max_gain(compensated, 0, regulation) == F(3, 5)
    assert max_gain(compensated, 1, regulation) == F(27, 10)


def _semifinal_row(player: str, semifinal: float, before: float, **kw) -> Standing:
    row = _row(player, before + semifinal, **kw)
    return replace(
        row,
        stage=Stage.SEMIFINAL,
        by_stage=((Stage.QUALIFYING, F(str(before))), (Stage.SEMIFINAL, F(str(semifinal)))),
        games_by_stage=((Stage.QUALIFYING, 2), (Stage.SEMIFINAL, 2)),
    )


def test_from_a_reset_semifinal_the_points_before_settle_a_tie_at_the_cut():
    plan = StagePlan.parse(
        [
            {"stage": "qualifying", "games": 2},
            {"stage": "semifinal", "players": 20, "games": 2, "points": "reset"},
            {"stage": "final", "players": 10, "games": 10},
        ]
    )
    rows = [_semifinal_row(f"S{i:02}", 3 - 0.1 * i, 1) for i in range(1, 10)]
    rows += [_semifinal_row("S10", 1.5, 2.0), _semifinal_row("S11", 1.5, 1.0)]
    rows += [_semifinal_row(f"S{i:02}", 1, 1) for i in range(12, 21)]
    standings = _standings(*rows)
    standings = replace(standings, plan=plan)
    listed = advance(standings, Stage.FINAL)
    by_player = {e.player: e for e in listed.entries}
    assert by_player["S10"].advances and not by_player["S11"].advances
    assert by_player["S10"].points == F(3, 2) and by_player["S10"].total == F(7, 2)
    assert [r.code for r in by_player["S10"].remarks] == ["advance.tie_before"]
    assert [r.code for r in by_player["S11"].remarks] == ["advance.tie_before"]
    view = outlook(
        replace(
            standings,
            rows=tuple(replace(r, games_by_stage=((Stage.SEMIFINAL, 1),)) for r in standings.rows),
        )
    )
    assert view["S10"].margin == F(0) and view["S11"].margin == F(0)


def test_the_finalists_choose_their_seats_in_rank_order():
    rows = [replace(r, stage=Stage.FINAL) for r in _field(10)] + _field(3)
    assert choosing_order(_standings(*rows), Stage.FINAL) == tuple(r.player for r in rows[:10])
