"""Reading numbers that people type and programs send: bounded before conversion.

Forms and the API read every number through here, so a 5,000-digit string, an
exponent like `1e300000` or a version written as `abc` is refused at once, before
any conversion can take time or overflow a database column. The limits that are
rules of the game (ten seats, the point caps) come from the core and the regulation;
the others are what the database stores.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

#: The largest value of a positive small integer column (rounds, tables, minutes).
MAX_SMALL = 32767
#: The largest value of an integer column (versions, days).
MAX_INT = 2**31 - 1
#: The largest id the database stores.
MAX_ID = 2**63 - 1

#: The years a tournament's days and its rounds' start times may lie in.
MIN_YEAR = 2000
MAX_YEAR = 2100

_INT = re.compile(r"[+-]?\d{1,19}")
#: A plain decimal: no exponent, at most 6 digits before and after the point.
_DECIMAL = re.compile(r"[+-]?(\d{1,6})?([.,]\d{1,6})?")


def parse_int(value: Any, *, low: int, high: int) -> int | None:
    """The whole number written in `value`, when it lies in [low, high]; else None.

    Only up to 19 digits are ever converted, whatever the length of `value`."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    else:
        text = value.strip() if isinstance(value, str) else ""
        if not _INT.fullmatch(text):
            return None
        number = int(text)
    return number if low <= number <= high else None


def parse_decimal(value: Any, *, low: Decimal, high: Decimal) -> Decimal | None:
    """The plain decimal number written in `value` (a comma for the point is fine), when
    it lies in [low, high]; else None. Exponents are refused without being evaluated."""
    text = value.strip() if isinstance(value, str) else ""
    if len(text) > 16 or not _DECIMAL.fullmatch(text) or not any(map(str.isdigit, text)):
        return None
    number = Decimal(text.replace(",", "."))
    return number if low <= number <= high else None


class BoundedIntegerField(forms.IntegerField):
    """An integer form field with both bounds required; the typed text is checked
    for its length before it is converted."""

    def __init__(self, *, min_value: int, max_value: int, **kwargs: Any) -> None:
        super().__init__(min_value=min_value, max_value=max_value, **kwargs)

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        if isinstance(value, str) and len(value.strip()) > 20:
            raise ValidationError(
                _("Enter a whole number between %(low)s and %(high)s.")
                % {"low": self.min_value, "high": self.max_value},
                code="invalid",
            )
        return super().to_python(value)


class BoundedDateTimeField(forms.DateTimeField):
    """A date and time form field (read as typed in the reader's language or in the HTML
    format `2026-12-05T10:00`); the typed text is checked for its length first."""

    MAX_LENGTH = 32

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str) and len(value.strip()) > self.MAX_LENGTH:
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)
