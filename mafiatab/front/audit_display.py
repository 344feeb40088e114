"""The tournament's history page: each audit entry said in the reader's language.

The audit log keeps a stable code per kind of change (`registration.approved`) and
the values before and after as JSON under stable keys. The page names the change
and each value by the tables of `mafiatab.messages` and shows the values in words:
yes/no, dates in the language's format, a status, stage, staff role, penalty kind,
ruleset, language, game role or team by its name, a penalty's points with two
decimals, a round and table (a broadcast's audience, a game's place) by its stage and
numbers. An edit of the tournament shows the fields it changed only. An unknown code
or key is shown as it is stored.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from mafiatab.core.scoring import format_points
from mafiatab.games.models import STAGE_CHOICES, Game, Table
from mafiatab.messages import (
    ROLE_NAMES,
    TEAM_NAMES,
    audit_action_text,
    audit_field_text,
    date_text,
)
from mafiatab.penalties.models import Kind
from mafiatab.registrations.models import ReplacementScope, Status
from mafiatab.tournaments.models import RULESET_CHOICES, StaffRole
from mafiatab.tournaments.zones import zone_label

#: The keys whose values are dates (stored as ISO text).
DATE_KEYS = frozenset({"starts_on", "ends_on"})
#: The keys whose values are moments (stored as ISO text with an offset): said in the
#: tournament's time zone and the language's format, as the rounds page says them.
MOMENT_KEYS = frozenset({"starts_at"})
#: A day or night of a game as the console's place stores it ("d2", "n1").
PHASE_RE = re.compile(r"([dn])([0-9]{1,2})")

#: Values never shown on the history page, by the action that stored them: the roles
#: dealt at a console start (entries written before the start stopped recording them)
#: are a secret of the table's judges until the end, and the organisers read the
#: history; once the game ends its protocol holds them.
SECRET_KEYS: dict[str, frozenset[str]] = {"game.console.started": frozenset({"roles"})}

#: Values shown in the entry's target instead (whom a broadcast went to).
TARGET_KEYS: dict[str, frozenset[str]] = {
    "tournament.broadcast": frozenset({"scope", "stage", "table"}),
    "round.scheduled": frozenset({"stage", "number"}),
}

#: Edits recorded with every field before and after: the history shows the fields
#: that changed only.
CHANGED_ONLY = frozenset({"tournament.updated", "tournament.scoring_changed"})

#: Values left out when empty, by the action that stored them: a penalty's minutes late
#: round and its stage belong to a lateness (a lobby fine has none), and "minutes late —"
#: or "round —" would say nothing.
EMPTY_LEFT_OUT: dict[str, frozenset[str]] = {
    "penalty.given": frozenset({"minutes_late", "round", "stage"}),
    "penalty.cancelled": frozenset({"minutes_late", "round", "stage"}),
}

#: Actions shown by their name and target alone: where a judge's console stands (the
#: speaker, the timer) is kept for his other devices, not data a reader compares.
NAME_ONLY = frozenset({"game.console.place"})


#: The site's languages as a reader names them.
LANGUAGE_NAMES = {
    "en": pgettext_lazy("language", "English"),
    "ru": pgettext_lazy("language", "Russian"),
}


@dataclass(frozen=True)
class HistoryRow:
    """One audit entry as the history page shows it."""

    entry: Any
    label: str
    target: str
    before: list[tuple[str, str]]
    after: list[tuple[str, str]]


def _vocabularies() -> dict[str, Mapping[str, Any]]:
    """The names of the stored codes, by the key they are stored under."""
    rulesets = dict(RULESET_CHOICES)
    return {
        "status": dict(Status.choices),
        "scope": dict(ReplacementScope.choices),
        "stage": dict(STAGE_CHOICES),
        "role": dict(StaffRole.choices),
        "kind": dict(Kind.choices),
        "ruleset": rulesets,
        "table": rulesets,
        "winner": TEAM_NAMES,
        # a broadcast's language by its name in the reader's language (the language
        # switcher names each language in its own)
        "language": {code: LANGUAGE_NAMES.get(code, name) for code, name in settings.LANGUAGES},
        # a stage plan's points into the next stage (tournament-file.md `stages`)
        "points": {"carry": gettext_lazy("carried over"), "reset": gettext_lazy("reset")},
    }


def value_text(value: Any, key: str = "", zone: dt.tzinfo | None = None) -> str:
    """A stored value (under `key`) as text in the active language; a moment in `zone`
    (the tournament's; the active one when None)."""
    if key == "frozen_version":  # the standings' inner version counter: frozen or not
        return _("yes") if value is not None else _("no")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None or value == "" or value == [] or value == {}:
        return "—"
    if isinstance(value, str):
        return _string_text(value, key, zone)
    if isinstance(value, list):
        separator = " · " if any(isinstance(item, dict) for item in value) else ", "
        return separator.join(value_text(item, key) for item in value)
    if isinstance(value, dict):
        return _mapping_text(key, value)
    return str(value)


def _string_text(value: str, key: str, zone: dt.tzinfo | None) -> str:
    """A stored text (under `key`) in words: a date, a moment, a zone, a console place,
    a coded value by its name, points; anything else as it is."""
    if key in DATE_KEYS:
        return date_text(value)
    if key in MOMENT_KEYS:
        return _moment_text(value, zone)
    if key == "time_zone":  # as the edit page names it: "Moscow, … (UTC+3)"
        return zone_label(value)
    phase = PHASE_RE.fullmatch(value) if key == "day" else None
    if phase:  # the console's place: "d2" is day 2, "n1" night 1
        text = _("day %(n)s") if phase[1] == "d" else _("night %(n)s")
        return text % {"n": phase[2]}
    names = _vocabularies().get(key, {})
    if value in names:
        return str(names[value])
    if key == "points":  # a penalty's exact points, as every page shows points
        return _points_text(value)
    return value


def _moment_text(value: str, zone: dt.tzinfo | None) -> str:
    """A stored moment ("2026-12-10T11:00:00+00:00") in `zone` and the language's short
    date and time format ("10.12.2026 14:00"); other text as it is."""
    try:
        moment = dt.datetime.fromisoformat(value)
    except ValueError:
        return value
    if timezone.is_naive(moment):
        return formats.date_format(moment, "SHORT_DATETIME_FORMAT")
    return formats.date_format(timezone.localtime(moment, zone), "SHORT_DATETIME_FORMAT")


def _points_text(value: str) -> str:
    """Stored exact points ("-0.5000") with two decimals ("-0.50"); other text as it is."""
    try:
        return format_points(Fraction(value))
    except (ValueError, ZeroDivisionError):
        return value


def _mapping_text(key: str, value: Mapping[str, Any]) -> str:
    if key == "roles":  # the console's dealt roles: role -> seat(s)
        return "; ".join(
            f"{ROLE_NAMES.get(role, role)} {value_text(seats)}" for role, seats in value.items()
        )
    if key == "replacements":  # the reserve -> the participant he replaces
        return ", ".join(
            _("%(new)s instead of %(old)s") % {"new": new, "old": old} for new, old in value.items()
        )
    if key == "judges":  # table number -> judge
        return "; ".join(
            _("table %(n)s: %(judge)s") % {"n": n, "judge": value_text(judge)}
            for n, judge in value.items()
        )
    return "; ".join(f"{audit_field_text(k)} {value_text(item, k)}" for k, item in value.items())


def _pairs(
    values: Any,
    secret: frozenset[str] = frozenset(),
    same: Mapping[str, Any] | None = None,
    *,
    empty_left_out: frozenset[str] = frozenset(),
    zone: dt.tzinfo | None = None,
) -> list[tuple[str, str]]:
    """The values by their names, but those under `secret`, those equal in `same` (the
    other side of an edit) and the empty ones under `empty_left_out`; moments in `zone`."""
    if not values:
        return []
    if not isinstance(values, dict):
        return [("", value_text(values, zone=zone))]
    return [
        (audit_field_text(key), value_text(value, key, zone))
        for key, value in values.items()
        if key not in secret
        and not (same is not None and key in same and same[key] == value)
        and not (key in empty_left_out and value is None)
    ]


def _place_text(stage: str, round_number: int, table: int) -> str:
    return _("%(stage)s, round %(round)s, table %(n)s") % {
        "stage": value_text(stage, "stage"),
        "round": round_number,
        "n": table,
    }


@dataclass(frozen=True)
class _Places:
    """The rounds and tables the entries name by an id or a game's label, looked up
    once for the page."""

    tables: Mapping[int, str]
    games: Mapping[str, str]

    @classmethod
    def of(cls, entries: list[Any], tournament: Any) -> _Places:
        table_ids = {
            e.after["table"]
            for e in entries
            if e.action == "tournament.broadcast"
            and isinstance(e.after, dict)
            and isinstance(e.after.get("table"), int)
        }
        labels = {str(e.target) for e in entries if str(e.action).startswith("game.")}
        tables: dict[int, str] = {}
        games: dict[str, str] = {}
        if tournament is None:
            return cls(tables, games)
        if table_ids:
            for t in Table.objects.filter(
                pk__in=table_ids, round__tournament=tournament
            ).select_related("round"):
                tables[t.pk] = _place_text(t.round.stage, t.round.number, t.number)
        if labels:
            found = Game.objects.filter(tournament=tournament, label__in=labels)
            for game in found.select_related("table_slot__round"):
                slot = game.table_slot
                if slot is not None:
                    place = _place_text(slot.round.stage, slot.round.number, slot.number)
                    games[game.label] = f"{place} ({game.label})"
        return cls(tables, games)


def _audience_text(after: Mapping[str, Any], places: _Places) -> str:
    """Whom a broadcast went to, in words."""
    scope = after.get("scope")
    if scope == "all":
        return _("everyone playing in the tournament")
    if scope == "stage":
        return _("the players of the stage: %(stage)s") % {
            "stage": value_text(after.get("stage"), "stage")
        }
    if scope == "table":
        table = after.get("table")
        place = places.tables.get(table) if isinstance(table, int) else None
        return place or _("a table no longer in the tournament")
    return value_text(scope)


def _target_text(entry: Any, places: _Places) -> str:
    """Whom the change is about. A round, a table and a seating draft are named from the
    recorded stage and numbers, in the reader's language (the stored target is the
    writer's words); anything else as stored."""
    after = entry.after if isinstance(entry.after, dict) else {}
    before = entry.before if isinstance(entry.before, dict) else {}
    code = after.get("stage") or before.get("stage")
    stage = value_text(code, "stage") if isinstance(code, str) and code else ""
    if entry.action in ("round.created", "round.scheduled") and stage and "number" in after:
        return _("%(stage)s, round %(n)s") % {"stage": stage, "n": after["number"]}
    if entry.action == "table.created" and stage and "round" in after:
        return _("%(stage)s, round %(round)s, table %(n)s") % {
            "stage": stage,
            "round": after["round"],
            "n": after.get("number"),
        }
    if entry.action.startswith(("seating.", "stages.advance.")) and stage:
        return stage
    if entry.action == "tournament.broadcast":
        return _audience_text(after, places)
    if entry.action.startswith("game.") and str(entry.target) in places.games:
        return places.games[str(entry.target)]
    return str(entry.target)


def _row(entry: Any, places: _Places, zone: dt.tzinfo | None) -> HistoryRow:
    hidden = SECRET_KEYS.get(entry.action, frozenset()) | TARGET_KEYS.get(entry.action, frozenset())
    before, after = entry.before, entry.after
    edit = entry.action in CHANGED_ONLY and isinstance(before, dict) and isinstance(after, dict)
    shown = entry.action not in NAME_ONLY
    empty = EMPTY_LEFT_OUT.get(entry.action, frozenset())
    return HistoryRow(
        entry=entry,
        label=audit_action_text(entry.action),
        target=_target_text(entry, places),
        before=_pairs(before, hidden, after if edit else None, empty_left_out=empty, zone=zone)
        if shown
        else [],
        after=_pairs(after, hidden, before if edit else None, empty_left_out=empty, zone=zone)
        if shown
        else [],
    )


def history_rows(entries: Iterable[Any], tournament: Any = None) -> list[HistoryRow]:
    """The entries as the history page shows them (`tournament`: where the rounds and
    tables they name are looked up)."""
    rows = list(entries)
    places = _Places.of(rows, tournament)
    zone = tournament.zone() if tournament is not None else None
    return [_row(entry, places, zone) for entry in rows]
