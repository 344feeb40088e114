"""The broadcast's pages: a table's stream overlay (1920x1080 on a transparent
background, for OBS), its result card, the live channel that the overlay and the
spectators' board wait on, the director's view behind a private link, and the
tournament's broadcast page (every table's links, the stream's address, the
director's links the chief judge makes and revokes).

The live channel is long polling: a viewer asks with the version he shows, and the
answer comes when the table changes (within half a second), or after
`LIVE_WAIT_SECONDS` unchanged. Waiting holds a thread of the server, so at most
`LIVE_WAITERS` requests of a process wait at once; any more are answered at once
and the page asks again a second later. A server restart only makes the page ask
again until it is back.
"""

from __future__ import annotations

import time
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from mafiatab.console import broadcast
from mafiatab.console.models import DirectorLink
from mafiatab.console.views import _table_game
from mafiatab.games.models import Game
from mafiatab.security.heavy import HeavyExports
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.permissions import permissions_for

#: The longest a live request waits for a change.
LIVE_WAIT_SECONDS = 20.0
#: How often a waiting request looks for a change.
LIVE_STEP_SECONDS = 0.4
#: The longest version a viewer may send (longer: treated as none).
MAX_VERSION_CHARS = 120


def _waiters() -> HeavyExports:
    from django.apps import apps

    config: Any = apps.get_app_config("console")
    slots: HeavyExports = config.live_waiters
    return slots


def _language(tournament: Tournament) -> str:
    """The broadcast's language: the tournament's, else the viewer's."""
    return tournament.language or translation.get_language() or "en"


def _director(slug: str, token: str) -> tuple[Tournament, DirectorLink]:
    tournament = get_object_or_404(Tournament, slug=slug)
    link = broadcast.director_link(tournament, token)
    if link is None:
        raise Http404(_("No such link."))
    return tournament, link


#: The live channel of each template, for the public.
_LIVE = {
    "console/overlay.html": "console:overlay_live",
    "console/_overlay.html": "console:overlay_live",
    "console/card.html": "console:card_live",
    "console/_card.html": "console:card_live",
    "console/_board.html": "console:board_live",
}


def _overlay_context(
    request: HttpRequest, game: Game, template: str, *, token: str = ""
) -> dict[str, Any]:
    director = bool(token)
    # What goes on air is what the public sees, whoever opened it; the board is the
    # viewer's own page, as `console:spectator` shows it.
    viewer = request.user if template == "console/_board.html" else None
    data = broadcast.overlay(game, viewer=viewer, director=director)
    if director:
        live = reverse("console:director_overlay_live", args=[game.tournament.slug, token, game.pk])
    else:
        live = reverse(_LIVE[template], args=[game.tournament.slug, game.pk])
    return data | {"tournament": game.tournament, "game": game, "live": live}


def _page(request: HttpRequest, game: Game, template: str, *, token: str = "") -> HttpResponse:
    with translation.override(_language(game.tournament)):
        version = broadcast.live_version(game.pk)
        context = _overlay_context(request, game, template, token=token) | {"version": version}
        response = render(request, template, context)
    response["Cache-Control"] = "no-store"
    if token:
        response["Referrer-Policy"] = "no-referrer"
        response["X-Robots-Tag"] = "noindex"
    return response


def _wait(request: HttpRequest, game: Game) -> tuple[str, bool]:
    """The table's version once it differs from the viewer's, or after the longest
    wait; and whether the request could wait at all."""
    since = request.GET.get("v", "")[:MAX_VERSION_CHARS]
    version = broadcast.live_version(game.pk)
    if version != since or request.GET.get("wait") != "1":
        return version, True
    slots = _waiters()
    if not slots.try_take():
        return version, False
    try:
        deadline = time.monotonic() + LIVE_WAIT_SECONDS
        while version == since and time.monotonic() < deadline:
            time.sleep(LIVE_STEP_SECONDS)
            version = broadcast.live_version(game.pk)
    finally:
        slots.give_back()
    return version, True


