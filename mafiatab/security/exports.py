"""Exports that are safe to open in a spreadsheet.

A CSV cell that begins with `=`, `+`, `-` or `@` (or a tab or carriage return,
which some programs skip before looking) is read by Excel, LibreOffice and Google
Sheets as a formula: `=HYPERLINK(...)` as a nickname would run in the organiser's
spreadsheet. Every such cell is prefixed with an apostrophe, which the spreadsheet
shows as text; plain numbers (`-0.50`) stay numbers.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import Any, Protocol

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?\d+(?:[.,]\d+)?")


class _Writable(Protocol):
    def write(self, text: str, /) -> Any: ...


def csv_cell(value: object) -> object:
    """`value` as a spreadsheet will take it as data, never as a formula."""
    if not isinstance(value, str):
        return value
    if value.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


class SafeCSVWriter:
    """`csv.writer` whose every cell goes through `csv_cell`."""

    def __init__(self, out: _Writable, **options: Any) -> None:
        self._writer = csv.writer(out, **options)

    def writerow(self, row: Iterable[object]) -> Any:
        return self._writer.writerow([csv_cell(value) for value in row])

    def writerows(self, rows: Iterable[Iterable[object]]) -> None:
        for row in rows:
            self.writerow(row)
