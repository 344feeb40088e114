"""Pages to read: the list of games, a game's protocol and its history of versions."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from mafiatab.core.roles import Role
from mafiatab.core.scoring import format_points
from mafiatab.games import forms as pf
from mafiatab.games import selectors
from mafiatab.games.conversion import game_data, withheld_form, without_extras
from mafiatab.games.models import Game, GameStatus
from mafiatab.games.views.access import with_game
from mafiatab.messages import date_text
from mafiatab.tournaments.disclosure import disclosure_for, withheld_message, withheld_refusal
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.pages import tournament_context
from mafiatab.tournaments.permissions import permissions_for, user_can


@require_GET
def game_list(request: HttpRequest, slug: str) -> HttpResponse:
    """Every game by stage and round: confirmed ones for all, every status for the staff."""
    tournament = get_object_or_404(Tournament, slug=slug)
    staff = user_can(request.user, tournament, "view_protocols")
    context = tournament_context(request, tournament) | {
        "staff_view": staff,
        "rounds": selectors.games_by_round(tournament, with_unconfirmed=staff),
        "seat_numbers": list(pf.SEATS),
    }
    return render(request, "games/list.html", context)


@require_GET
@with_game("view")
def detail(request: HttpRequest, game: Game) -> HttpResponse:
    """A game's protocol, public once confirmed; while the organiser withholds its
    points (hidden or frozen standings) the public sees who played and who won."""
    tournament = game.tournament
    disclosure = disclosure_for(request.user, tournament)
    withheld = not selectors.points_shown(disclosure, game)
    data = game_data(game)
    if not disclosure.shows_extras(game.stage):
        data = without_extras(data)
    if withheld:
        data = withheld_form(data)
        check = selectors.ProtocolCheck(None)
    else:
        check = selectors.check_protocol(data, ruleset=tournament.ruleset)
    context = {
        "tournament": tournament,
        "game": game,
        "withheld": withheld_message(disclosure) if withheld else "",
        "can": permissions_for(request.user, tournament),
        "can_edit": (can_edit := user_can(request.user, tournament, "enter_protocol", game=game)),
        # why the chief judge returned the protocol: for those who fix it
        "returned": selectors.last_return(game) if can_edit else None,
        "playing": selectors.is_played_on_console(game),
        "playing_notice": selectors.playing_confirm_notice()
        if game.status == GameStatus.SUBMITTED
        else selectors.playing_notice(),
        "can_protest": selectors.may_file_protest(request.user, game),
        "protest_closed": selectors.protest_window_closed(request.user, game),
        "rows": _seat_rows(data, check, {}),
        "data": data,
        "played_on": date_text(game.date),
        "protests": game.protests.select_related("filed_by", "decided_by", "version"),
        "games": Game.objects.filter(tournament=tournament).exclude(pk=game.pk),
    }
    return render(request, "games/detail.html", context)


@require_GET
@with_game("view")
def history(request: HttpRequest, game: Game) -> HttpResponse:
    """Every version of the protocol: who, when, why, and what changed (refused while
    the game's points are withheld from the viewer)."""
    disclosure = disclosure_for(request.user, game.tournament)
    if not selectors.protocol_shown(disclosure, game):
        return withheld_refusal(request, disclosure)
    versions = list(game.versions.select_related("author"))
    entries = []
    previous: dict[str, Any] = {}
    for version in versions:
        entries.append(
            {"version": version, "changes": selectors.version_changes(previous, version.data)}
        )
        previous = version.data
    context = {
        "tournament": game.tournament,
        "game": game,
        "can": permissions_for(request.user, game.tournament),
        "entries": list(reversed(entries)),
    }
    return render(request, "games/history.html", context)


def _seat_rows(
    data: dict[str, Any], check: selectors.ProtocolCheck, cells: dict[str, list[str]]
) -> list[dict[str, Any]]:
    sums = selectors.points_by_seat(data, check)
    raw = pf.raw_from_data(data)
    rows = []
    for n in pf.SEATS:
        points = sums.get(n)
        rows.append(
            {
                "n": n,
                "player": raw.get(f"player_{n}", ""),
                "role": raw.get(f"role_{n}", ""),
                "letter": _letter(raw.get(f"role_{n}", "")),
                "fouls": len(raw.get(f"fouls_{n}") or []),
                "main": format_points(points["main"]) if points else "",
                "extra": format_points(points["extra"], signed=True)
                if points and points["extra"]
                else "",
            }
        )
    return rows


def _letter(role: str) -> str:
    try:
        return Role.parse(role).letter if role else ""
    except ValueError:
        return role
