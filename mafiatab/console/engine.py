"""The console's one door to the game engine (`mafiatab.core.game`).

The shell never decides a rule: it hands the engine the log document and shows
what comes back. Problems leave the engine as codes with parameters and are
translated here (`messages.problem_text`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mafiatab.console.messages import problem_text
from mafiatab.core import game as core_game
from mafiatab.core.game.guards import Refused
from mafiatab.core.game.log import MAX_EVENTS as MAX_EVENTS

FORMAT = core_game.FORMAT


@dataclass(frozen=True)
class Problem:
    """One reason the engine refused a log, in the reader's language."""

    code: str
    event: int | None
    """The number of the event at fault as the console's history shows it (None for
    the header, and for an event refused before it was logged: it has no number)."""
    message: str
    field: str = ""
    """The field at fault (`reason`, `roles.black`), when the engine names one."""


@dataclass(frozen=True)
class Replayed:
    """A replayed log: the game (its stack of states, one per event applied), or the
    problems that stopped it. Each event's candidates and effect are read from the
    states on either side of it, only for the events asked about."""

    game: core_game.Game | None
    """The game up to the last event applied; None when the header cannot be read."""
    problems: list[Problem]
    numbers: Sequence[int | None] | None = field(default=None, compare=False)
    """The number the history shows for each event replayed (None: the engine's own
    1-based positions)."""

    @property
    def state(self) -> core_game.GameState | None:
        """The state after the last event; None when the log did not replay."""
        return self.game.state if self.game is not None and not self.problems else None

    @property
    def applied(self) -> int:
        """How many events were applied (all of them, unless one was refused)."""
        return len(self.game) if self.game is not None else 0

    def candidates(self, number: int) -> tuple[int, ...]:
        """The seats a vote or lift at the event `number` (1-based) was about (the
        refused event's too: the state before it is known)."""
        if self.game is None or not 1 <= number <= len(self.game) + 1:
            return ()
        return self.game.state_at(number - 1).voting.candidates

    def effect(self, number: int) -> core_game.Effect | None:
        """What the event `number` (1-based) did; None for an event not applied."""
        if self.game is None or not 1 <= number <= len(self.game):
            return None
        return self.game.effect(number)

    def aside(
        self, count: int, event: dict[str, Any]
    ) -> tuple[tuple[int, ...], core_game.Effect | None]:
        """The candidates and the effect `event`, no longer in force (undone), had when
        it came after the first `count` events in force: how the history tells it."""
        if self.game is None or not 0 <= count <= len(self.game):
            return (), None
        before = self.game.state_at(count)
        try:
            after = core_game.step(before, core_game.parse_event(event, count + 1))
        except (core_game.GameLogError, Refused):
            return before.voting.candidates, None
        return before.voting.candidates, core_game.effect_of(before, after)


def document(header: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    """The log document of `header` with `events`."""
    return {**header, "events": list(events)}


def _numbered(
    problem: core_game.GameProblem, numbers: Sequence[int | None] | None
) -> core_game.GameProblem:
    """The problem naming its event by the number the history shows: the engine counts
    the events in force, the history every entry (the undone events and the undos
    too). An event past those numbered (one refused, never logged) has no number."""
    if numbers is None or problem.event is None:
        return problem
    number = numbers[problem.event - 1] if 1 <= problem.event <= len(numbers) else None
    return core_game.GameProblem(
        problem.code, problem.params, number, problem.event_type, problem.field
    )


def _problems(
    problems: list[core_game.GameProblem], numbers: Sequence[int | None] | None = None
) -> list[Problem]:
    located = [_numbered(p, numbers) for p in problems]
    return [
        Problem(
            code=p.code,
            event=p.event,
            message=problem_text(p),
            field=str(p.field or p.params.get("field") or ""),
        )
        for p in located
    ]


def replay(
    header: dict[str, Any],
    events: list[dict[str, Any]],
    numbers: Sequence[int | None] | None = None,
) -> Replayed:
    """Replay a log, event by event; the game after its last event, or why it cannot
    be replayed (with the game up to the refused event). `numbers`: the number the
    history shows for each event (its entry's), which a problem names; without them,
    the event's position among `events`."""
    game: core_game.Game | None = None
    try:
        log = core_game.parse_log(document(header, events))
        game = core_game.Game(log.with_events(()))
        for event in log.events:
            game.apply(event)
    except core_game.GameLogError as exc:
        return Replayed(game=game, problems=_problems(exc.problems, numbers), numbers=numbers)
    return Replayed(game=game, problems=[], numbers=numbers)


def refusal(replayed: Replayed, event: dict[str, Any]) -> list[Problem]:
    """Why `event` cannot come after the replayed log: its shape, or the rules (one
    step of the engine); the log's own problems if it does not replay; [] if it may.
    A log replayed with the history's numbers names the refused event by its type
    alone: it was never logged, so the history has no number for it."""
    if replayed.game is None or replayed.problems:
        return replayed.problems
    try:
        parsed = core_game.parse_event(event, replayed.applied + 1)
    except core_game.GameLogError as exc:
        return _problems(exc.problems, replayed.numbers)
    problem = replayed.game.check(parsed)
    return [] if problem is None else _problems([problem], replayed.numbers)


def is_finished(state: core_game.GameState) -> bool:
    return state.is_finished()


def protocol_of(state: core_game.GameState) -> dict[str, Any]:
    """The finished game's protocol (the tournament file's game, with `voting`)."""
    return core_game.protocol(state)


def seats_at_first_night(state: core_game.GameState) -> list[int]:
    """The seats still in the game when the first night fell (those the first-killed
    player may name in his best move): all but the ones who left on day 1."""
    gone = {d.seat for d in state.left if d.phase.is_day() and d.phase.number == 1}
    return [seat for seat in range(1, 11) if seat not in gone]


def state_json(state: core_game.GameState, *, public: bool, reveal: bool = True) -> dict[str, Any]:
    """The state as JSON: without anything that reveals a role when `public` (after
    the end too, unless `reveal`)."""
    if public:
        return core_game.public_json(state, reveal=reveal)
    # The judge may be offered every expected event, the checks included (the
    # public `expects` leaves them out: they tell whether the don or sheriff is alive).
    return core_game.judge_json(state) | {"expects": [t.value for t in state.expects()]}
