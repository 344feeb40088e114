"""The one reading of tournament files and protocols.

Every protocol, whatever its door (a file's text, a decoded document, the web
form's or the API's dictionary), is read here the same way: msgspec decodes or
converts it into the typed records below, checking every type in C; the records
become core objects (`Protocol`, `Tournament`); and the one validator
(`mafiatab.core.validation`) checks every rule. A file is accepted whole or
refused whole with `TournamentFileError`, which lists every problem as a code.

When the types are off, msgspec names only the first wrong value, so the reading
then looks closer with the same records: each game, seat and entry is converted on
its own, and each wrong value becomes a problem naming the game, the seat and the
field, while the well-formed games are still checked against the rules.
"""

from __future__ import annotations

import codecs
import json
import math
from collections.abc import Callable, Iterable
from decimal import Decimal
from fractions import Fraction
from functools import partial
from operator import attrgetter
from typing import Any, Final, Literal, TypeVar, get_args, get_origin

import msgspec

from mafiatab.core.names import nickname_key
from mafiatab.core.problems import Problem, problem, shown
from mafiatab.core.protocol import (
    GamePenalty,
    JudgeExtra,
    Protocol,
    Removal,
    Tournament,
    TournamentPenalty,
    VotingRound,
)
from mafiatab.core.regulations import REGULATIONS, Regulation
from mafiatab.core.roles import Role, Stage, Winner
from mafiatab.core.validation import Checker, validate_protocol, validate_tournament_settings

FORMAT: Final = "mafiatab-tournament/1"

ROLES: dict[str, Role] = {r.value: r for r in Role} | {r.letter: r for r in Role}
STAGES: dict[str, Stage] = {s.value: s for s in Stage}
WINNERS: dict[str, Winner] = {w.value: w for w in Winner}

#: The deepest nesting of JSON the reading takes (a file needs 5 levels).
MAX_DEPTH: Final = 64


