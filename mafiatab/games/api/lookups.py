"""Finding a game in a tournament and checking the caller may see or change it; a
service's refusal (`ProtocolChanged`, `PermissionDenied`) as an HTTP error.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja.errors import HttpError

from mafiatab.api.auth import caller
from mafiatab.api.errors import NotFound
from mafiatab.games import services
from mafiatab.games.models import Game
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.permissions import user_can


def _game(tournament: Tournament, game_id: int) -> Game:
    game = (
        Game.objects.filter(tournament=tournament, pk=game_id).select_related("tournament").first()
    )
    if game is None:
        raise NotFound(_("There is no game %(id)d in this tournament.") % {"id": game_id})
    return game


def _visible(request: HttpRequest, game: Game) -> Game:
    user = caller(request)
    tournament = game.tournament
    if (
        game.is_confirmed
        or user_can(user, tournament, "view_protocols")
        or (game.submitted_at is not None and user_can(user, tournament, "file_protest", game=game))
    ):
        return game
    raise NotFound(_("There is no game %(id)d in this tournament.") % {"id": game.pk})


def _run(write: Any) -> Any:
    try:
        return write()
    except services.ProtocolChanged as exc:
        raise HttpError(409, str(exc)) from exc
    except PermissionDenied as exc:
        raise HttpError(403, _("You may not do this with this game.")) from exc
