"""The engine: the rules of game-log.md's "How the engine decides", event by event.

`step(state, event)` gives the state after one event or refuses it; `replay`
folds a whole log; `Game` keeps a log and its state for a console that appends
events one at a time. A refused event leaves the state as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from mafiatab.core.game.log import MAX_EVENTS, Event, EventType, GameLog
from mafiatab.core.game.problems import GameLogError, GameProblem, seat_list
from mafiatab.core.game.state import (
    Check,
    Departure,
    GameState,
    How,
    Night,
    Nomination,
    Phase,
    PhaseKind,
    Removal,
    Voting,
    VotingBlock,
    VotingStatus,
)
from mafiatab.core.roles import Role, Team, Winner

#: The reason a fourth foul's removal carries.
FOUL_REMOVAL_REASON = "4 fouls"

_DAY, _NIGHT = PhaseKind.DAY, PhaseKind.NIGHT
_ACTIVE = (VotingStatus.OPEN, VotingStatus.REVOTE, VotingStatus.LIFT)
#: Events that keep the best-move window open.
_WINDOW_KEEPERS = (EventType.FOUL, EventType.PAUSE)


class Refused(Exception):
    """An event the rules refuse: a problem code and its parameters."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def problem(self, index: int, event: Event) -> GameProblem:
        """The located problem."""
        return GameProblem(self.code, self.params, index, event.type.value)


def initial_state(log: GameLog) -> GameState:
    """The state at the start of day 1, after the zero night."""
    status = VotingStatus.OPEN if log.table.day1_voting else VotingStatus.NONE
    return GameState(
        log=log.with_events(()),
        events=0,
        phase=Phase(_DAY, 1),
        alive=tuple(range(1, 11)),
        fouls=(0,) * 10,
        voting=Voting(1, status),
        first_speaker=1,
    )


def step(state: GameState, event: Event) -> GameState:
    """The state after `event`; `Refused` if the rules do not allow it now."""
    if state.is_finished() and not (event.type is EventType.BEST_MOVE and state.best_move_open):
        raise Refused("game.finished")
    new = _HANDLERS[event.type](state, event)
    # Fouls and pauses may come inside the killed player's last word; anything else
    # closes it, and so does an end of the game that this event brings.
    if (
        new.best_move_open
        and event.type is not EventType.DAY
        and (event.type not in _WINDOW_KEEPERS or (new.is_finished() and not state.is_finished()))
    ):
        new = replace(new, best_move_open=False)
    checks = state.checks + (event.type in (EventType.DON_CHECK, EventType.SHERIFF_CHECK))
    return replace(new, events=state.events + 1, checks=checks)


def replay(log: GameLog, upto: int | None = None) -> GameState:
    """The state after the first `upto` events of `log` (all by default).

    Raises `GameLogError` naming the first refused event.
    """
    state = initial_state(log)
    events = log.events if upto is None else log.events[:upto]
    for index, event in enumerate(events, start=1):
        try:
            state = step(state, event)
        except Refused as exc:
            raise GameLogError([exc.problem(index, event)]) from None
    return state


class Game:
    """A game being played: its log and its state, one event at a time."""

    def __init__(self, log: GameLog) -> None:
        """A game from a log; its events are replayed (`GameLogError` if one is refused)."""
        self._header = log.with_events(())
        self._events: list[Event] = list(log.events)
        self._state = replay(log)

    @property
    def state(self) -> GameState:
        """The state after every event."""
        return self._state

    @property
    def log(self) -> GameLog:
        """The log so far."""
        return self._header.with_events(tuple(self._events))

    def check(self, event: Event) -> GameProblem | None:
        """The problem `event` would have as the next event; None if it is allowed."""
        try:
            step(self._state, event)
        except Refused as exc:
            return exc.problem(len(self._events) + 1, event)
        return None

    def apply(self, event: Event) -> GameState:
        """Append `event` and return the new state; `GameLogError` (and no change) if the
        rules refuse it."""
        count = len(self._events) + 1
        if count > MAX_EVENTS:
            problem = GameProblem(
                "log.too_many_events", {"max": MAX_EVENTS, "count": count}, count, event.type.value
            )
            raise GameLogError([problem])
        try:
            new = step(self._state, event)
        except Refused as exc:
            raise GameLogError([exc.problem(count, event)]) from None
        self._events.append(event)
        self._state = new
        return new

    def append(self, data: object) -> GameState:
        """Read an event from its log form and apply it; `GameLogError` (and no change)
        for a malformed event or one the rules refuse, located at its position."""
        from mafiatab.core.game.log import parse_event

        return self.apply(parse_event(data, len(self._events) + 1))

    def undo(self) -> GameState:
        """Drop the last event (nothing if there is none) and return the state."""
        if self._events:
            self._events.pop()
            self._state = replay(self.log)
        return self._state


