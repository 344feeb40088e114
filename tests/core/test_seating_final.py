"""The final at one table (stages.md): seats and "right after" spread evenly."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mafiatab.core.seating import (
    SeatingError,
    after_counts,
    plan_final,
    seat_counts,
    williams_square,
)

FINALISTS = [f"F{n}" for n in range(1, 11)]


def test_the_williams_square_has_every_player_in_every_seat_and_after_every_other_once():
    square = williams_square()
    assert len(square) == 10
    for seat in range(10):
        assert sorted(game[seat] for game in square) == list(range(10))
    pairs = Counter((game[j + 1], game[j]) for game in square for j in range(9))
    assert len(pairs) == 90 and set(pairs.values()) == {1}


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**63 - 1))
def test_ten_games_are_a_williams_square_whatever_the_seed(seed):
    schedule = plan_final(FINALISTS, 10, seed=seed)
    assert len(schedule.rounds) == 10
    assert all(
        len(r.tables) == 1 and sorted(r.tables[0].seats) == sorted(FINALISTS)
        for r in schedule.rounds
    )
    assert all(row == [1] * 10 for row in seat_counts(FINALISTS, schedule.rounds).values())
    assert set(after_counts(FINALISTS, schedule.rounds).values()) == {1}
    after = schedule.metrics.after
    assert after is not None and (after.min, after.max, after.histogram) == (1, 1, (0, 90))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 60), st.integers(0, 2**32))
def test_any_number_of_games_keeps_the_specs_bounds(games, seed):
    schedule = plan_final(FINALISTS, games, seed=seed)
    low, high = games // 10, -(-games // 10)
    for row in seat_counts(FINALISTS, schedule.rounds).values():
        assert all(low <= count <= high for count in row)
    after_low, after_high = 9 * games // 90, -(-9 * games // 90)
    counts = after_counts(FINALISTS, schedule.rounds).values()
    assert all(after_low <= count <= after_high for count in counts)
    assert schedule.metrics.seat_balance_exact
    after = schedule.metrics.after
    assert after is not None and after_low <= after.min <= after.max <= after_high
    assert sum(after.histogram) == 90


def test_the_same_seed_gives_the_same_final_and_another_seed_another():
    first = plan_final(FINALISTS, 7, seed=5)
    assert plan_final(FINALISTS, 7, seed=5) == first
    assert plan_final(FINALISTS, 7, seed=6).rounds != first.rounds


def test_the_schedule_file_has_the_after_metrics():
    data = plan_final(FINALISTS, 10, seed=1).to_json()
    assert data["format"] == "mafiatab-seating/1"
    assert data["metrics"]["after"] == {"max": 1, "min": 1, "histogram": [0, 90]}
    assert data["metrics"]["tables"] == 1 and data["metrics"]["consecutive_same_table"] == 0


@pytest.mark.parametrize(
    ("players", "games", "code"),
    [
        (FINALISTS[:9], 10, "players.too_few"),
        ([*FINALISTS, "F11"], 10, "players.too_many"),
        ([*FINALISTS[:9], "F1"], 10, "players.twice"),
        (FINALISTS, 0, "games.below_one"),
        (FINALISTS, 61, "games.too_many"),
    ],
)
def test_wrong_inputs_are_refused_with_a_code(players, games, code):
    with pytest.raises(SeatingError) as info:
        plan_final(players, games)
    assert info.value.code == code
