"""Shared setup of the games tests: a tournament with two tables of a round."""

from __future__ import annotations

from typing import Any

import pytest

NICKS_1 = [f"Alpha{n}" for n in range(1, 11)]
NICKS_2 = [f"Bravo{n}" for n in range(1, 11)]
ROLES = ["red", "red", "sheriff", "red", "black", "red", "don", "red", "black", "red"]


def complete_data(game: Any, **changes: Any) -> dict[str, Any]:
    """A complete, valid protocol for `game` (red wins, best move with 2 blacks)."""
    players = [s.player for s in game.seats.all()]
    data = {
        "id": game.label,
        "stage": game.stage,
        "date": "2026-03-01",
        "judge": game.judge,
        "seats": [
            {"player": p, "role": r, "fouls": 0} for p, r in zip(players, ROLES, strict=True)
        ],
        "winner": "red",
        "first_killed": 1,
        "best_move": [5, 7, 2],
        "judge_extra": [{"seat": 3, "points": 0.3, "reason": "fine play", "chief_approved": False}],
        "voting": [{"day": 1, "nominees": [5, 9], "votes": [6, 4]}],
    }
    data.update(changes)
    return data


@pytest.fixture
def two_tables(tournament: Any, staff: dict[str, Any], make_user: Any) -> dict[str, Any]:
    """Round 1 of the qualifying stage: table 1 judged by `judge`, table 2 by `judge2`.
    The player `Alpha1` (an account) sits at seat 1 of table 1."""
    from mafiatab.games.services import TablePlan, round_create
    from mafiatab.registrations.services import registration_add
    from mafiatab.tournaments.models import StaffRole
    from mafiatab.tournaments.services import staff_assign

    judge2 = make_user("SecondJudge")
    staff_assign(
        tournament=tournament, user=judge2, role=StaffRole.TABLE_JUDGE, by=staff["organiser"]
    )
    alpha1 = make_user("Alpha1")
    registration_add(tournament=tournament, nickname="", user=alpha1, by=staff["organiser"])
    for nickname in [*NICKS_1[1:], *NICKS_2]:  # a seat holds a participant
        registration_add(tournament=tournament, nickname=nickname, by=staff["organiser"])
    round_ = round_create(
        tournament=tournament,
        stage="qualifying",
        number=1,
        tables=[
            TablePlan(number=1, judge=staff["judge"], players=tuple(NICKS_1)),
            TablePlan(number=2, judge=judge2, players=tuple(NICKS_2)),
        ],
        by=staff["chief"],
    )
    tables = list(round_.tables.all())
    return staff | {
        "judge2": judge2,
        "alpha1": alpha1,
        "round": round_,
        "game1": tables[0].game,
        "game2": tables[1].game,
    }
