"""Standings pages: the live table, its projector form and CSV, every player's points."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from mafiatab.core.advancing import running_stage
from mafiatab.core.scoring import format_points
from mafiatab.security.exports import SafeCSVWriter
from mafiatab.standings import cache
from mafiatab.standings.advancing import (
    advance_draft,
    advance_publish,
    advance_swap,
    advance_withdraw,
    blocker_messages,
    is_seated,
    next_stages,
    published,
    stage_name,
)
from mafiatab.standings.conversion import STANDING_FIELDS
from mafiatab.standings.services import (
    Shown,
    player_explanation,
    standings_freeze,
    standings_set_hidden,
    standings_unfreeze,
    viewer_standings,
    viewer_token,
)
from mafiatab.standings.staged import games_left, public_outlook
from mafiatab.tournaments.disclosure import disclosure_for, withheld_refusal
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.pages import tournament_context
from mafiatab.tournaments.permissions import (
    Viewer,
    permissions_for,
    permissions_of,
    tournament_permission,
    viewer_in,
)

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


#: Stand for one viewer's own values in a page shared by every viewer of his kind.
CSRF_PLACEHOLDER = "csrf-placeholder-4f1c9e27"
NAME_PLACEHOLDER = "viewer-name-placeholder-7d2e91"
MINE_PLACEHOLDER = "viewer-nicknames-placeholder-0b6a3c"


@dataclass(frozen=True)
class SharedViewer:
    """Stands for the signed-in viewer while a shared page is rendered: the page can
    only hold placeholders of his own values, which `_served` puts in."""

    is_authenticated: bool = True
    nickname: str = NAME_PLACEHOLDER
    username: str = ""


def _has_messages(request: HttpRequest) -> bool:
    """True when messages wait for the viewer (the page showing them is his own)."""
    if request.COOKIES.get("messages"):
        return True
    has_session = settings.SESSION_COOKIE_NAME in request.COOKIES
    return has_session and bool(request.session.get("_messages"))


def _mine(viewer: Viewer) -> str:
    """The nicknames the viewer plays under in the tournament, for marking his rows."""
    return json.dumps(list(viewer.nicknames), ensure_ascii=False)


def _served(page: bytes, request: HttpRequest, viewer: Viewer) -> HttpResponse:
    """A shared page (kept encoded, as it is sent) with the viewer's own values put in."""
    page = page.replace(CSRF_PLACEHOLDER.encode(), get_token(request).encode())
    user = request.user
    if user.is_authenticated:
        name = escape(user.nickname or user.username)
        page = page.replace(NAME_PLACEHOLDER.encode(), name.encode())
        page = page.replace(MINE_PLACEHOLDER.encode(), escape(_mine(viewer)).encode())
    response = HttpResponse(page)
    patch_vary_headers(response, ["Cookie"])
    return response


def _live(
    tournament: Tournament, *, token: str, staff: bool, provisional: bool, projector: bool
) -> SafeString:
    """The refreshable part of the page (the status and the table), the same for every
    viewer who sees the same standings: rendered once per state and language, and
    shared through the cache."""
    name = cache.key(
        "live-html", token, int(staff), int(provisional), int(projector), get_language()
    )

    def render() -> SafeString:
        shown = viewer_standings(tournament=tournament, staff=staff, provisional=provisional)
        template = "standings/_projector_live.html" if projector else "standings/_live.html"
        context = {
            "tournament": tournament,
            "shown": shown,
            "provisional": provisional,
            "token": token,
            "refresh_seconds": REFRESH_SECONDS,
        }
        return SafeString(render_to_string(template, context))

    return cache.get_or_compute(name, render)


def _tournament(slug: str) -> Tournament:
    """The tournament at `slug` (the page every spectator polls)."""
    found = Tournament.objects.filter(slug=slug).first()
    if found is None:
        raise Http404(slug)
    return found


