"""What of a tournament's results one viewer may see: the one decision behind every
public door (the tournament file, the API, the game pages, the protocol PDFs, the
console logs and the spectators' board, the standings and their downloads).

The organiser may hide the standings from the public or freeze them
(`mafiatab.standings.services`). The staff (`view_live_standings`: the organiser,
the chief judge, the table judges) always see everything. While the standings are
hidden, the public sees no point and nothing points are computed from: of a game,
who played and which team won, no roles, fouls, best move, extras, penalties or
protocol file. While they are frozen, the public sees the games as they were when
frozen: a game whose protocol was confirmed before the freeze and not changed since
in full, any other one as while hidden.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.permissions import user_can

__all__ = ["Disclosure", "disclosure_for", "withheld_message", "withheld_refusal"]


@dataclass(frozen=True, slots=True)
class Disclosure:
    """What one viewer may see of a tournament's results."""

    staff: bool
    """The viewer is staff: he sees everything, live."""
    hidden: bool
    """The organiser hid the standings from the public."""
    frozen_at: dt.datetime | None
    """When the standings were frozen (None: they are not)."""
    hidden_extras: frozenset[str] = frozenset()
    """The stages whose judges' extras the viewer does not see: the stage plan hides
    them from the public until the organiser closes the tournament."""

    def shows_extras(self, stage: str) -> bool:
        """True when the viewer may see the judges' extras of a game of `stage`."""
        return stage not in self.hidden_extras

    @property
    def is_complete(self) -> bool:
        """True when nothing is withheld from this viewer."""
        return self.staff or (not self.hidden and self.frozen_at is None)

    @property
    def withholds_all(self) -> bool:
        """True when every game's points are withheld (hidden standings, the public)."""
        return not self.staff and self.hidden

    @property
    def as_of(self) -> dt.datetime | None:
        """The moment the viewer sees the results as of (None: as they are now)."""
        return None if self.staff or self.hidden else self.frozen_at

    def shows_points(self, *, confirmed: bool, changed_at: dt.datetime | None) -> bool:
        """True when the viewer may see a game's points and what they are computed from
        (its protocol in full, its protocol file, its console log's roles): everyone
        unless the standings are hidden (staff only) or frozen (a protocol confirmed
        before the freeze and last changed, at `changed_at`, no later)."""
        if self.is_complete:
            return True
        if self.hidden or self.frozen_at is None:
            return False
        return confirmed and changed_at is not None and changed_at <= self.frozen_at


def disclosure_for(user: Any, tournament: Tournament) -> Disclosure:
    """What `user` (None or anonymous: the public) may see of `tournament`'s results."""
    frozen = tournament.standings_frozen_version is not None
    staff = user_can(user, tournament, "view_live_standings")
    hidden_extras: frozenset[str] = frozenset()
    if not staff and not tournament.is_closed:
        plan = tournament.stage_plan or []
        hidden_extras = frozenset(str(s["stage"]) for s in plan if s.get("hide_extras"))
    return Disclosure(
        staff=staff,
        hidden=tournament.standings_hidden,
        frozen_at=tournament.standings_frozen_at if frozen else None,
        hidden_extras=hidden_extras,
    )


def withheld_message(disclosure: Disclosure) -> str:
    """Why a viewer does not get a game's points, in his language."""
    if not disclosure.hidden and disclosure.frozen_at is None and disclosure.hidden_extras:
        return _(
            "The judges' extra points of this stage are shown to the staff only until "
            "the organiser closes the tournament."
        )
    if disclosure.hidden:
        return _(
            "The organiser has hidden the standings of this tournament: the points of its "
            "games are shown to its staff only."
        )
    return _(
        "The organiser has frozen the standings of this tournament: the points of the "
        "games confirmed or changed since are shown to its staff only."
    )


def withheld_refusal(request: HttpRequest, disclosure: Disclosure) -> HttpResponse:
    """The answer of every door (a page, a protocol PDF, the standings' PDF, XLSX and
    CSV, the tournament file) that would show a viewer the points withheld from him:
    403 saying why, in his language, alike for a visitor and a signed-in outsider (a
    visitor is offered to sign in: the staff see it)."""
    context = {"reason": withheld_message(disclosure), "offer_login": True}
    return render(request, "403.html", context, status=403)
