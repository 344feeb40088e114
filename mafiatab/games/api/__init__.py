"""The API of game protocols and protests (django-ninja Router).

Reading a confirmed protocol is open to everyone; a protocol not yet confirmed is
shown to the tournament's staff and the players of its table. Writing needs the
same permission as on the pages: `user_can(user, tournament, action, game=game)`
(the judge of that table, or the chief judge). Every write goes through
`mafiatab.games.services`; a save names the version it started from and is
refused with 409 when someone saved in between.

The operations are here, so that their ids (named after this module) stay as
they were; `schemas` holds what they read and answer, `lookups` the lookups with
their permission checks, and `payloads` the conversions to and from the
protocol's data.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Router
from ninja import Status as HttpStatus

from mafiatab.api.auth import caller
from mafiatab.api.errors import NOT_FOUND, VERSIONED_WRITE, Error, Forbidden, NotFound
from mafiatab.api.schemas import GameId
from mafiatab.games import services
from mafiatab.games.api.lookups import _game, _run, _visible
from mafiatab.games.api.payloads import _data, _detail, _protest_out
from mafiatab.games.api.schemas import (
    ConfirmIn,
    DecisionIn,
    GameDetailOut,
    GameOut,
    ProtestId,
    ProtestIn,
    ProtestOut,
    ReplayIn,
    SaveIn,
    VersionOut,
)
from mafiatab.games.models import Game, GameStatus, Protest, ProtocolVersion
from mafiatab.games.selectors import points_shown, protocol_shown
from mafiatab.tournaments.api import require, tournament_or_404
from mafiatab.tournaments.disclosure import disclosure_for, withheld_message
from mafiatab.tournaments.permissions import user_can

router = Router(tags=["games"])


# --- reading ----------------------------------------------------------------------------


@router.get(
    "/tournaments/{slug}/games",
    response={200: list[GameOut], **NOT_FOUND},
    auth=None,
    summary="Games",
)
def list_games(request: HttpRequest, slug: str):
    """The tournament's games in order: confirmed ones for everyone, all for the staff."""
    tournament = tournament_or_404(slug)
    games = Game.objects.filter(tournament=tournament).order_by("position")
    if not user_can(caller(request), tournament, "view_protocols"):
        games = games.filter(status=GameStatus.CONFIRMED)
    return games


@router.get(
    "/tournaments/{slug}/games/{game_id}",
    response={200: GameDetailOut, **NOT_FOUND},
    auth=None,
    summary="A game's protocol",
)
def get_game(request: HttpRequest, slug: str, game_id: int = GameId):
    """The current version of the protocol, and its problems (the core's validation).

    While the organiser hides the standings (or for a game confirmed or changed since
    he froze them) the public gets who played and which team won, without the
    protocol's points: `points_withheld` is then true."""
    game = _visible(request, _game(tournament_or_404(slug), game_id))
    disclosure = disclosure_for(caller(request), game.tournament)
    return _detail(
        game,
        withheld=not points_shown(disclosure, game),
        extras=disclosure.shows_extras(game.stage),
    )


@router.get(
    "/tournaments/{slug}/games/{game_id}/versions",
    response={200: list[VersionOut], 403: Error, **NOT_FOUND},
    auth=None,
    summary="Versions of a protocol",
)
def list_versions(request: HttpRequest, slug: str, game_id: int = GameId):
    """Every saved version, oldest first: who, when, why, and the protocol then.
    Refused (403) while the game's points are withheld from the caller."""
    game = _visible(request, _game(tournament_or_404(slug), game_id))
    disclosure = disclosure_for(caller(request), game.tournament)
    if not protocol_shown(disclosure, game):
        raise Forbidden(withheld_message(disclosure))
    versions: list[ProtocolVersion] = list(game.versions.select_related("author"))
    return [
        {
            "number": v.number,
            "status": v.status,
            "action": v.action,
            "reason": v.reason_text,
            "author": (v.author.nickname or v.author.username) if v.author else None,
            "created_at": v.created_at,
            "protocol": v.data,
        }
        for v in versions
    ]


@router.get(
    "/tournaments/{slug}/games/{game_id}/protests",
    response={200: list[ProtestOut], **NOT_FOUND},
    auth=None,
    summary="Protests on a game",
)
def list_protests(request: HttpRequest, slug: str, game_id: int = GameId):
    game = _visible(request, _game(tournament_or_404(slug), game_id))
    return [_protest_out(p) for p in game.protests.select_related("version")]


