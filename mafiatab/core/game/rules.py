"""The rules of each event (game-log.md, "How the engine decides"): one handler per
event type, each giving the state after its event or raising `Refused`.

The handlers build new frozen states and never change the one they are given, so a
refused event leaves the game as it was.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any, assert_never

from mafiatab.core.game.events import (
    BestMove,
    DayBreaks,
    Defeat,
    DonCheck,
    Event,
    Foul,
    Lift,
    NightFalls,
    Nominate,
    Pause,
    Remove,
    SheriffCheck,
    Shots,
    Vote,
)
from mafiatab.core.game.problems import GameProblem, seat_list
from mafiatab.core.game.state import (
    BlockResult,
    Check,
    Departure,
    End,
    GameOutcome,
    GameState,
    How,
    Night,
    Nomination,
    Outcome,
    Phase,
    PhaseKind,
    Removal,
    Voting,
    VotingBlock,
    VotingStatus,
)
from mafiatab.core.protocol import VotingRound
from mafiatab.core.roles import Role, Team, Winner

#: The reason a fourth foul's removal carries.
FOUL_REMOVAL_REASON = "4 fouls"

_DAY, _NIGHT = PhaseKind.DAY, PhaseKind.NIGHT
_ACTIVE = (VotingStatus.OPEN, VotingStatus.REVOTE, VotingStatus.LIFT)


class Refused(Exception):
    """An event the rules refuse: a problem code and its parameters."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def problem(self, index: int, event: Event) -> GameProblem:
        """The located problem."""
        return GameProblem(self.code, self.params, index, event.type.value)


# --- helpers ---------------------------------------------------------------------


def _need_day(state: GameState) -> int:
    if not state.phase.is_day():
        raise Refused("game.day_only", night=state.phase.number)
    return state.phase.number


def _need_night(state: GameState) -> Night:
    night = state.night
    if night is None:
        raise Refused("game.night_only", day=state.phase.number)
    return night


def _need_alive(state: GameState, seat: int | None, field: str = "seat") -> int:
    if seat is None:
        raise Refused("event.missing", field=field)
    if not state.is_alive(seat):
        raise Refused("seat.not_alive", field=field, seat=seat)
    return seat


#: The departures that give a last word.
_LAST_WORD = (How.VOTE, How.LIFT, How.SINGLE, How.SHOT)


def _need_present(state: GameState, seat: int | None) -> int:
    """A seat a foul or a removal may be given to: alive, or giving its last word."""
    if seat is not None and seat in state.last_word:
        return seat
    spoke = seat is not None and any(d.seat == seat and d.how in _LAST_WORD for d in state.left)
    if spoke and not any(r.seat == seat for r in state.removals):
        raise Refused("seat.last_word_over", field="seat", seat=seat)
    return _need_alive(state, seat)


def _leave(state: GameState, seats: Iterable[int], how: How, phase: Phase) -> GameState:
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


def _cancel_voting(state: GameState) -> GameState:
    """A removal cancels the first day voting that has not given its result."""
    if state.phase.is_day() and state.voting.status in _ACTIVE:
        day = state.phase.number
        voting = Voting(day, VotingStatus.CANCELLED, state.voting.nominations)
        return replace(state, voting=voting, cancelled_days=state.cancelled_days | {day})
    if state.phase.is_day() and state.voting.status is VotingStatus.CANCELLED:
        return state
    target = state.phase.number + 1
    return replace(state, cancelled_days=state.cancelled_days | {target})


def _remove(state: GameState, seat: int, how: How, removal: Removal) -> GameState:
    state = _cancel_voting(state)
    state = replace(state, removals=(*state.removals, removal))
    if seat in state.last_word:
        # Removed in his last word: a removal like any other, but he has already
        # left; his departure stays as it was and the end is not checked again.
        return replace(state, last_word=tuple(s for s in state.last_word if s != seat))
    night = state.night
    if night is not None and night.killed == seat:
        state = replace(state, nights=(*state.nights[:-1], replace(night, killed=None)))
    return _leave(state, (seat,), how, state.phase)


