"""The state of a game at one moment: frozen records the engine builds event by event.

`GameState` and the small records of a phase, a departure, a removal and a speech
are here; the voting of a day is in `mafiatab.core.game.voting` and a night in
`mafiatab.core.game.night`, whose names are imported from here too. The event
types the rules allow next (`expected_types`, `GameState.expects`) are read from
the state alone, so they are here too.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from mafiatab.core.game.log import EventType, GameLog
from mafiatab.core.game.night import GESTURES as GESTURES
from mafiatab.core.game.night import Check as Check
from mafiatab.core.game.night import Night as Night
from mafiatab.core.game.settings import TableSettings
from mafiatab.core.game.voting import BlockResult as BlockResult
from mafiatab.core.game.voting import Nomination as Nomination
from mafiatab.core.game.voting import Outcome as Outcome
from mafiatab.core.game.voting import Voting as Voting
from mafiatab.core.game.voting import VotingBlock as VotingBlock
from mafiatab.core.game.voting import VotingStatus as VotingStatus
from mafiatab.core.roles import Role, Team, Winner


class PhaseKind(Enum):
    """Day or night."""

    DAY = "day"
    NIGHT = "night"


@dataclass(frozen=True, slots=True)
class Phase:
    """Where the game stands: day n or night n (night n follows day n)."""

    kind: PhaseKind
    """Day or night."""
    number: int
    """1 for the first day (after the zero night) and the first shooting night."""

    def is_day(self) -> bool:
        """True during a day."""
        return self.kind is PhaseKind.DAY

    def is_night(self) -> bool:
        """True during a night."""
        return self.kind is PhaseKind.NIGHT

    def to_json(self) -> dict[str, int]:
        """`{"day": n}` or `{"night": n}`."""
        return {self.kind.value: self.number}

    def __str__(self) -> str:
        return f"{self.kind.value} {self.number}"


class How(Enum):
    """How a player left the game."""

    VOTE = "vote"
    """Most votes of a day's vote or revote."""
    LIFT = "lift"
    """Left with the other tied players by the lift vote."""
    SINGLE = "single"
    """The single nominee of a day after day 1."""
    SHOT = "shot"
    """Killed at night."""
    FOULS = "fouls"
    """Removed by a fourth foul."""
    REMOVED = "removed"
    """Removed by the judge."""


@dataclass(frozen=True, slots=True)
class Departure:
    """A player who left, how and when."""

    seat: int
    """The seat."""
    how: How
    """How he left."""
    phase: Phase
    """The day or night he left in (a shot: its night)."""

    def to_json(self) -> dict[str, Any]:
        """`{"seat": 5, "how": "shot", "night": 1}`."""
        return {"seat": self.seat, "how": self.how.value, self.phase.kind.value: self.phase.number}


@dataclass(frozen=True, slots=True)
class Removal:
    """A removal: a fourth foul or the judge's decision."""

    seat: int
    """The removed seat."""
    reason: str
    """Why ("4 fouls" for a fourth foul)."""
    online: bool
    """An online removal (addendum 4.1)."""
    fined: bool
    """The removal is fined."""
    phase: Phase
    """When."""


class SpeechKind(Enum):
    """The kinds of speech of a day."""

    LAST_WORD = "last_word"
    SPEECH = "speech"
    SHORT = "short"
    """A speech cut to 30 seconds by a third foul with 3 or 4 alive."""
    LOST = "lost"
    """A speech lost to a third foul."""
    DEFENCE = "defence"
    """A tied player's speech before the revote."""


@dataclass(frozen=True, slots=True)
class Speech:
    """One speech in a day's order."""

    seat: int
    """Who speaks."""
    kind: SpeechKind
    """What kind of speech."""
    seconds: int
    """How long (0 for a lost speech)."""

    def to_json(self) -> dict[str, Any]:
        """`{"seat": 3, "kind": "speech", "seconds": 60}`."""
        return {"seat": self.seat, "kind": self.kind.value, "seconds": self.seconds}


class End(Enum):
    """Why a game ended."""

    NO_BLACK = "no_black"
    """The last black-team player left: red wins."""
    BLACK_MAJORITY = "black_majority"
    """As many black-team players as red ones are left: black wins."""
    DEFEAT = "defeat"
    """A team was given a procedural defeat."""
    DRAW = "draw"
    """Three nights and three days in a row with nobody leaving (game-log.md)."""


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """The end of a game: who won and why."""

    winner: Winner
    """The result."""
    end: End
    """Why the game ended."""
    defeated: Team | None = None
    """The team given a procedural defeat (`End.DEFEAT`)."""
    reason: str = ""
    """Why the judge gave the procedural defeat."""


