"""The fast reading of a well-formed tournament file.

msgspec decodes the JSON straight into typed records, checking every type in C,
and the records become core objects with a few checks types cannot express. This
reading only ever says yes: a file it does not take whole (a type off, an unknown
role, any rule of the regulation broken) returns None, and `tournament_file` reads
it again the slow way, which names every problem. A property test holds the two
readings to the same result.
"""

from __future__ import annotations

import codecs
from decimal import Decimal
from fractions import Fraction
from typing import Literal

import msgspec

from mafiatab.core.protocol import (
    GamePenalty,
    JudgeExtra,
    Protocol,
    Removal,
    Tournament,
    TournamentPenalty,
)
from mafiatab.core.regulations import REGULATIONS, Regulation
from mafiatab.core.roles import Role, Stage, Winner
from mafiatab.core.validation import validate_protocol, validate_tournament_settings

FORMAT = "mafiatab-tournament/1"

ROLES: dict[str, Role] = {r.value: r for r in Role} | {r.letter: r for r in Role}
STAGES: dict[str, Stage] = {s.value: s for s in Stage}
WINNERS: dict[str, Winner] = {w.value: w for w in Winner}

_FRACTIONS: dict[type, dict[object, Fraction]] = {}


def to_fraction(value: int | float | str | Decimal | Fraction) -> Fraction:
    """An exact fraction from a JSON number: 0.3 is 3/10, not the nearest binary float.

    Points take few distinct values, so each is converted once and shared.
    """
    cache = _FRACTIONS.setdefault(type(value), {})
    found = cache.get(value)
    if found is None:
        found = Fraction(repr(value)) if isinstance(value, float) else Fraction(value)
        if len(cache) < 4096:
            cache[value] = found
    return found


_ROLE_TUPLES: dict[tuple[str, ...], tuple[Role, ...]] = {}


def roles_of(raw: tuple[str, ...]) -> tuple[Role, ...]:
    """Roles from their texts; one shared tuple per distinct deal. KeyError if unknown."""
    roles = _ROLE_TUPLES.get(raw)
    if roles is None:
        roles = tuple([ROLES[text] for text in raw])
        if len(_ROLE_TUPLES) < 8192:
            _ROLE_TUPLES[raw] = roles
    return roles


class _Seat(msgspec.Struct):
    player: str
    role: str
    fouls: int = 0


class _Extra(msgspec.Struct):
    seat: int
    points: int | float
    reason: str = ""
    chief_approved: bool = False


class _Penalty(msgspec.Struct):
    seat: int
    rule: str
    reason: str = ""


class _Removal(msgspec.Struct):
    seat: int
    reason: str = ""
    online: bool = False
    fined: bool = True


class _Game(msgspec.Struct):
    stage: Literal["qualifying", "semifinal", "final"]
    seats: list[_Seat]
    winner: Literal["red", "black", "draw"]
    id: str | None = None
    round: int | None = None
    table: int | None = None
    date: str | None = None
    judge: str | None = None
    first_killed: int | None = None
    best_move: list[int] = []
    judge_extra: list[_Extra] = []
    penalties: list[_Penalty] = []
    disqualified: list[_Removal] = []
    replayed: bool = False


class _TournamentPenalty(msgspec.Struct):
    player: str
    points: int | float
    reason: str = ""


class _File(msgspec.Struct):
    format: str
    name: str
    ruleset: str
    games: list[_Game]
    participants: int | None = None
    games_before_final: int | None = None
    lot_seed: int | None = None
    penalties: list[_TournamentPenalty] = []


_DECODER = msgspec.json.Decoder(_File)


def read_well_formed(text: str | bytes) -> Tournament | None:
    """The tournament of a file that is right in every respect; None otherwise."""
    if isinstance(text, bytes) and text.startswith(codecs.BOM_UTF8):
        text = text[len(codecs.BOM_UTF8) :]
    try:
        record = _DECODER.decode(text)
    except msgspec.MsgspecError:
        return None
    return _tournament(record)


def tournament_from_data(data: object) -> Tournament | None:
    """The tournament of a decoded document that is right in every respect; else None."""
    try:
        record = msgspec.convert(data, _File)
    except msgspec.MsgspecError:
        return None
    return _tournament(record)


def protocol_from_data(data: object, position: int, regulation: Regulation) -> Protocol | None:
    """One decoded protocol that is right in every respect under `regulation`; else None."""
    try:
        return _protocol(msgspec.convert(data, _Game), position, regulation)
    except (msgspec.MsgspecError, _NotPlain):
        return None


def _tournament(record: _File) -> Tournament | None:
    regulation = REGULATIONS.get(record.ruleset)
    if record.format != FORMAT or regulation is None or not record.name.strip():
        return None
    try:
        games = tuple(
            _protocol(game, position, regulation)
            for position, game in enumerate(record.games, start=1)
        )
        penalties = tuple(_tournament_penalty(p) for p in record.penalties)
    except _NotPlain:
        return None
    tournament = Tournament(
        name=record.name,
        ruleset=record.ruleset,
        games=games,
        participants=record.participants,
        games_before_final=record.games_before_final,
        lot_seed=record.lot_seed or 0,
        penalties=penalties,
    )
    return None if validate_tournament_settings(tournament) else tournament


class _NotPlain(Exception):
    """The record needs the slow reading."""


def _finite(value: int | float) -> Fraction:
    if isinstance(value, float) and not (value - value == 0):
        raise _NotPlain
    return to_fraction(value)


def _protocol(game: _Game, position: int, regulation: Regulation) -> Protocol:
    seats = game.seats
    gid = game.id
    if gid is None:
        gid = f"game {position}"
    elif not gid.strip():
        raise _NotPlain
    try:
        roles = roles_of(tuple([seat.role for seat in seats]))
    except KeyError:
        raise _NotPlain from None
    protocol = Protocol(
        gid,
        STAGES[game.stage],
        tuple([seat.player for seat in seats]),
        roles,
        WINNERS[game.winner],
        tuple([seat.fouls for seat in seats]),
        game.round,
        game.table,
        game.date,
        game.judge,
        game.first_killed,
        tuple(game.best_move),
        tuple(
            [
                JudgeExtra(e.seat, _finite(e.points), e.reason, e.chief_approved)
                for e in game.judge_extra
            ]
        ),
        tuple([GamePenalty(p.seat, p.rule, p.reason) for p in game.penalties]),
        tuple([Removal(r.seat, r.reason, r.online, r.fined) for r in game.disqualified]),
        game.replayed,
    )
    if validate_protocol(protocol, regulation):
        raise _NotPlain
    return protocol


def _tournament_penalty(penalty: _TournamentPenalty) -> TournamentPenalty:
    return TournamentPenalty(penalty.player, _finite(penalty.points), penalty.reason)
