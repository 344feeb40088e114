"""The voting of a day in a game's state: its nominations, its blocks (a vote, a
revote or a single nominee, each the protocol's `VotingRound` with the engine's
result) and where it stands."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from mafiatab.core.game.problems import seat_list
from mafiatab.core.protocol import VotingRound


@dataclass(frozen=True, slots=True)
class Nomination:
    """A seat nominated for the vote, and by whom."""

    seat: int
    """The nominee."""
    by: int
    """The nominating seat."""


class Outcome(Enum):
    """What a voting block came to."""

    LEAVES = "leaves"
    """The block's `seats` leave (the most votes, the lift, or a single nominee)."""
    REVOTE = "revote"
    """A tie: the block's `seats` go to a revote."""
    LIFT = "lift"
    """A revote tied the same `seats` again: the lift vote for them is due (its result
    is then the block's)."""
    NOBODY = "nobody"
    """Nobody leaves; `why` says why."""

    __hash__ = object.__hash__


#: Why nobody leaves by a block (`BlockResult.why`).
NOBODY_WHY = ("all_tied", "lift", "three_at_nine", "day1_single")


@dataclass(frozen=True, slots=True)
class BlockResult:
    """What a voting block came to, as the engine decided it."""

    outcome: Outcome
    """Who leaves, a revote, the lift due, or nobody."""
    seats: tuple[int, ...] = ()
    """The seats leaving, revoted or put to the lift vote."""
    why: str | None = None
    """For nobody leaving, one of `NOBODY_WHY`: every living player tied, the lift
    vote lost, three tied with nine alive (no lift vote), a single nominee on day 1."""

    def to_json(self) -> dict[str, Any]:
        """`{"outcome": "leaves", "seats": [4], "why": null}`."""
        return {"outcome": self.outcome.value, "seats": list(self.seats), "why": self.why}


@dataclass(frozen=True, slots=True)
class VotingBlock:
    """One block of the protocol's `voting` (a day's vote, a revote or a single
    nominee) as the engine decided it: the protocol's own record of the block
    (`VotingRound`, which the protocol validator reads too) and what it came to."""

    round: VotingRound
    """The block as the protocol records it (the engine always knows every nominator)."""
    result: BlockResult | None = None
    """What the block came to (not a field of the protocol's block)."""

    @property
    def day(self) -> int:
        """The day."""
        return self.round.day

    @property
    def nominees(self) -> tuple[int, ...]:
        """The candidates, in nomination order."""
        return self.round.nominees

    @property
    def votes(self) -> tuple[int, ...]:
        """Votes per candidate; empty for a single nominee."""
        return self.round.votes

    @property
    def nominated_by(self) -> tuple[int | None, ...]:
        """Who nominated each candidate."""
        return self.round.nominated_by

    @property
    def revote(self) -> bool:
        """A revote among tied players."""
        return self.round.revote

    @property
    def lift(self) -> int | None:
        """On a revote that tied the same seats again: the votes for all of them leaving."""
        return self.round.lift

    def lifted(self, votes: int, result: BlockResult) -> VotingBlock:
        """The block with the lift vote held: its votes and what it came to."""
        return VotingBlock(replace(self.round, lift=votes), result)

    def to_json(self) -> dict[str, Any]:
        """The protocol block, every key written."""
        return {
            "day": self.day,
            "nominees": list(self.nominees),
            "votes": list(self.votes),
            "nominated_by": list(self.nominated_by),
            "revote": self.revote,
            "lift": self.lift,
        }

    def public_json(self) -> dict[str, Any]:
        """The protocol block with its `result` (what a console or a board shows)."""
        data = self.to_json()
        data["result"] = self.result.to_json() if self.result else None
        return data


class VotingStatus(Enum):
    """Where the day's voting stands."""

    NONE = "none"
    """No voting today (day 1 with `day1_voting` off), or night."""
    OPEN = "open"
    """Nominations may come; no vote yet."""
    REVOTE = "revote"
    """A tie: a revote among the tied seats is due."""
    LIFT = "lift"
    """A revote tied the same seats again: the lift vote is due."""
    OVER = "over"
    """The voting has given its result."""
    CANCELLED = "cancelled"
    """Cancelled by a removal: nobody leaves by vote today."""


@dataclass(frozen=True, slots=True)
class Voting:
    """The voting of one day."""

    day: int
    """The day."""
    status: VotingStatus
    """Where it stands."""
    nominations: tuple[Nomination, ...] = ()
    """The day's nominations, in order."""
    candidates: tuple[int, ...] = ()
    """The seats of the next vote or lift (the nominees, or the tied seats)."""
    blocks: tuple[VotingBlock, ...] = ()
    """The day's votes so far."""

    def is_revote_due(self) -> bool:
        """True when a revote among `candidates` is due."""
        return self.status is VotingStatus.REVOTE

    def is_lift_due(self) -> bool:
        """True when the lift vote for `candidates` is due."""
        return self.status is VotingStatus.LIFT

    def is_cancelled(self) -> bool:
        """True when a removal cancelled the voting."""
        return self.status is VotingStatus.CANCELLED

    def nominated(self) -> tuple[int, ...]:
        """The nominated seats, in order."""
        return tuple(n.seat for n in self.nominations)

    def vote_due(self) -> tuple[str, dict[str, Any]] | None:
        """The vote still due before the night may come (a revote, a lift vote, or the
        vote on two or more nominees): a problem code and its parameters; None when
        the night may come."""
        if self.status is VotingStatus.REVOTE:
            return "night.revote_due", {"seats": seat_list(self.candidates)}
        if self.status is VotingStatus.LIFT:
            return "night.lift_due", {"seats": seat_list(self.candidates)}
        if self.status is VotingStatus.OPEN and len(self.nominations) >= 2:
            return "night.vote_due", {"count": len(self.nominations)}
        return None

    def to_json(self) -> dict[str, Any]:
        """The voting as JSON."""
        return {
            "day": self.day,
            "status": self.status.value,
            "nominations": [{"seat": n.seat, "by": n.by} for n in self.nominations],
            "candidates": list(self.candidates),
            "blocks": [b.to_json() for b in self.blocks],
        }
