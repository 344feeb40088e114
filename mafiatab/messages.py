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

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext

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


def flag_text(flag: SeatingFlag | Mapping[str, Any] | str) -> str:
    """A seating's compromise flag (as made, or as a draft stored it) in the active
    language."""
    from mafiatab.seating.flags import flag_text as say

    return say(flag)


def seating_error_text(error: SeatingError) -> str:
    """Why no seating can be made, in the active language."""
    from mafiatab.seating.errors import seating_error_text as say

    return say(error)