# --- expected events -------------------------------------------------------------

_ALWAYS = (EventType.FOUL, EventType.REMOVE, EventType.PAUSE, EventType.DEFEAT)


def expected_types(state: GameState) -> tuple[EventType, ...]:
    """The event types the rules allow next."""
    if state.is_finished():
        return (EventType.BEST_MOVE,) if state.best_move_open else ()
    found: list[EventType] = []
    if state.phase.is_day():
        if state.best_move_open:
            found.append(EventType.BEST_MOVE)
        found.extend(_day_types(state))
    else:
        night = state.night
        assert night is not None
        if not night.has_shots():
            found.append(EventType.SHOTS)
        else:
            if _may_check(state, Role.DON):
                found.append(EventType.DON_CHECK)
            if _may_check(state, Role.SHERIFF):
                found.append(EventType.SHERIFF_CHECK)
            found.append(EventType.DAY)
    found.extend(_ALWAYS)
    return tuple(found)


def _day_types(state: GameState) -> list[EventType]:
    voting = state.voting
    found = []
    if voting.status is VotingStatus.OPEN:
        nominators = {n.by for n in voting.nominations}
        if set(state.alive) - nominators and set(state.alive) - set(voting.nominated()):
            found.append(EventType.NOMINATE)
        if len(voting.nominations) >= 2:
            found.append(EventType.VOTE)
    elif voting.status is VotingStatus.REVOTE:
        found.append(EventType.VOTE)
    elif voting.status is VotingStatus.LIFT:
        found.append(EventType.LIFT)
    if _night_refusal(voting) is None:
        found.append(EventType.NIGHT)
    return found


def _may_check(state: GameState, role: Role) -> bool:
    night = state.night
    if night is None or not night.has_shots():
        return False
    if role is Role.DON:
        allowed, done = night.don_may_check, night.don_check
    else:
        allowed, done = night.sheriff_may_check, night.sheriff_check
    return allowed and done is None and state.is_alive(state.roles.index(role) + 1)


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


def _leave(state: GameState, seats: Iterable[int], how: How, phase: Phase) -> GameState:
    """The seats leave; the end of the game is checked once, after all of them."""
    seats = tuple(seats)
    quiet = phase.number if phase.is_day() else phase.number + 1
    state = replace(
        state,
        alive=tuple(s for s in state.alive if s not in seats),
        left=state.left + tuple(Departure(s, how, phase) for s in seats),
        quiet_since=quiet,
    )
    return _check_end(state)


def _check_end(state: GameState) -> GameState:
    black = len(state.team_alive(Team.BLACK))
    red = len(state.alive) - black
    if black == 0:
        return replace(state, winner=Winner.RED, end="no_black")
    if black >= red:
        return replace(state, winner=Winner.BLACK, end="black_majority")
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
    night = state.night
    if night is not None and night.killed == seat:
        state = replace(state, nights=(*state.nights[:-1], replace(night, killed=None)))
    state = replace(state, removals=(*state.removals, removal))
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


def _nominate(state: GameState, event: Event) -> GameState:
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
    return replace(state, voting=voting)


