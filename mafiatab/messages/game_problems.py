"""Problems of a game log whose parameters are words, not values: a role ("the don
already checked this night") and what a field of the log must hold ("a text", "an
integer"). The engine names them in English codes; here they are said in the
reader's language inside the code's sentence, so no English word stands in a Russian
sentence."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext, pgettext_lazy

from mafiatab.core.game import MESSAGES

Params = Mapping[str, Any]

#: A role as the engine names it (`Role.value`, a key of the log's `roles`).
_ROLES = {
    "sheriff": pgettext_lazy("role", "sheriff"),
    "don": pgettext_lazy("role", "don"),
    "black": pgettext_lazy("role", "black"),
    "red": pgettext_lazy("role", "red"),
}

#: What a field of the log must hold, as the engine says it after "must be".
_EXPECTED = {
    "an integer": pgettext_lazy("a field must be", "an integer"),
    "an integer 1 or more": pgettext_lazy("a field must be", "an integer 1 or more"),
    "a number": pgettext_lazy("a field must be", "a number"),
    "a text": pgettext_lazy("a field must be", "a text"),
    "a non-empty text": pgettext_lazy("a field must be", "a non-empty text"),
    "a name": pgettext_lazy("a field must be", "a name"),
    "an ISO date": pgettext_lazy("a field must be", "an ISO date"),
    "true or false": pgettext_lazy("a field must be", "true or false"),
    "a list of integers": pgettext_lazy("a field must be", "a list of integers"),
    "an object": pgettext_lazy("a field must be", "an object"),
}

#: The parameters said in words, each with its words.
_WORDS = {"role": _ROLES, "expected": _EXPECTED}
#: The codes whose parameters of `_WORDS` are words (elsewhere `expected` is a count).
_CODES = (
    "log.role_seat",
    "check.twice",
    "check.absent",
    "check.own",
    "log.field_type",
    "event.field_type",
)


def _sayer(template: str) -> Callable[[Params], str]:
    def say(params: Params) -> str:
        values = dict(params)
        for name, words in _WORDS.items():
            if name in values:
                word = words.get(str(values[name]))
                values[name] = str(word) if word is not None else values[name]
        return gettext(template) % values

    return say


SAY: dict[str, Callable[[Params], str]] = {code: _sayer(MESSAGES[code]) for code in _CODES}
