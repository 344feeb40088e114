"""Standings pages: the live table, its projector form and CSV, every player's points."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from mafiatab.core.scoring import format_points
from mafiatab.security.exports import SafeCSVWriter
from mafiatab.standings import services
from mafiatab.standings.services import (
    Shown,
    player_explanation,
    public_state,
    shown_token,
    standings_freeze,
    standings_set_hidden,
    standings_unfreeze,
    viewer_standings,
)
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.permissions import permissions_for, tournament_permission

#: Seconds between two refreshes of a live table.
REFRESH_SECONDS = 15


def _shown(request: HttpRequest, slug: str) -> tuple[Tournament, dict[str, bool], Shown, bool]:
    provisional = request.GET.get("provisional") == "1"
    tournament = get_object_or_404(Tournament, slug=slug)
    can = permissions_for(request.user, tournament)
    shown = viewer_standings(
        tournament=tournament, staff=can["view_live_standings"], provisional=provisional
    )
    return tournament, can, shown, provisional


#: Stands for the visitor's CSRF token in a page kept for anonymous visitors.
CSRF_PLACEHOLDER = "csrf-placeholder-4f1c9e27"


def _is_shareable(request: HttpRequest) -> bool:
    """True for a visitor who gets the same page as every anonymous one (no account,
    no session, no pending messages)."""
    cookies = request.COOKIES
    if cookies.get(settings.SESSION_COOKIE_NAME) or cookies.get("messages"):
        return False
    return not request.user.is_authenticated


def _page_key(request: HttpRequest, token: str, header: tuple) -> tuple:
    partial = bool(getattr(request, "htmx", False))
    return ("page", token, header, get_language(), partial, request.get_full_path())


def _shared_page(html: str, request: HttpRequest) -> HttpResponse:
    response = HttpResponse(html.replace(CSRF_PLACEHOLDER, get_token(request)))
    patch_vary_headers(response, ["Cookie"])
    return response


@require_safe
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings as the viewer may see them, official or provisional.

    The page an anonymous visitor gets is rendered once per state of the standings and
    kept in the process: serving it again costs one query (`public_state`) and putting
    in the visitor's CSRF token.
    """
    provisional = request.GET.get("provisional") == "1"
    fmt = request.GET.get("format")
    shared = fmt is None and _is_shareable(request)
    if shared:
        state = public_state(slug=slug, provisional=provisional)
        if state is None:
            raise Http404(slug)
        if state.token is not None:
            if request.htmx and request.GET.get("since") == state.token:
                return HttpResponse(status=204)
            html = services.derived.get(_page_key(request, state.token, state.header))
            if html is not None:
                return _shared_page(html, request)
    tournament, can, shown, provisional = _shown(request, slug)
    if fmt == "csv":
        return _csv(tournament, shown, provisional)
    projector = request.GET.get("view") == "projector"
    token = shown_token(shown)
    if request.htmx and request.GET.get("since") == token:
        return HttpResponse(status=204)
    context = {
        "tournament": tournament,
        "can": can,
        "shown": shown,
        "provisional": provisional,
        "projector": projector,
        "token": token,
        "refresh_seconds": REFRESH_SECONDS,
    }
    if projector:
        template = "standings/_projector_live.html" if request.htmx else "standings/projector.html"
    else:
        template = "standings/_live.html" if request.htmx else "standings/table.html"
    if not shared:
        return render(request, template, context)
    header = (tournament.name, tournament.stars, tournament.ruleset, tournament.slug)
    context["csrf_token"] = CSRF_PLACEHOLDER
    html = render_to_string(template, context, request)
    services.derived.put(_page_key(request, token, header), html)
    return _shared_page(html, request)


def _csv(tournament: Tournament, shown: Shown, provisional: bool) -> HttpResponse:
    if shown.snapshot is None:
        raise Http404(_("The standings are hidden."))
    kind = "provisional" if provisional else "official"
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="{tournament.slug}-standings-{kind}.csv"'
    )
    writer = SafeCSVWriter(response)
    writer.writerow(
        [
            "rank",
            "player",
            "total",
            "main",
            "extra",
            "penalties",
            "compensation",
            "wins",
            "wins_as_don_or_sheriff",
            "first_night_deaths",
            "games",
            "decided_by_lot",
        ]
    )
    for r in shown.snapshot.standings.rows:
        writer.writerow(
            [
                r.rank,
                r.player,
                format_points(r.total),
                format_points(r.main),
                format_points(r.extra),
                format_points(r.penalties),
                format_points(r.compensation),
                r.wins,
                r.wins_as_don_or_sheriff,
                r.first_night_deaths,
                r.games,
                "yes" if r.decided_by_lot else "no",
            ]
        )
    return response


@require_safe
def player(request: HttpRequest, slug: str, player: str) -> HttpResponse:
    """Every line of one player's points, game by game, with its clause."""
    tournament, can, shown, provisional = _shown(request, slug)
    explanation = row = None
    if shown.snapshot is not None:
        explanation = player_explanation(snapshot=shown.snapshot, player=player)
        if explanation is None:
            raise Http404(player)
        row = next((r for r in shown.snapshot.standings.rows if r.player == player), None)
    context = {
        "tournament": tournament,
        "can": can,
        "shown": shown,
        "provisional": provisional,
        "player": player,
        "explanation": explanation,
        "row": row,
    }
    return render(request, "standings/player.html", context)


@require_POST
@tournament_permission("manage_standings")
def manage(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The organiser hides, shows, freezes or unfreezes the standings."""
    action = request.POST.get("action", "")
    done = {
        "hide": _("The standings are hidden from the public."),
        "show": _("The standings are shown to the public."),
        "freeze": _("The standings are frozen: the public sees them as they are now."),
        "unfreeze": _("The standings are live again for the public."),
    }
    if action not in done:
        messages.error(request, _("Unknown standings setting %(action)s.") % {"action": action})
        return redirect("standings:table", slug=tournament.slug)
    try:
        if action in ("hide", "show"):
            standings_set_hidden(tournament=tournament, hidden=action == "hide", by=request.user)
        elif action == "freeze":
            standings_freeze(tournament=tournament, by=request.user)
        else:
            standings_unfreeze(tournament=tournament, by=request.user)
    except ValidationError as exc:
        for message in exc.messages:
            messages.error(request, message)
    else:
        messages.success(request, done[action])
    return redirect("standings:table", slug=tournament.slug)