def _vote(state: GameState, event: Event) -> GameState:
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
        day, candidates, counts, tuple(by_seat[s] for s in candidates), revote=revote
    )
    voting = replace(voting, blocks=(*voting.blocks, block))
    top = max(counts)
    leaders = tuple(s for s, n in zip(candidates, counts, strict=True) if n == top)
    over = replace(voting, status=VotingStatus.OVER, candidates=())
    if len(leaders) == 1:
        return _leave(replace(state, voting=over), leaders, How.VOTE, state.phase)
    if not revote and set(leaders) == set(state.alive):
        return replace(state, voting=over)  # every living player tied: nobody leaves
    if revote and leaders == candidates:
        if len(leaders) == 3 and len(state.alive) == 9 and not state.settings.lift_three_at_nine:
            return replace(state, voting=over)
        return replace(state, voting=replace(voting, status=VotingStatus.LIFT))
    voting = replace(voting, status=VotingStatus.REVOTE, candidates=leaders)
    return replace(state, voting=voting)


def _lift(state: GameState, event: Event) -> GameState:
    day = _need_day(state)
    voting = state.voting
    if voting.status is VotingStatus.OVER and _is_three_at_nine(state, voting):
        raise Refused("lift.three_at_nine")
    voting = _open_voting(state, day)
    if voting.status is not VotingStatus.LIFT:
        raise Refused("lift.not_due")
    alive = len(state.alive)
    votes = event.lift_for
    if votes is None:
        raise Refused("event.missing", field="for")
    if not 0 <= votes <= alive:
        raise Refused("lift.range", alive=alive, value=votes)
    blocks = (*voting.blocks[:-1], replace(voting.blocks[-1], lift=votes))
    over = replace(voting, status=VotingStatus.OVER, candidates=(), blocks=blocks)
    state = replace(state, voting=over)
    if votes * 2 > alive:
        return _leave(state, voting.candidates, How.LIFT, state.phase)
    return state


def _is_three_at_nine(state: GameState, voting: Voting) -> bool:
    """The day's last vote was a revote that tied the same three seats with nine alive."""
    if len(voting.blocks) < 2 or len(state.alive) != 9:
        return False
    last, before = voting.blocks[-1], voting.blocks[-2]
    return (
        last.revote
        and len(last.nominees) == 3
        and len(set(last.votes)) == 1
        and last.nominees
        == tuple(
            s for s, n in zip(before.nominees, before.votes, strict=True) if n == max(before.votes)
        )
    )


def _night_refusal(voting: Voting) -> Refused | None:
    if voting.status is VotingStatus.REVOTE:
        return Refused("night.revote_due", seats=seat_list(voting.candidates))
    if voting.status is VotingStatus.LIFT:
        return Refused("night.lift_due", seats=seat_list(voting.candidates))
    if voting.status is VotingStatus.OPEN and len(voting.nominations) >= 2:
        return Refused("night.vote_due", count=len(voting.nominations))
    return None


def _night(state: GameState, event: Event) -> GameState:
    day = _need_day(state)
    voting = state.voting
    refusal = _night_refusal(voting)
    if refusal is not None:
        raise refusal
    if voting.status is VotingStatus.OPEN and len(voting.nominations) == 1:
        single = voting.nominations[0]
        block = VotingBlock(day, (single.seat,), (), (single.by,))
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
    )
    if day >= state.quiet_since + 3:
        return replace(state, winner=Winner.DRAW, end="draw")
    return state


# --- the night -------------------------------------------------------------------


def _shots(state: GameState, event: Event) -> GameState:
    night = _need_night(state)
    if night.has_shots():
        raise Refused("shots.twice", night=night.number)
    shooters = state.team_alive(Team.BLACK)
    given = tuple(by for by, _ in event.shots)
    if given != shooters:
        raise Refused("shots.seats", expected=seat_list(shooters), given=seat_list(given))
    for by, target in event.shots:
        if target is not None and not state.is_alive(target):
            raise Refused("shots.target", by=by, seat=target)
    targets = {target for _, target in event.shots}
    killed = next(iter(targets)) if len(targets) == 1 else None
    night = replace(night, shots=event.shots, killed=killed)
    return replace(state, nights=(*state.nights[:-1], night))


