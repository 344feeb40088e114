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

#: Event types whose being expected tells a secret (whether the don or sheriff is alive).
_SECRET = frozenset({EventType.DON_CHECK, EventType.SHERIFF_CHECK})


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
    winner: Winner | None = None
    """The result once finished; None while the game runs."""
    end: str | None = None
    """Why the game ended: "no_black", "black_majority", "defeat" or "draw"."""
    defeat: tuple[Team, str] | None = None
    """A procedural defeat: the team and the reason."""
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
        return self.winner is not None

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

    # --- outputs ---------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The `mafiatab game replay --json` document (game-log.md)."""
        data: dict[str, Any] = {
            "finished": self.is_finished(),
            "winner": self.winner.value if self.winner else None,
            "phase": self.phase.to_json(),
            "alive": list(self.alive),
            "left": [d.to_json() for d in self.left],
            "fouls": {str(n): f for n, f in enumerate(self.fouls, start=1) if f},
        }
        if self.is_finished():
            data["protocol"] = self.protocol()
        return data

    def public_json(self, *, reveal: bool = True) -> dict[str, Any]:
        """What a spectator may see: `to_json` and the open facts of the day (nominations,
        votes, speeches, best move, expected events), no role and no night secret
        before the end (the protocol, with the roles, only once finished). The checks
        are left out of `expects` and of the count of `events` until the end: whether
        the don or the sheriff may still check would tell who they are.

        `reveal=False` keeps the secrets after the end too (the winner is told, the
        protocol, the nights and the checks are not): for spectators from whom the
        results of the game are withheld."""
        data = self.to_json()
        revealed = self.is_finished() and reveal
        if not revealed:
            data.pop("protocol", None)
        data.update(
            events=self.events if revealed else self.events - self.checks,
            table=self.settings.code,
            seats=list(self.log.seats),
            voting=self.voting.to_json(),
            blocks=[b.public_json() for b in self.voting_blocks()],
            speeches=[s.to_json() for s in self.speech_order()],
            defence=[s.to_json() for s in self.defence_order()],
            lost_speech=[{"seat": s, "day": d} for s, d in self.lost_speech],
            first_killed=self.first_killed,
            last_word=list(self.last_word),
            best_move=list(self.best_move),
            best_move_open=self.best_move_open,
            expects=[t.value for t in self.expects() if revealed or t not in _SECRET],
        )
        if self.is_finished():
            data["end"] = self.end
        if revealed:
            data["nights"] = [n.to_json() for n in self.nights]
        return data

    def judge_json(self) -> dict[str, Any]:
        """Everything, secrets included: `public_json` with the roles and the nights."""
        data = self.public_json()
        data["roles"] = [r.value for r in self.roles]
        data["nights"] = [n.to_json() for n in self.nights]
        data["end"] = self.end
        data["events"] = self.events
        data["settings"] = self.settings.to_json()
        return data

    def protocol(self) -> dict[str, Any]:
        """The finished game's protocol, a game of the tournament file (game-log.md).

        ValueError while the game runs.
        """
        if self.winner is None:
            raise ValueError("the game is not finished")
        log = self.log
        data: dict[str, Any] = {}
        if log.id is not None:
            data["id"] = log.id
        data["stage"] = log.stage.value if log.stage else "qualifying"
        for key, value in (
            ("round", log.round),
            ("table", log.table_number),
            ("date", log.date),
            ("judge", log.judge),
        ):
            if value is not None:
                data[key] = value
        data["seats"] = [
            {"player": player, "role": role.value, "fouls": fouls}
            for player, role, fouls in zip(log.seats, log.roles, self.fouls, strict=True)
        ]
        data["winner"] = self.winner.value
        data["first_killed"] = self.first_killed
        if self.best_move:
            data["best_move"] = list(self.best_move)
        if self.removals:
            data["disqualified"] = [
                {"seat": r.seat, "reason": r.reason, "online": r.online, "fined": r.fined}
                for r in self.removals
            ]
        data["voting"] = [b.to_json() for b in self.voting_blocks()]
        return data

    @property
    def ruleset(self) -> str:
        """The tournament ruleset the protocol belongs to ("fiim" or "fiim-online")."""
        return "fiim-online" if self.settings.online else "fiim"


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
