"""The engine: a log replayed event by event by the rules of `rules`.

`step(state, event)` gives the state after one event or refuses it; `replay`
folds a whole log; `Game` keeps a log and the stack of its states for a console
that appends (and undoes) events one at a time; `expected_types` (of `state`)
says which events the rules allow next.
A refused event leaves the state as it was.
"""

from __future__ import annotations

from dataclasses import replace

from mafiatab.core.game.effects import Effect, effect_of
from mafiatab.core.game.event_records import Event, EventType
from mafiatab.core.game.events import parse_event
from mafiatab.core.game.guards import Refused
from mafiatab.core.game.log import MAX_EVENTS, GameLog
from mafiatab.core.game.problems import GameLogError, GameProblem
from mafiatab.core.game.rules import FOUL_REMOVAL_REASON, apply_rules
from mafiatab.core.game.state import (
    GameState,
    Phase,
    PhaseKind,
    Voting,
    VotingStatus,
    expected_types,
)

__all__ = [
    "FOUL_REMOVAL_REASON",
    "Game",
    "Refused",
    "expected_types",
    "initial_state",
    "replay",
    "step",
]

#: Events that keep the best-move window open.
_WINDOW_KEEPERS = (EventType.FOUL, EventType.PAUSE)


def initial_state(log: GameLog) -> GameState:
    """The state at the start of day 1, after the zero night."""
    status = VotingStatus.OPEN if log.table.day1_voting else VotingStatus.NONE
    return GameState(
        log=log.with_events(()),
        events=0,
        phase=Phase(PhaseKind.DAY, 1),
        alive=tuple(range(1, 11)),
        fouls=(0,) * 10,
        voting=Voting(1, status),
        first_speaker=1,
    )


def step(state: GameState, event: Event) -> GameState:
    """The state after `event`; `Refused` if the rules do not allow it now."""
    if state.is_finished() and not (event.type is EventType.BEST_MOVE and state.best_move_open):
        raise Refused("game.finished")
    new = apply_rules(state, event)
    # Fouls and pauses may come inside the killed player's last word; anything else
    # closes it, and so does an end of the game that this event brings.
    window = new.best_move_open and (
        event.type is EventType.DAY
        or (event.type in _WINDOW_KEEPERS and not (new.is_finished() and not state.is_finished()))
    )
    checks = state.checks + (event.type in (EventType.DON_CHECK, EventType.SHERIFF_CHECK))
    return replace(new, events=state.events + 1, checks=checks, best_move_open=window)


def replay(log: GameLog, upto: int | None = None) -> GameState:
    """The state after the first `upto` events of `log` (all by default).

    Raises `GameLogError` naming the first refused event.
    """
    state = initial_state(log)
    events = log.events if upto is None else log.events[:upto]
    for index, event in enumerate(events, start=1):
        try:
            state = step(state, event)
        except Refused as exc:
            raise GameLogError([exc.problem(index, event)]) from None
    return state


class Game:
    """A game being played: its log and a stack of its states, one per event (the
    state before any event first), so that appending, checking and undoing an event
    each cost one step of the rules, never a replay."""

    def __init__(self, log: GameLog) -> None:
        """A game from a log; its events are replayed (`GameLogError` if one is refused)."""
        self._header = log.with_events(())
        self._events: list[Event] = []
        self._states: list[GameState] = [initial_state(log)]
        for event in log.events:
            self.apply(event)

    @property
    def state(self) -> GameState:
        """The state after every event."""
        return self._states[-1]

    @property
    def log(self) -> GameLog:
        """The log so far."""
        return self._header.with_events(tuple(self._events))

    def __len__(self) -> int:
        """How many events were applied."""
        return len(self._events)

    def state_at(self, count: int) -> GameState:
        """The state after the first `count` events (0: before any); IndexError beyond."""
        if not 0 <= count <= len(self._events):
            raise IndexError(count)
        return self._states[count]

    def effect(self, number: int) -> Effect:
        """What the event at 1-based position `number` did."""
        if not 1 <= number <= len(self._events):
            raise IndexError(number)
        return effect_of(self._states[number - 1], self._states[number])

    def check(self, event: Event) -> GameProblem | None:
        """The problem `event` would have as the next event; None if it is allowed."""
        try:
            step(self.state, event)
        except Refused as exc:
            return exc.problem(len(self._events) + 1, event)
        return None

    def apply(self, event: Event) -> GameState:
        """Append `event` and return the new state; `GameLogError` (and no change) if the
        rules refuse it."""
        count = len(self._events) + 1
        if count > MAX_EVENTS:
            problem = GameProblem(
                "log.too_many_events", {"max": MAX_EVENTS, "count": count}, count, event.type.value
            )
            raise GameLogError([problem])
        try:
            new = step(self.state, event)
        except Refused as exc:
            raise GameLogError([exc.problem(count, event)]) from None
        self._events.append(event)
        self._states.append(new)
        return new

    def append(self, data: object) -> GameState:
        """Read an event from its log form and apply it; `GameLogError` (and no change)
        for a malformed event or one the rules refuse, located at its position."""
        return self.apply(parse_event(data, len(self._events) + 1))

    def undo(self) -> GameState:
        """Drop the last event (nothing if there is none) and return the state before it."""
        if self._events:
            self._events.pop()
            self._states.pop()
        return self.state
