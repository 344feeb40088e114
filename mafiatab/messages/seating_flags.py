"""The seating's compromise flags in the reader's language.

The core's planner says each compromise of a schedule as a code with parameters
(`mafiatab.core.seating.SeatingFlag`); a draft stores them as
`{"code": ..., "params": {...}}`. Here each code is said through a translatable
template with the same numbers and names. A flag stored as a plain sentence (a
draft made before flags had codes) is shown as it was written.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

Params = Mapping[str, Any]


def say_name(name: object) -> str:
    """A nickname in the quotation marks of the active language."""
    return _("“%(name)s”") % {"name": name}


def say_names(names: object) -> str:
    """Nicknames, each in the active language's quotation marks, joined by commas."""
    if isinstance(names, str) or not isinstance(names, Sequence):
        return str(names)
    return ", ".join(say_name(name) for name in names)


def _decimal(text: object) -> str:
    try:
        return number_format(Decimal(str(text)), 2)
    except InvalidOperation:
        return str(text)


def _replacement(p: Params) -> str:
    left = int(p["left"])
    return ngettext(
        "%(new)s replaces %(old)s and plays the %(left)d game %(old)s had left",
        "%(new)s replaces %(old)s and plays the %(left)d games %(old)s had left",
        left,
    ) % {"new": say_name(p["new"]), "old": say_name(p["old"]), "left": left}


def _stand_in(p: Params) -> str:
    return _("%(new)s stood in for %(old)s in round %(round)s; %(old)s keeps his other games") % {
        "new": say_name(p["new"]),
        "old": say_name(p["old"]),
        "round": p["round"],
    }


def _pin_elsewhere(p: Params) -> str:
    return _(
        "planned round %(round)s has only tables 1–%(size)s, so %(name)s "
        "(fixed to table %(table)s) sits elsewhere"
    ) % {"round": p["round"], "size": p["size"], "name": say_name(p["name"]), "table": p["table"]}


def _time_limit(p: Params) -> str:
    return _(
        "the time limit stopped the search after %(done)s of %(budget)s iterations, "
        "so this schedule depends on the machine's speed"
    ) % {"done": p["done"], "budget": p["budget"]}


def _pairs_above(p: Params) -> str:
    count = int(p["count"])
    return ngettext(
        "%(count)d pair shares more than %(ceiling)s games (the mean is %(mean)s); "
        "the most any pair shares is %(max)s",
        "%(count)d pairs share more than %(ceiling)s games (the mean is %(mean)s); "
        "the most any pair shares is %(max)s",
        count,
    ) % {"count": count, "ceiling": p["ceiling"], "mean": _decimal(p["mean"]), "max": p["max"]}


def _seat_balance(cause: Callable[[], str]) -> Callable[[Params], str]:
    def say(p: Params) -> str:
        return _("seat balance is not exact (spread %(spread)s): %(cause)s") % {
            "spread": p["spread"],
            "cause": cause(),
        }

    return say


def _same_table(p: Params) -> str:
    count = int(p["count"])
    return ngettext(
        "%(count)d time a player sits at the same table in two consecutive rounds",
        "%(count)d times a player sits at the same table in two consecutive rounds",
        count,
    ) % {"count": count}


def _kept_apart(p: Params) -> str:
    shared = int(p["shared"])
    group = p["group"]
    names = ", ".join(map(str, group)) if isinstance(group, list) else str(group)
    return ngettext(
        "players to keep apart (%(names)s) still share %(shared)d game in pairs",
        "players to keep apart (%(names)s) still share %(shared)d games in pairs",
        shared,
    ) % {"names": names, "shared": shared}


def _stranger(p: Params) -> str:
    return _(
        "%(name)s played in the rounds already played but is not among the players; "
        "meetings with them are left out of the metrics"
    ) % {"name": say_name(p["name"])}


def _pinned_together(p: Params) -> str:
    return _(
        "%(names)s are all fixed to table %(table)s, so they meet in every game they all play"
    ) % {"names": say_names(p["names"]), "table": p["table"]}


#: How each flag code of `mafiatab.core.seating` is said.
SAY: dict[str, Callable[[Params], str]] = {
    "replacement": _replacement,
    "stand_in": _stand_in,
    "pin.elsewhere": _pin_elsewhere,
    "time_limit": _time_limit,
    "pairs.above": _pairs_above,
    "seat_balance.played": _seat_balance(
        lambda: _("the seats of the rounds already played leave no exact completion")
    ),
    "seat_balance.colouring": _seat_balance(lambda: _("the seat colouring could not be completed")),
    "same_table": _same_table,
    "kept_apart": _kept_apart,
    "kept_apart.one": _kept_apart,
    "stranger": _stranger,
    "pinned_together": _pinned_together,
}