# --- the day ---------------------------------------------------------------------


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
    day = _need_day(state)
    voting = _open_voting(state, day)
    if voting.status is not VotingStatus.OPEN:
        raise Refused("nominate.closed", day=day)
    by = _need_alive(state, event.by, "by")
    seat = _need_alive(state, event.seat, "seat")
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
    day = _need_day(state)
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
        return _leave(state, leaders, How.VOTE, state.phase)
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
    day = _need_day(state)
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
    leave = votes * 2 > alive
    tied = voting.candidates
    result = (
        BlockResult(Outcome.LEAVES, tied) if leave else BlockResult(Outcome.NOBODY, tied, "lift")
    )
    blocks = (*voting.blocks[:-1], voting.blocks[-1].lifted(votes, result))
    over = replace(voting, status=VotingStatus.OVER, candidates=(), blocks=blocks)
    state = replace(state, voting=over)
    if leave:
        state = replace(state, last_word=voting.candidates)
        return _leave(state, voting.candidates, How.LIFT, state.phase)
    return state


def _is_three_at_nine(state: GameState, voting: Voting) -> bool:
    """The day's last revote tied the same three seats with nine alive (no lift)."""
    result = voting.blocks[-1].result if voting.blocks else None
    return result is not None and result.why == "three_at_nine"


def night_refusal(voting: Voting) -> Refused | None:
    due = voting.vote_due()
    return None if due is None else Refused(due[0], **due[1])


def _night(state: GameState) -> GameState:
    day = _need_day(state)
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
            state = _leave(state, (single.seat,), How.SINGLE, state.phase)
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


# --- the night -------------------------------------------------------------------


def _shots(state: GameState, event: Shots) -> GameState:
    night = _need_night(state)
    if night.has_shots():
        raise Refused("shots.twice", night=night.number)
    shooters = state.team_alive(Team.BLACK)
    given = tuple(by for by, _ in event.shots)
    if given != shooters:
        raise Refused("shots.seats", expected=seat_list(shooters), given=seat_list(given))
    # Every living black shooting the same living seat kills; anything else (a shot
    # at a seat that has left included) is a miss.
    targets = {target for _, target in event.shots}
    target = next(iter(targets)) if len(targets) == 1 else None
    killed = target if target is not None and state.is_alive(target) else None
    night = replace(night, shots=event.shots, killed=killed)
    return replace(state, nights=(*state.nights[:-1], night))


def _check(state: GameState, event: DonCheck | SheriffCheck, role: Role) -> GameState:
    night = _need_night(state)
    name = role.value
    if not night.has_shots():
        raise Refused("check.before_shots")
    checker = state.roles.index(role) + 1
    allowed = night.don_may_check if role is Role.DON else night.sheriff_may_check
    if not allowed or not state.is_alive(checker):
        raise Refused("check.absent", role=name, seat=checker)
    if (night.don_check if role is Role.DON else night.sheriff_check) is not None:
        raise Refused("check.twice", role=name)
    seat = event.seat
    if seat == checker:
        raise Refused("check.own", role=name)
    # Any other seat may be checked, one that has left included.
    checked = state.role(seat)
    if role is Role.DON:
        answer = "sheriff" if checked is Role.SHERIFF else "not_sheriff"
        night = replace(night, don_check=Check(checker, seat, answer))
    else:
        answer = "black" if checked.is_black_team() else "red"
        night = replace(night, sheriff_check=Check(checker, seat, answer))
    return replace(state, nights=(*state.nights[:-1], night))


def _day(state: GameState) -> GameState:
    night = _need_night(state)
    if not night.has_shots():
        raise Refused("day.no_shots", night=night.number)
    number = night.number
    killed = night.killed
    day = number + 1
    state = replace(
        state,
        phase=Phase(_DAY, day),
        morning_kill=killed,
        last_word=() if killed is None else (killed,),
        lost_speech=tuple((s, d) for s, d in state.lost_speech if d >= day),
    )
    if killed is not None:
        if number == 1:
            state = replace(state, first_killed=killed, best_move_open=True)
        state = _leave(state, (killed,), How.SHOT, Phase(_NIGHT, number))
    status = VotingStatus.CANCELLED if day in state.cancelled_days else VotingStatus.OPEN
    return replace(
        state,
        voting=Voting(day, status),
        first_speaker=_next_living(state, state.first_speaker),
    )


def _next_living(state: GameState, seat: int) -> int:
    for offset in range(1, 11):
        candidate = (seat - 1 + offset) % 10 + 1
        if state.is_alive(candidate):
            return candidate
    return seat


