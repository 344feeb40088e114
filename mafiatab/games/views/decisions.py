"""The chief judge's decisions on a game (confirm, return, mark replayed), a player's
protest and its decision.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from mafiatab.games import forms as pf
from mafiatab.games import services
from mafiatab.games.conversion import game_data
from mafiatab.games.models import Game, Protest
from mafiatab.games.views.access import (
    _NO_BASE_VERSION,
    _base_version,
    _error_text,
    _refuse,
    game_action,
)
from mafiatab.games.views.protocol_form import _form_context, _parse
from mafiatab.tournaments.bounds import MAX_ID, parse_int
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.permissions import user_can


@game_action("confirm_protocol")
def confirm(request: HttpRequest, game: Game) -> str:
    services.protocol_confirm(
        game=game,
        by=request.user,  # type: ignore[arg-type]
        base_version=_base_version(request),
    )
    return _("The protocol is confirmed.")


@game_action("confirm_protocol")
def return_protocol(request: HttpRequest, game: Game) -> str:
    services.protocol_return(
        game=game,
        by=request.user,  # type: ignore[arg-type]
        reason=request.POST.get("reason", ""),
    )
    return _("The protocol was returned to its judge.")


@game_action("confirm_protocol")
def replay(request: HttpRequest, game: Game) -> str:
    replay_id = parse_int(request.POST.get("replay", ""), low=1, high=MAX_ID)
    replay_game = (
        Game.objects.filter(tournament=game.tournament, pk=replay_id).first()
        if replay_id is not None
        else None
    )
    services.game_mark_replayed(
        game=game,
        by=request.user,  # type: ignore[arg-type]
        replay=replay_game,
        reason=request.POST.get("reason", ""),
    )
    return _("The game is marked replayed.")


@game_action("file_protest")
def protest(request: HttpRequest, game: Game) -> str:
    services.protest_file(
        game=game,
        by=request.user,  # type: ignore[arg-type]
        text=request.POST.get("text", ""),
    )
    return _("Your protest is filed; the chief judge will decide.")


def protest_decide(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The chief judge decides a protest, changing the protocol if the decision says so."""
    tournament = get_object_or_404(Tournament, slug=slug)
    found = (
        Protest.objects.filter(game__tournament=tournament, pk=pk).select_related("game").first()
    )
    if found is None or not user_can(request.user, tournament, "decide_protest"):
        return _refuse(request, found is not None)
    game = found.game
    stored = game_data(game)
    error = None
    if request.method == "POST":
        raw, parsed = _parse(request, game)
        change = request.POST.get("change") == "on"
        try:
            if change and _base_version(request) is None:
                raise ValidationError(str(_NO_BASE_VERSION))
            if change and parsed.problems:
                raise ValidationError(_("Some entries cannot be read; see the marked fields."))
            services.protest_decide(
                protest=found,
                by=request.user,  # type: ignore[arg-type]
                upheld=request.POST.get("upheld") == "yes",
                decision=request.POST.get("decision", ""),
                by_committee=request.POST.get("by_committee") == "on",
                data=parsed.data if change else None,
                base_version=_base_version(request),
            )
        except services.ProtocolChanged as exc:
            error = str(exc)
        except services.ProtocolInvalid:
            error = _("The protocol has problems; see the marked fields.")
        except ValidationError as exc:
            error = _error_text(exc)
        else:
            messages.success(request, _("The protest is decided."))
            return redirect("games:detail", slug=slug, pk=game.pk)
    else:
        raw = pf.raw_from_data(stored)
        parsed = pf.data_from_raw(raw, base=stored, online=tournament.is_online)
        parsed.data = stored
    base_version = _base_version(request) or game.version
    context = _form_context(
        request,
        game,
        raw,
        parsed,
        base_version=base_version,
        extra={"protest": found, "error": error, "post": request.POST},
    )
    return render(request, "games/decide.html", context, status=422 if error else 200)