@dataclass(frozen=True, slots=True)
class GameState:
    """The game after some events of its log. Build it with `replay` or `Game`."""

    log: GameLog
    """The log's header (table, seats, roles, labels); its `events` are not read here."""
    events: int
    """How many events were applied."""
    phase: Phase
    """Where the game stands (a finished game: where it ended)."""
    alive: tuple[int, ...]
    """The seats in the game, in order."""
    fouls: tuple[int, ...]
    """Fouls per seat, seat 1 first."""
    voting: Voting
    """The voting of the current (or, at night, the last) day."""
    first_speaker: int
    """The first regular speaker of the current (or last) day."""
    left: tuple[Departure, ...] = ()
    """The players who left, in order."""
    outcome: GameOutcome | None = None
    """The result and why, once finished; None while the game runs."""
    lost_speech: tuple[tuple[int, int], ...] = ()
    """(seat, day): a third foul costs the seat his regular speech of that day."""
    blocks: tuple[VotingBlock, ...] = ()
    """The voting blocks of the days before today (cancelled days have none)."""
    cancelled_days: frozenset[int] = frozenset()
    """Days whose voting a removal cancelled."""
    nights: tuple[Night, ...] = ()
    """Every night so far, the current one last."""
    first_killed: int | None = None
    """The seat killed in the first night; None for a miss (or before it)."""
    best_move: tuple[int, ...] = ()
    """The three seats the first-killed player named."""
    best_move_open: bool = False
    """The best move may be logged now."""
    removals: tuple[Removal, ...] = ()
    """Every removal, a fourth foul included."""
    morning_kill: int | None = None
    """The seat killed in the night before today (his last word opens the day)."""
    last_word: tuple[int, ...] = ()
    """The seats that have left and are giving their last word now (game-log.md, Last
    word): those voted or lifted out today until the night, the seat killed by the shot
    until the day's first nomination. Fouls and a removal may still be given to them."""
    quiet_since: int = 1
    """The night from which the draw count runs (no departure since)."""
    checks: int = 0
    """How many of the events were checks (a spectator's count leaves them out: how
    many checks a night has would tell whether the don or the sheriff is alive)."""

    # --- questions -------------------------------------------------------------

    @property
    def settings(self) -> TableSettings:
        """The table's settings."""
        return self.log.table

    @property
    def roles(self) -> tuple[Role, ...]:
        """The roles, seat 1 first."""
        return self.log.roles

    def is_finished(self) -> bool:
        """True once the game has a result."""
        return self.outcome is not None

    @property
    def winner(self) -> Winner | None:
        """The result once finished; None while the game runs."""
        return self.outcome.winner if self.outcome is not None else None

    @property
    def end(self) -> End | None:
        """Why the game ended, once finished."""
        return self.outcome.end if self.outcome is not None else None

    def is_alive(self, seat: int) -> bool:
        """True while the seat is in the game."""
        return seat in self.alive

    def role(self, seat: int) -> Role:
        """The role of a seat."""
        return self.log.roles[seat - 1]

    def team_alive(self, team: Team) -> tuple[int, ...]:
        """The living seats of a team."""
        return tuple(s for s in self.alive if self.role(s).team is team)

    @property
    def night(self) -> Night | None:
        """The current night; None during a day."""
        return self.nights[-1] if self.phase.is_night() and self.nights else None

    def is_voting_day(self, day: int) -> bool:
        """True when day `day` has a voting by the settings (cancellations aside)."""
        return day > 1 or self.settings.day1_voting

    def voting_blocks(self) -> tuple[VotingBlock, ...]:
        """Every voting block of the game so far, today's included (cancelled days excluded)."""
        return self.blocks + self.voting.blocks

    def speech_order(self) -> tuple[Speech, ...]:
        """The speeches of the current day: the morning kill's last word, then the living
        from the first speaker round the table (game-rules.md). Empty at night."""
        if not self.phase.is_day():
            return ()
        settings = self.settings
        speeches: list[Speech] = []
        if self.morning_kill is not None:
            speeches.append(
                Speech(self.morning_kill, SpeechKind.LAST_WORD, settings.last_word_seconds)
            )
        day = self.phase.number
        losing = {seat for seat, d in self.lost_speech if d == day}
        short = 3 <= len(self.alive) <= 4
        for offset in range(10):
            seat = (self.first_speaker - 1 + offset) % 10 + 1
            if seat not in self.alive:
                continue
            if seat in losing:
                kind = SpeechKind.SHORT if short else SpeechKind.LOST
                seconds = settings.short_speech_seconds if short else 0
                speeches.append(Speech(seat, kind, seconds))
            else:
                speeches.append(Speech(seat, SpeechKind.SPEECH, settings.speech_seconds))
        return tuple(speeches)

    def defence_order(self) -> tuple[Speech, ...]:
        """The tied players' defence speeches before a revote due now (in nomination
        order); empty when no revote is due."""
        if not self.voting.is_revote_due():
            return ()
        seconds = self.settings.defence_seconds
        return tuple(Speech(seat, SpeechKind.DEFENCE, seconds) for seat in self.voting.candidates)

    def expects(self) -> tuple[EventType, ...]:
        """The event types that may come next (those the rules allow now)."""
        return expected_types(self)

    @property
    def ruleset(self) -> str:
        """The tournament ruleset the protocol belongs to: the table's regulation."""
        return self.settings.code


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
    if voting.vote_due() is None:
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
