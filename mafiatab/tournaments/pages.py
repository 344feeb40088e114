"""What every page of a tournament shares, whatever app serves it: its header."""

from __future__ import annotations

from django.http import HttpRequest

from mafiatab.tournaments.models import StaffRole, Tournament
from mafiatab.tournaments.permissions import permissions_for


def tournament_context(request: HttpRequest, tournament: Tournament) -> dict[str, object]:
    """What every page of a tournament shows in its header."""
    return {
        "tournament": tournament,
        "can": permissions_for(request.user, tournament),
        "organisers": tournament.staff(StaffRole.ORGANISER),
        "chief_judges": tournament.staff(StaffRole.CHIEF_JUDGE),
        "table_judges": tournament.staff(StaffRole.TABLE_JUDGE),
    }