@require_safe
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings as the viewer may see them, official or provisional.

    The table is rendered once per state of the standings (`viewer_token`) and shared
    by every viewer who sees that state; so is the page around it, by every viewer of
    the same kind (anonymous or signed in, with the same rights). What is the viewer's
    own (his CSRF token, his name, the nicknames whose rows are his) is put in when
    the page is served. Only a page with messages for the viewer is his alone.
    """
    provisional = request.GET.get("provisional") == "1"
    tournament = _tournament(slug)
    viewer = viewer_in(request.user, tournament)
    can = permissions_of(viewer.roles)
    staff = can["view_live_standings"]
    if request.GET.get("format") == "csv":
        shown = viewer_standings(tournament=tournament, staff=staff, provisional=provisional)
        if shown.snapshot is None:
            return withheld_refusal(request, disclosure_for(request.user, tournament))
        return _csv(tournament, shown, provisional)
    token = viewer_token(tournament, staff=staff)
    if request.htmx and request.GET.get("since") == token:
        return HttpResponse(status=204)
    projector = request.GET.get("view") == "projector"

    def live() -> SafeString:
        return _live(
            tournament, token=token, staff=staff, provisional=provisional, projector=projector
        )

    if request.htmx:
        return HttpResponse(live())
    template = "standings/projector.html" if projector else "standings/table.html"

    def context() -> dict[str, Any]:
        return {
            "tournament": tournament,
            "can": can,
            "visible": staff or not tournament.standings_hidden,
            "provisional": provisional,
            "live": live(),
            "refresh_seconds": REFRESH_SECONDS,
            "advance_stages": [(i, stage_name(i)) for _f, i, _n in next_stages(tournament)],
        }

    if _has_messages(request):
        return render(request, template, context() | {"mine": _mine(viewer)})
    signed_in = request.user.is_authenticated
    rights = ",".join(sorted(action for action, allowed in can.items() if allowed))
    header = (tournament.name, tournament.stars, tournament.ruleset)
    name = cache.key(
        "page", token, header, get_language(), request.get_full_path(), int(signed_in), rights
    )

    def render_shared() -> bytes:
        shared: dict[str, Any] = {"csrf_token": CSRF_PLACEHOLDER, "messages": ()}
        if signed_in:
            shared |= {"user": SharedViewer(), "mine": MINE_PLACEHOLDER}
        return render_to_string(template, context() | shared, request).encode()

    return _served(cache.get_or_compute(name, render_shared), request, viewer)


def _csv(tournament: Tournament, shown: Shown, provisional: bool) -> HttpResponse:
    assert shown.snapshot is not None  # hidden standings are refused before
    kind = "provisional" if provisional else "official"
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="{tournament.slug}-standings-{kind}.csv"'
    )
    writer = SafeCSVWriter(response)
    writer.writerow(STANDING_FIELDS)
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
    explanation = row = chances = left = None
    if shown.snapshot is not None:
        explanation = player_explanation(snapshot=shown.snapshot, player=player)
        if explanation is None:
            raise Http404(player)
        row = next((r for r in shown.snapshot.standings.rows if r.player == player), None)
        chances = public_outlook(shown.snapshot.standings).get(player)
        if chances is not None:
            frozen = shown.snapshot.computed_at if shown.snapshot.stored else None
            left = games_left(tournament.pk, shown.snapshot.standings, player, as_of=frozen)
    context = {
        "tournament": tournament,
        "can": can,
        "shown": shown,
        "provisional": provisional,
        "player": player,
        "explanation": explanation,
        "row": row,
        "outlook": chances,
        "games_left": left,
        "next_stage": _next_stage_name(shown),
    }
    return render(request, "standings/player.html", context)


def _next_stage_name(shown: Shown) -> str:
    """The name of the stage players of the running stage advance into ('' if none)."""
    standings = shown.snapshot.standings if shown.snapshot is not None else None
    stage = running_stage(standings) if standings is not None else None
    following = standings.plan.next_stage(stage) if stage and standings and standings.plan else None
    return stage_name(following.value) if following is not None else ""


@require_POST
@tournament_permission("manage_standings")
def manage(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The organiser hides, shows, freezes or unfreezes the standings."""
    action = request.POST.get("action", "")
    if action not in ("hide", "show", "freeze", "unfreeze"):
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
        tournament.refresh_from_db(fields=["standings_hidden", "standings_frozen_version"])
        messages.success(request, _settings_done(action, tournament))
    return redirect("standings:table", slug=tournament.slug)


