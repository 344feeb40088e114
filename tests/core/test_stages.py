"""The stage plan (stages.md): reading, checking and writing it."""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

from mafiatab.core.advancing import advance
from mafiatab.core.problems import TournamentFileError
from mafiatab.core.roles import Stage
from mafiatab.core.stages import PointsMode, StagePlan, StageSpec, plan_seating_problems
from mafiatab.core.standings import compute_standings
from mafiatab.core.tournament_file import dumps_tournament, parse_tournament, tournament_to_dict

from .factories import extra, game, tournament

FULL = [
    {"stage": "qualifying", "games": 10},
    {"stage": "semifinal", "players": 20, "games": 2},
    {"stage": "final", "players": 10, "games": 10, "points": "reset", "hide_extras": True},
]


def _codes(raw: object) -> list[tuple[str, str]]:
    with pytest.raises(TournamentFileError) as info:
        StagePlan.parse(raw)
    return [(p.field, p.code) for p in info.value.problems]


def test_a_full_plan_is_read_and_written_back_unchanged():
    plan = StagePlan.parse(FULL)
    assert plan.spec(Stage.FINAL) == StageSpec(
        Stage.FINAL, games=10, players=10, points=PointsMode.RESET, hide_extras=True
    )
    assert plan.next_stage(Stage.QUALIFYING) is Stage.SEMIFINAL
    assert plan.next_stage(Stage.SEMIFINAL) is Stage.FINAL
    assert plan.next_stage(Stage.FINAL) is None
    assert plan.previous_stage(Stage.FINAL) is Stage.SEMIFINAL
    assert plan.to_json() == [
        FULL[0],
        {**FULL[1], "points": "carry", "hide_extras": False},
        FULL[2],
    ]
    assert StagePlan.parse(plan.to_json()) == plan


def test_games_before_final_are_the_qualifying_and_semifinal_games():
    assert StagePlan.parse(FULL).games_before_final() == 12
    assert StagePlan.parse([{"stage": "qualifying", "games": 7}]).games_before_final() == 7


def test_the_final_has_ten_players_unless_set():
    plan = StagePlan.parse([{"stage": "qualifying", "games": 5}, {"stage": "final", "games": 10}])
    spec = plan.spec(Stage.FINAL)
    assert spec is not None and spec.players == 10 and spec.points is PointsMode.CARRY
    assert plan.spec(Stage.SEMIFINAL) is None


def test_a_plan_out_of_order_or_with_a_stage_twice_is_refused_one_line_per_fault():
    assert _codes(
        [
            {"stage": "qualifying", "games": 10},
            {"stage": "final", "players": 10, "games": 5},
            {"stage": "semifinal", "players": 20, "games": 0},
        ]
    ) == [
        ("stages[3].games", "number.below_one"),
        ("stages[3].stage", "stages.order"),
    ]
    assert _codes([{"stage": "qualifying", "games": 1}, {"stage": "qualifying", "games": 1}]) == [
        ("stages[2].stage", "stages.twice")
    ]
    assert _codes([{"stage": "final", "games": 1}]) == [
        ("stages[1].stage", "stages.first_not_qualifying")
    ]


def test_players_must_be_whole_tables_and_no_more_than_the_stage_before():
    assert _codes(
        [
            {"stage": "qualifying", "games": 10},
            {"stage": "semifinal", "players": 15, "games": 2},
            {"stage": "final", "players": 30, "games": 10},
        ]
    ) == [
        ("stages[2].players", "stages.players_tables"),
        ("stages[3].players", "stages.final_players"),
    ]
    assert _codes(
        [
            {"stage": "qualifying", "games": 10},
            {"stage": "semifinal", "players": 10, "games": 2},
            {"stage": "final", "players": 20, "games": 10},
        ]
    ) == [("stages[3].players", "stages.players_above_before")]
    assert _codes([{"stage": "qualifying", "games": 1}, {"stage": "semifinal", "games": 1}]) == [
        ("stages[2].players", "field.missing")
    ]


def test_wrong_types_are_named_each():
    assert _codes(
        [
            {"stage": "qualifying", "games": "10", "players": 10},
            {"stage": "finale", "games": 2**40, "points": "keep", "hide_extras": "yes"},
        ]
    ) == [
        ("stages[1].games", "type.integer"),
        ("stages[1].players", "stages.first_players"),
        ("stages[2].stage", "value.choice"),
        ("stages[2].games", "number.too_large"),
        ("stages[2].points", "value.choice"),
        ("stages[2].hide_extras", "type.boolean"),
    ]
    assert _codes({"stage": "qualifying"}) == [("stages", "type.list")]
    assert _codes([]) == [("stages", "stages.empty")]
    assert _codes([{}] * 4) == [("stages", "stages.too_many")]