class TournamentFileError(ValueError):
    """A refused tournament file or protocol, with every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


def to_fraction(value: int | float | str | Decimal | Fraction) -> Fraction:
    """An exact fraction from a JSON number: 0.3 is 3/10, not the nearest binary float."""
    return Fraction(repr(value)) if isinstance(value, float) else Fraction(value)


# --- the records -------------------------------------------------------------------


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
    nominees: list[int] | None = None
    votes: list[int] | None = None
    nominated_by: list[int | None] | None = None
    revote: bool = False
    lift: int | None = None


class _Game(msgspec.Struct, gc=False):
    stage: Literal["qualifying", "semifinal", "final"]
    seats: list[_Seat]
    winner: Literal["red", "black", "draw"]
    id: str | None = None
    round: int | None = None
    table: int | None = None
    date: str | None = None
    judge: str | None = None
    first_killed: int | None = None
    best_move: list[int] | None = None
    judge_extra: list[_Extra] | None = None
    penalties: list[_Penalty] | None = None
    disqualified: list[_Removal] | None = None
    replayed: bool = False
    voting: list[_Vote] | None = None


class _TournamentPenalty(msgspec.Struct, gc=False):
    player: str
    points: int | float
    reason: str = ""


class _File(msgspec.Struct, gc=False):
    format: str
    name: str
    ruleset: str
    games: list[_Game]
    participants: int | None = None
    games_before_final: int | None = None
    lot_seed: int | None = None
    penalties: list[_TournamentPenalty] | None = None


_FILE_DECODER = msgspec.json.Decoder(_File)
#: A `Protocol` from all its fields in this order, without the keyword handling of
#: its constructor (a file holds tens of thousands of them).
_new_protocol: Callable[[tuple[Any, ...]], Protocol] = partial(tuple.__new__, Protocol)
_PROTOCOL_FIELDS = (
    "id",
    "stage",
    "players",
    "roles",
    "winner",
    "fouls",
    "round",
    "table",
    "date",
    "judge",
    "first_killed",
    "best_move",
    "judge_extra",
    "penalties",
    "disqualified",
    "replayed",
    "voting",
)
if Protocol._fields != _PROTOCOL_FIELDS:  # the reading builds protocols field by field
    raise RuntimeError("Protocol's fields changed: update records._Reader.protocol")
_PLAYER = attrgetter("player")
_ROLE = attrgetter("role")
_FOULS = attrgetter("fouls")


# --- records -> core objects ------------------------------------------------------


class _Reader:
    """One reading: turns records into core objects, collecting every problem.

    Values seen once (role columns, amounts of points) are converted once per reading."""

    def __init__(self, regulation: Regulation | None) -> None:
        self.regulation = regulation
        self.checker = Checker(regulation) if regulation is not None else None
        self.problems: list[Problem] = []
        self._roles: dict[tuple[str, ...], tuple[Role, ...]] = {}
        self._points: dict[int | float, Fraction] = {}

    def points(
        self, value: int | float, game: str | None, seat: int | None, field: str = "judge_extra"
    ) -> Fraction | None:
        found = self._points.get(value)
        if found is None:
            if type(value) is float and not math.isfinite(value):
                self.problems.append(problem(game, seat, field, "type.number", value=shown(value)))
                return None
            found = self._points[value] = to_fraction(value)
        return found

    def roles(self, raw: tuple[str, ...], gid: str) -> tuple[Role, ...] | None:
        roles = self._roles.get(raw)
        if roles is None:
            unknown = [(n, text) for n, text in enumerate(raw, start=1) if text not in ROLES]
            if unknown:
                for number, text in unknown:
                    self.problems.append(
                        problem(gid, number, "role", "role.unknown", value=shown(text))
                    )
                return None
            roles = self._roles[raw] = tuple([ROLES[text] for text in raw])
        return roles

    def protocol(self, game: _Game, position: int) -> Protocol | None:
        """The protocol of a well-typed record, validated when the regulation is known."""
        gid = game.id
        if gid is None or not gid.strip():
            gid = self.default_id(gid, position)
        seats = game.seats
        if len(seats) != 10:
            self.problems.append(problem(gid, None, "seats", "seats.count", count=len(seats)))
            return None
        raw = tuple(map(_ROLE, seats))
        roles = self._roles.get(raw) or self.roles(raw, gid)
        extras = self.extras(game.judge_extra, gid) if game.judge_extra else ()
        if roles is None or extras is None:
            return None
        protocol = _new_protocol(
            (
                gid,
                STAGES[game.stage],
                tuple(map(_PLAYER, seats)),
                roles,
                WINNERS[game.winner],
                tuple(map(_FOULS, seats)),
                game.round,
                game.table,
                game.date,
                game.judge,
                game.first_killed,
                tuple(game.best_move) if game.best_move else (),
                extras,
                tuple([GamePenalty(p.seat, p.rule, p.reason) for p in game.penalties])
                if game.penalties
                else (),
                tuple([Removal(r.seat, r.reason, r.online, r.fined) for r in game.disqualified])
                if game.disqualified
                else (),
                game.replayed,
                tuple([_vote(v) for v in game.voting]) if game.voting else (),
            )
        )
        checker = self.checker
        if checker is not None:
            found = validate_protocol(protocol, checker.regulation, checker)
            if found:
                self.problems.extend(found)
        return protocol

    def default_id(self, gid: str | None, position: int) -> str:
        """The label of a game without an id ("game N"); a blank id is a problem."""
        label = f"game {position}"
        if gid is not None:
            self.problems.append(problem(label, None, "id", "id.empty", value=shown(gid)))
        return label

    def extras(self, entries: list[_Extra], gid: str) -> tuple[JudgeExtra, ...] | None:
        """Judge extra points with exact amounts; None if an amount is not finite."""
        known = self._points
        result = []
        for e in entries:
            points = known.get(e.points)
            if points is None:
                points = self.points(e.points, gid, e.seat)
                if points is None:
                    return None
            result.append(JudgeExtra(e.seat, points, e.reason, e.chief_approved))
        return tuple(result)

    def tournament_penalties(
        self, penalties: Iterable[_TournamentPenalty]
    ) -> tuple[TournamentPenalty, ...]:
        result = []
        for index, p in enumerate(penalties, start=1):
            field = f"penalties[{index}]"
            points = self.points(p.points, None, None, field)
            if points is not None:
                result.append(TournamentPenalty(p.player, points, p.reason))
        return tuple(result)

    def header(self, record: _File | dict[str, Any]) -> bool:
        """Check the format and the ruleset; False when the format is wrong (nothing
        else is read then)."""
        get = record.get if isinstance(record, dict) else lambda key: getattr(record, key)
        found = get("format")
        if found != FORMAT:
            self.problems.append(
                problem(
                    None, None, "format", "format.wrong", expected=repr(FORMAT), value=shown(found)
                )
            )
            return False
        ruleset = get("ruleset")
        regulation = REGULATIONS.get(ruleset) if isinstance(ruleset, str) else None
        if regulation is None:
            known = ", ".join(sorted(REGULATIONS))
            self.problems.append(
                problem(None, None, "ruleset", "ruleset.unknown", known=known, value=shown(ruleset))
            )
        else:
            self.regulation = regulation
            self.checker = Checker(regulation)
        return True

    def finish(
        self, record: _File, games: list[Protocol], penalties: tuple[TournamentPenalty, ...]
    ) -> Tournament:
        """The tournament of a file whose parts have been read; raises TournamentFileError
        when any problem was found."""
        tournament = _with_canonical_nicknames(
            Tournament(
                name=record.name,
                ruleset=record.ruleset,
                games=tuple(games),
                participants=record.participants,
                games_before_final=record.games_before_final,
                lot_seed=record.lot_seed or 0,
                penalties=penalties,
            ),
            self.checker,
        )
        self.problems.extend(validate_tournament_settings(tournament, self.checker))
        if self.problems:
            raise TournamentFileError(self.problems)
        return tournament


def _vote(v: _Vote) -> VotingRound:
    return VotingRound(
        v.day,
        tuple(v.nominees or ()),
        tuple(v.votes or ()),
        tuple(v.nominated_by or ()),
        v.revote,
        v.lift,
    )


def _read_file(record: _File) -> Tournament:
    reader = _Reader(None)
    if not reader.header(record):
        raise TournamentFileError(reader.problems)
    games = [
        p
        for position, game in enumerate(record.games, start=1)
        if (p := reader.protocol(game, position)) is not None
    ]
    penalties = reader.tournament_penalties(record.penalties or ())
    return reader.finish(record, games, penalties)


def _with_canonical_nicknames(tournament: Tournament, checker: Checker | None) -> Tournament:
    """The tournament with every player under one spelling: nicknames are compared by
    `nickname_key` ("Кэп" and "кэп" are one player), and the first spelling seen in
    the games (in file order, seat 1 first) is the canonical one; a tournament
    penalty takes its player's spelling too. `checker` is the one that validated the
    games (it knows every nickname's key and whether case variants were seen)."""
    if checker is None:
        return tournament
    variants: dict[str, str] = {}
    if checker.has_case_variants:
        canonical: dict[str, str] = {}
        for game in tournament.games:
            for nick in game.players:
                first = canonical.setdefault(nickname_key(nick), nick)
                if first != nick:
                    variants[nick] = first
    else:
        canonical = {key: nick for nick, key in checker.nicknames.items()}
    for penalty in tournament.penalties:
        spelling = canonical.get(nickname_key(penalty.player))
        if spelling is not None and spelling != penalty.player:
            variants[penalty.player] = spelling
    if not variants:
        return tournament
    games = tuple(
        game._replace(players=tuple([variants.get(n, n) for n in game.players]))
        if any(n in variants for n in game.players)
        else game
        for game in tournament.games
    )
    penalties = tuple(
        TournamentPenalty(variants.get(p.player, p.player), p.points, p.reason)
        for p in tournament.penalties
    )
    return Tournament(
        name=tournament.name,
        ruleset=tournament.ruleset,
        games=games,
        participants=tournament.participants,
        games_before_final=tournament.games_before_final,
        lot_seed=tournament.lot_seed,
        penalties=penalties,
    )


# --- the doors --------------------------------------------------------------------


def _strip_bom(text: str | bytes) -> str | bytes:
    if isinstance(text, bytes) and text.startswith(codecs.BOM_UTF8):
        return text[len(codecs.BOM_UTF8) :]
    if isinstance(text, str) and text.startswith("\ufeff"):
        return text[1:]
    return text


def decode_json(text: str | bytes) -> object:
    """Decoded JSON with the standard library's meaning, at msgspec's speed.

    msgspec decodes strict JSON about twice as fast as `json`; whatever it declines
    (NaN, numbers beyond a double, lone surrogates) is read by `json`, which accepts
    or refuses it as always. ValueError if it is not JSON; RecursionError if it is
    nested too deep."""
    text = _strip_bom(text)
    try:
        return msgspec.json.decode(text)
    except msgspec.MsgspecError:
        return json.loads(text)


def read_text(text: str | bytes) -> Tournament:
    """The tournament of a file's text; TournamentFileError listing every problem."""
    text = _strip_bom(text)
    try:
        record = _FILE_DECODER.decode(text)
    except (msgspec.MsgspecError, RecursionError):
        pass
    else:
        return _read_file(record)
    try:
        data = decode_json(text)
    except RecursionError:
        raise TournamentFileError(
            [problem(None, None, "file", "file.too_deep", limit=MAX_DEPTH)]
        ) from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise TournamentFileError(
            [problem(None, None, "file", "file.not_json", error=str(exc)[:200])]
        ) from None
    return read_document(data)


def read_document(data: object) -> Tournament:
    """The tournament of a decoded document; TournamentFileError listing every problem."""
    try:
        record = msgspec.convert(data, _File)
    except (msgspec.ValidationError, RecursionError) as exc:
        if _too_deep(data):
            raise TournamentFileError(
                [problem(None, None, "file", "file.too_deep", limit=MAX_DEPTH)]
            ) from None
        return _read_explained(data, str(exc))
    return _read_file(record)


def read_protocol(data: object, position: int, regulation: Regulation) -> Protocol:
    """One protocol from its dictionary form, validated under `regulation`;
    TournamentFileError listing every problem."""
    reader = _Reader(regulation)
    try:
        record = msgspec.convert(data, _Game)
    except (msgspec.ValidationError, RecursionError):
        if _too_deep(data):
            raise TournamentFileError(
                [problem(f"game {position}", None, "game", "file.too_deep", limit=MAX_DEPTH)]
            ) from None
        protocol = _game_explained(reader, data, position)
    else:
        protocol = reader.protocol(record, position)
    if protocol is None or reader.problems:
        raise TournamentFileError(reader.problems)
    return protocol


def voting_from_data(
    data: object, game: str, problems: list[Problem] | None = None
) -> tuple[tuple[VotingRound, ...], list[Problem]]:
    """Voting blocks from their JSON form, with the problems of their shape (added to
    `problems` when given)."""
    if problems is None:
        problems = []
    if data is None:
        return (), problems
    if not isinstance(data, list):
        problems.append(problem(game, None, "voting", "type.list"))
        return (), problems
    blocks = []
    for index, item in enumerate(data, start=1):
        vote = _convert_or_explain(
            item, _Vote, _Where(game, None, f"voting[{index}]", dotted=True), problems
        )
        if vote is not None:
            blocks.append(_vote(vote))
    return tuple(blocks), problems


def _too_deep(data: object, depth: int = 0) -> bool:
    if depth > MAX_DEPTH:
        return True
    if isinstance(data, dict):
        return any(_too_deep(v, depth + 1) for v in data.values() if isinstance(v, dict | list))
    if isinstance(data, list):
        return any(_too_deep(v, depth + 1) for v in data if isinstance(v, dict | list))
    return False


# --- looking closer at wrong types -------------------------------------------------


class _Where:
    """Where a value sits, to name it in a problem: the game, the seat, and the field
    (an entry list's own name, or `name.key` for a key of a block when `dotted`)."""

    def __init__(
        self, game: str | None, seat: int | None, field: str, *, dotted: bool = False
    ) -> None:
        self.game, self.seat, self.field, self.dotted = game, seat, field, dotted

    def of(self, key: str) -> tuple[int | None, str]:
        """The seat and the field that name `key` of the value here."""
        if self.field == "":
            return self.seat, key
        if self.dotted or key not in ("seat", "points", "player", "rule"):
            return self.seat, f"{self.field}.{key}"
        return self.seat, self.field


def _type_code(annotation: Any, key: str) -> str:
    """The code of a value that is not of `annotation`."""
    if get_origin(annotation) is Literal:
        return "value.choice"
    args = set(get_args(annotation)) - {type(None)}
    base = next(iter(args)) if len(args) == 1 else annotation
    if args == {int, float}:
        return "type.number"
    if key == "player":
        return "type.nickname"
    if key == "role":
        return "role.unknown"
    if key in ("seat", "first_killed"):
        return "seat.range"
    if key == "best_move":
        return "type.seat_list"
    codes: dict[Any, str] = {int: "type.integer", str: "type.string", bool: "type.boolean"}
    if base in codes:
        return codes[base]
    if get_origin(base) is list:
        (item,) = get_args(base)
        return (
            "type.list"
            if isinstance(item, type) and issubclass(item, msgspec.Struct)
            else "type.integer_list"
        )
    return "type.object"


def _explain_fields(
    data: dict[str, Any],
    cls: type[msgspec.Struct],
    where: _Where,
    problems: list[Problem],
    nested: dict[str, Callable[[object], object]] | None = None,
    skip: tuple[str, ...] = (),
) -> None:
    """A problem for every missing or wrongly typed key of `data` against `cls`; the
    keys in `nested` are looked at by their own function."""
    for info in msgspec.structs.fields(cls):
        if info.encode_name in skip:
            continue
        seat, field = where.of(info.encode_name)
        if info.encode_name not in data:
            if info.required:
                problems.append(problem(where.game, seat, field, "field.missing"))
            continue
        value = data[info.encode_name]
        if nested and info.encode_name in nested and value is not None:
            nested[info.encode_name](value)
            continue
        try:
            msgspec.convert(value, info.type)
        except msgspec.ValidationError:
            code = _type_code(info.type, info.encode_name)
            params: dict[str, object] = {"value": shown(value)}
            if code == "value.choice":
                params["choices"] = ", ".join(get_args(info.type))
            problems.append(problem(where.game, seat, field, code, **params))


S = TypeVar("S", bound=msgspec.Struct)


def _convert_or_explain(
    data: object, cls: type[S], where: _Where, problems: list[Problem]
) -> S | None:
    """`data` as a record of `cls`, or None with the problems of its shape."""
    try:
        return msgspec.convert(data, cls)
    except msgspec.ValidationError:
        pass
    if not isinstance(data, dict):
        problems.append(problem(where.game, where.seat, where.field or "file", "type.object"))
        return None
    _explain_fields(data, cls, where, problems)
    return None


def _entries(value: object, cls: type[S], where: _Where, problems: list[Problem]) -> list[S]:
    """The well-typed entries of a list of objects, with a problem for every other."""
    if not isinstance(value, list):
        problems.append(problem(where.game, None, where.field, "type.list"))
        return []
    good = []
    for item in value:
        if not isinstance(item, dict):
            problems.append(problem(where.game, None, where.field, "type.list_of_objects"))
            continue
        seat = item.get("seat")
        at = _Where(where.game, seat if type(seat) is int else None, where.field)
        record = _convert_or_explain(item, cls, at, problems)
        if record is not None:
            good.append(record)
    return good


def _game_explained(reader: _Reader, data: object, position: int) -> Protocol | None:
    """A protocol read from a dictionary, looking closer where its types are off."""
    try:
        record = msgspec.convert(data, _Game)
    except msgspec.ValidationError:
        pass
    else:
        return reader.protocol(record, position)
    default_id = f"game {position}"
    if not isinstance(data, dict):
        reader.problems.append(problem(default_id, None, "game", "type.object"))
        return None
    gid = data.get("id")
    if not isinstance(gid, str) or not gid.strip():
        gid = default_id
    problems = reader.problems
    before = len(problems)
    nested: dict[str, Callable[[object], object]] = {
        "seats": lambda value: _explain_seats(value, gid, problems),
        "voting": lambda value: voting_from_data(value, gid, problems),
        "judge_extra": lambda value: _entries(
            value, _Extra, _Where(gid, None, "judge_extra"), problems
        ),
        "penalties": lambda value: _entries(
            value, _Penalty, _Where(gid, None, "penalties"), problems
        ),
        "disqualified": lambda value: _entries(
            value, _Removal, _Where(gid, None, "disqualified"), problems
        ),
    }
    _explain_fields(data, _Game, _Where(gid, None, ""), problems, nested)
    if len(problems) == before:
        problems.append(problem(gid, None, "game", "type.object"))
    return None


def _explain_seats(value: object, gid: str, problems: list[Problem]) -> None:
    if not isinstance(value, list):
        problems.append(problem(gid, None, "seats", "type.list"))
        return
    if len(value) != 10:
        problems.append(problem(gid, None, "seats", "seats.count", count=len(value)))
        return
    for number, seat in enumerate(value, start=1):
        if not isinstance(seat, dict):
            problems.append(problem(gid, number, "seats", "type.object"))
            continue
        _convert_or_explain(seat, _Seat, _Where(gid, number, ""), problems)


def _read_explained(data: object, error: str) -> Tournament:
    """Read a document whose types are off, naming every problem."""
    reader = _Reader(None)
    problems = reader.problems
    if not isinstance(data, dict):
        problems.append(problem(None, None, "file", "type.object"))
        raise TournamentFileError(problems)
    if not reader.header(data):
        raise TournamentFileError(problems)
    games: list[Protocol] = []
    penalties: list[_TournamentPenalty] = []

    def read_games(value: object) -> None:
        if not isinstance(value, list):
            problems.append(problem(None, None, "games", "type.list"))
            return
        for position, game in enumerate(value, start=1):
            protocol = _game_explained(reader, game, position)
            if protocol is not None:
                games.append(protocol)

    def read_penalties(value: object) -> None:
        if not isinstance(value, list):
            problems.append(problem(None, None, "penalties", "type.list"))
            return
        for index, item in enumerate(value, start=1):
            where = _Where(None, None, f"penalties[{index}]")
            record = _convert_or_explain(item, _TournamentPenalty, where, problems)
            if record is not None:
                penalties.append(record)

    before = len(problems)
    _explain_fields(
        data,
        _File,
        _Where(None, None, ""),
        problems,
        {"games": read_games, "penalties": read_penalties},
        skip=("format", "ruleset"),
    )
    if len(problems) == before:
        problems.append(problem(None, None, "file", "type.invalid", error=error[:200]))
    record = _File(
        format=FORMAT,
        name=data["name"] if isinstance(data.get("name"), str) else "?",
        ruleset=str(data.get("ruleset")),
        games=[],
        participants=_int_or_none(data.get("participants")),
        games_before_final=_int_or_none(data.get("games_before_final")),
        lot_seed=_int_or_none(data.get("lot_seed")),
    )
    return reader.finish(record, games, reader.tournament_penalties(penalties))


def _int_or_none(value: object) -> int | None:
    return value if type(value) is int else None
