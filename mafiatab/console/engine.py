"""The console's one door to the game engine (`mafiatab.core.game`).

The shell never decides a rule: it hands the engine the log document and shows
what comes back. Problems leave the engine as codes with parameters and are
translated here (`messages.problem_text`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mafiatab.core import game as core_game
from mafiatab.core.game.log import MAX_EVENTS as MAX_EVENTS

FORMAT = core_game.FORMAT


@dataclass(frozen=True)
class Problem:
    """One reason the engine refused a log, in the reader's language."""

    code: str
    event: int | None
    """The 1-based number of the event at fault (None for the header)."""
    message: str
    field: str = ""
    """The field at fault (`reason`, `roles.black`), when the engine names one."""


@dataclass(frozen=True)
class Replayed:
    """A replayed log: its state, or the problems that stopped it."""

    state: core_game.GameState | None
    problems: list[Problem]
    candidates: list[tuple[int, ...]] = field(default_factory=list)
    """For each event replayed, the seats a vote or lift at that point was about."""
    effects: list[core_game.Effect] = field(default_factory=list)
    """For each event replayed, what it did (who left, the block it decided)."""


def document(header: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    """The log document of `header` with `events`."""
    return {**header, "events": list(events)}


def replay(header: dict[str, Any], events: list[dict[str, Any]]) -> Replayed:
    """Replay a log, event by event; the state after its last event, or why it cannot
    be replayed."""
    from mafiatab.console.messages import problem_text

    candidates: list[tuple[int, ...]] = []
    effects: list[core_game.Effect] = []
    try:
        log = core_game.parse_log(document(header, events))
        game = core_game.Game(log.with_events(()))
        for event in log.events:
            before = game.state
            candidates.append(before.voting.candidates)
            effects.append(core_game.effect_of(before, game.apply(event)))
    except core_game.GameLogError as exc:
        problems = [
            Problem(
                code=p.code,
                event=p.event,
                message=problem_text(p),
                field=str(p.field or p.params.get("field") or ""),
            )
            for p in exc.problems
        ]
        return Replayed(state=None, problems=problems, candidates=candidates, effects=effects)
    return Replayed(state=game.state, problems=[], candidates=candidates, effects=effects)


def is_finished(state: core_game.GameState) -> bool:
    return state.is_finished()


def protocol_of(state: core_game.GameState) -> dict[str, Any]:
    """The finished game's protocol (the tournament file's game, with `voting`)."""
    return state.protocol()


def state_json(state: core_game.GameState, *, public: bool, reveal: bool = True) -> dict[str, Any]:
    """The state as JSON: without anything that reveals a role when `public` (after
    the end too, unless `reveal`)."""
    if public:
        return state.public_json(reveal=reveal)
    # The judge may be offered every expected event, the checks included (the
    # public `expects` leaves them out: they tell whether the don or sheriff is alive).
    return state.judge_json() | {"expects": [t.value for t in state.expects()]}
