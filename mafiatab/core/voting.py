"""Nominations and votes of a protocol (9.5), and the rules they must follow.

The official protocol has columns for the voting rounds of the game: the seats
nominated, in nomination order, and the votes each got; a tie leads to a revote
among the tied players, written as a further block of the same day, and a revote
that ties the same players again may end with the "lift" vote for all of them
leaving. A protocol's blocks are `Protocol.voting` (read by the one reader of
`mafiatab.core.records`); this module checks them against the game rules
(spec/game-rules.md), collecting every problem like `validate_protocol` does.

Only what the protocol shows is checked: night kills after the first night are
not written in it, so "players alive" is an upper bound (ten, less those who left
by an earlier day's vote, less the first-night kill from day 2 on).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mafiatab.core.problems import Problem, problem
from mafiatab.core.protocol import Protocol, VotingRound

__all__ = [
    "MAX_VOTING_ROUNDS",
    "VotingRound",
    "seats_left",
    "validate_voting",
    "voting_to_list",
]

#: Voting blocks on the official paper form (a protocol may record more).
MAX_VOTING_ROUNDS = 7


def voting_to_list(rounds: Sequence[VotingRound]) -> list[dict[str, Any]]:
    """The JSON form of voting blocks."""
    return [r.to_dict() for r in rounds]


def _lift_leavers(block: VotingRound, alive: int) -> tuple[int, ...]:
    """The seats a lift vote certainly removed: more than half of at most `alive`."""
    if block.lift is not None and block.is_tied_again() and 2 * block.lift > alive:
        return block.nominees
    return ()


def seats_left(protocol: Protocol) -> set[int]:
    """The seats the protocol records as having left the game: the first-night kill,
    the removals and every vote (or lift) that certainly removed a player."""
    left = {removal.seat for removal in protocol.disqualified}
    if protocol.first_killed is not None:
        left.add(protocol.first_killed)
    gone: set[int] = set()
    for block in protocol.voting:
        leaver = block.leaver()
        if leaver is not None:
            gone.add(leaver)
        alive = 10 - len(gone) - (protocol.first_killed is not None and block.day >= 2)
        gone.update(_lift_leavers(block, alive))
    return left | gone


@dataclass
class _Day:
    """What the blocks read so far tell about the current day."""

    day: int = 0
    nominators: dict[int, int] | None = None
    previous: VotingRound | None = None


def validate_voting(protocol: Protocol, rounds: Sequence[VotingRound]) -> list[Problem]:
    """Every problem of the voting blocks of `protocol`.

    Problems name the block as field `voting[N]` (N from 1) with a suffix for the
    part concerned (`.day`, `.nominees`, `.votes`, `.nominated_by`, `.revote`, `.lift`).
    """
    gid = protocol.id
    problems: list[Problem] = []
    left: set[int] = set()
    left_today: set[int] = set()
    state = _Day()
    for index, block in enumerate(rounds, start=1):
        field = f"voting[{index}]"
        if block.day < 1:
            problems.append(problem(gid, None, f"{field}.day", "voting.day_start", day=block.day))
        elif block.day < state.day:
            problems.append(
                problem(
                    gid,
                    None,
                    f"{field}.day",
                    "voting.day_order",
                    day=block.day,
                    previous=state.day,
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
        left_today.update(_lift_leavers(block, 10 - len(gone)))
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
        problems.append(problem(gid, None, f"{field}.nominees", "voting.no_nominee"))
    seen: set[int] = set()
    for seat in block.nominees:
        if not 1 <= seat <= 10:
            problems.append(problem(gid, None, f"{field}.nominees", "seat.range", value=seat))
            continue
        if seat in seen:
            problems.append(problem(gid, seat, f"{field}.nominees", "voting.nominated_twice"))
        seen.add(seat)
        if seat in gone:
            problems.append(
                problem(
                    gid, seat, f"{field}.nominees", "voting.nominee_left", seat=seat, day=block.day
                )
            )
    _check_votes(gid, block, field, len(gone), problems)
    _check_lift(gid, block, field, len(gone), problems)
    _check_nominators(gid, block, field, state, gone, problems)


def _check_revote(
    gid: str, block: VotingRound, field: str, state: _Day, problems: list[Problem]
) -> None:
    if not block.revote:
        return
    previous = state.previous
    if previous is None or previous.day != block.day:
        problems.append(problem(gid, None, f"{field}.revote", "voting.revote_without_vote"))
        return
    outside = [seat for seat in block.nominees if seat not in previous.nominees]
    if outside:
        problems.append(
            problem(
                gid,
                None,
                f"{field}.nominees",
                "voting.revote_outsider",
                seats=", ".join(map(str, outside)),
            )
        )


def _check_votes(
    gid: str, block: VotingRound, field: str, gone: int, problems: list[Problem]
) -> None:
    if not block.votes:
        return
    if len(block.votes) != len(block.nominees):
        problems.append(
            problem(
                gid,
                None,
                f"{field}.votes",
                "voting.votes_count",
                nominees=len(block.nominees),
                count=len(block.votes),
            )
        )
    for seat, count in zip(block.nominees, block.votes, strict=False):
        if count < 0:
            problems.append(
                problem(gid, seat, f"{field}.votes", "voting.votes_negative", count=count)
            )
    alive = 10 - gone
    total = sum(v for v in block.votes if v > 0)
    if total > alive:
        problems.append(
            problem(
                gid,
                None,
                f"{field}.votes",
                "voting.too_many_votes",
                total=total,
                alive=alive,
                day=block.day,
            )
        )


def _check_lift(
    gid: str, block: VotingRound, field: str, gone: int, problems: list[Problem]
) -> None:
    lift = block.lift
    if lift is None:
        return
    if not block.is_tied_again():
        problems.append(problem(gid, None, f"{field}.lift", "voting.lift_without_tie"))
    alive = 10 - gone
    if not 0 <= lift <= alive:
        problems.append(
            problem(gid, None, f"{field}.lift", "voting.lift_range", lift=lift, alive=alive)
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
        problems.append(problem(gid, None, name, "voting.nominators_count"))
        return
    if block.revote:
        return
    nominators = state.nominators if state.nominators is not None else {}
    for nominee, by in zip(block.nominees, block.nominated_by, strict=True):
        if by is None:
            continue
        if not 1 <= by <= 10:
            problems.append(problem(gid, None, name, "seat.range", value=by))
            continue
        if by in gone:
            problems.append(problem(gid, by, name, "voting.nominator_left", seat=by))
        if by in nominators:
            problems.append(
                problem(
                    gid,
                    by,
                    name,
                    "voting.nominates_twice",
                    seat=by,
                    other=nominators[by],
                    day=block.day,
                )
            )
        else:
            nominators[by] = nominee
    state.nominators = nominators
