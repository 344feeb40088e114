"""What every rule of an event stands on (`mafiatab.core.game.rules`): `Refused`, the
guards that refuse an event at the wrong time of the game or for a seat that is not in
it, and `leave`, how seats leave the game (its end checked once, after all of them).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from mafiatab.core.game.event_records import Event
from mafiatab.core.game.problems import GameProblem
from mafiatab.core.game.state import Departure, End, GameOutcome, GameState, How, Night, Phase
from mafiatab.core.roles import Team, Winner


class Refused(Exception):
    """An event the rules refuse: a problem code and its parameters."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def problem(self, index: int, event: Event) -> GameProblem:
        """The located problem."""
        return GameProblem(self.code, self.params, index, event.type.value)


def need_day(state: GameState) -> int:
    if not state.phase.is_day():
        raise Refused("game.day_only", night=state.phase.number)
    return state.phase.number


def need_night(state: GameState) -> Night:
    night = state.night
    if night is None:
        raise Refused("game.night_only", day=state.phase.number)
    return night


def need_alive(state: GameState, seat: int | None, field: str = "seat") -> int:
    if seat is None:
        raise Refused("event.missing", field=field)
    if not state.is_alive(seat):
        raise Refused("seat.not_alive", field=field, seat=seat)
    return seat


def leave(state: GameState, seats: Iterable[int], how: How, phase: Phase) -> GameState:
    """The seats leave; the end of the game is checked once, after all of them."""
    seats = tuple(seats)
    quiet = phase.number if phase.is_day() else phase.number + 1
    state = replace(
        state,
        alive=tuple(s for s in state.alive if s not in seats),
        left=state.left + tuple(Departure(s, how, phase) for s in seats),
        lost_speech=tuple(x for x in state.lost_speech if x[0] not in seats),
        quiet_since=quiet,
    )
    return _check_end(state)


def _check_end(state: GameState) -> GameState:
    black = len(state.team_alive(Team.BLACK))
    red = len(state.alive) - black
    if black == 0:
        return replace(state, outcome=GameOutcome(Winner.RED, End.NO_BLACK))
    if black >= red:
        return replace(state, outcome=GameOutcome(Winner.BLACK, End.BLACK_MAJORITY))
    return state
