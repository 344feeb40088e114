"""The game log document (`mafiatab-game-log/1`, game-log.md).

`parse_log` reads a decoded document into a `GameLog`, refusing a malformed one
with every problem of its shape (`GameLogError`); its events are read by
`parse_event` (`mafiatab.core.game.events`; its names and those of the records,
`mafiatab.core.game.event_records`, are imported here too).
Whether the events follow the rules is the engine's business (`replay`).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from mafiatab.core.game.event_records import Event as Event
from mafiatab.core.game.event_records import EventType as EventType
from mafiatab.core.game.events import MAX_PAUSE_MINUTES as MAX_PAUSE_MINUTES
from mafiatab.core.game.events import _is_int
from mafiatab.core.game.events import parse_event as parse_event
from mafiatab.core.game.problems import NICKNAME_CODES, GameLogError, GameProblem, json_quoted
from mafiatab.core.game.settings import OVERRIDABLE, TABLE_SETTINGS, TableSettings
from mafiatab.core.names import name_problems, nickname_key, nickname_problems
from mafiatab.core.roles import Role, Stage

FORMAT = "mafiatab-game-log/1"

#: The most events a log may hold (a real game has a few hundred at most).
MAX_EVENTS = 2000


@dataclass(frozen=True, slots=True)
class GameLog:
    """A game log: the table, the seats, the roles and the events."""

    table: TableSettings
    """The table's settings, the log's overrides applied."""
    seats: tuple[str, ...]
    """Ten nicknames, seat 1 first."""
    roles: tuple[Role, ...]
    """Ten roles, seat 1 first."""
    events: tuple[Event, ...] = ()
    """The judge's events, in order."""
    overrides: dict[str, bool] = field(default_factory=dict, compare=False)
    """The settings the log overrides, as written."""
    id: str | None = None
    """The game's label, copied into the protocol."""
    stage: Stage | None = None
    """The stage, copied into the protocol (qualifying when None)."""
    round: int | None = None
    """The round, copied into the protocol."""
    table_number: int | None = None
    """The table number (the protocol's `table`)."""
    date: str | None = None
    """ISO date, copied into the protocol."""
    judge: str | None = None
    """The table judge, copied into the protocol."""

    def with_events(self, events: tuple[Event, ...]) -> GameLog:
        """The same log with other events."""
        return replace(self, events=events)

    def to_json(self) -> dict[str, Any]:
        """The `mafiatab-game-log/1` document."""
        data: dict[str, Any] = {"format": FORMAT, "table": self.table.code}
        if self.overrides:
            data["settings"] = dict(self.overrides)
        for key in ("id", "round", "table_number", "date", "judge"):
            value = getattr(self, key)
            if value is not None:
                data[key] = value
        if self.stage is not None:
            data["stage"] = self.stage.value
        data["seats"] = list(self.seats)
        data["roles"] = {
            "sheriff": self.roles.index(Role.SHERIFF) + 1,
            "don": self.roles.index(Role.DON) + 1,
            "black": [n for n, r in enumerate(self.roles, start=1) if r is Role.BLACK],
        }
        data["events"] = [e.to_json() for e in self.events]
        return data