def _settings_done(action: str, tournament: Tournament) -> str:
    """What the organiser is told after `action`: what the public sees now, with both
    settings as they are (a frozen table may be hidden, a hidden one frozen)."""
    hidden = tournament.standings_hidden
    frozen = tournament.standings_frozen_version is not None
    if action == "hide":
        if frozen:
            return _(
                "The standings are hidden from the public. They stay frozen: once shown, "
                "the public sees them as they were when frozen."
            )
        return _("The standings are hidden from the public.")
    if action == "show":
        if frozen:
            return _(
                "The standings are shown to the public as they were when frozen; "
                "unfreeze them to show the live table."
            )
        return _("The standings are shown to the public.")
    if action == "freeze":
        if hidden:
            return _(
                "The standings are frozen as they are now, but they are hidden: the public "
                "does not see them until they are shown, and then sees them as frozen."
            )
        return _("The standings are frozen: the public sees them as they are now.")
    if hidden:
        return _(
            "The standings are no longer frozen, but they are still hidden from the public: "
            "once shown, the public sees the live table."
        )
    return _("The standings are live again for the public.")


#: How many leaders the stream's standings strip shows.
STRIP_ROWS = 10


@require_safe
def strip(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings strip for the stream (1920x1080, transparent): the leaders as the
    public sees them, in the tournament's language; nothing while they are hidden.
    What goes on air is what the public sees, whoever opened it."""
    tournament = _tournament(slug)
    token = viewer_token(tournament, staff=False)
    if request.htmx and request.GET.get("since") == token:
        return HttpResponse(status=204)
    with translation.override(tournament.language or get_language()):
        shown = viewer_standings(tournament=tournament, staff=False)
        rows = shown.snapshot.standings.rows[:STRIP_ROWS] if shown.snapshot else []
        context = {
            "tournament": tournament,
            "shown": shown,
            "rows": rows,
            "token": token,
            "refresh_seconds": REFRESH_SECONDS,
        }
        template = "standings/_strip.html" if request.htmx else "standings/strip.html"
        response = render(request, template, context)
    response["Cache-Control"] = "no-store"
    return response


def _advance_page(request: HttpRequest, tournament: Tournament, into: str) -> HttpResponse:
    draft = advance_draft(tournament, into)
    rows = published(tournament, into)
    context = tournament_context(request, tournament) | {
        "draft": draft,
        "stage": stage_name(into),
        "source": stage_name(draft.source),
        "published": rows,
        "can_withdraw": bool(rows) and not is_seated(tournament, into),
        "blocked": blocker_messages(draft) if draft.blockers else [],
        "stages": [(into_, stage_name(into_)) for _from, into_, _n in next_stages(tournament)],
    }
    return render(request, "standings/advance.html", context)


@require_http_methods(["GET", "POST"])
@tournament_permission("advance_players")
def advance(request: HttpRequest, tournament: Tournament, stage: str) -> HttpResponse:
    """The advance list into `stage`: the draft, publishing it, swapping a player."""
    if stage not in {into for _from, into, _n in next_stages(tournament)}:
        raise Http404(stage)
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "publish":
                advance_publish(tournament=tournament, into=stage, by=request.user)  # type: ignore[arg-type]
                messages.success(
                    request,
                    _("The advance list of the %(stage)s is published.")
                    % {"stage": stage_name(stage)},
                )
            elif action == "swap":
                player = request.POST.get("player", "")[:64]
                row = advance_swap(
                    tournament=tournament, into=stage, player=player, by=request.user
                )  # type: ignore[arg-type]
                messages.success(
                    request,
                    _("%(out)s is replaced by %(in)s.")
                    % {"out": player, "in": row.registration.nickname},
                )
            elif action == "withdraw":
                advance_withdraw(tournament=tournament, into=stage, by=request.user)  # type: ignore[arg-type]
                messages.success(
                    request,
                    _("The advance list of the %(stage)s is taken back: it is a draft again.")
                    % {"stage": stage_name(stage)},
                )
            else:
                messages.error(request, _("Unknown action %(action)s.") % {"action": action[:32]})
        except ValidationError as exc:
            for message in exc.messages:
                messages.error(request, message)
        return redirect("standings:advance", slug=tournament.slug, stage=stage)
    return _advance_page(request, tournament, stage)
