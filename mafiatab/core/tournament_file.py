"""Reading and writing the tournament file, format `mafiatab-tournament/1`.

The file is the interchange format between mafiatab, other tools and people
(spec: tournament-file.md). A file is accepted whole or refused whole: reading
collects every problem (wrong types, missing keys, broken rules) and raises one
`TournamentFileError` that lists them all.
"""

from __future__ import annotations

import codecs
import json
import math
import os
from fractions import Fraction
from typing import Any, TypeGuard

import msgspec

from mafiatab.core.protocol import (
    GamePenalty,
    JudgeExtra,
    Protocol,
    Removal,
    Tournament,
    TournamentPenalty,
)
from mafiatab.core.records import (
    FORMAT,
    ROLES,
    STAGES,
    WINNERS,
    protocol_from_data,
    read_well_formed,
    to_fraction,
    tournament_from_data,
)
from mafiatab.core.regulations import REGULATIONS, Regulation, get_regulation
from mafiatab.core.roles import Role
from mafiatab.core.validation import Problem, validate_protocol, validate_tournament_settings

_ROLES, _STAGES, _WINNERS = ROLES, STAGES, WINNERS


class TournamentFileError(ValueError):
    """A refused tournament file or protocol, with every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


def _is_int(value: object) -> TypeGuard[int]:
    return type(value) is int


def _is_number(value: object) -> TypeGuard[int | float]:
    """A finite JSON number (Python's reader accepts NaN and Infinity, and 1e400 is inf)."""
    return type(value) is int or (type(value) is float and math.isfinite(value))


class _Reader:
    """Collects problems while turning decoded JSON into core objects."""

    def __init__(self, regulation: Regulation | None = None, *, quick: bool = True) -> None:
        self.quick = quick
        """Take a protocol that is right in every respect on the fast path (`records`)."""
        self.problems: list[Problem] = []
        self.regulation = regulation
        """Where known, each protocol read is checked against its rules at once."""

    def problem(self, game: str | None, seat: int | None, field: str, message: str) -> None:
        self.problems.append(Problem(game, seat, field, message))

    def wrong_type(self, game: str | None, seat: int | None, field: str, expected: str) -> None:
        self.problem(game, seat, field, f"expected {expected}")

    def optional_int(self, data: dict[str, Any], key: str, game: str | None) -> int | None:
        value = data.get(key)
        if value is None or _is_int(value):
            return value
        self.wrong_type(game, None, key, "an integer")
        return None

    def optional_str(self, data: dict[str, Any], key: str, game: str | None) -> str | None:
        value = data.get(key)
        if value is None or isinstance(value, str):
            return value
        self.wrong_type(game, None, key, "a string")
        return None

    def entries(self, data: dict[str, Any], key: str, game: str | None) -> list[dict[str, Any]]:
        value = data.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            self.wrong_type(game, None, key, "a list")
            return []
        good = []
        for item in value:
            if isinstance(item, dict):
                good.append(item)
            else:
                self.wrong_type(game, None, key, "a list of objects")
        return good

    def seat_of(self, entry: dict[str, Any], field: str, game: str) -> int | None:
        seat = entry.get("seat")
        if not _is_int(seat):
            self.problem(game, None, field, f"seat must be a number 1..10, not {seat!r}")
            return None
        return seat

    def flag(self, entry: dict[str, Any], key: str, default: bool, game: str, field: str) -> bool:
        value = entry.get(key, default)
        if isinstance(value, bool):
            return value
        self.wrong_type(game, None, f"{field}.{key}", "true or false")
        return default

    def text(self, entry: dict[str, Any], key: str, game: str | None, field: str) -> str:
        value = entry.get(key, "")
        if isinstance(value, str):
            return value
        self.wrong_type(game, None, f"{field}.{key}", "a string")
        return ""

    def protocol(self, data: object, position: int) -> Protocol | None:
        if self.quick and self.regulation is not None:
            plain = protocol_from_data(data, position, self.regulation)
            if plain is not None:
                return plain
        return self.explained_protocol(data, position)

    def explained_protocol(self, data: object, position: int) -> Protocol | None:
        """The reading of a protocol that names every problem of its shape and rules."""
        default_id = f"game {position}"
        if not isinstance(data, dict):
            self.wrong_type(default_id, None, "game", "an object")
            return None
        gid = data.get("id")
        if gid is None:  # absent or null: the default label
            gid = default_id
        elif not isinstance(gid, str) or not gid.strip():
            self.problem(default_id, None, "id", f"id must be a non-empty string, not {gid!r}")
            gid = default_id
        before = len(self.problems)
        stage = self.enum_value(data, "stage", _STAGES, gid)
        winner = self.enum_value(data, "winner", _WINNERS, gid)
        seats = self.seats(data, gid)
        first_killed = self.optional_int(data, "first_killed", gid)
        best_move = self.best_move(data, gid)
        protocol_kwargs: dict[str, Any] = {
            "round": self.optional_int(data, "round", gid),
            "table": self.optional_int(data, "table", gid),
            "date": self.optional_str(data, "date", gid),
            "judge": self.optional_str(data, "judge", gid),
            "judge_extra": self.judge_extra(data, gid),
            "penalties": self.penalties(data, gid),
            "disqualified": self.removals(data, gid),
        }
        replayed = data.get("replayed", False)
        if not isinstance(replayed, bool):
            self.wrong_type(gid, None, "replayed", "true or false")
            replayed = False
        if len(self.problems) > before or stage is None or winner is None or seats is None:
            return None
        players, roles, fouls = seats
        protocol = Protocol(
            id=gid,
            stage=stage,
            players=players,
            roles=roles,
            winner=winner,
            fouls=fouls,
            first_killed=first_killed,
            best_move=best_move,
            replayed=replayed,
            **protocol_kwargs,
        )
        if self.regulation is not None:
            self.problems.extend(validate_protocol(protocol, self.regulation))
        return protocol

    def enum_value(self, data: dict[str, Any], key: str, values: dict[str, Any], gid: str) -> Any:
        if key not in data:
            self.problem(gid, None, key, "missing")
            return None
        value = data[key]
        found = values.get(value) if isinstance(value, str) else None
        if found is None:
            self.problem(gid, None, key, f"must be one of {', '.join(values)}, not {value!r}")
        return found

    def seats(
        self, data: dict[str, Any], gid: str
    ) -> tuple[tuple[str, ...], tuple[Role, ...], tuple[int, ...]] | None:
        seats = data.get("seats")
        if seats is None:
            self.problem(gid, None, "seats", "missing")
            return None
        if not isinstance(seats, list):
            self.wrong_type(gid, None, "seats", "a list of 10 seats")
            return None
        if len(seats) != 10:
            self.problem(gid, None, "seats", f"a game has 10 seats, not {len(seats)}")
            return None
        try:  # the common case, a well-formed game, read at C speed
            players = tuple([seat["player"] for seat in seats])
            roles = tuple([_ROLES[seat["role"]] for seat in seats])
            fouls = tuple([seat.get("fouls", 0) for seat in seats])
        except (TypeError, KeyError, AttributeError):
            pass
        else:
            if set(map(type, players)) == {str} and set(map(type, fouls)) == {int}:
                return players, roles, fouls
        for number, seat in enumerate(seats, start=1):
            self.seat_problems(seat, number, gid)
        return None

    def seat_problems(self, seat: object, number: int, gid: str) -> None:
        """The problems of one malformed seat."""
        if type(seat) is not dict:
            self.wrong_type(gid, number, "seats", "an object")
            return
        player = seat.get("player")
        role_text = seat.get("role")
        if type(player) is not str:
            self.problem(gid, number, "player", f"expected a nickname, not {player!r}")
        if type(role_text) is not str or role_text not in _ROLES:
            known = "red, sheriff, black, don (or К, Ш, Ч, Д)"
            self.problem(gid, number, "role", f"must be one of {known}, not {role_text!r}")
        if type(seat.get("fouls", 0)) is not int:
            self.wrong_type(gid, number, "fouls", "an integer 0..4")

    def best_move(self, data: dict[str, Any], gid: str) -> tuple[int, ...]:
        value = data.get("best_move")
        if value is None:
            return ()
        if not isinstance(value, list) or not all(_is_int(v) for v in value):
            self.wrong_type(gid, None, "best_move", "a list of seat numbers")
            return ()
        return tuple(value)

    def judge_extra(self, data: dict[str, Any], gid: str) -> tuple[JudgeExtra, ...]:
        extras = []
        for entry in self.entries(data, "judge_extra", gid):
            seat = self.seat_of(entry, "judge_extra", gid)
            points = entry.get("points")
            if not _is_number(points):
                self.problem(
                    gid, seat, "judge_extra", f"points must be a finite number, not {points!r}"
                )
                continue
            reason = self.text(entry, "reason", gid, "judge_extra")
            approved = self.flag(entry, "chief_approved", False, gid, "judge_extra")
            if seat is not None:
                extras.append(JudgeExtra(seat, to_fraction(points), reason, approved))
        return tuple(extras)

    def penalties(self, data: dict[str, Any], gid: str) -> tuple[GamePenalty, ...]:
        penalties = []
        for entry in self.entries(data, "penalties", gid):
            seat = self.seat_of(entry, "penalties", gid)
            rule = entry.get("rule")
            if not isinstance(rule, str):
                self.problem(
                    gid, seat, "penalties", f"rule must be a clause like 8.5.1, not {rule!r}"
                )
                continue
            reason = self.text(entry, "reason", gid, "penalties")
            if seat is not None:
                penalties.append(GamePenalty(seat, rule, reason))
        return tuple(penalties)

    def removals(self, data: dict[str, Any], gid: str) -> tuple[Removal, ...]:
        removals = []
        for entry in self.entries(data, "disqualified", gid):
            seat = self.seat_of(entry, "disqualified", gid)
            reason = self.text(entry, "reason", gid, "disqualified")
            online = self.flag(entry, "online", False, gid, "disqualified")
            fined = self.flag(entry, "fined", True, gid, "disqualified")
            if seat is not None:
                removals.append(Removal(seat, reason, online, fined))
        return tuple(removals)

    def tournament_penalties(self, data: dict[str, Any]) -> tuple[TournamentPenalty, ...]:
        result = []
        for index, entry in enumerate(self.entries(data, "penalties", None), start=1):
            field = f"penalties[{index}]"
            player = entry.get("player")
            points = entry.get("points")
            if not isinstance(player, str) or not player.strip():
                self.problem(None, None, field, f"player must be a nickname, not {player!r}")
                continue
            if not _is_number(points):
                self.problem(None, None, field, f"points must be a finite number, not {points!r}")
                continue
            reason = self.text(entry, "reason", None, field)
            result.append(TournamentPenalty(player, to_fraction(points), reason))
        return tuple(result)

    def tournament(self, data: object) -> Tournament | None:
        if not isinstance(data, dict):
            self.wrong_type(None, None, "file", "a JSON object")
            return None
        if data.get("format") != FORMAT:
            self.problem(None, None, "format", f"must be {FORMAT!r}, not {data.get('format')!r}")
            return None
        name = data.get("name")
        if not isinstance(name, str) or not name.strip():
            self.problem(None, None, "name", f"must be a non-empty string, not {name!r}")
        ruleset = data.get("ruleset")
        if isinstance(ruleset, str) and ruleset in REGULATIONS:
            self.regulation = REGULATIONS[ruleset]
        else:
            known = ", ".join(sorted(REGULATIONS))
            self.problem(None, None, "ruleset", f"must be one of {known}, not {ruleset!r}")
        settings = {
            key: self.optional_int(data, key, None)
            for key in ("participants", "games_before_final", "lot_seed")
        }
        penalties = self.tournament_penalties(data)
        games_data = data.get("games")
        games: list[Protocol] = []
        if games_data is None:
            self.problem(None, None, "games", "missing")
        elif not isinstance(games_data, list):
            self.wrong_type(None, None, "games", "a list of game protocols")
        else:
            for position, game in enumerate(games_data, start=1):
                protocol = self.protocol(game, position)
                if protocol is not None:
                    games.append(protocol)
        tournament = Tournament(
            name=str(name),
            ruleset=str(ruleset),
            games=tuple(games),
            participants=settings["participants"],
            games_before_final=settings["games_before_final"],
            lot_seed=settings["lot_seed"] or 0,
            penalties=penalties,
        )
        self.problems.extend(validate_tournament_settings(tournament))
        return None if self.problems else tournament


def parse_tournament(data: object) -> Tournament:
    """A tournament from a decoded `mafiatab-tournament/1` document.

    Raises `TournamentFileError` listing every problem: of shape first, then of
    the regulation's rules (only once the shape is right).
    """
    return tournament_from_data(data) or parse_tournament_explained(data)


def parse_tournament_explained(data: object, *, quick: bool = True) -> Tournament:
    """`parse_tournament` without the fast path for whole documents: every field is
    checked here and every problem named (`quick=False` also reads each protocol
    this way)."""
    reader = _Reader(quick=quick)
    tournament = reader.tournament(data)
    if tournament is None:
        raise TournamentFileError(reader.problems)
    return tournament


def decode_json(text: str | bytes) -> object:
    """Decoded JSON with the standard library's meaning, at msgspec's speed.

    msgspec decodes strict JSON about twice as fast as `json`; whatever it declines
    (a byte-order mark, NaN, numbers beyond a double, lone surrogates) is read by
    `json`, which accepts or refuses it as always. ValueError if it is not JSON.
    """
    if isinstance(text, bytes) and text.startswith(codecs.BOM_UTF8):
        text = text[len(codecs.BOM_UTF8) :]
    try:
        return msgspec.json.decode(text)
    except msgspec.MsgspecError:
        return json.loads(text)


def loads_tournament(text: str | bytes) -> Tournament:
    """A tournament from the text of a file; TournamentFileError for broken JSON too.

    A file right in every respect is read at C speed (`records`); any other is read
    again here, which names every problem.
    """
    tournament = read_well_formed(text)
    if tournament is not None:
        return tournament
    try:
        data = decode_json(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise TournamentFileError([Problem(None, None, "file", f"not valid JSON: {exc}")]) from None
    return parse_tournament_explained(data)


def load_tournament(path: str | os.PathLike[str]) -> Tournament:
    """A tournament from a file on disk; TournamentFileError if it can't be read."""
    try:
        with open(path, "rb") as handle:
            text = handle.read()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise TournamentFileError(
            [Problem(None, None, "file", f"cannot read {path}: {reason}")]
        ) from None
    return loads_tournament(text)


def protocol_from_dict(data: object, *, position: int = 1, ruleset: str = "fiim") -> Protocol:
    """One protocol from its file form, validated against `ruleset`."""
    reader = _Reader(get_regulation(ruleset))
    protocol = reader.protocol(data, position)
    if protocol is None or reader.problems:
        raise TournamentFileError(reader.problems)
    return protocol


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def protocol_to_dict(protocol: Protocol) -> dict[str, Any]:
    """The file form of one protocol (English role names; optional keys only when set)."""
    data: dict[str, Any] = {"id": protocol.id, "stage": protocol.stage.value}
    for key in ("round", "table", "date", "judge"):
        value = getattr(protocol, key)
        if value is not None:
            data[key] = value
    data["seats"] = [
        {"player": player, "role": role.value, "fouls": fouls}
        for player, role, fouls in zip(
            protocol.players, protocol.roles, protocol.fouls, strict=True
        )
    ]
    data["winner"] = protocol.winner.value
    data["first_killed"] = protocol.first_killed
    if protocol.best_move:
        data["best_move"] = list(protocol.best_move)
    if protocol.judge_extra:
        data["judge_extra"] = [
            {
                "seat": e.seat,
                "points": _number(e.points),
                "reason": e.reason,
                "chief_approved": e.chief_approved,
            }
            for e in protocol.judge_extra
        ]
    if protocol.penalties:
        data["penalties"] = [
            {"seat": p.seat, "rule": p.rule, "reason": p.reason} for p in protocol.penalties
        ]
    if protocol.disqualified:
        data["disqualified"] = [
            {"seat": r.seat, "reason": r.reason, "online": r.online, "fined": r.fined}
            for r in protocol.disqualified
        ]
    if protocol.replayed:
        data["replayed"] = True
    return data


def tournament_to_dict(tournament: Tournament) -> dict[str, Any]:
    """The `mafiatab-tournament/1` document of a tournament."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "name": tournament.name,
        "ruleset": tournament.ruleset,
    }
    if tournament.participants is not None:
        data["participants"] = tournament.participants
    if tournament.games_before_final is not None:
        data["games_before_final"] = tournament.games_before_final
    data["lot_seed"] = tournament.lot_seed
    data["penalties"] = [
        {"player": p.player, "points": _number(p.points), "reason": p.reason}
        for p in tournament.penalties
    ]
    data["games"] = [protocol_to_dict(p) for p in tournament.games]
    return data


def dumps_tournament(tournament: Tournament) -> str:
    """The file text of a tournament: UTF-8 JSON, indented, Cyrillic kept readable."""
    return json.dumps(tournament_to_dict(tournament), ensure_ascii=False, indent=2) + "\n"
