"""The rules of the day's events (game-log.md): a nomination, a vote or revote, the
lift vote, and the night that falls (deciding a single nominee). Each gives the state
after its event or raises `Refused`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import assert_never

from mafiatab.core.game.event_records import Lift, NightFalls, Nominate, Vote
from mafiatab.core.game.guards import Refused, leave, need_alive, need_day
from mafiatab.core.game.problems import seat_list
from mafiatab.core.game.state import (
    BlockResult,
    End,
    GameOutcome,
    GameState,
    How,
    Night,
    Nomination,
    Outcome,
    Phase,
    PhaseKind,
    Voting,
    VotingBlock,
    VotingStatus,
)
from mafiatab.core.protocol import VotingRound
from mafiatab.core.roles import Role, Winner

_NIGHT = PhaseKind.NIGHT


def _open_voting(state: GameState, day: int) -> Voting:
    voting = state.voting
    status = voting.status
    if status is VotingStatus.NONE:
        raise Refused("voting.day1_off")
    if status is VotingStatus.CANCELLED:
        raise Refused("voting.cancelled", day=day)
    if status is VotingStatus.OVER:
        raise Refused("voting.over", day=day)
    return voting


def _nominate(state: GameState, event: Nominate) -> GameState:
    day = need_day(state)
    voting = _open_voting(state, day)
    if voting.status is not VotingStatus.OPEN:
        raise Refused("nominate.closed", day=day)
    by = need_alive(state, event.by, "by")
    seat = need_alive(state, event.seat, "seat")
    for nomination in voting.nominations:
        if nomination.by == by:
            raise Refused("nominate.by_twice", by=by, seat=nomination.seat)
        if nomination.seat == seat:
            raise Refused("nominate.seat_twice", seat=seat, by=nomination.by)
    nominations = (*voting.nominations, Nomination(seat, by))
    voting = replace(voting, nominations=nominations, candidates=tuple(n.seat for n in nominations))
    # The first nomination ends the last word of the seat killed by the shot.
    return replace(state, voting=voting, last_word=())


def _vote(state: GameState, event: Vote) -> GameState:
    day = need_day(state)
    voting = _open_voting(state, day)
    if voting.status is VotingStatus.LIFT:
        raise Refused("vote.lift_due", seats=seat_list(voting.candidates))
    if voting.status is VotingStatus.OPEN and len(voting.nominations) < 2:
        raise Refused("vote.too_few", count=len(voting.nominations))
    candidates, counts = voting.candidates, event.counts
    if len(counts) != len(candidates):
        raise Refused("vote.counts_length", expected=len(candidates), given=len(counts))
    for count in counts:
        if count < 0:
            raise Refused("vote.negative", value=count)
    if sum(counts) != len(state.alive):
        raise Refused("vote.sum", total=sum(counts), alive=len(state.alive))
    by_seat = {n.seat: n.by for n in voting.nominations}
    revote = voting.status is VotingStatus.REVOTE
    block = VotingBlock(
        VotingRound(day, candidates, counts, tuple(by_seat[s] for s in candidates), revote)
    )
    top = max(counts)
    leaders = tuple(s for s, n in zip(candidates, counts, strict=True) if n == top)

    def with_block(
        status: VotingStatus, result: BlockResult, seats: tuple[int, ...] = ()
    ) -> Voting:
        blocks = (*voting.blocks, replace(block, result=result))
        return replace(voting, status=status, candidates=seats, blocks=blocks)

    over = VotingStatus.OVER
    if len(leaders) == 1:
        voted = with_block(over, BlockResult(Outcome.LEAVES, leaders))
        state = replace(state, voting=voted, last_word=leaders)
        return leave(state, leaders, How.VOTE, state.phase)
    if not revote and set(leaders) == set(state.alive):
        # every living player tied: nobody leaves
        return replace(state, voting=with_block(over, BlockResult(Outcome.NOBODY, why="all_tied")))
    if revote and leaders == candidates:
        if len(leaders) == 3 and len(state.alive) == 9 and not state.settings.lift_three_at_nine:
            result = BlockResult(Outcome.NOBODY, leaders, why="three_at_nine")
            return replace(state, voting=with_block(over, result))
        result = BlockResult(Outcome.LIFT, leaders)
        return replace(state, voting=with_block(VotingStatus.LIFT, result, candidates))
    result = BlockResult(Outcome.REVOTE, leaders)
    return replace(state, voting=with_block(VotingStatus.REVOTE, result, leaders))


def _lift(state: GameState, event: Lift) -> GameState:
    day = need_day(state)
    voting = state.voting
    if voting.status is VotingStatus.OVER and _is_three_at_nine(state, voting):
        raise Refused("lift.three_at_nine")
    voting = _open_voting(state, day)
    if voting.status is not VotingStatus.LIFT:
        raise Refused("lift.not_due")
    alive = len(state.alive)
    votes = event.votes
    if not 0 <= votes <= alive:
        raise Refused("lift.range", alive=alive, value=votes)
    leaves = votes * 2 > alive
    tied = voting.candidates
    result = (
        BlockResult(Outcome.LEAVES, tied) if leaves else BlockResult(Outcome.NOBODY, tied, "lift")
    )
    blocks = (*voting.blocks[:-1], voting.blocks[-1].lifted(votes, result))
    over = replace(voting, status=VotingStatus.OVER, candidates=(), blocks=blocks)
    state = replace(state, voting=over)
    if leaves:
        state = replace(state, last_word=voting.candidates)
        return leave(state, voting.candidates, How.LIFT, state.phase)
    return state


def _is_three_at_nine(state: GameState, voting: Voting) -> bool:
    """The day's last revote tied the same three seats with nine alive (no lift)."""
    result = voting.blocks[-1].result if voting.blocks else None
    return result is not None and result.why == "three_at_nine"


