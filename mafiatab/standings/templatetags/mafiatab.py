"""Template filters for points and tournament information."""

from __future__ import annotations

from fractions import Fraction

from django import template

from mafiatab.core.scoring import format_points
from mafiatab.messages import removal_reason_text

register = template.Library()


@register.filter
def points(value: Fraction | None) -> str:
    """Exact points shown with two decimals (the core's rounding)."""
    if value is None:
        return ""
    return format_points(Fraction(value))


@register.filter
def signed_points(value: Fraction | None) -> str:
    if value is None:
        return ""
    return format_points(Fraction(value), signed=True)


@register.filter
def stars(count: int | None) -> str:
    return "★" * count if count else ""


@register.filter
def removal_reason(reason: str | None) -> str:
    """A removal's reason in the reader's language (the fourth foul's is a code)."""
    return removal_reason_text(reason)


#: WORD JOINER: no line break here.
WORD_JOINER = "\u2060"


@register.filter
def whole_words(text: str) -> str:
    """A heading that breaks between its words only: "Д/Ш" stays whole (a line may
    otherwise break after a slash)."""
    return str(text).replace("/", "/" + WORD_JOINER)