def _check(state: GameState, event: Event, role: Role) -> GameState:
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
    if seat is None:
        raise Refused("event.missing", field="seat")
    if seat == checker:
        raise Refused("check.own", role=name)
    if not state.is_alive(seat):
        raise Refused("check.target", seat=seat)
    checked = state.role(seat)
    if role is Role.DON:
        answer = "sheriff" if checked is Role.SHERIFF else "not_sheriff"
        night = replace(night, don_check=Check(checker, seat, answer))
    else:
        answer = "black" if checked.is_black_team() else "red"
        night = replace(night, sheriff_check=Check(checker, seat, answer))
    return replace(state, nights=(*state.nights[:-1], night))


def _don_check(state: GameState, event: Event) -> GameState:
    return _check(state, event, Role.DON)


def _sheriff_check(state: GameState, event: Event) -> GameState:
    return _check(state, event, Role.SHERIFF)


def _day(state: GameState, event: Event) -> GameState:
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


def _foul(state: GameState, event: Event) -> GameState:
    seat = _need_alive(state, event.seat)
    fouls = list(state.fouls)
    fouls[seat - 1] += 1
    state = replace(state, fouls=tuple(fouls))
    if fouls[seat - 1] == 3:
        state = replace(
            state, lost_speech=(*state.lost_speech, (seat, _lost_speech_day(state, seat)))
        )
    if fouls[seat - 1] >= 4:
        phase = state.phase
        removal = Removal(seat, FOUL_REMOVAL_REASON, online=False, fined=True, phase=phase)
        state = replace(state, lost_speech=tuple(x for x in state.lost_speech if x[0] != seat))
        return _remove(state, seat, How.FOULS, removal)
    return state


def _lost_speech_day(state: GameState, seat: int) -> int:
    """The day whose regular speech a third foul costs: the seat's next one. By day the
    engine knows a speech has passed once the voting began or a later speaker nominated."""
    day = state.phase.number
    if state.phase.is_night():
        return day + 1
    if state.voting.blocks or state.voting.status in (VotingStatus.OVER,):
        return day + 1
    order = [s.seat for s in state.speech_order() if s.seat in state.alive]
    position = order.index(seat) if seat in order else 0
    for nomination in state.voting.nominations:
        if nomination.by in order and order.index(nomination.by) >= position:
            return day + 1
    return day


def _remove_event(state: GameState, event: Event) -> GameState:
    seat = _need_alive(state, event.seat)
    if event.online and not state.settings.online:
        raise Refused("remove.online")
    removal = Removal(seat, event.reason, event.online, event.fined, state.phase)
    state = replace(state, lost_speech=tuple(x for x in state.lost_speech if x[0] != seat))
    return _remove(state, seat, How.REMOVED, removal)


def _pause(state: GameState, event: Event) -> GameState:
    _need_alive(state, event.seat)
    return state


def _defeat(state: GameState, event: Event) -> GameState:
    team = event.team
    if team is None:
        raise Refused("event.missing", field="team")
    winner = Winner.BLACK if team is Team.RED else Winner.RED
    return replace(state, winner=winner, end="defeat", defeat=(team, event.reason))


def _best_move(state: GameState, event: Event) -> GameState:
    if not state.best_move_open:
        raise Refused("best_move.twice" if state.best_move else "best_move.closed")
    seats = event.seats
    if len(seats) != 3 or len(set(seats)) != 3 or not all(1 <= n <= 10 for n in seats):
        raise Refused("best_move.seats", seats=seat_list(seats))
    if state.first_killed in seats:
        raise Refused("best_move.own", seat=state.first_killed)
    return replace(state, best_move=seats, best_move_open=False)


_HANDLERS: dict[EventType, Callable[[GameState, Event], GameState]] = {
    EventType.NOMINATE: _nominate,
    EventType.VOTE: _vote,
    EventType.LIFT: _lift,
    EventType.FOUL: _foul,
    EventType.REMOVE: _remove_event,
    EventType.PAUSE: _pause,
    EventType.NIGHT: _night,
    EventType.SHOTS: _shots,
    EventType.DON_CHECK: _don_check,
    EventType.SHERIFF_CHECK: _sheriff_check,
    EventType.DAY: _day,
    EventType.BEST_MOVE: _best_move,
    EventType.DEFEAT: _defeat,
}