class _LogReader:
    def __init__(self) -> None:
        self.problems: list[GameProblem] = []

    def problem(self, field_name: str, code: str, **params: Any) -> None:
        self.problems.append(GameProblem(code, params, field=field_name))

    def table(self, data: dict[str, Any]) -> TableSettings | None:
        code = data.get("table")
        table = TABLE_SETTINGS.get(code) if isinstance(code, str) else None
        if table is None:
            self.problem(
                "table", "log.table", known=", ".join(TABLE_SETTINGS), value=json_quoted(code)
            )
            return None
        overrides = self.overrides(data)
        return table.with_overrides(overrides)

    def overrides(self, data: dict[str, Any]) -> dict[str, bool]:
        raw = data.get("settings")
        if raw is None:
            return {}
        if not isinstance(raw, dict):
            self.problem("settings", "log.settings")
            return {}
        overrides: dict[str, bool] = {}
        for name, value in raw.items():
            if name not in OVERRIDABLE:
                known = ", ".join(OVERRIDABLE)
                self.problem("settings", "log.setting_unknown", name=name, known=known)
            elif not isinstance(value, bool):
                self.problem(
                    f"settings.{name}",
                    "log.field_type",
                    expected="true or false",
                    value=json_quoted(value),
                )
            else:
                overrides[name] = value
        return overrides

    def seats(self, data: dict[str, Any]) -> tuple[str, ...] | None:
        raw = data.get("seats")
        if not isinstance(raw, list) or len(raw) != 10:
            self.problem("seats", "log.seats")
            return None
        before = len(self.problems)
        seen: dict[str, int] = {}
        for number, nick in enumerate(raw, start=1):
            if not isinstance(nick, str):
                self.problem("seats", "log.nickname", seat=number, value=json_quoted(nick))
                continue
            wrong = nickname_problems(nick)
            for code in wrong:
                self.problem("seats", NICKNAME_CODES[code], seat=number, value=json_quoted(nick))
            if wrong:
                continue
            key = nickname_key(nick)
            if key in seen:
                self.problem("seats", "log.nickname_twice", seat=number, nickname=json_quoted(nick))
            seen[key] = number
        return tuple(raw) if len(self.problems) == before else None

    def roles(self, data: dict[str, Any]) -> tuple[Role, ...] | None:
        raw = data.get("roles")
        if not isinstance(raw, dict):
            self.problem("roles", "log.roles")
            return None
        before = len(self.problems)
        for key in raw:
            if key not in ("sheriff", "don", "black"):
                self.problem("roles", "log.role_unknown", name=json_quoted(key))
        given: list[tuple[int, Role]] = []
        for key, role in (("sheriff", Role.SHERIFF), ("don", Role.DON)):
            seat = raw.get(key)
            if isinstance(seat, int) and type(seat) is int and 1 <= seat <= 10:
                given.append((seat, role))
            else:
                self.problem(f"roles.{key}", "log.role_seat", role=key, value=json_quoted(seat))
        black = raw.get("black")
        blacks = (
            [s for s in black if type(s) is int and 1 <= s <= 10] if isinstance(black, list) else []
        )
        if not isinstance(black, list) or len(black) != 2 or len(blacks) != 2:
            self.problem("roles.black", "log.black", value=json_quoted(black))
        else:
            given.extend((seat, Role.BLACK) for seat in blacks)
        roles = [Role.RED] * 10
        for seat, role in given:
            if roles[seat - 1] is not Role.RED:
                self.problem("roles", "log.role_twice", seat=seat)
            roles[seat - 1] = role
        return tuple(roles) if len(self.problems) == before else None

    def optional(self, data: dict[str, Any], key: str, kind: type, expected: str) -> Any:
        value = data.get(key)
        if value is None:
            return None
        bad = not isinstance(value, kind) or (kind is int and not _is_int(value))
        if kind is int and not bad and not 1 <= value < 2**31:
            bad = True
        if kind is str and not bad and name_problems(value):
            bad = True
        if key == "date" and not bad:
            try:
                date.fromisoformat(value)
            except ValueError:
                bad = True
        if bad:
            self.problem(key, "log.field_type", expected=expected, value=json_quoted(value))
            return None
        return value

    def stage(self, data: dict[str, Any]) -> Stage | None:
        value = data.get("stage")
        if value is None:
            return None
        stages = {s.value: s for s in Stage}
        if not isinstance(value, str) or value not in stages:
            self.problem("stage", "log.stage", known=", ".join(stages), value=json_quoted(value))
            return None
        return stages[value]

    def events(self, data: dict[str, Any]) -> tuple[Event, ...]:
        raw = data.get("events", [])
        if not isinstance(raw, list):
            self.problem("events", "log.events")
            return ()
        if len(raw) > MAX_EVENTS:
            self.problem("events", "log.too_many_events", max=MAX_EVENTS, count=len(raw))
            return ()
        events = []
        for index, item in enumerate(raw, start=1):
            try:
                events.append(parse_event(item, index))
            except GameLogError as exc:
                self.problems.extend(exc.problems)
        return tuple(events)


def parse_log(data: object) -> GameLog:
    """A `GameLog` from a decoded `mafiatab-game-log/1` document.

    Raises `GameLogError` with every problem of the document's shape; whether its
    events follow the rules is checked by `replay`.
    """
    if not isinstance(data, dict):
        raise GameLogError([GameProblem("log.not_object")])
    if data.get("format") != FORMAT:
        raise GameLogError(
            [GameProblem("log.format", {"value": json_quoted(data.get("format"))}, field="format")]
        )
    reader = _LogReader()
    table = reader.table(data)
    seats = reader.seats(data)
    roles = reader.roles(data)
    meta = {
        "id": reader.optional(data, "id", str, "a non-empty text"),
        "round": reader.optional(data, "round", int, "an integer 1 or more"),
        "table_number": reader.optional(data, "table_number", int, "an integer 1 or more"),
        "date": reader.optional(data, "date", str, "an ISO date"),
        "judge": reader.optional(data, "judge", str, "a name"),
    }
    stage = reader.stage(data)
    events = reader.events(data)
    if reader.problems or table is None or seats is None or roles is None:
        raise GameLogError(reader.problems)
    return GameLog(
        table=table,
        seats=seats,
        roles=roles,
        events=events,
        overrides=reader.overrides(data),
        stage=stage,
        **meta,
    )


def loads_log(text: str | bytes) -> GameLog:
    """A `GameLog` from the text of a log; `GameLogError` for broken JSON too."""
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise GameLogError([GameProblem("log.not_json", {"error": str(exc)})]) from None
    except RecursionError:
        error = "nested too deeply"
        raise GameLogError([GameProblem("log.not_json", {"error": error})]) from None
    return parse_log(data)


def load_log(path: str | os.PathLike[str]) -> GameLog:
    """A `GameLog` from a file; `GameLogError` if it can't be read or is malformed."""
    try:
        with open(path, "rb") as handle:
            text = handle.read()
    except OSError as exc:
        error = exc.strerror or str(exc)
        raise GameLogError(
            [GameProblem("log.unreadable", {"path": str(path), "error": error})]
        ) from None
    return loads_log(text)
