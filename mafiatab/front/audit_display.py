"""The tournament's history page: each audit entry said in the reader's language.

The audit log keeps a stable code per kind of change (`registration.approved`) and
the values before and after as JSON under stable keys. The page names the change
and each value by the tables of `mafiatab.messages` and shows the values in words:
yes/no, dates in the language's format, a status, stage, staff role, penalty kind,
ruleset, game role or team by its name. An unknown code or key is shown as it is
stored.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from mafiatab.games.models import STAGE_CHOICES
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
#: A day or night of a game as the console's place stores it ("d2", "n1").
PHASE_RE = re.compile(r"([dn])([0-9]{1,2})")

#: Values never shown on the history page, by the action that stored them: the roles
#: dealt at a console start (entries written before the start stopped recording them)
#: are a secret of the table's judges until the end, and the organisers read the
#: history; once the game ends its protocol holds them.
SECRET_KEYS: dict[str, frozenset[str]] = {"game.console.started": frozenset({"roles"})}

#: Actions shown by their name and target alone: where a judge's console stands (the
#: speaker, the timer) is kept for his other devices, not data a reader compares.
NAME_ONLY = frozenset({"game.console.place"})


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
        # a stage plan's points into the next stage (tournament-file.md `stages`)
        "points": {"carry": gettext_lazy("carried over"), "reset": gettext_lazy("reset")},
    }


def value_text(value: Any, key: str = "") -> str:
    """A stored value (under `key`) as text in the active language."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None or value == "" or value == [] or value == {}:
        return "—"
    if isinstance(value, str):
        if key in DATE_KEYS:
            return date_text(value)
        if key == "time_zone":  # as the edit page names it: "Moscow, … (UTC+3)"
            return zone_label(value)
        phase = PHASE_RE.fullmatch(value) if key == "day" else None
        if phase:  # the console's place: "d2" is day 2, "n1" night 1
            text = _("day %(n)s") if phase[1] == "d" else _("night %(n)s")
            return text % {"n": phase[2]}
        names = _vocabularies().get(key, {})
        return str(names[value]) if value in names else value
    if isinstance(value, list):
        separator = " · " if any(isinstance(item, dict) for item in value) else ", "
        return separator.join(value_text(item, key) for item in value)
    if isinstance(value, dict):
        return _mapping_text(key, value)
    return str(value)


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


def _pairs(values: Any, secret: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    if not values:
        return []
    if not isinstance(values, dict):
        return [("", value_text(values))]
    return [
        (audit_field_text(key), value_text(value, key))
        for key, value in values.items()
        if key not in secret
    ]


def _target_text(entry: Any) -> str:
    """Whom the change is about. A round, a table and a seating draft are named from the
    recorded stage and numbers, in the reader's language (the stored target is the
    writer's words); anything else as stored."""
    after = entry.after if isinstance(entry.after, dict) else {}
    before = entry.before if isinstance(entry.before, dict) else {}
    code = after.get("stage") or before.get("stage")
    stage = value_text(code, "stage") if isinstance(code, str) and code else ""
    if entry.action == "round.created" and stage and "number" in after:
        return _("%(stage)s, round %(n)s") % {"stage": stage, "n": after["number"]}
    if entry.action == "table.created" and stage and "round" in after:
        return _("%(stage)s, round %(round)s, table %(n)s") % {
            "stage": stage,
            "round": after["round"],
            "n": after.get("number"),
        }
    if entry.action.startswith(("seating.", "stages.advance.")) and stage:
        return stage
    return str(entry.target)


def history_rows(entries: Any) -> list[HistoryRow]:
    return [
        HistoryRow(
            entry=entry,
            label=audit_action_text(entry.action),
            target=_target_text(entry),
            before=[]
            if entry.action in NAME_ONLY
            else _pairs(entry.before, SECRET_KEYS.get(entry.action, frozenset())),
            after=[]
            if entry.action in NAME_ONLY
            else _pairs(entry.after, SECRET_KEYS.get(entry.action, frozenset())),
        )
        for entry in entries
    ]
