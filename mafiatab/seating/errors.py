"""The core's reasons why a seating cannot be made, in the reader's language.

`mafiatab.core.seating.plan_seating` raises `SeatingError` with one English
sentence (written in `mafiatab.core.seating.planner`). As with the compromise
flags (`mafiatab.seating.flags`), each kind of sentence has a fixed wording with
numbers and quoted nicknames in it: it is recognised by a pattern and said again
through a translatable template with the same numbers and names. A sentence that
matches no pattern is shown as the core wrote it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from mafiatab.seating.flags import NAME, say_name, say_names

#: Where a problem of the rounds already played is, as the core writes it.
_WHERE = r"round (?P<round>\d+), table (?P<table>-?\d+): "

Say = Callable[[re.Match[str]], str]


def _value(text: str) -> str:
    """A value the core wrote with `repr`: a quoted text in the language's quotes."""
    return say_name(text) if re.fullmatch(NAME, text) else text


def _players_too_few(m: re.Match[str]) -> str:
    count = int(m["count"])
    return ngettext(
        "%(count)d player cannot fill a table of %(size)s",
        "%(count)d players cannot fill a table of %(size)s",
        count,
    ) % {"count": count, "size": m["size"]}


def _tables_need(m: re.Match[str]) -> str:
    tables = int(m["tables"])
    return ngettext(
        "%(tables)d table needs %(need)s players at once, there are only %(count)s",
        "%(tables)d tables need %(need)s players at once, there are only %(count)s",
        tables,
    ) % {"tables": tables, "need": m["need"], "count": m["count"]}


def _played_too_many(m: re.Match[str]) -> str:
    count = int(m["count"])
    return ngettext(
        "%(name)s already played %(count)d game, more than %(games)s",
        "%(name)s already played %(count)d games, more than %(games)s",
        count,
    ) % {"name": say_name(m["name"]), "count": count, "games": m["games"]}


def _text(message: Callable[[], str], **converters: Callable[[str], str]) -> Say:
    """Say the translated `message` with the matched groups, converted by name."""

    def say(m: re.Match[str]) -> str:
        values = {
            key: converters.get(key, str)(value)
            for key, value in m.groupdict().items()
            if value is not None
        }
        return message() % values

    return say


