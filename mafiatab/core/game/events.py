"""Reading the events of a game log (game-log.md): `parse_event` reads one event from
its log form into its record (`mafiatab.core.game.event_records`), refusing a
malformed one with every problem of its shape (`GameLogError`), within the limits
of an event's texts and numbers (`MAX_REASON`, `MAX_PAUSE_MINUTES`, ...)."""

from __future__ import annotations

import math
from typing import Any, assert_never

from mafiatab.core.game.event_records import (
    BestMove,
    DayBreaks,
    Defeat,
    DonCheck,
    Event,
    EventType,
    Foul,
    Lift,
    NightFalls,
    Nominate,
    Pause,
    Remove,
    SheriffCheck,
    Shots,
    Vote,
)
from mafiatab.core.game.problems import TEXT_CODES, GameLogError, GameProblem, json_quoted
from mafiatab.core.names import MAX_TEXT, text_problems
from mafiatab.core.roles import Team

#: The records are named here too, beside the reading that makes them.
__all__ = [
    "MAX_PAUSE_MINUTES",
    "BestMove",
    "DayBreaks",
    "Defeat",
    "DonCheck",
    "Event",
    "EventType",
    "Foul",
    "Lift",
    "NightFalls",
    "Nominate",
    "Pause",
    "Remove",
    "SheriffCheck",
    "Shots",
    "Vote",
    "parse_event",
]

#: Upper bound of a pause, in minutes.
MAX_PAUSE_MINUTES = 24 * 60
#: The longest reason of an event (a removal, a pause, a defeat), in characters.
MAX_REASON = MAX_TEXT
#: The longest key, and the longest text, of an event's extra keys (an id, a time).
MAX_EXTRA_TEXT = 200
#: How deep an extra key's value may nest (lists and objects).
MAX_EXTRA_DEPTH = 4


_TYPES = {t.value: t for t in EventType}


def _is_int(value: object) -> bool:
    return type(value) is int


class _EventReader:
    """Reads one event, collecting the problems of its shape."""

    def __init__(self, data: dict[str, Any], index: int, type_name: str) -> None:
        self.data = data
        self.index = index
        self.type_name = type_name
        self.problems: list[GameProblem] = []

    def problem(self, code: str, **params: Any) -> None:
        self.problems.append(GameProblem(code, params, self.index, self.type_name))

    def seat(self, key: str, *, nullable: bool = False, value: object = None) -> int | None:
        raw = self.data.get(key) if value is None else value
        if raw is None and value is None:
            if key not in self.data:
                self.problem("event.missing", field=key)
            elif not nullable:
                self.problem("event.seat_range", field=key, value=json_quoted(None))
            return None
        if not _is_int(raw) or not 1 <= raw <= 10:  # type: ignore[operator]
            self.problem("event.seat_range", field=key, value=json_quoted(raw))
            return None
        assert isinstance(raw, int)
        return raw

    def integer(self, key: str) -> int | None:
        raw = self.data.get(key)
        if raw is None:
            self.problem("event.missing", field=key)
            return None
        if not _is_int(raw) or not -(2**31) <= raw < 2**31:
            self.problem(
                "event.field_type", field=key, expected="an integer", value=json_quoted(raw)
            )
            return None
        assert isinstance(raw, int)
        return raw

    def text(self, key: str, *, required: bool = False) -> str:
        raw = self.data.get(key)
        if raw is None:
            if required:
                self.problem("event.missing", field=key)
            return ""
        if not isinstance(raw, str):
            self.problem("event.field_type", field=key, expected="a text", value=json_quoted(raw))
            return ""
        return raw if self.text_ok(key, raw, MAX_REASON) else ""

    def text_ok(self, key: str, text: str, limit: int) -> bool:
        """Whether `text` is a free text the log takes; each problem is recorded."""
        codes = text_problems(text, limit)
        for code in codes:
            self.problem(TEXT_CODES[code], field=key, max=limit)
        return not codes

    def extra(self, key: str, value: object, depth: int = 0) -> None:
        """Check a value the rules do not read: JSON scalars with finite numbers and
        clean, short texts (keys included), nested at most `MAX_EXTRA_DEPTH` deep."""
        if value is None or isinstance(value, bool):
            return
        if isinstance(value, int):
            if not -(2**53) <= value <= 2**53:
                self.problem(
                    "event.field_type", field=key, expected="a number", value=json_quoted(value)
                )
            return
        if isinstance(value, float):
            if not math.isfinite(value):
                self.problem("event.number_not_finite", field=key, value=json_quoted(value))
            return
        if isinstance(value, str):
            self.text_ok(key, value, MAX_EXTRA_TEXT)
            return
        if depth >= MAX_EXTRA_DEPTH or not isinstance(value, list | dict):
            self.problem("event.extra_value", field=key, value=json_quoted(value))
            return
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for name, item in items:
            if isinstance(name, str) and not self.text_ok(key, name, MAX_EXTRA_TEXT):
                continue
            self.extra(f"{key}.{name}", item, depth + 1)

    def flag(self, key: str, default: bool) -> bool:
        raw = self.data.get(key, default)
        if not isinstance(raw, bool):
            self.problem(
                "event.field_type", field=key, expected="true or false", value=json_quoted(raw)
            )
            return default
        return raw

    def int_list(self, key: str) -> tuple[int, ...]:
        raw = self.data.get(key)
        if raw is None:
            self.problem("event.missing", field=key)
            return ()
        if not isinstance(raw, list) or not all(_is_int(v) and -(2**31) <= v < 2**31 for v in raw):
            self.problem(
                "event.field_type", field=key, expected="a list of integers", value=json_quoted(raw)
            )
            return ()
        return tuple(raw)

    def shots(self) -> tuple[tuple[int, int | None], ...]:
        raw = self.data.get("by")
        if raw is None:
            self.problem("event.missing", field="by")
            return ()
        if not isinstance(raw, dict):
            self.problem(
                "event.field_type", field="by", expected="an object", value=json_quoted(raw)
            )
            return ()
        shots: list[tuple[int, int | None]] = []
        for key, target in raw.items():
            by = (
                int(key)
                if isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 2
                else None
            )
            if by is None or not 1 <= by <= 10:
                self.problem("event.seat_range", field="by", value=json_quoted(key))
                continue
            if target is None:
                shots.append((by, None))
            elif _is_int(target) and 1 <= target <= 10:
                shots.append((by, target))
            else:
                self.problem("event.seat_range", field=f"by.{by}", value=json_quoted(target))
        return tuple(sorted(shots))


