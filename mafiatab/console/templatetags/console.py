"""`{% console_game_log game %}`: a game's console log on the game page, in the
reader's language (nothing when the game was not run on the console)."""

from __future__ import annotations

from typing import Any

from django import template

from mafiatab.console import selectors
from mafiatab.games.selectors import points_shown_to

register = template.Library()


@register.inclusion_tag("console/_game_log.html", takes_context=True)
def console_game_log(context: dict[str, Any], game: Any) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    view = None
    judge = game.table_slot_id is not None and selectors.can_run(user, game)
    if selectors.log_of(game) is not None:
        view = selectors.log_view(game, full=judge, disclose=points_shown_to(user, game))
    return {"view": view, "game": game, "judge": judge, "tournament": game.tournament}


@register.inclusion_tag("console/_live_tables.html")
def console_live_tables(tournament: Any) -> dict[str, Any]:
    """The tables being played on the console now, each with its spectators' board."""
    return {"tournament": tournament, "games": selectors.live_games(tournament)}