# The plan in the tournament file

PLAN = [{"stage": "qualifying", "games": 10}, {"stage": "final", "players": 10, "games": 10}]


def test_a_file_with_a_plan_is_read_and_written_back():
    data = tournament(game("Q1"), game("F1", stage="final"), participants=100, stages=PLAN)
    read = parse_tournament(data)
    assert read.stages == StagePlan.parse(PLAN)
    written = tournament_to_dict(read)
    assert written["stages"] == [PLAN[0], {**PLAN[1], "points": "carry", "hide_extras": False}]
    assert parse_tournament(json.loads(dumps_tournament(read))) == read


def test_a_file_without_a_plan_writes_none():
    read = parse_tournament(tournament(game("Q1")))
    assert read.stages is None
    assert "stages" not in tournament_to_dict(read)


def test_the_plan_sets_b_of_8_6_unless_the_file_does():
    # Anna is killed first in a black win: i = 1; B = round(0.4 * 10) = 4 from the plan.
    games = [game("Q1", winner="black", first_killed=1), game("F1", stage="final")]
    planned = compute_standings(parse_tournament(tournament(*games, participants=100, stages=PLAN)))
    assert planned.compensation_b == 4
    assert planned.row("Anna").compensation == F(1, 10)
    set_in_file = tournament(*games, participants=100, stages=PLAN, games_before_final=2)
    assert compute_standings(parse_tournament(set_in_file)).compensation_b == 1
    assert (
        compute_standings(parse_tournament(tournament(*games, participants=100))).compensation_b
        == 0
    )


def test_a_refused_plan_refuses_the_file_with_every_problem():
    bad = [{"stage": "qualifying", "games": 0}, {"stage": "final", "players": 15, "games": 1}]
    with pytest.raises(TournamentFileError) as info:
        parse_tournament(tournament(game("Q1", best_move=[1]), stages=bad))
    found = [(p.game, p.field, p.code) for p in info.value.problems]
    assert (None, "stages[1].games", "number.below_one") in found
    assert (None, "stages[2].players", "stages.players_tables") in found
    assert ("Q1", "best_move", "best_move.without_first_killed") in found


def test_a_plan_of_the_wrong_type_is_refused_in_a_file_of_wrong_types():
    with pytest.raises(TournamentFileError) as info:
        parse_tournament(tournament(game("Q1", winner="nobody"), stages="final"))
    fields = [p.field for p in info.value.problems]
    assert "stages" in fields and "winner" in fields


def test_a_game_whose_stage_is_not_in_the_plan_is_refused_naming_the_game():
    with pytest.raises(TournamentFileError) as info:
        parse_tournament(tournament(game("Q1"), game("S1", stage="semifinal"), stages=PLAN))
    (found,) = info.value.problems
    assert (found.game, found.code) == ("S1", "stages.game_not_in_plan")
    assert str(found) == (
        "game S1, field stage: the stage semifinal of this game is not in the stage plan"
    )


# Standings with a plan

TWENTY = tuple(f"P{n:02}" for n in range(1, 21))


def _table(first: int) -> tuple[str, ...]:
    return TWENTY[first : first + 10]


def _final_tournament(points: str = "carry") -> dict:
    # Q1: P01-P10 red win, Q2: P11-P20 red win (P18-P20, black and don, lose). The
    # final: P01-P07 and P18-P20, a black win: P18-P20 win it; P01 gets 0.4 extra.
    finalists = (*TWENTY[:7], *TWENTY[17:])
    return tournament(
        game("Q1", players=_table(0), winner="red"),
        game("Q2", players=_table(10), winner="red"),
        game("F1", stage="final", players=finalists, winner="black", judge_extra=[extra(1, 0.4)]),
        participants=100,
        stages=[
            {"stage": "qualifying", "games": 1},
            {"stage": "final", "players": 10, "games": 1, "points": points},
        ],
    )


def test_the_finalists_rank_first_by_their_total_when_points_carry():
    standings = compute_standings(parse_tournament(_final_tournament()))
    order = [r.player for r in standings.rows]
    assert set(order[:10]) == {*TWENTY[:7], *TWENTY[17:]}
    assert [r.stage for r in standings.rows] == [Stage.FINAL] * 10 + [Stage.QUALIFYING] * 10
    assert order[0] == "P01"  # 1 + 0.4; every other finalist has 1
    # P08 and P09 won their qualifying game (1 point) but did not play the final: below
    # P18 who has 1 point too.
    assert standings.row("P08").rank > standings.row("P18").rank
    p01 = standings.row("P01")
    assert p01.by_stage == ((Stage.QUALIFYING, F(1)), (Stage.FINAL, F(2, 5)))
    assert p01.points_in(Stage.FINAL) == F(2, 5)
    assert p01.rank == 1
    row = standings.to_json()["standings"][0]
    assert row["stage"] == "final"
    assert row["by_stage"] == {"qualifying": 1.0, "final": 0.4}


