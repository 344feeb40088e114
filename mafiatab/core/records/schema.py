"""The records of a tournament file: the msgspec structs its JSON is decoded or
converted into (every type checked in C), the file's vocabulary (format, roles,
stages, winners) and the error that refuses a file."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any, Final, Literal

import msgspec

from mafiatab.core.problems import TournamentFileError as TournamentFileError
from mafiatab.core.roles import Role, Stage, Winner

FORMAT: Final = "mafiatab-tournament/1"

ROLES: dict[str, Role] = {r.value: r for r in Role} | {r.letter: r for r in Role}
STAGES: dict[str, Stage] = {s.value: s for s in Stage}
WINNERS: dict[str, Winner] = {w.value: w for w in Winner}

#: The deepest nesting of JSON the reading takes (a file needs 5 levels).
MAX_DEPTH: Final = 64


def to_fraction(value: int | float | str | Decimal | Fraction) -> Fraction:
    """An exact fraction from a JSON number: 0.3 is 3/10, not the nearest binary float."""
    return Fraction(repr(value)) if isinstance(value, float) else Fraction(value)


class _Seat(msgspec.Struct, gc=False):
    player: str
    role: str
    fouls: int = 0


class _Extra(msgspec.Struct, gc=False):
    seat: int
    points: int | float
    reason: str = ""
    chief_approved: bool = False


class _Penalty(msgspec.Struct, gc=False):
    seat: int
    rule: str
    reason: str = ""


class _Removal(msgspec.Struct, gc=False):
    seat: int
    reason: str = ""
    online: bool = False
    fined: bool = True


class _Vote(msgspec.Struct, gc=False):
    day: int
    nominees: tuple[int, ...] | None = None
    votes: tuple[int, ...] | None = None
    nominated_by: tuple[int | None, ...] | None = None
    revote: bool = False
    lift: int | None = None


class _Game(msgspec.Struct, gc=False):
    stage: Literal["qualifying", "semifinal", "final"]
    seats: tuple[_Seat, ...]
    winner: Literal["red", "black", "draw"]
    id: str | None = None
    round: int | None = None
    table: int | None = None
    date: str | None = None
    judge: str | None = None
    first_killed: int | None = None
    best_move: tuple[int, ...] | None = None
    judge_extra: tuple[_Extra, ...] | None = None
    penalties: tuple[_Penalty, ...] | None = None
    disqualified: tuple[_Removal, ...] | None = None
    replayed: bool = False
    voting: tuple[_Vote, ...] | None = None


class _TournamentPenalty(msgspec.Struct, gc=False):
    player: str
    points: int | float
    reason: str = ""


class _ScheduledRound(msgspec.Struct, gc=False):
    stage: Literal["qualifying", "semifinal", "final"]
    round: int
    starts_at: str | None = None
    place: str = ""
    link: str = ""


class _File(msgspec.Struct, gc=False):
    format: str
    name: str
    ruleset: str
    games: list[_Game]
    participants: int | None = None
    games_before_final: int | None = None
    lot_seed: int | None = None
    penalties: list[_TournamentPenalty] | None = None
    stages: Any = None
    schedule: list[_ScheduledRound] | None = None


_FILE_DECODER = msgspec.json.Decoder(_File)
