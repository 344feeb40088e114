"""Nominations and votes of a protocol (9.5), and the rules they must follow.

The official protocol has columns for the voting rounds of the game: the seats
nominated, in nomination order, and the votes each got; a tie leads to a revote
among the tied players, written as a further block of the same day. This module
reads those blocks and checks them against the game rules (spec/game-rules.md),
collecting every problem like `validate_protocol` does.

Only what the protocol shows is checked: night kills after the first night are
not written in it, so "players alive" is an upper bound (ten, less those who left
by an earlier day's vote, less the first-night kill from day 2 on).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mafiatab.core.protocol import Protocol
from mafiatab.core.validation import Problem

#: Voting blocks on the official form.
MAX_VOTING_ROUNDS = 7


@dataclass(frozen=True, slots=True)
class VotingRound:
    """One voting block of the protocol: a day's vote or a revote."""

    day: int
    """The game day, 1 first."""
    nominees: tuple[int, ...]
    """Nominated seats, in nomination order (for a revote: the tied seats)."""
    votes: tuple[int, ...] = ()
    """Votes for each nominee, in the same order; empty when no vote was held."""
    nominated_by: tuple[int | None, ...] = ()
    """The seat that nominated each nominee (None where not written); empty if unknown."""
    revote: bool = False
    """A revote among the players tied in the block before, on the same day."""

    def leaver(self) -> int | None:
        """The seat that left by this vote: the single nominee with the most votes."""
        if not self.votes or len(self.votes) != len(self.nominees):
            return None
        top = max(self.votes)
        leaders = [seat for seat, n in zip(self.nominees, self.votes, strict=True) if n == top]
        return leaders[0] if len(leaders) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of the block."""
        data: dict[str, Any] = {"day": self.day, "nominees": list(self.nominees)}
        if self.votes:
            data["votes"] = list(self.votes)
        if self.nominated_by:
            data["nominated_by"] = list(self.nominated_by)
        if self.revote:
            data["revote"] = True
        return data


def _int_list(value: object, *, none_allowed: bool = False) -> tuple[Any, ...] | None:
    if value is None:
        return ()
    if not isinstance(value, list):
        return None
    for item in value:
        if item is None and none_allowed:
            continue
        if not isinstance(item, int) or isinstance(item, bool):
            return None
    return tuple(value)


def voting_from_list(data: object, game: str) -> tuple[tuple[VotingRound, ...], list[Problem]]:
    """Voting blocks from their JSON form, with the problems of its shape."""
    if data is None:
        return (), []
    if not isinstance(data, list):
        return (), [Problem(game, None, "voting", "expected a list of voting blocks")]
    rounds: list[VotingRound] = []
    problems: list[Problem] = []
    for index, item in enumerate(data, start=1):
        field = f"voting[{index}]"
        if not isinstance(item, dict):
            problems.append(Problem(game, None, field, "expected an object"))
            continue
        day = item.get("day")
        nominees = _int_list(item.get("nominees"))
        votes = _int_list(item.get("votes"))
        by = _int_list(item.get("nominated_by"), none_allowed=True)
        revote = item.get("revote", False)
        wrong = [
            name
            for name, ok in (
                ("day", isinstance(day, int) and not isinstance(day, bool)),
                ("nominees", nominees is not None),
                ("votes", votes is not None),
                ("nominated_by", by is not None),
                ("revote", isinstance(revote, bool)),
            )
            if not ok
        ]
        for name in wrong:
            problems.append(Problem(game, None, f"{field}.{name}", "has the wrong type"))
        if wrong:
            continue
        assert isinstance(day, int) and nominees is not None and votes is not None
        assert by is not None and isinstance(revote, bool)
        rounds.append(VotingRound(day, nominees, votes, by, revote))
    return tuple(rounds), problems


def voting_to_list(rounds: Sequence[VotingRound]) -> list[dict[str, Any]]:
    """The JSON form of voting blocks."""
    return [r.to_dict() for r in rounds]


@dataclass
class _Day:
    """What the blocks read so far tell about the current day."""

    day: int = 0
    nominators: dict[int, int] | None = None
    previous: VotingRound | None = None


def validate_voting(protocol: Protocol, rounds: Sequence[VotingRound]) -> list[Problem]:
    """Every problem of the voting blocks of `protocol`.

    Problems name the block as field `voting[N]` (N from 1) with a suffix for the
    part concerned (`.day`, `.nominees`, `.votes`, `.nominated_by`, `.revote`).
    """
    gid = protocol.id
    problems: list[Problem] = []
    if len(rounds) > MAX_VOTING_ROUNDS:
        problems.append(
            Problem(
                gid,
                None,
                "voting",
                f"the protocol has {MAX_VOTING_ROUNDS} voting blocks, not {len(rounds)}",
            )
        )
    left: set[int] = set()
    left_today: set[int] = set()
    state = _Day()
    for index, block in enumerate(rounds, start=1):
        field = f"voting[{index}]"
        if block.day < 1:
            problems.append(Problem(gid, None, f"{field}.day", f"days start at 1, not {block.day}"))
        elif block.day < state.day:
            problems.append(
                Problem(
                    gid,
                    None,
                    f"{field}.day",
                    f"day {block.day} comes after day {state.day}: blocks go in order",
                )
            )
        elif block.day > state.day:
            left |= left_today
            left_today = set()
            state = _Day(day=block.day, nominators={})
        gone = set(left)
        if block.day >= 2 and protocol.first_killed is not None:
            gone.add(protocol.first_killed)
        _check_block(protocol, block, field, state, gone, problems)
        leaver = block.leaver()
        if leaver is not None:
            left_today.add(leaver)
        state.previous = block
    return problems


def _check_block(
    protocol: Protocol,
    block: VotingRound,
    field: str,
    state: _Day,
    gone: set[int],
    problems: list[Problem],
) -> None:
    gid = protocol.id
    _check_revote(gid, block, field, state, problems)
    if not block.nominees:
        problems.append(Problem(gid, None, f"{field}.nominees", "no seat is nominated"))
    seen: set[int] = set()
    for seat in block.nominees:
        if not 1 <= seat <= 10:
            problems.append(
                Problem(gid, None, f"{field}.nominees", f"seat must be 1..10, not {seat}")
            )
            continue
        if seat in seen:
            problems.append(Problem(gid, seat, f"{field}.nominees", "the seat is nominated twice"))
        seen.add(seat)
        if seat in gone:
            problems.append(
                Problem(
                    gid,
                    seat,
                    f"{field}.nominees",
                    f"the player of seat {seat} has left the game before day {block.day}",
                )
            )
    _check_votes(gid, block, field, len(gone), problems)
    _check_nominators(gid, block, field, state, gone, problems)


def _check_revote(
    gid: str, block: VotingRound, field: str, state: _Day, problems: list[Problem]
) -> None:
    if not block.revote:
        return
    previous = state.previous
    if previous is None or previous.day != block.day:
        problems.append(
            Problem(gid, None, f"{field}.revote", "a revote follows a vote of the same day")
        )
        return
    outside = [seat for seat in block.nominees if seat not in previous.nominees]
    if outside:
        seats = ", ".join(map(str, outside))
        problems.append(
            Problem(
                gid,
                None,
                f"{field}.nominees",
                f"a revote is among the players of the vote before; seat {seats} was not one",
            )
        )


def _check_votes(
    gid: str, block: VotingRound, field: str, gone: int, problems: list[Problem]
) -> None:
    if not block.votes:
        return
    if len(block.votes) != len(block.nominees):
        problems.append(
            Problem(
                gid,
                None,
                f"{field}.votes",
                f"{len(block.nominees)} nominees need {len(block.nominees)} vote counts, "
                f"not {len(block.votes)}",
            )
        )
    for seat, count in zip(block.nominees, block.votes, strict=False):
        if count < 0:
            problems.append(
                Problem(gid, seat, f"{field}.votes", f"votes must be 0 or more, not {count}")
            )
    alive = 10 - gone
    total = sum(v for v in block.votes if v > 0)
    if total > alive:
        problems.append(
            Problem(
                gid,
                None,
                f"{field}.votes",
                f"{total} votes, but at most {alive} players are alive on day {block.day}",
            )
        )


def _check_nominators(
    gid: str,
    block: VotingRound,
    field: str,
    state: _Day,
    gone: set[int],
    problems: list[Problem],
) -> None:
    if not block.nominated_by:
        return
    name = f"{field}.nominated_by"
    if len(block.nominated_by) != len(block.nominees):
        problems.append(
            Problem(gid, None, name, "give one nominating seat for each nominee, or none")
        )
        return
    if block.revote:
        return
    nominators = state.nominators if state.nominators is not None else {}
    for nominee, by in zip(block.nominees, block.nominated_by, strict=True):
        if by is None:
            continue
        if not 1 <= by <= 10:
            problems.append(Problem(gid, None, name, f"seat must be 1..10, not {by}"))
            continue
        if by in gone:
            problems.append(
                Problem(gid, by, name, f"the player of seat {by} has left and cannot nominate")
            )
        if by in nominators:
            problems.append(
                Problem(
                    gid,
                    by,
                    name,
                    f"seat {by} already nominated seat {nominators[by]} on day {block.day}: "
                    f"a player nominates at most one player a day",
                )
            )
        else:
            nominators[by] = nominee
    state.nominators = nominators