# --- any time --------------------------------------------------------------------


def _foul(state: GameState, event: Foul) -> GameState:
    seat = _need_present(state, event.seat)
    fouls = list(state.fouls)
    fouls[seat - 1] += 1
    state = replace(state, fouls=tuple(fouls))
    most = state.settings.max_fouls
    # The foul before the last costs the seat his next speech.
    if fouls[seat - 1] == most - 1 and state.is_alive(seat):
        state = replace(
            state, lost_speech=(*state.lost_speech, (seat, _lost_speech_day(state, seat)))
        )
    if fouls[seat - 1] >= most:
        phase = state.phase
        removal = Removal(seat, FOUL_REMOVAL_REASON, online=False, fined=True, phase=phase)
        return _remove(state, seat, How.FOULS, removal)
    return state


def _lost_speech_day(state: GameState, seat: int) -> int:
    """The day whose regular speech a third foul costs: the seat's next one. By day the
    engine knows a speech has passed once the voting began or a later speaker nominated."""
    day = state.phase.number
    if state.phase.is_night():
        return day + 1
    if state.voting.blocks or state.voting.status is VotingStatus.OVER:
        return day + 1
    order = [s.seat for s in state.speech_order() if s.seat in state.alive]
    position = order.index(seat) if seat in order else 0
    for nomination in state.voting.nominations:
        if nomination.by in order and order.index(nomination.by) >= position:
            return day + 1
    return day


def _remove_event(state: GameState, event: Remove) -> GameState:
    seat = _need_present(state, event.seat)
    if event.online and not state.settings.online:
        raise Refused("remove.online")
    removal = Removal(seat, event.reason, event.online, event.fined, state.phase)
    return _remove(state, seat, How.REMOVED, removal)


def _pause(state: GameState) -> GameState:
    """A time-out or technical pause: no effect on the rules (game-log.md asks no
    living seat of it, unlike a foul or a removal)."""
    return state


def _defeat(state: GameState, event: Defeat) -> GameState:
    team = event.team
    winner = Winner.BLACK if team is Team.RED else Winner.RED
    return replace(state, outcome=GameOutcome(winner, End.DEFEAT, team, event.reason))


def _best_move(state: GameState, event: BestMove) -> GameState:
    if not state.best_move_open:
        raise Refused("best_move.twice" if state.best_move else "best_move.closed")
    seats, named = event.seats, state.settings.best_move_seats
    if len(seats) != named or len(set(seats)) != named or not all(1 <= n <= 10 for n in seats):
        raise Refused("best_move.seats", seats=seat_list(seats))
    if state.first_killed in seats:
        raise Refused("best_move.own", seat=state.first_killed)
    return replace(state, best_move=seats, best_move_open=False)


#: The events of a day, of a night, and of any time.
DayEvent = Nominate | Vote | Lift | NightFalls
NightEvent = Shots | DonCheck | SheriffCheck | DayBreaks
AnyTimeEvent = Foul | Remove | Pause | BestMove | Defeat


def apply_rules(state: GameState, event: Event) -> GameState:
    """The state after `event` by its rules; `Refused` if they do not allow it now."""
    match event:
        case Nominate() | Vote() | Lift() | NightFalls():
            return _day_rules(state, event)
        case Shots() | DonCheck() | SheriffCheck() | DayBreaks():
            return _night_rules(state, event)
        case Foul() | Remove() | Pause() | BestMove() | Defeat():
            return _any_time_rules(state, event)
        case _:
            assert_never(event)


def _day_rules(state: GameState, event: DayEvent) -> GameState:
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


def _night_rules(state: GameState, event: NightEvent) -> GameState:
    match event:
        case Shots():
            return _shots(state, event)
        case DonCheck():
            return _check(state, event, Role.DON)
        case SheriffCheck():
            return _check(state, event, Role.SHERIFF)
        case DayBreaks():
            return _day(state)
        case _:
            assert_never(event)


def _any_time_rules(state: GameState, event: AnyTimeEvent) -> GameState:
    match event:
        case Foul():
            return _foul(state, event)
        case Remove():
            return _remove_event(state, event)
        case Pause():
            return _pause(state)
        case BestMove():
            return _best_move(state, event)
        case Defeat():
            return _defeat(state, event)
        case _:
            assert_never(event)
