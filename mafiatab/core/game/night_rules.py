"""The rules of the night's events (game-log.md): the shots, the don's and the sheriff's
checks, and the day that breaks (the kill, the first killed's best move, the next
first speaker). Each gives the state after its event or raises `Refused`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import assert_never

from mafiatab.core.game.event_records import DayBreaks, DonCheck, SheriffCheck, Shots
from mafiatab.core.game.guards import Refused, leave, need_night
from mafiatab.core.game.problems import seat_list
from mafiatab.core.game.state import Check, GameState, How, Phase, PhaseKind, Voting, VotingStatus
from mafiatab.core.roles import Role, Team

_DAY, _NIGHT = PhaseKind.DAY, PhaseKind.NIGHT


def _shots(state: GameState, event: Shots) -> GameState:
    night = need_night(state)
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
    night = need_night(state)
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
    night = need_night(state)
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
        state = leave(state, (killed,), How.SHOT, Phase(_NIGHT, number))
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


#: The events of a night.
NightEvent = Shots | DonCheck | SheriffCheck | DayBreaks


def night_rules(state: GameState, event: NightEvent) -> GameState:
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
