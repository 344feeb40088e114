"""The tournament's history page: each audit entry said in words.

The audit log keeps a stable code per kind of change (`registration.approved`) and
the values before and after as JSON; the page names the change in the reader's
language and shows lists and yes/no values as text. An unknown code is shown as
it is stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

#: What each recorded change is called on the history page.
ACTIONS = {
    "tournament.created": gettext_lazy("Tournament created"),
    "tournament.imported": gettext_lazy("Tournament loaded from a file"),
    "tournament.updated": gettext_lazy("Tournament information changed"),
    "tournament.scoring_changed": gettext_lazy("Scoring settings changed"),
    "staff.assigned": gettext_lazy("Staff assigned"),
    "staff.removed": gettext_lazy("Staff role taken away"),
    "registration.applied": gettext_lazy("Application filed"),
    "registration.added": gettext_lazy("Participant added"),
    "registration.approved": gettext_lazy("Application approved"),
    "registration.rejected": gettext_lazy("Application rejected"),
    "registration.waitlisted": gettext_lazy("Put on the waiting list"),
    "registration.promoted": gettext_lazy("Moved up from the waiting list"),
    "registration.withdrawn": gettext_lazy("Registration withdrawn"),
    "registration.removed": gettext_lazy("Participant removed"),
    "registration.checked_in": gettext_lazy("Checked in"),
    "registration.replaced": gettext_lazy("Player replaced"),
    "registration.reserve": gettext_lazy("Reserve registered"),
    "seating.reseated": gettext_lazy("Seating redrawn after a replacement"),
    "game.seat.replaced": gettext_lazy("Seat given to the reserve"),
    "penalty.given": gettext_lazy("Penalty given"),
    "penalty.cancelled": gettext_lazy("Penalty cancelled"),
    "round.created": gettext_lazy("Round created"),
    "table.created": gettext_lazy("Table added"),
    "game.protocol.saved": gettext_lazy("Protocol saved as a draft"),
    "game.protocol.submitted": gettext_lazy("Protocol signed and submitted"),
    "game.protocol.changed": gettext_lazy("Confirmed protocol changed"),
    "game.protocol.confirmed": gettext_lazy("Protocol confirmed"),
    "game.protocol.returned": gettext_lazy("Protocol returned to the judge"),
    "game.replayed": gettext_lazy("Game marked replayed"),
    "game.console.started": gettext_lazy("Game started in the judge console"),
    "game.console.finished": gettext_lazy("Game finished in the judge console"),
    "game.protest.filed": gettext_lazy("Protest filed"),
    "game.protest.decided": gettext_lazy("Protest decided"),
    "seating.generated": gettext_lazy("Seating draft generated"),
    "seating.published": gettext_lazy("Seating published"),
    "standings.hidden": gettext_lazy("Standings hidden"),
    "standings.shown": gettext_lazy("Standings shown"),
    "standings.frozen": gettext_lazy("Standings frozen"),
    "standings.unfrozen": gettext_lazy("Standings unfrozen"),
}


@dataclass(frozen=True)
class HistoryRow:
    """One audit entry as the history page shows it."""

    entry: Any
    label: str
    before: list[tuple[str, str]]
    after: list[tuple[str, str]]


def value_text(value: Any) -> str:
    """A stored value as text: lists joined, yes/no in words, nested records inline."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None or value == "":
        return "—"
    if isinstance(value, list):
        return ", ".join(value_text(item) for item in value) or "—"
    if isinstance(value, dict):
        return "; ".join(f"{key} {value_text(item)}" for key, item in value.items())
    return str(value)


#: What the recorded fields are called on the history page.
KEYS = {
    "nickname": gettext_lazy("nickname"),
    "status": gettext_lazy("status"),
    "reason": gettext_lazy("reason"),
    "day": gettext_lazy("day"),
    "absent": gettext_lazy("late participant"),
    "reserve": gettext_lazy("reserve"),
    "round": gettext_lazy("round"),
    "minutes_late": gettext_lazy("minutes late"),
    "scope": gettext_lazy("replaced for"),
    "version": gettext_lazy("version"),
    "upheld": gettext_lazy("upheld"),
    "decision": gettext_lazy("decision"),
    "seat": gettext_lazy("seat"),
    "participants": gettext_lazy("participants N (8.7)"),
    "games_before_final": gettext_lazy("games before the final (8.6)"),
    "lot_seed": gettext_lazy("lot seed (8.8.5)"),
    "protocol_changed": gettext_lazy("protocol changed"),
    "fixed_rounds": gettext_lazy("rounds kept as played"),
    "replacements": gettext_lazy("replacements"),
}


def _coded_values() -> dict[str, dict[str, Any]]:
    from mafiatab.games.models import STAGE_CHOICES
    from mafiatab.registrations.models import ReplacementScope, Status
    from mafiatab.tournaments.models import StaffRole

    return {
        "status": dict(Status.choices),
        "scope": dict(ReplacementScope.choices),
        "stage": dict(STAGE_CHOICES),
        "role": dict(StaffRole.choices),
    }


def _pair(key: str, value: Any, coded: dict[str, dict[str, Any]]) -> tuple[str, str]:
    label = str(KEYS[key]) if key in KEYS else key.replace("_", " ")
    names = coded.get(key, {})
    if isinstance(value, str) and value in names:
        return label, str(names[value])
    return label, value_text(value)


def _pairs(values: Any) -> list[tuple[str, str]]:
    if not values:
        return []
    if not isinstance(values, dict):
        return [("", value_text(values))]
    coded = _coded_values()
    return [_pair(key, value, coded) for key, value in values.items()]


def history_rows(entries: Any) -> list[HistoryRow]:
    return [
        HistoryRow(
            entry=entry,
            label=str(ACTIONS.get(entry.action, entry.action)),
            before=_pairs(entry.before),
            after=_pairs(entry.after),
        )
        for entry in entries
    ]
