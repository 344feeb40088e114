"""Template tags of the standings pages."""

from __future__ import annotations

from typing import Any

from django import template
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils.safestring import SafeString
from django.utils.text import slugify
from django.utils.translation import get_language

from mafiatab import messages
from mafiatab.core.scoring import ScoreLine
from mafiatab.games.models import ROLE_CHOICES, STAGE_CHOICES, WINNER_CHOICES
from mafiatab.standings import cache
from mafiatab.standings.services import GameEntry, Shown, Snapshot, viewer_standings
from mafiatab.standings.staged import stage_columns, staged_rows

register = template.Library()


@register.simple_tag(takes_context=True)
def shown_standings(context: template.Context) -> Shown:
    """The standings the viewer of the page may see (for pages of other apps that
    include the standings table)."""
    tournament = context["tournament"]
    can = context.get("can") or {}
    return viewer_standings(tournament=tournament, staff=bool(can.get("view_live_standings")))


@register.simple_tag
def standings_rows(snapshot: Snapshot, slug: str, compact: bool, provisional: bool) -> SafeString:
    """The rows of the standings table, rendered once per snapshot and language and
    shared through the cache (the table is the costly part of a page)."""
    name = cache.key(
        "rows", snapshot.key, slug, int(bool(compact)), int(bool(provisional)), get_language()
    )

    def render() -> SafeString:
        columns = stage_columns(snapshot.standings)
        context = {
            "rows": staged_rows(snapshot.standings),
            "columns": columns,
            "width": (7 if compact else 11) + len(columns),
            "slug": slug,
            "compact": compact,
            "query": "?provisional=1" if provisional else "",
        }
        return SafeString(render_to_string("standings/_rows.html", context))

    return cache.get_or_compute(name, render)


def game_anchor(label: str) -> str:
    """The id of a game's block on a player's page."""
    return f"game-{slugify(label) or 'x'}"


_GAME_URL_KEYS = (("pk",), ("label",), ("game",))


@register.simple_tag
def game_url(tournament: Any, entry: GameEntry) -> str:
    """The game's own page when the application has one, else its block on this page."""
    values = {"pk": entry.game_pk, "label": entry.game, "game": entry.game_pk}
    for keys in _GAME_URL_KEYS:
        if any(values[k] is None for k in keys):
            continue
        kwargs = {"slug": tournament.slug} | {k: values[k] for k in keys}
        try:
            return reverse("games:detail", kwargs=kwargs)
        except NoReverseMatch:
            continue
    return f"#{game_anchor(entry.game)}"


@register.filter
def anchor(label: str) -> str:
    return game_anchor(label)


@register.filter
def clause_text(clause: str) -> str:
    """A score line's clause in the reader's language."""
    return messages.clause_text(clause)


@register.filter
def line_text(line: ScoreLine) -> str:
    """What a line of points is for, in the reader's language (the judge's note verbatim)."""
    return messages.line_text(line)


@register.filter
def stage_name(value: str) -> str:
    return str(dict(STAGE_CHOICES).get(value, value))


@register.filter
def role_name(value: str) -> str:
    return str(dict(ROLE_CHOICES).get(value, value))


@register.filter
def winner_name(value: str) -> str:
    return str(dict(WINNER_CHOICES).get(value, value))


@register.simple_tag
def projector_rows(snapshot: Snapshot) -> SafeString:
    """The rows of the projector table, rendered once per snapshot and language."""
    name = cache.key("projector-rows", snapshot.key, get_language())

    def render() -> SafeString:
        rows = staged_rows(snapshot.standings)
        return SafeString(render_to_string("standings/_projector_rows.html", {"rows": rows}))

    return cache.get_or_compute(name, render)


@register.simple_tag
def standings_stage_columns(snapshot: Snapshot) -> list[str]:
    """The stage columns of the table (the plan's stages; none without a plan)."""
    return stage_columns(snapshot.standings)


@register.filter
def remark_text(remark: Any) -> str:
    """A remark of an advance list in the reader's language."""
    return messages.remark_text(remark)


@register.filter
def mark_text(mark: Any) -> str:
    """An outlook's mark ("through", "out of reach") in the reader's language."""
    return messages.mark_text(mark)
