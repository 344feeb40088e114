"""The API's doors to a tournament, for every app's endpoints: the tournament at an
address (or a 404 naming it) and the permission an action needs (or a 403)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from mafiatab.api.errors import SLUG_RE, Forbidden, NotFound
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.permissions import user_can


def tournament_or_404(slug: str) -> Tournament:
    """The tournament at this address, or a 404 naming it."""
    tournament = None
    if SLUG_RE.fullmatch(slug):
        tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        raise NotFound(_("There is no tournament at the address %(slug)r.") % {"slug": slug})
    return tournament


def require(user: Any, tournament: Tournament, action: str) -> None:
    """Refuse with 403 unless `user` may perform `action` in `tournament`."""
    if not user_can(user, tournament, action):
        raise Forbidden(
            _("You may not do this in this tournament (%(action)s).") % {"action": action}
        )
