"""The API's doors to a tournament, for every app's endpoints: the tournament at an
address (or a 404 naming it) and the permission an action needs (or a 403)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from mafiatab.api.errors import SLUG_RE, Forbidden, NotFound
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.permissions import ensure_can


def tournament_or_404(slug: str) -> Tournament:
    """The tournament at this address, or a 404 naming it."""
    tournament = None
    if SLUG_RE.fullmatch(slug):
        tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        raise NotFound(_("There is no tournament at the address %(slug)r.") % {"slug": slug})
    return tournament


def require(user: Any, tournament: Tournament, action: str, *, game: Any = None) -> None:
    """Refuse with 403 unless `user` may perform `action` in `tournament` (on `game`,
    when given): `ensure_can`'s answer, said as the API says it."""
    try:
        ensure_can(user, tournament, action, game=game)
    except PermissionDenied:
        if game is not None:
            message = _("You may not do this with this game (%(action)s).")
        else:
            message = _("You may not do this in this tournament (%(action)s).")
        raise Forbidden(message % {"action": action}) from None