#: Each sentence `SeatingError` carries and how to say it again.
PATTERNS: tuple[tuple[re.Pattern[str], Say], ...] = tuple(
    (re.compile(pattern, re.DOTALL), say)
    for pattern, say in (
        (
            r"the time limit must be positive, not (?P<value>.+)",
            _text(lambda: _("the time limit must be positive, not %(value)s")),
        ),
        (
            r"the iteration budget must not be negative, not (?P<value>.+)",
            _text(lambda: _("the iteration budget must not be negative, not %(value)s")),
        ),
        (
            r"players must be a list of names, not one string",
            _text(lambda: _("players must be a list of names, not one string")),
        ),
        (
            r"player names must be non-empty text, not (?P<value>.*)",
            _text(lambda: _("player names must be non-empty text, not %(value)s"), value=_value),
        ),
        (
            rf"player (?P<name>{NAME}) is listed more than once",
            _text(lambda: _("player %(name)s is listed more than once"), name=say_name),
        ),
        (r"(?P<count>\d+) players cannot fill a table of (?P<size>\d+)", _players_too_few),
        (
            r"every player must play at least one game, not (?P<games>-?\d+)",
            _text(lambda: _("every player must play at least one game, not %(games)s")),
        ),
        (
            r"at least one table must be in play, not (?P<tables>-?\d+)",
            _text(lambda: _("at least one table must be in play, not %(tables)s")),
        ),
        (
            r"(?P<tables>\d+) tables need (?P<need>\d+) players at once, "
            r"there are only (?P<count>\d+)",
            _tables_need,
        ),
        (
            rf"player (?P<name>{NAME}) is fixed to a table but is not among the players",
            _text(
                lambda: _("player %(name)s is fixed to a table but is not among the players"),
                name=say_name,
            ),
        ),
        (
            rf"player (?P<name>{NAME}) is fixed to table (?P<table>.+), "
            r"not one of 1\.\.(?P<tables>\d+)",
            _text(
                lambda: _("player %(name)s is fixed to table %(table)s, not one of 1..%(tables)s"),
                name=say_name,
            ),
        ),
        (
            r"(?P<count>\d+) players are fixed to table (?P<table>\d+), which seats (?P<size>\d+)",
            _text(
                lambda: _("%(count)s players are fixed to table %(table)s, which seats %(size)s")
            ),
        ),
        (
            rf"player (?P<name>{NAME}) is in a group to keep apart but not a player",
            _text(
                lambda: _("player %(name)s is in a group to keep apart but not a player"),
                name=say_name,
            ),
        ),
        (
            r"a group to keep apart needs two players or more: \[(?P<names>.*)\]",
            _text(
                lambda: _("a group to keep apart needs two players or more: %(names)s"),
                names=say_names,
            ),
        ),
        (
            _WHERE + r"tables must be distinct positive numbers",
            _text(
                lambda: _(
                    "round %(round)s, table %(table)s: tables must be distinct positive numbers"
                )
            ),
        ),
        (
            _WHERE + r"(?P<count>\d+) players, a table seats (?P<size>\d+)",
            _text(
                lambda: _(
                    "round %(round)s, table %(table)s: %(count)s players, a table seats %(size)s"
                )
            ),
        ),
        (
            _WHERE + rf"(?P<name>{NAME}) plays twice in the round",
            _text(
                lambda: _("round %(round)s, table %(table)s: %(name)s plays twice in the round"),
                name=say_name,
            ),
        ),
        (
            rf"replacement (?P<name>{NAME}) is not among the players",
            _text(lambda: _("replacement %(name)s is not among the players"), name=say_name),
        ),
        (
            rf"(?P<old>{NAME}) is replaced by (?P<new>{NAME}) but is still among the players",
            _text(
                lambda: _("%(old)s is replaced by %(new)s but is still among the players"),
                old=say_name,
                new=say_name,
            ),
        ),
        (
            rf"(?P<new>{NAME}) replaces (?P<old>{NAME}), who played none of the rounds given",
            _text(
                lambda: _("%(new)s replaces %(old)s, who played none of the rounds given"),
                old=say_name,
                new=say_name,
            ),
        ),
        (
            rf"(?P<name>{NAME}) already played (?P<count>\d+) games, more than (?P<games>\d+)",
            _played_too_many,
        ),
        (
            r"the remaining games make (?P<seats>\d+) seats, not a multiple of (?P<size>\d+): "
            r"the tables cannot all be full",
            _text(
                lambda: _(
                    "the remaining games make %(seats)s seats, not a multiple of %(size)s: "
                    "the tables cannot all be full"
                )
            ),
        ),
        (
            r"(?P<players>\d+) players × (?P<games>\d+) games make (?P<seats>\d+) seats, "
            r"not a multiple of (?P<size>\d+): the tables cannot all be full",
            _text(
                lambda: _(
                    "%(players)s players × %(games)s games make %(seats)s seats, not a multiple "
                    "of %(size)s: the tables cannot all be full"
                )
            ),
        ),
        (
            rf"(?P<name>{NAME}) needs (?P<most>\d+) games but (?P<tables>\d+) tables at once "
            r"give only (?P<rounds>\d+) rounds; use fewer tables",
            _text(
                lambda: _(
                    "%(name)s needs %(most)s games but %(tables)s tables at once give only "
                    "%(rounds)s rounds; use fewer tables"
                ),
                name=say_name,
            ),
        ),
        (
            r"the remaining games cannot fill the rounds without someone playing twice in a round",
            _text(
                lambda: _(
                    "the remaining games cannot fill the rounds without someone playing twice "
                    "in a round"
                )
            ),
        ),
    )
)


def translate_seating_error(reason: str) -> str:
    """`reason` in the active language when its wording is known, else unchanged."""
    for pattern, say in PATTERNS:
        found = pattern.fullmatch(reason)
        if found is not None:
            return say(found)
    return reason
