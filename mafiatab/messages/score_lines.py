"""The core's score lines in the reader's language (a part of the one translator).

The core says what a line of points is for by a stable `topic` and its `facts`
(`mafiatab.core.scoring.ScoreLine`); its English `label` is the command line's text.
Here each topic is said again through translatable text, with the numbers formatted
for the active language, and the judge's note appended verbatim. A line whose topic
is unknown here keeps the core's label.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal
from fractions import Fraction

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext, pgettext_lazy

from mafiatab.core.protocol import FOUL_REMOVAL_FOULS, is_foul_removal
from mafiatab.core.scoring import ScoreLine, format_points

Facts = Mapping[str, object]


def _number(value: object) -> str:
    """A count or a coefficient as the active language writes numbers."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return number_format(value)
    if isinstance(value, Fraction):
        return number_format(Decimal(format_points(value)), 2)
    return str(value)


#: The roles a win is for, translated when said (one role a line, not all four).
_ROLE_WORDS = {
    "red": pgettext_lazy("score line role", "red"),
    "sheriff": pgettext_lazy("score line role", "sheriff"),
    "black": pgettext_lazy("score line role", "black"),
    "don": pgettext_lazy("score line role", "don"),
}


def _role(value: object) -> str:
    role = _ROLE_WORDS.get(str(value))
    return str(value) if role is None else str(role)


def _win(facts: Facts) -> str:
    role = _role(facts.get("role"))
    if facts.get("team") == "red":
        text = _("win of the red team as %(role)s") % {"role": role}
    else:
        text = _("win of the black team as %(role)s") % {"role": role}
    if "k" in facts:
        text = _("%(text)s, times K %(k)s (8.7)") % {"text": text, "k": _number(facts["k"])}
    return text


def _compensation(facts: Facts) -> str:
    return _("compensation for the first-night kill, red team lost (i %(i)s, B %(b)s)") % {
        "i": _number(facts.get("i")),
        "b": _number(facts.get("b")),
    }


def _best_move(facts: Facts) -> str:
    blacks = facts.get("blacks")
    count = blacks if isinstance(blacks, int) else 0
    return ngettext(
        "best move: %(count)s black named", "best move: %(count)s blacks named", count
    ) % {"count": _number(count)}


def _judge_extra(facts: Facts) -> str:
    return pgettext("score line", "judge extra points")


def _negative_action(facts: Facts) -> str:
    return _("negative action (%(rule)s)") % {"rule": facts.get("rule", "")}


def fouls_text(n: object) -> str:
    """The reason of a removal by fouls (the engine's fourth-foul code) in the active
    language: "4 fouls", "4 фола"."""
    count = int(n) if isinstance(n, int) else 0
    return ngettext("%(n)s foul", "%(n)s fouls", count) % {"n": _number(n)}


def removal_reason_text(reason: str | None) -> str:
    """A removal's reason as the reader reads it: the engine's own reason for a fourth
    foul (a code: the console's protocol carries it) in the active language, a judge's
    words as they are. The code is stored as the text "4 fouls" (the tournament file's
    and the game log's form), read as a code whatever its spaces or case."""
    if is_foul_removal(reason):
        return fouls_text(FOUL_REMOVAL_FOULS)
    return reason or ""


def _removal(facts: Facts) -> str:
    text = _removal_kind(facts)
    if "fouls" in facts:
        return _("%(text)s: %(note)s") % {"text": text, "note": fouls_text(facts["fouls"])}
    return text


def _removal_kind(facts: Facts) -> str:
    waived = bool(facts.get("waived"))
    if facts.get("carried_over"):
        if waived:
            return _("removal carried over from the replayed game, fine waived")
        return _("removal carried over from the replayed game")
    if facts.get("online"):
        if waived:
            return _("removal for an online violation, fine waived")
        return _("removal for an online violation")
    return _("removal, fine waived") if waived else _("removal")


def _penalty(facts: Facts) -> str:
    return _("tournament penalty")


#: How each topic of `ScoreLine.topic` is said.
TOPICS: dict[str, Callable[[Facts], str]] = {
    "win": _win,
    "compensation": _compensation,
    "best_move": _best_move,
    "judge_extra": _judge_extra,
    "negative_action": _negative_action,
    "removal": _removal,
    "penalty": _penalty,
}


def line_text(line: ScoreLine) -> str:
    """What the line's points are for, in the active language, with the judge's note."""
    say = TOPICS.get(line.topic)
    if say is None:
        return line.label
    text = say(dict(line.facts))
    if line.note:
        return _("%(text)s: %(note)s") % {"text": text, "note": line.note}
    return text
