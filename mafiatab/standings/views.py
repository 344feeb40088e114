from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from mafiatab.core.scoring import explain
from mafiatab.core.standings import compute_standings
from mafiatab.standings.services import tournament_standings
from mafiatab.tournaments.conversion import core_tournament
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.views import tournament_context


def standings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    context = tournament_context(request, tournament) | {
        "standings": tournament_standings(tournament)
    }
    return render(request, "standings/table.html", context)


def player(request: HttpRequest, slug: str, player: str) -> HttpResponse:
    """Every line of one player's points, with its clause."""
    tournament = get_object_or_404(Tournament, slug=slug)
    core = core_tournament(tournament)
    if player not in core.player_names():
        raise Http404(player)
    try:
        row = compute_standings(core).row(player)
    except KeyError:
        row = None
    context = tournament_context(request, tournament) | {
        "player": player,
        "lines": explain(core, player),
        "row": row,
    }
    return render(request, "standings/player.html", context)
