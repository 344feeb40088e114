"""The seating's compromise flags in the reader's language.

The core explains each compromise of a schedule in one English sentence
(`Schedule.flags`, written by `mafiatab.core.seating.planner`); the sentences are
stored with the draft as they came. Each kind of sentence has a fixed wording
with numbers and quoted nicknames in it, so it is recognised here by a pattern
and said again through a translatable template with the same numbers and names.
A sentence that matches no pattern is shown as the core wrote it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable
from decimal import Decimal, InvalidOperation

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

#: A nickname as the core quotes it (Python's `repr` of a string).
NAME = r"""(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")"""


def say_name(quoted: str) -> str:
    """A nickname the core quoted, in the quotation marks of the active language."""
    try:
        value = ast.literal_eval(quoted)
    except (ValueError, SyntaxError):
        return quoted
    if not isinstance(value, str):
        return quoted
    return _("“%(name)s”") % {"name": value}


def say_names(quoted_list: str) -> str:
    """Every nickname quoted in `quoted_list`, in the active language's quotation marks."""
    return ", ".join(say_name(q) for q in re.findall(NAME, quoted_list))


def _decimal(text: str) -> str:
    try:
        return number_format(Decimal(text), 2)
    except InvalidOperation:
        return text


def _replacement(m: re.Match[str]) -> str:
    left = int(m["left"])
    return ngettext(
        "%(new)s replaces %(old)s and plays the %(left)d game %(old)s had left",
        "%(new)s replaces %(old)s and plays the %(left)d games %(old)s had left",
        left,
    ) % {"new": say_name(m["new"]), "old": say_name(m["old"]), "left": left}


def _pin_elsewhere(m: re.Match[str]) -> str:
    return _(
        "planned round %(round)s has only tables 1–%(size)s, so %(name)s "
        "(fixed to table %(table)s) sits elsewhere"
    ) % {"round": m["round"], "size": m["size"], "name": say_name(m["name"]), "table": m["table"]}


def _time_limit(m: re.Match[str]) -> str:
    return _(
        "the time limit stopped the search after %(done)s of %(budget)s iterations, "
        "so this schedule depends on the machine's speed"
    ) % {"done": m["done"], "budget": m["budget"]}


def _pairs_above(m: re.Match[str]) -> str:
    count = int(m["count"])
    return ngettext(
        "%(count)d pair shares more than %(ceiling)s games (the mean is %(mean)s); "
        "the most any pair shares is %(max)s",
        "%(count)d pairs share more than %(ceiling)s games (the mean is %(mean)s); "
        "the most any pair shares is %(max)s",
        count,
    ) % {"count": count, "ceiling": m["ceiling"], "mean": _decimal(m["mean"]), "max": m["max"]}


def _seat_balance(m: re.Match[str]) -> str:
    if m["cause"].startswith("the seats of the rounds already played"):
        cause = _("the seats of the rounds already played leave no exact completion")
    else:
        cause = _("the seat colouring could not be completed")
    return _("seat balance is not exact (spread %(spread)s): %(cause)s") % {
        "spread": m["spread"],
        "cause": cause,
    }


def _same_table(m: re.Match[str]) -> str:
    count = int(m["count"])
    return ngettext(
        "%(count)d time a player sits at the same table in two consecutive rounds",
        "%(count)d times a player sits at the same table in two consecutive rounds",
        count,
    ) % {"count": count}


def _kept_apart(m: re.Match[str]) -> str:
    shared = int(m["shared"])
    return ngettext(
        "players to keep apart (%(names)s) still share %(shared)d game in pairs",
        "players to keep apart (%(names)s) still share %(shared)d games in pairs",
        shared,
    ) % {"names": m["names"], "shared": shared}


def _stranger(m: re.Match[str]) -> str:
    return _(
        "%(name)s played in the rounds already played but is not among the players; "
        "meetings with them are left out of the metrics"
    ) % {"name": say_name(m["name"])}


def _pinned_together(m: re.Match[str]) -> str:
    return _(
        "%(names)s are all fixed to table %(table)s, so they meet in every game they all play"
    ) % {"names": say_names(m["names"]), "table": m["table"]}


#: Each sentence of `mafiatab.core.seating.planner` and how to say it again.
PATTERNS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = tuple(
    (re.compile(pattern, re.DOTALL), say)
    for pattern, say in (
        (
            rf"(?P<new>{NAME}) replaces (?P<old>{NAME}) and plays the (?P<left>\d+) games "
            rf"{NAME} had left",
            _replacement,
        ),
        (
            rf"planned round (?P<round>\d+) has only tables 1\.\.(?P<size>\d+), so "
            rf"(?P<name>{NAME}) \(fixed to table (?P<table>\d+)\) sits elsewhere",
            _pin_elsewhere,
        ),
        (
            r"the time limit stopped the search after (?P<done>\d+) of (?P<budget>\d+) "
            r"iterations, so this schedule depends on the machine's speed",
            _time_limit,
        ),
        (
            r"(?P<count>\d+) pairs share more than (?P<ceiling>\d+) games \(the mean is "
            r"(?P<mean>[\d.]+)\); the most any pair shares is (?P<max>\d+)",
            _pairs_above,
        ),
        (
            r"seat balance is not exact \(spread (?P<spread>\d+)\): (?P<cause>"
            r"the seats of the rounds already played leave no exact completion"
            r"|the seat colouring could not be completed)",
            _seat_balance,
        ),
        (
            r"(?P<count>\d+) times a player sits at the same table in two consecutive rounds",
            _same_table,
        ),
        (
            r"players to keep apart \((?P<names>.*)\) still share (?P<shared>\d+) games? "
            r"in pairs",
            _kept_apart,
        ),
        (
            rf"(?P<name>{NAME}) played in the rounds already played but is not among the "
            r"players; meetings with them are left out of the metrics",
            _stranger,
        ),
        (
            rf"(?P<names>{NAME}(?:, {NAME})+) are all fixed to table (?P<table>\d+), "
            r"so they meet in every game they all play",
            _pinned_together,
        ),
    )
)


def translate_flag(flag: str) -> str:
    """`flag` in the active language when its wording is known, else unchanged."""
    for pattern, say in PATTERNS:
        found = pattern.fullmatch(flag)
        if found is not None:
            return say(found)
    return flag


def translate_flags(flags: Iterable[str]) -> list[str]:
    return [translate_flag(flag) for flag in flags]