def night_refusal(voting: Voting) -> Refused | None:
    due = voting.vote_due()
    return None if due is None else Refused(due[0], **due[1])


def _night(state: GameState) -> GameState:
    day = need_day(state)
    voting = state.voting
    refusal = night_refusal(voting)
    if refusal is not None:
        raise refusal
    if voting.status is VotingStatus.OPEN and len(voting.nominations) == 1:
        single = voting.nominations[0]
        result = (
            BlockResult(Outcome.LEAVES, (single.seat,))
            if day > 1
            else BlockResult(Outcome.NOBODY, (single.seat,), "day1_single")
        )
        block = VotingBlock(VotingRound(day, (single.seat,), (), (single.by,)), result)
        voting = replace(voting, status=VotingStatus.OVER, blocks=(block,))
        state = replace(state, voting=voting)
        if day > 1:
            state = leave(state, (single.seat,), How.SINGLE, state.phase)
    state = replace(state, blocks=state.blocks + voting.blocks)
    if state.is_finished():
        return replace(state, voting=Voting(day, VotingStatus.OVER))
    night = Night(
        day,
        don_may_check=state.is_alive(state.roles.index(Role.DON) + 1),
        sheriff_may_check=state.is_alive(state.roles.index(Role.SHERIFF) + 1),
    )
    state = replace(
        state,
        phase=Phase(_NIGHT, day),
        voting=Voting(day, VotingStatus.NONE),
        nights=(*state.nights, night),
        morning_kill=None,
        last_word=(),
    )
    if day >= state.quiet_since + 3:
        return replace(state, outcome=GameOutcome(Winner.DRAW, End.DRAW))
    return state


#: The events of a day.
DayEvent = Nominate | Vote | Lift | NightFalls


def day_rules(state: GameState, event: DayEvent) -> GameState:
    match event:
        case Nominate():
            return _nominate(state, event)
        case Vote():
            return _vote(state, event)
        case Lift():
            return _lift(state, event)
        case NightFalls():
            return _night(state)
        case _:
            assert_never(event)
