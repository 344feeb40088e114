"""The stage plan (stages.md): reading, checking and writing it."""

from __future__ import annotations

import pytest

from mafiatab.core.problems import TournamentFileError
from mafiatab.core.roles import Stage
from mafiatab.core.stages import PointsMode, StagePlan, StageSpec

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
