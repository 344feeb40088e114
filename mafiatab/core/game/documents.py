"""The documents of a game's state: what the CLI, the console, the board and the
tournament file read (game-log.md). The state holds the game; these functions say
it, each for its reader.

- `replay_json(state)`: the `mafiatab game replay --json` document;
- `public_json(state)`: what a spectator may see (no role, no night secret before the end);
- `judge_json(state)`: everything, secrets included;
- `protocol(state)`: a finished game's protocol, a game of the tournament file.
"""

from __future__ import annotations

from typing import Any

from mafiatab.core.game.event_records import EventType
from mafiatab.core.game.state import GameState

__all__ = ["judge_json", "protocol", "public_json", "replay_json"]

#: Event types whose being expected tells a secret (whether the don or sheriff is alive).
_SECRET = frozenset({EventType.DON_CHECK, EventType.SHERIFF_CHECK})


def replay_json(state: GameState) -> dict[str, Any]:
    """The `mafiatab game replay --json` document (game-log.md)."""
    data: dict[str, Any] = {
        "finished": state.is_finished(),
        "winner": state.winner.value if state.winner else None,
        "phase": state.phase.to_json(),
        "alive": list(state.alive),
        "left": [d.to_json() for d in state.left],
        "fouls": {str(n): f for n, f in enumerate(state.fouls, start=1) if f},
    }
    if state.is_finished():
        data["protocol"] = protocol(state)
    return data


def public_json(state: GameState, *, reveal: bool = True) -> dict[str, Any]:
    """What a spectator may see: `replay_json` and the open facts of the day
    (nominations, votes, speeches, best move, expected events), no role and no night
    secret before the end (the protocol, with the roles, only once finished). The
    checks are left out of `expects` and of the count of `events` until the end:
    whether the don or the sheriff may still check would tell who they are.

    `reveal=False` keeps the secrets after the end too (the winner is told, the
    protocol, the nights and the checks are not): for spectators from whom the
    results of the game are withheld."""
    data = replay_json(state)
    revealed = state.is_finished() and reveal
    if not revealed:
        data.pop("protocol", None)
    data.update(
        events=state.events if revealed else state.events - state.checks,
        table=state.settings.code,
        seats=list(state.log.seats),
        voting=state.voting.to_json(),
        blocks=[b.public_json() for b in state.voting_blocks()],
        speeches=[s.to_json() for s in state.speech_order()],
        defence=[s.to_json() for s in state.defence_order()],
        lost_speech=[{"seat": s, "day": d} for s, d in state.lost_speech],
        first_killed=state.first_killed,
        last_word=list(state.last_word),
        best_move=list(state.best_move),
        best_move_open=state.best_move_open,
        expects=[t.value for t in state.expects() if revealed or t not in _SECRET],
    )
    if state.is_finished():
        data["end"] = _end(state)
    if revealed:
        data["nights"] = [n.to_json() for n in state.nights]
    return data


def judge_json(state: GameState) -> dict[str, Any]:
    """Everything, secrets included: `public_json` with the roles and the nights."""
    data = public_json(state)
    data["roles"] = [r.value for r in state.roles]
    data["nights"] = [n.to_json() for n in state.nights]
    data["end"] = _end(state)
    data["events"] = state.events
    data["settings"] = state.settings.to_json()
    return data


def protocol(state: GameState) -> dict[str, Any]:
    """The finished game's protocol, a game of the tournament file (game-log.md).

    ValueError while the game runs.
    """
    if state.winner is None:
        raise ValueError("the game is not finished")
    log = state.log
    data: dict[str, Any] = {}
    if log.id is not None:
        data["id"] = log.id
    data["stage"] = log.stage.value if log.stage else "qualifying"
    for key, value in (
        ("round", log.round),
        ("table", log.table_number),
        ("date", log.date),
        ("judge", log.judge),
    ):
        if value is not None:
            data[key] = value
    data["seats"] = [
        {"player": player, "role": role.value, "fouls": fouls}
        for player, role, fouls in zip(log.seats, log.roles, state.fouls, strict=True)
    ]
    data["winner"] = state.winner.value
    data["first_killed"] = state.first_killed
    if state.best_move:
        data["best_move"] = list(state.best_move)
    if state.removals:
        data["disqualified"] = [
            {"seat": r.seat, "reason": r.reason, "online": r.online, "fined": r.fined}
            for r in state.removals
        ]
    data["voting"] = [b.to_json() for b in state.voting_blocks()]
    return data


def _end(state: GameState) -> str | None:
    return state.end.value if state.end is not None else None
