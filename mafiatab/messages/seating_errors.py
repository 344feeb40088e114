"""The core's reasons why a seating cannot be made, in the reader's language.

`mafiatab.core.seating.plan_seating` raises `SeatingError` with a code and its
parameters (`SeatingError.code`, `.params`). Here each code is said through a
translatable template with the same numbers and names, as the compromise flags
are (`mafiatab.messages.seating_flags`); the catalogue (`mafiatab.messages.catalogue`)
takes these sayers for the codes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from mafiatab.messages.seating_flags import say_name, say_names

Params = Mapping[str, Any]
Say = Callable[[Params], str]


def _players_too_few(p: Params) -> str:
    count = int(p["count"])
    return ngettext(
        "%(count)d player cannot fill a table of %(size)s",
        "%(count)d players cannot fill a table of %(size)s",
        count,
    ) % {"count": count, "size": p["size"]}


def _tables_need(p: Params) -> str:
    tables = int(p["tables"])
    return ngettext(
        "%(tables)d table needs %(need)s players at once, there are only %(count)s",
        "%(tables)d tables need %(need)s players at once, there are only %(count)s",
        tables,
    ) % {"tables": tables, "need": p["need"], "count": p["count"]}


def _played_too_many(p: Params) -> str:
    count = int(p["count"])
    return ngettext(
        "%(name)s already played %(count)d game, more than %(games)s",
        "%(name)s already played %(count)d games, more than %(games)s",
        count,
    ) % {"name": say_name(p["name"]), "count": count, "games": p["games"]}


#: How the parameters of each kind are said: nicknames quoted, anything else (a wrong
#: `value` as the planner quotes it) as written.
_CONVERT: dict[str, Callable[[Any], str]] = {
    "name": say_name,
    "old": say_name,
    "new": say_name,
    "names": say_names,
}


def _text(message: Callable[[], str]) -> Say:
    """Say the translated `message` with the parameters, converted by name."""

    def say(p: Params) -> str:
        values = {key: _CONVERT.get(key, str)(value) for key, value in p.items()}
        return message() % values

    return say


#: How each error code of `mafiatab.core.seating` is said.
SAY: dict[str, Say] = {
    "time_limit.not_positive": _text(lambda: _("the time limit must be positive, not %(value)s")),
    "budget.negative": _text(lambda: _("the iteration budget must not be negative, not %(value)s")),
    "players.one_string": _text(lambda: _("players must be a list of names, not one string")),
    "players.bad_name": _text(lambda: _("player names must be non-empty text, not %(value)s")),
    "players.twice": _text(lambda: _("player %(name)s is listed more than once")),
    "players.too_few": _players_too_few,
    "players.too_many": _text(
        lambda: _("%(count)s players are more than the planner seats (at most %(limit)s)")
    ),
    "games.below_one": _text(lambda: _("every player must play at least one game, not %(games)s")),
    "games.too_many": _text(
        lambda: _("%(games)s games each are more than the planner plans (at most %(limit)s)")
    ),
    "tables.below_one": _text(lambda: _("at least one table must be in play, not %(tables)s")),
    "tables.too_many": _tables_need,
    "fixed.not_a_player": _text(
        lambda: _("player %(name)s is fixed to a table but is not among the players")
    ),
    "fixed.bad_table": _text(
        lambda: _("player %(name)s is fixed to table %(table)s, not one of 1..%(tables)s")
    ),
    "fixed.table_full": _text(
        lambda: _("%(count)s players are fixed to table %(table)s, which seats %(size)s")
    ),
    "avoid.not_a_player": _text(
        lambda: _("player %(name)s is in a group to keep apart but not a player")
    ),
    "avoid.too_small": _text(
        lambda: _("a group to keep apart needs two players or more: %(names)s")
    ),
    "history.bad_tables": _text(
        lambda: _("round %(round)s, table %(table)s: tables must be distinct positive numbers")
    ),
    "history.table_size": _text(
        lambda: _("round %(round)s, table %(table)s: %(count)s players, a table seats %(size)s")
    ),
    "history.plays_twice": _text(
        lambda: _("round %(round)s, table %(table)s: %(name)s plays twice in the round")
    ),
    "replacement.not_a_player": _text(lambda: _("replacement %(name)s is not among the players")),
    "replacement.still_playing": _text(
        lambda: _("%(old)s is replaced by %(new)s but is still among the players")
    ),
    "replacement.never_played": _text(
        lambda: _("%(new)s replaces %(old)s, who played none of the rounds given")
    ),
    "stand_in.not_seated": _text(
        lambda: _(
            "%(new)s stood in for %(old)s in round %(round)s but has no seat in the rounds given"
        )
    ),
    "games.played_too_many": _played_too_many,
    "seats.not_multiple_remaining": _text(
        lambda: _(
            "the remaining games make %(seats)s seats, not a multiple of %(size)s: "
            "the tables cannot all be full"
        )
    ),
    "seats.not_multiple": _text(
        lambda: _(
            "%(players)s players × %(games)s games make %(seats)s seats, not a multiple "
            "of %(size)s: the tables cannot all be full"
        )
    ),
    "rounds.too_few": _text(
        lambda: _(
            "%(name)s needs %(most)s games but %(tables)s tables at once give only "
            "%(rounds)s rounds; use fewer tables"
        )
    ),
    "rounds.cannot_fill": _text(
        lambda: _(
            "the remaining games cannot fill the rounds without someone playing twice in a round"
        )
    ),
}
