"""What one event did: who left, the voting block it recorded or decided, the voting
it cancelled, the end it brought. Read from the states before and after the event,
so that a log can be told as a game ("Vote: 4 — 6; 6 — 4. Seat 4 leaves.") without
deciding a rule again. Everything here is public: a spectator learns it at the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mafiatab.core.game.state import Departure, GameState, VotingBlock
from mafiatab.core.roles import Winner


@dataclass(frozen=True, slots=True)
class Effect:
    """The consequences of one event."""

    left: tuple[Departure, ...] = ()
    """The seats that left with the event (a vote, a lift, a single nominee at the
    night, the shot at the day, a removal), in order."""
    block: VotingBlock | None = None
    """The voting block the event recorded or decided (a vote, a lift, a single
    nominee at the night), with its result."""
    removed: int | None = None
    """The seat the event removed (a removal, a fourth foul; in his last word too)."""
    cancelled: int | None = None
    """The day whose voting the event cancelled (a removal, a fourth foul)."""
    winner: Winner | None = None
    """The result, when the event ended the game."""
    night_kill: bool | None = None
    """For a `day`: whether the shot killed (False: nobody was killed)."""

    def to_json(self) -> dict[str, Any]:
        """The effect as JSON."""
        return {
            "left": [d.to_json() for d in self.left],
            "block": self.block.public_json() if self.block else None,
            "removed": self.removed,
            "cancelled": self.cancelled,
            "winner": self.winner.value if self.winner else None,
            "night_kill": self.night_kill,
        }


def effect_of(before: GameState, after: GameState) -> Effect:
    """What the event between `before` and `after` did."""
    left = after.left[len(before.left) :]
    blocks_before, blocks_after = before.voting_blocks(), after.voting_blocks()
    block = None
    if len(blocks_after) > len(blocks_before):
        block = blocks_after[-1]
    elif blocks_after and len(blocks_after) == len(blocks_before):
        block = blocks_after[-1] if blocks_after[-1] != blocks_before[-1] else None
    cancelled = sorted(after.cancelled_days - before.cancelled_days)
    night_kill = None
    if before.phase.is_night() and after.phase.is_day():
        night_kill = any(d.phase.is_night() for d in left)
    removals = after.removals[len(before.removals) :]
    return Effect(
        left=left,
        block=block,
        removed=removals[0].seat if removals else None,
        cancelled=cancelled[0] if cancelled else None,
        winner=after.winner if after.winner is not None and before.winner is None else None,
        night_kill=night_kill,
    )
