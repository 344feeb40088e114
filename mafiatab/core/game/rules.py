"""The rules of each event (game-log.md, "How the engine decides"): one handler per
event type, each giving the state after its event or raising `Refused`
(`mafiatab.core.game.guards`). `apply_rules` hands an event to the rules of its time:
the day's (`day_rules`), the night's (`night_rules`), or those of any time, here:
fouls, removals, pauses, a defeat and the best move.

The handlers build new frozen states and never change the one they are given, so a
refused event leaves the game as it was.
"""

from __future__ import annotations

from dataclasses import replace
from typing import assert_never

from mafiatab.core.game.day_rules import day_rules
from mafiatab.core.game.event_records import (
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
from mafiatab.core.game.guards import Refused, leave, need_alive
from mafiatab.core.game.night_rules import night_rules
from mafiatab.core.game.problems import seat_list
from mafiatab.core.game.state import End, GameOutcome, GameState, How, Removal, Voting, VotingStatus
from mafiatab.core.protocol import FOUL_REMOVAL_REASON as FOUL_REMOVAL_REASON
from mafiatab.core.roles import Team, Winner

#: The reason a fourth foul's removal carries.


_ACTIVE = (VotingStatus.OPEN, VotingStatus.REVOTE, VotingStatus.LIFT)


#: The departures that give a last word.
_LAST_WORD = (How.VOTE, How.LIFT, How.SINGLE, How.SHOT)


def _need_present(state: GameState, seat: int | None) -> int:
    """A seat a foul or a removal may be given to: alive, or giving its last word."""
    if seat is not None and seat in state.last_word:
        return seat
    spoke = seat is not None and any(d.seat == seat and d.how in _LAST_WORD for d in state.left)
    if spoke and not any(r.seat == seat for r in state.removals):
        raise Refused("seat.last_word_over", field="seat", seat=seat)
    return need_alive(state, seat)


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
    return leave(state, (seat,), how, state.phase)


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


#: The events of any time.
AnyTimeEvent = Foul | Remove | Pause | BestMove | Defeat


def apply_rules(state: GameState, event: Event) -> GameState:
    """The state after `event` by its rules; `Refused` if they do not allow it now."""
    match event:
        case Nominate() | Vote() | Lift() | NightFalls():
            return day_rules(state, event)
        case Shots() | DonCheck() | SheriffCheck() | DayBreaks():
            return night_rules(state, event)
        case Foul() | Remove() | Pause() | BestMove() | Defeat():
            return _any_time_rules(state, event)
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