# --- writing ------------------------------------------------------------------------------


@router.put(
    "/tournaments/{slug}/games/{game_id}/protocol",
    response={200: GameDetailOut, **VERSIONED_WRITE},
    summary="Save (or sign and submit) a protocol",
)
def save_protocol(request: HttpRequest, slug: str, data: SaveIn, game_id: int = GameId):
    """A new version of the protocol. The judge of the table (before confirmation) or
    the chief judge. 409 when the protocol changed since `base_version`."""
    game = _game(tournament_or_404(slug), game_id)
    require(request.auth, game.tournament, "enter_protocol", game=game)
    _run(
        lambda: services.protocol_save(
            game=game,
            data=_data(data.protocol, game.tournament),
            by=request.auth,
            base_version=data.base_version,
            submit=data.submit,
            reason=data.reason,
        )
    )
    return _detail(_game(game.tournament, game.pk))


@router.post(
    "/tournaments/{slug}/games/{game_id}/confirm",
    response={200: GameDetailOut, **VERSIONED_WRITE},
    summary="Confirm a submitted protocol",
)
def confirm_protocol(
    request: HttpRequest, slug: str, data: ConfirmIn | None = None, game_id: int = GameId
):
    """The chief judge confirms: the protocol counts in the official standings."""
    game = _game(tournament_or_404(slug), game_id)
    require(request.auth, game.tournament, "confirm_protocol", game=game)
    base = data.base_version if data is not None else None
    _run(lambda: services.protocol_confirm(game=game, by=request.auth, base_version=base))
    return _detail(_game(game.tournament, game.pk))


@router.post(
    "/tournaments/{slug}/games/{game_id}/replay",
    response={200: GameDetailOut, **VERSIONED_WRITE},
    summary="Mark a game replayed",
)
def mark_replayed(request: HttpRequest, slug: str, data: ReplayIn, game_id: int = GameId):
    """Online addendum: the game counts for nothing but its removal penalties."""
    tournament = tournament_or_404(slug)
    game = _game(tournament, game_id)
    require(request.auth, game.tournament, "confirm_protocol", game=game)
    replay = _game(tournament, data.replay_game_id) if data.replay_game_id else None
    _run(
        lambda: services.game_mark_replayed(
            game=game, by=request.auth, replay=replay, reason=data.reason
        )
    )
    return _detail(_game(tournament, game.pk))


@router.post(
    "/tournaments/{slug}/games/{game_id}/protests",
    response={201: ProtestOut, **VERSIONED_WRITE},
    summary="Protest a game's result",
)
def file_protest(request: HttpRequest, slug: str, data: ProtestIn, game_id: int = GameId):
    """A player of the table, within the regulation's window after the protocol was
    submitted (8.9.1)."""
    game = _game(tournament_or_404(slug), game_id)
    require(request.auth, game.tournament, "file_protest", game=game)
    protest = _run(lambda: services.protest_file(game=game, by=request.auth, text=data.text))
    return HttpStatus(201, _protest_out(protest))


@router.post(
    "/tournaments/{slug}/protests/{protest_id}/decide",
    response={200: ProtestOut, **VERSIONED_WRITE},
    summary="Decide a protest",
)
def decide_protest(request: HttpRequest, slug: str, data: DecisionIn, protest_id: int = ProtestId):
    """The chief judge (or the appeal committee) decides, with reasons; the decision is
    final within the tournament. With `protocol` the protocol changes (a new version)."""
    tournament = tournament_or_404(slug)
    protest = Protest.objects.filter(game__tournament=tournament, pk=protest_id).first()
    if protest is None:
        raise NotFound(_("There is no protest %(id)d in this tournament.") % {"id": protest_id})
    require(request.auth, tournament, "decide_protest")
    decided = _run(
        lambda: services.protest_decide(
            protest=protest,
            by=request.auth,
            upheld=data.upheld,
            decision=data.decision,
            by_committee=data.by_committee,
            data=_data(data.protocol, tournament) if data.protocol is not None else None,
            base_version=data.base_version,
        )
    )
    return _protest_out(decided)
