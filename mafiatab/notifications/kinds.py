"""The kinds of message: each a code with its words, said in the reader's language.

A message is stored as its kind and parameters; `render` says it (a title and a
text) with gettext in the active language. Parameters that are words themselves
(a stage, a role, an outcome) are stored as codes and translated here too.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

#: Words a parameter may hold as a code (its key, then the code).
_WORDS: dict[str, dict[str, Promise]] = {
    "stage": {
        "qualifying": gettext_lazy("qualifying"),
        "semifinal": gettext_lazy("semifinal"),
        "final": gettext_lazy("final"),
    },
    "role": {
        "organiser": gettext_lazy("organiser"),
        "chief_judge": gettext_lazy("chief judge"),
        "table_judge": gettext_lazy("table judge"),
    },
    "outcome": {
        # a protest's: masculine in Russian, unlike an application's
        "upheld": gettext_lazy("upheld"),
        "rejected": pgettext_lazy("protest", "rejected"),
    },
}


@dataclass(frozen=True)
class Kind:
    """One kind of message."""

    code: str
    """Stored in every message of the kind; never renamed."""
    label: Promise
    """What the kind is, for the e-mail choices."""
    title: Promise
    """The title, with the parameters as %(name)s."""
    text: Promise
    """The text, with the parameters as %(name)s."""
    line: Promise | None = None
    """When given: the text is followed by one such line per item of `params["rows"]`."""


KINDS: dict[str, Kind] = {
    kind.code: kind
    for kind in (
        Kind(
            "application.received",
            gettext_lazy("Application received"),
            gettext_lazy("%(tournament)s: your application is received"),
            gettext_lazy("Your application as %(nickname)s awaits the organiser's confirmation."),
        ),
        Kind(
            "application.approved",
            gettext_lazy("Application approved"),
            gettext_lazy("%(tournament)s: you are a participant"),
            gettext_lazy("Your application as %(nickname)s is approved: you play."),
        ),
        Kind(
            "application.waitlisted",
            gettext_lazy("On the waiting list"),
            gettext_lazy("%(tournament)s: you are on the waiting list"),
            gettext_lazy(
                "Every place is taken: %(nickname)s is on the waiting list and moves up "
                "when a place frees."
            ),
        ),
        Kind(
            "application.rejected",
            gettext_lazy("Application rejected"),
            gettext_lazy("%(tournament)s: your application is rejected"),
            gettext_lazy("Your application as %(nickname)s is rejected: %(reason)s"),
        ),
        Kind(
            "seating.published",
            gettext_lazy("Seating published"),
            gettext_lazy("%(tournament)s: the %(stage)s seating is published"),
            gettext_lazy("Your tables in the %(stage)s:"),
            gettext_lazy("Round %(round)s: table %(table)s, seat %(seat)s, judge %(judge)s"),
        ),
        Kind(
            "seating.judging",
            gettext_lazy("Tables to judge"),
            gettext_lazy("%(tournament)s: your tables to judge in the %(stage)s"),
            gettext_lazy("You judge these tables in the %(stage)s:"),
            gettext_lazy("Round %(round)s: table %(table)s"),
        ),
        Kind(
            "checkin.opened",
            gettext_lazy("Check-in open"),
            gettext_lazy("%(tournament)s: check-in for day %(day)s is open"),
            gettext_lazy(
                "Check-in for day %(day)s is open: check in on the tournament's page when "
                "you are at the venue."
            ),
        ),
        Kind(
            "seating.judging_ended",
            gettext_lazy("A table given to another judge"),
            gettext_lazy("%(tournament)s: %(game)s is no longer yours to judge"),
            gettext_lazy(
                "The chief judge gave %(game)s (round %(round)s, table %(table)s) to "
                "another judge: you no longer judge it."
            ),
        ),
        Kind(
            "protocol.returned",
            gettext_lazy("Protocol returned"),
            gettext_lazy("%(tournament)s: the protocol of %(game)s is returned"),
            gettext_lazy("The chief judge returned the protocol of %(game)s to you: %(reason)s"),
        ),
        Kind(
            "protocol.submitted",
            gettext_lazy("Protocol awaiting confirmation"),
            gettext_lazy("%(tournament)s: the protocol of %(game)s awaits confirmation"),
            gettext_lazy("The table judge submitted the protocol of %(game)s for confirmation."),
        ),
        Kind(
            "protocol.resubmitted",
            gettext_lazy("Protocol signed again"),
            gettext_lazy("%(tournament)s: the protocol of %(game)s is signed again"),
            gettext_lazy(
                "The table judge changed the protocol of %(game)s and signed it again "
                "(version %(version)s); it awaits confirmation."
            ),
        ),
        Kind(
            "protocol.confirmed",
            gettext_lazy("Protocol confirmed"),
            gettext_lazy("%(tournament)s: the protocol of %(game)s is confirmed"),
            gettext_lazy("The protocol of %(game)s is confirmed: from now on it counts."),
        ),
        Kind(
            "protest.filed",
            gettext_lazy("Protest filed"),
            gettext_lazy("%(tournament)s: a protest against %(game)s"),
            gettext_lazy("%(player)s (seat %(seat)s) protests the result of %(game)s."),
        ),
        Kind(
            "protest.decided",
            gettext_lazy("Protest decided"),
            gettext_lazy("%(tournament)s: the protest against %(game)s is decided"),
            gettext_lazy("The protest of %(player)s against %(game)s is %(outcome)s: %(decision)s"),
        ),
        Kind(
            "penalty.given",
            gettext_lazy("Penalty"),
            gettext_lazy("%(tournament)s: a penalty"),
            gettext_lazy("The chief judge gave %(player)s a penalty (%(points)s): %(reason)s"),
        ),
        Kind(
            "penalty.cancelled",
            gettext_lazy("Penalty cancelled"),
            gettext_lazy("%(tournament)s: a penalty cancelled"),
            gettext_lazy(
                "The chief judge cancelled the penalty of %(player)s (%(points)s): %(reason)s"
            ),
        ),
        Kind(
            "standings.shown",
            gettext_lazy("Standings published"),
            gettext_lazy("%(tournament)s: the standings are published"),
            gettext_lazy("The standings of %(tournament)s are open to everyone."),
        ),
        Kind(
            "standings.frozen",
            gettext_lazy("Results fixed"),
            gettext_lazy("%(tournament)s: the results are fixed"),
            gettext_lazy("The organiser fixed the standings of %(tournament)s: see the results."),
        ),
        Kind(
            "staff.assigned",
            gettext_lazy("Staff role"),
            gettext_lazy("%(tournament)s: you are %(role)s"),
            gettext_lazy("You were made %(role)s of %(tournament)s."),
        ),
        Kind(
            "broadcast",
            gettext_lazy("Organiser's message"),
            gettext_lazy("%(tournament)s: a message from the organiser"),
            gettext_lazy("%(text)s"),
        ),
    )
}


@dataclass(frozen=True)
class Rendered:
    """A message said in one language."""

    title: str
    text: str


def _words(params: Mapping[str, Any]) -> dict[str, Any]:
    said: dict[str, Any] = {}
    for key, value in params.items():
        words = _WORDS.get(key)
        if words is not None and value in words:
            said[key] = str(words[value])
        elif value is None or value == "":
            said[key] = "—"
        else:
            said[key] = value
    return said


def _format(template: Promise, params: Mapping[str, Any]) -> str:
    try:
        return str(template) % params
    except (KeyError, TypeError, ValueError):
        # a message stored by an older edition may lack a parameter: said without them
        return str(template)


def zone_named(name: object) -> dt.tzinfo | None:
    """The time zone a message names (None: the site's)."""
    if not isinstance(name, str) or not name or len(name) > 64:
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None


def _when(row: Mapping[str, Any]) -> str:
    """A row's start time (in the tournament's time zone the row names, else the
    site's; the reader's format) and place, when the row has them:
    ", 05.12.2026 10:00, Club hall"."""
    said = []
    starts_at = row.get("starts_at")
    if isinstance(starts_at, str):
        try:
            moment = dt.datetime.fromisoformat(starts_at)
        except ValueError:
            moment = None
        if moment is not None and timezone.is_aware(moment):
            local = timezone.localtime(moment, zone_named(row.get("zone")))
            said.append(date_format(local, "SHORT_DATETIME_FORMAT"))
    place = row.get("place")
    if isinstance(place, str) and place:
        said.append(place)
    return "".join(", " + part for part in said)


def render(kind: str, params: Mapping[str, Any]) -> Rendered:
    """The message in the active language."""
    found = KINDS.get(kind)
    if found is None:
        return Rendered(title=_("A message"), text="")
    said = _words(params)
    text = _format(found.text, said)
    if found.line is not None:
        rows = params.get("rows")
        lines = [
            _format(found.line, _words(row) | {k: v for k, v in said.items() if k not in row})
            + _when(row)
            for row in (rows if isinstance(rows, list) else [])
            if isinstance(row, dict)
        ]
        text = "\n".join([text, *lines])
    return Rendered(title=_format(found.title, said), text=text)