def _live(request: HttpRequest, game: Game, template: str, *, token: str = "") -> HttpResponse:
    """The live answer: `{"v": version, "waited": bool, "html": ...}`, the html only when
    the version differs from the viewer's."""
    since = request.GET.get("v", "")[:MAX_VERSION_CHARS]
    version, waited = _wait(request, game)
    body: dict[str, Any] = {"v": version, "waited": waited}
    if version != since:
        game = _table_game(game.tournament.slug, game.pk)  # as it is now
        language = _language(game.tournament) if template != "console/_board.html" else None
        with translation.override(language or translation.get_language()):
            body["html"] = render_to_string(
                template, _overlay_context(request, game, template, token=token), request
            )
    response = JsonResponse(body)
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def overlay(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A table's stream overlay as the public sees it."""
    return _page(request, _table_game(slug, pk), "console/overlay.html")


@require_GET
def overlay_live(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    return _live(request, _table_game(slug, pk), "console/_overlay.html")


@require_GET
def card(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A table's result card for the stream (the game's end, as the public may see it)."""
    return _page(request, _table_game(slug, pk), "console/card.html")


@require_GET
def card_live(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    return _live(request, _table_game(slug, pk), "console/_card.html")


@require_GET
def board_live(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The spectators' board, live (the page `console:spectator` waits on it)."""
    return _live(request, _table_game(slug, pk), "console/_board.html")


@require_GET
def director(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The director's index: every table's overlay with the roles."""
    tournament, _link = _director(slug, token)
    games = (
        Game.objects.filter(tournament=tournament, table_slot__isnull=False)
        .select_related("table_slot__round")
        .order_by("position")
    )
    with translation.override(_language(tournament)):
        response = render(
            request,
            "console/director.html",
            {"tournament": tournament, "games": games, "token": token},
        )
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex"
    return response


@require_GET
def director_overlay(request: HttpRequest, slug: str, token: str, pk: int) -> HttpResponse:
    _director(slug, token)
    return _page(request, _table_game(slug, pk), "console/overlay.html", token=token)


@require_GET
def director_overlay_live(request: HttpRequest, slug: str, token: str, pk: int) -> HttpResponse:
    _director(slug, token)
    game = _table_game(slug, pk)
    response = _live(request, game, "console/_overlay.html", token=token)
    if broadcast.director_link(game.tournament, token) is None:  # revoked while waiting
        raise Http404(_("No such link."))
    return response


@require_GET
def broadcast_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's broadcast: each table's overlay, board and card, the standings
    strip, the stream's address; the chief judge's director's links."""
    tournament = get_object_or_404(Tournament, slug=slug)
    can = permissions_for(request.user, tournament)
    games = (
        Game.objects.filter(tournament=tournament, table_slot__isnull=False)
        .select_related("table_slot__round")
        .order_by("position")
    )
    links = broadcast.director_links(tournament) if can["manage_broadcast"] else []
    context = {
        "tournament": tournament,
        "can": can,
        "games": games,
        "links": [
            (link, request.build_absolute_uri(reverse("console:director", args=[slug, link.token])))
            for link in links
        ],
    }
    return render(request, "console/broadcast.html", context)


@require_POST
def director_links(request: HttpRequest, slug: str) -> HttpResponse:
    """The chief judge makes a director's link, or revokes one."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("console:broadcast", args=[slug]))
    tournament = get_object_or_404(Tournament, slug=slug)
    if not permissions_for(request.user, tournament)["manage_broadcast"]:
        raise PermissionDenied("manage_broadcast")
    action = request.POST.get("action", "")
    try:
        if action == "create":
            broadcast.director_link_create(tournament=tournament, by=request.user)  # type: ignore[arg-type]
            messages.success(request, _("A director's link was made."))
        elif action == "revoke":
            raw = request.POST.get("link", "")
            if not (raw.isascii() and raw.isdigit() and len(raw) <= 12):
                raise ValidationError(_("No such link."))
            link = DirectorLink.objects.filter(tournament=tournament, pk=int(raw)).first()
            if link is None:
                raise ValidationError(_("No such link."))
            broadcast.director_link_revoke(link=link, by=request.user)  # type: ignore[arg-type]
            messages.success(request, _("The director's link was revoked: it no longer opens."))
        else:
            raise ValidationError(_("Unknown action."))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    return redirect("console:broadcast", slug=tournament.slug)
