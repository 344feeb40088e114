"""Problems of the stage plan whose numbers count players or games: said here with the
plural the reader's language wants ("24 игроков", "1 игра"), not the one template
the core's table gives (`mafiatab.core.problems`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import ngettext

Params = Mapping[str, Any]


def _count(value: object) -> int:
    try:
        return int(str(value))
    except ValueError:
        return 0


def _players_above_before(p: Params) -> str:
    return ngettext(
        "%(value)s players cannot advance from a stage of %(before)s player",
        "%(value)s players cannot advance from a stage of %(before)s players",
        _count(p.get("before")),
    ) % {"value": p.get("value"), "before": p.get("before")}


def _games_not_published(p: Params) -> str:
    return ngettext(
        "The published seating of this stage gives each player %(published)s game, "
        "not %(value)s: the plan's games must match it",
        "The published seating of this stage gives each player %(published)s games, "
        "not %(value)s: the plan's games must match it",
        _count(p.get("published")),
    ) % {"value": p.get("value"), "published": p.get("published")}


SAY: dict[str, Callable[[Params], str]] = {
    "stages.players_above_before": _players_above_before,
    "stages.games_not_published": _games_not_published,
}