_KNOWN_KEYS = {
    "type",
    "seat",
    "by",
    "counts",
    "for",
    "reason",
    "online",
    "fined",
    "minutes",
    "team",
    "seats",
}


_T = EventType
#: The keys each type of event reads (`type` included); any other key is checked as
#: a value the rules do not read.
_FIELDS: dict[EventType, frozenset[str]] = {
    kind: frozenset({"type", *keys})
    for kind, keys in (
        (_T.NOMINATE, ("by", "seat")),
        (_T.VOTE, ("counts",)),
        (_T.LIFT, ("for",)),
        (_T.FOUL, ("seat",)),
        (_T.REMOVE, ("seat", "reason", "online", "fined")),
        (_T.PAUSE, ("seat", "minutes", "reason")),
        (_T.NIGHT, ()),
        (_T.SHOTS, ("by",)),
        (_T.DON_CHECK, ("seat",)),
        (_T.SHERIFF_CHECK, ("seat",)),
        (_T.DAY, ()),
        (_T.BEST_MOVE, ("seats",)),
        (_T.DEFEAT, ("team", "reason")),
    )
}


def parse_event(data: object, index: int = 1) -> Event:
    """One event from its log form; `index` (1-based) locates its problems.

    Raises `GameLogError` naming every problem of the event's shape.
    """
    if not isinstance(data, dict):
        raise GameLogError([GameProblem("event.not_object", {"value": json_quoted(data)}, index)])
    type_name = data.get("type")
    kind = _TYPES.get(type_name) if isinstance(type_name, str) else None
    if kind is None:
        known = ", ".join(_TYPES)
        problem = GameProblem(
            "event.type", {"value": json_quoted(type_name), "known": known}, index
        )
        raise GameLogError([problem])
    reader = _EventReader(data, index, kind.value)
    extra = {k: v for k, v in data.items() if k not in _KNOWN_KEYS}
    read = _FIELDS[kind]
    for key, value in data.items():
        if key not in read and reader.text_ok("extra", key, MAX_EXTRA_TEXT):
            reader.extra(key, value)
    event = _read_fields(reader, kind, extra)
    if reader.problems:
        raise GameLogError(reader.problems)
    return event


def _read_fields(r: _EventReader, kind: EventType, extra: dict[str, Any]) -> Event:
    """The event of `kind`; a field with a problem (recorded in `r`) is read as 0 or
    empty: `parse_event` then refuses the event."""
    match kind:
        case EventType.NOMINATE:
            return Nominate(by=r.seat("by") or 0, seat=r.seat("seat") or 0, extra=extra)
        case EventType.VOTE:
            return Vote(counts=r.int_list("counts"), extra=extra)
        case EventType.LIFT:
            return Lift(votes=r.integer("for") or 0, extra=extra)
        case EventType.FOUL:
            return Foul(seat=r.seat("seat") or 0, extra=extra)
        case EventType.DON_CHECK:
            return DonCheck(seat=r.seat("seat") or 0, extra=extra)
        case EventType.SHERIFF_CHECK:
            return SheriffCheck(seat=r.seat("seat") or 0, extra=extra)
        case EventType.NIGHT:
            return NightFalls(extra=extra)
        case EventType.DAY:
            return DayBreaks(extra=extra)
        case EventType.SHOTS:
            return Shots(shots=r.shots(), extra=extra)
        case EventType.REMOVE | EventType.PAUSE | EventType.BEST_MOVE | EventType.DEFEAT:
            return _read_more(r, kind, extra)
        case _:
            assert_never(kind)


def _read_more(r: _EventReader, kind: EventType, extra: dict[str, Any]) -> Event:
    """A removal, a pause, a best move or a defeat: the events with more to check."""
    if kind is EventType.REMOVE:
        return Remove(
            seat=r.seat("seat") or 0,
            reason=r.text("reason"),
            online=r.flag("online", False),
            fined=r.flag("fined", True),
            extra=extra,
        )
    if kind is EventType.PAUSE:
        seat, minutes, reason = r.seat("seat"), r.integer("minutes"), r.text("reason")
        if minutes is not None and not 1 <= minutes <= MAX_PAUSE_MINUTES:
            r.problem("pause.minutes", max=MAX_PAUSE_MINUTES, value=json_quoted(minutes))
        return Pause(seat=seat or 0, minutes=minutes or 0, reason=reason, extra=extra)
    if kind is EventType.BEST_MOVE:
        seats = r.int_list("seats")
        for seat in seats:
            r.seat("seats", value=seat)
        return BestMove(seats=seats, extra=extra)
    team_text = r.data.get("team")
    team = Team(team_text) if team_text in ("red", "black") else None
    if team is None:
        r.problem("defeat.team", value=json_quoted(team_text))
    return Defeat(team=team or Team.RED, reason=r.text("reason"), extra=extra)
