"""Looking closer at wrong types: msgspec names only the first wrong value, so a
document whose types are off is read again piece by piece (each game, seat and
entry converted on its own), and each wrong value becomes a problem naming the
game, the seat and the field, while the well-formed games are still read and
checked. The voting blocks of a protocol are read this way too
(`voting_from_data`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, TypeVar, get_args, get_origin

import msgspec

from mafiatab.core.problems import Problem, problem, quoted
from mafiatab.core.protocol import Protocol, Tournament, VotingRound
from mafiatab.core.records.reader import _Reader, _vote
from mafiatab.core.records.schema import (
    FORMAT,
    TournamentFileError,
    _Extra,
    _File,
    _Game,
    _Penalty,
    _Removal,
    _ScheduledRound,
    _Seat,
    _TournamentPenalty,
    _Vote,
)


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
    if get_origin(base) in (list, tuple):
        item = get_args(base)[0]
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
            params: dict[str, object] = {"value": quoted(value)}
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
    header = _Where(gid, None, "")
    _explain_fields(data, _Game, header, problems, nested)
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
        _read_entries(value, _TournamentPenalty, "penalties", penalties, problems)

    schedule: list[_ScheduledRound] = []

    def read_schedule(value: object) -> None:
        _read_entries(value, _ScheduledRound, "schedule", schedule, problems)

    before = len(problems)
    _explain_fields(
        data,
        _File,
        _Where(None, None, ""),
        problems,
        {"games": read_games, "penalties": read_penalties, "schedule": read_schedule},
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
        stages=data.get("stages"),
        schedule=schedule,
    )
    return reader.finish(record, games, reader.tournament_penalties(penalties))


def _read_entries(
    value: object, kind: type[S], name: str, out: list[S], problems: list[Problem]
) -> None:
    """The records of a top-level list of the file (`penalties`, `schedule`), each
    converted or explained."""
    if not isinstance(value, list):
        problems.append(problem(None, None, name, "type.list"))
        return
    for index, item in enumerate(value, start=1):
        record = _convert_or_explain(item, kind, _Where(None, None, f"{name}[{index}]"), problems)
        if record is not None:
            out.append(record)


def _int_or_none(value: object) -> int | None:
    return value if type(value) is int else None


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
