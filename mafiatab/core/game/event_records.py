"""The events of a game log as values (game-log.md): `EventType` and the `Event`s, a
closed union of small frozen records, one per type (`Nominate`, `Vote`, ... `Defeat`),
each with its log form (`to_json`). Reading an event from its log form is
`mafiatab.core.game.events.parse_event`."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, TypeAlias

from mafiatab.core.roles import Team


class EventType(Enum):
    """The kinds of event a judge logs."""

    NOMINATE = "nominate"
    VOTE = "vote"
    LIFT = "lift"
    FOUL = "foul"
    REMOVE = "remove"
    PAUSE = "pause"
    NIGHT = "night"
    SHOTS = "shots"
    DON_CHECK = "don_check"
    SHERIFF_CHECK = "sheriff_check"
    DAY = "day"
    BEST_MOVE = "best_move"
    DEFEAT = "defeat"


@dataclass(frozen=True, slots=True, kw_only=True)
class _Record:
    """What every event has: its type and the keys the rules do not read."""

    type: ClassVar[EventType]
    """What happened."""
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    """Keys of the event that the rules do not read (an id, a time), kept as given."""

    def to_json(self) -> dict[str, Any]:
        """The event in its log form."""
        data: dict[str, Any] = dict(self.extra)
        data["type"] = self.type.value
        data.update(self._fields_json())
        return data

    def _fields_json(self) -> dict[str, Any]:
        return {}


@dataclass(frozen=True, slots=True)
class Nominate(_Record):
    """A seat nominates another for the vote."""

    type: ClassVar[EventType] = EventType.NOMINATE
    by: int
    """The nominating seat."""
    seat: int
    """The nominee."""

    def _fields_json(self) -> dict[str, Any]:
        return {"by": self.by, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Vote(_Record):
    """A vote (or revote): the votes of each candidate, in order."""

    type: ClassVar[EventType] = EventType.VOTE
    counts: tuple[int, ...]
    """Votes per candidate, in order."""

    def _fields_json(self) -> dict[str, Any]:
        return {"counts": list(self.counts)}


@dataclass(frozen=True, slots=True)
class Lift(_Record):
    """The lift vote: how many voted for all the tied leaving."""

    type: ClassVar[EventType] = EventType.LIFT
    votes: int
    """Votes for all the tied leaving (`for` in the log)."""

    def _fields_json(self) -> dict[str, Any]:
        return {"for": self.votes}


@dataclass(frozen=True, slots=True)
class Foul(_Record):
    """A foul."""

    type: ClassVar[EventType] = EventType.FOUL
    seat: int
    """The seat fouled."""

    def _fields_json(self) -> dict[str, Any]:
        return {"seat": self.seat}


@dataclass(frozen=True, slots=True)
class Remove(_Record):
    """The judge removes a player."""

    type: ClassVar[EventType] = EventType.REMOVE
    seat: int
    """The removed seat."""
    reason: str = ""
    """Why."""
    online: bool = False
    """An online removal."""
    fined: bool = True
    """The removal is fined."""

    def _fields_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "reason": self.reason,
            "online": self.online,
            "fined": self.fined,
        }


@dataclass(frozen=True, slots=True)
class Pause(_Record):
    """A time-out or a technical pause."""

    type: ClassVar[EventType] = EventType.PAUSE
    seat: int
    """The seat that asked for it."""
    minutes: int
    """How long."""
    reason: str = ""
    """Why."""

    def _fields_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "minutes": self.minutes, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class NightFalls(_Record):
    """The day ends; the night comes."""

    type: ClassVar[EventType] = EventType.NIGHT


@dataclass(frozen=True, slots=True)
class Shots(_Record):
    """The black team's shots of a night."""

    type: ClassVar[EventType] = EventType.SHOTS
    shots: tuple[tuple[int, int | None], ...]
    """Each living black-team seat and the seat it shot, None for no shot (`by`)."""

    def _fields_json(self) -> dict[str, Any]:
        return {"by": {str(by): target for by, target in self.shots}}


@dataclass(frozen=True, slots=True)
class DonCheck(_Record):
    """The don checks a seat."""

    type: ClassVar[EventType] = EventType.DON_CHECK
    seat: int
    """The checked seat."""

    def _fields_json(self) -> dict[str, Any]:
        return {"seat": self.seat}


@dataclass(frozen=True, slots=True)
class SheriffCheck(_Record):
    """The sheriff checks a seat."""

    type: ClassVar[EventType] = EventType.SHERIFF_CHECK
    seat: int
    """The checked seat."""

    def _fields_json(self) -> dict[str, Any]:
        return {"seat": self.seat}


@dataclass(frozen=True, slots=True)
class DayBreaks(_Record):
    """The night ends; the day comes."""

    type: ClassVar[EventType] = EventType.DAY


@dataclass(frozen=True, slots=True)
class BestMove(_Record):
    """The seats the first-killed player names."""

    type: ClassVar[EventType] = EventType.BEST_MOVE
    seats: tuple[int, ...]
    """The seats named."""

    def _fields_json(self) -> dict[str, Any]:
        return {"seats": list(self.seats)}


@dataclass(frozen=True, slots=True)
class Defeat(_Record):
    """A procedural defeat of a team."""

    type: ClassVar[EventType] = EventType.DEFEAT
    team: Team
    """The team given the defeat."""
    reason: str = ""
    """Why."""

    def _fields_json(self) -> dict[str, Any]:
        return {"team": self.team.value, "reason": self.reason}


#: One event of the log: a closed union, one small record per type (`EventType`).
Event: TypeAlias = (
    Nominate
    | Vote
    | Lift
    | Foul
    | Remove
    | Pause
    | NightFalls
    | Shots
    | DonCheck
    | SheriffCheck
    | DayBreaks
    | BestMove
    | Defeat
)
