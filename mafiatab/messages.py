"""The core's coded messages in the reader's language.

The core says what is wrong as a code with parameters: a protocol's `Problem`
(`mafiatab.core.problems`), a seating's compromise flag and a reason a seating
cannot be made (`mafiatab.core.seating`). Each code has one English template in
the core; here it is the gettext message id, so the Russian catalog
(mafiatab/locale/ru/LC_MESSAGES/django.po) translates the core's own sentence and
a test checks that every code has its translation. (`makemessages` does not see
these ids in the code: keep their entries when the catalog is regenerated.)

A problem made in the shell with a sentence of its own as its code (the web form's
reader does this for what only it can see) is shown as it is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, gettext_noop

from mafiatab.core.game import FOUL_REMOVAL_REASON
from mafiatab.core.problems import PROBLEM_TEMPLATES, Problem
from mafiatab.core.seating import SeatingError, SeatingFlag


def render_template(template: str, params: Mapping[str, object]) -> str:
    """`template` in the active language with its parameters."""
    text = gettext(template)
    return text % params if params else text


def problem_text(problem: Problem) -> str:
    """What is wrong, in the active language (without the game, seat and field)."""
    template = PROBLEM_TEMPLATES.get(problem.code)
    if template is None:
        return problem.message
    return render_template(template, problem.params)


#: The core's sentences that name a key of the tournament file, as the protocol form says
#: them: its reader sees the form's cells, not the file's keys.
_FORM_TEMPLATES = {
    "judge_extra.needs_approval": gettext_noop(
        "%(points)s needs the chief judge's approval (8.4.3)"
    ),
    "fouls.four_without_removal": gettext_noop(
        "a fourth foul removes the player: record the removal under Removals (8.2.4)"
    ),
    "removal.online_offline": gettext_noop(
        "an online removal (4.1 of the online addendum) is only for an online tournament"
    ),
}


def form_problem_text(problem: Problem) -> str:
    """What is wrong, in the active language, as the protocol form says it: never a
    key of the tournament file (`chief_approved`, `disqualified`)."""
    template = _FORM_TEMPLATES.get(problem.code)
    if template is None:
        return problem_text(problem)
    return render_template(template, problem.params)


#: The parts of the protocol form by the field a problem names (the tournament file's
#: key, or the form's own row: `extra1`, `pen2`, `rem1`); the form's own labels.
_FORM_PARTS = {
    "date": gettext_noop("Date"),
    "judge": gettext_noop("Judge"),
    "player": gettext_noop("Nickname"),
    "role": gettext_noop("Role"),
    "fouls": gettext_noop("Fouls"),
    "seats": gettext_noop("Players"),
    "roles": gettext_noop("Players"),
    "winner": gettext_noop("Winning team"),
    "first_killed": gettext_noop("Killed the first night"),
    "best_move": gettext_noop("Best move"),
    "judge_extra": gettext_noop("Judge extra points (8.4)"),
    "extra": gettext_noop("Judge extra points (8.4)"),
    "penalties": gettext_noop("Penalties (8.5)"),
    "pen": gettext_noop("Penalties (8.5)"),
    "disqualified": gettext_noop("Removals (8.2.4)"),
    "rem": gettext_noop("Removals (8.2.4)"),
    "voting": gettext_noop("Nominations and votes"),
}
#: The cells of a voting block, as the form labels them.
_BLOCK_PARTS = {
    "day": gettext_noop("Day"),
    "nominees": gettext_noop("Nominated"),
    "votes": gettext_noop("Votes"),
    "nominated_by": gettext_noop("Nominated by"),
    "revote": gettext_noop("revote"),
    "lift": gettext_noop("Lift: for all the tied leaving"),
}
_BLOCK_FIELD = re.compile(r"voting\[(\d+)\](?:\.(\w+))?")
_ROW_FIELD = re.compile(r"([a-z_]+?)\d*(?:\.\w+)?")


def form_part(field: str) -> str:
    """The part of the protocol form that a problem's field is, in the active language
    ("" for the protocol as a whole)."""
    block = _BLOCK_FIELD.fullmatch(field)
    if block:
        part = gettext("Vote %(i)s") % {"i": block.group(1)}
        cell = _BLOCK_PARTS.get(block.group(2) or "")
        return f"{part}, {gettext(cell)}" if cell else part
    row = _ROW_FIELD.fullmatch(field)
    label = _FORM_PARTS.get(row.group(1) if row else field)
    return gettext(label) if label else ""


def problem_place(problem: Problem) -> str:
    """Where on the protocol form a problem is, in words: its seat and its part."""
    part = form_part(problem.field)
    if problem.seat is None:
        return gettext("Players") if problem.field in ("player", "role", "fouls") else part
    seat = gettext("Seat %(n)d") % {"n": problem.seat}
    return f"{seat}, {part}" if part else seat


def flag_text(flag: SeatingFlag | Mapping[str, Any] | str) -> str:
    """A seating's compromise flag (as made, or as a draft stored it) in the active
    language."""
    from mafiatab.seating.flags import flag_text as say

    return say(flag)


def seating_error_text(error: SeatingError) -> str:
    """Why no seating can be made, in the active language."""
    from mafiatab.seating.errors import seating_error_text as say

    return say(error)


def removal_reason_text(reason: str | None) -> str:
    """A removal's reason as the reader reads it: the engine's own reason for a fourth
    foul (a code: the console's protocol carries it) in the active language, a judge's
    words as they are."""
    if reason == FOUL_REMOVAL_REASON:
        return gettext(FOUL_REMOVAL_REASON)
    return reason or ""


def removal_reason_code(text: str | None) -> str | None:
    """What a judge gives back in a protocol form's removal reason: the fourth foul's
    words in the active language (as `removal_reason_text` showed them) are the code."""
    if text is not None and text.strip() == gettext(FOUL_REMOVAL_REASON):
        return FOUL_REMOVAL_REASON
    return text