def test_the_finalists_rank_by_the_final_alone_when_points_reset():
    standings = compute_standings(parse_tournament(_final_tournament("reset")))
    order = [r.player for r in standings.rows]
    # P18-P20 won the final (1 each, their total 1 too); P01 has 0.4 there (total 1.4)
    assert set(order[:3]) == {"P18", "P19", "P20"}
    assert order[3] == "P01"


def test_without_a_plan_the_order_is_the_8_8_chain_alone():
    data = _final_tournament()
    del data["stages"]
    standings = compute_standings(parse_tournament(data))
    assert all(r.stage is None and r.by_stage == () for r in standings.rows)
    assert "stages" not in standings.to_json()
    assert "stage" not in standings.to_json()["standings"][0]
    totals = [r.total for r in standings.rows]
    assert totals == sorted(totals, reverse=True)


def test_a_plan_advancing_more_players_than_the_participants_is_refused():
    with pytest.raises(TournamentFileError) as info:
        parse_tournament(
            tournament(
                game("Q1"),
                participants=15,
                stages=[*PLAN[:1], {"stage": "semifinal", "players": 20, "games": 2}],
            )
        )
    (found,) = info.value.problems
    assert (found.field, found.code) == ("stages[2].players", "stages.players_above_before")
    assert found.message == "20 players cannot advance from a stage of 15 players"


def _reset_semifinal(*, final_played: bool) -> dict:
    p = [f"P{n:02}" for n in range(1, 21)]
    games = [
        game("Q1", players=p[:10], winner="red", judge_extra=[extra(3, 0.5)]),
        game("Q2", players=p[10:], winner="red"),
        # S1, S2 black wins: P08-P10 and P18-P20 win; extras to losers.
        game(
            "S1",
            stage="semifinal",
            players=p[:10],
            winner="black",
            judge_extra=[extra(1, 0.4), extra(2, 0.1), extra(4, 0.05)],
        ),
        game(
            "S2",
            stage="semifinal",
            players=p[10:],
            winner="black",
            judge_extra=[extra(1, 0.3), extra(2, 0.2)],
        ),
    ]
    if final_played:
        finalists = ("P01", "P11", "P12", "P02", "P13", "P14", "P08", "P09", "P10", "P18")
        games.append(game("F1", stage="final", players=finalists, winner="red"))
    return tournament(
        *games,
        participants=100,
        stages=[
            {"stage": "qualifying", "games": 1},
            {"stage": "semifinal", "players": 20, "games": 1, "points": "reset"},
            {"stage": "final", "players": 10, "games": 2},
        ],
    )


def test_a_reset_stage_ranks_by_its_points_while_furthest_then_by_the_chain():
    before = compute_standings(parse_tournament(_reset_semifinal(final_played=False)))
    order = [r.player for r in before.rows]
    # P04 (0.05 in the semifinal, 1.05 in all) before P03 (0, 1.5 in all).
    assert order.index("P04") < order.index("P03")
    listed = advance(before, Stage.FINAL)
    assert set(listed.advanced) == {
        "P08",
        "P09",
        "P10",
        "P18",
        "P19",
        "P20",
        "P01",
        "P11",
        "P12",
        "P02",
    }
    assert listed.next_in_line() == "P04"
    after = compute_standings(parse_tournament(_reset_semifinal(final_played=True)))
    semifinal = [r.player for r in after.group(Stage.SEMIFINAL)]
    # The semifinal's players who did not advance: by the 8.8 chain now.
    assert semifinal.index("P03") < semifinal.index("P04")
    # The advance list still ranks the semifinal by its own points.
    again = advance(after, Stage.FINAL)
    entries = [e.player for e in again.entries]
    assert entries.index("P04") < entries.index("P03")


def test_a_plan_whose_games_differ_from_the_published_seating_before_the_final_is_refused():
    plan = StagePlan.parse(PLAN)
    published = {Stage.QUALIFYING: 3, Stage.FINAL: 1}
    (found,) = plan_seating_problems(plan, published)
    assert (found.field, found.code) == ("stages[1].games", "stages.games_not_published")
    assert found.params == {"value": 10, "published": 3}
    assert plan_seating_problems(plan, {Stage.QUALIFYING: 10, Stage.FINAL: 1}) == []
