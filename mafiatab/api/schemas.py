"""Input types shared by the API's routers."""

from __future__ import annotations

import unicodedata
from decimal import Decimal
from fractions import Fraction
from typing import Annotated, Literal

from ninja import Field, Path, Schema
from ninja.pagination import LimitOffsetPagination
from pydantic import AfterValidator, BeforeValidator, StringConstraints, WithJsonSchema

from mafiatab.api.errors import MAX_ID
from mafiatab.core.regulations import REGULATIONS
from mafiatab.core.scoring import round_half_up


def _printable(value: str) -> str:
    for char in value:
        if char in "\t\n\r":
            continue
        if unicodedata.category(char) in ("Cc", "Cs"):
            raise ValueError(f"must not contain the control character {char!r}")
    return value


#: A nickname as written in protocols.
Nickname = Annotated[str, StringConstraints(max_length=64), AfterValidator(_printable)]
#: A free text (a reason, a note).
Text = Annotated[str, StringConstraints(max_length=2000), AfterValidator(_printable)]


def _a_number(value: object) -> object:
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        raise ValueError("must be a number")
    return value


#: The most extra points any regulation gives one player in a game (8.4.2).
MAX_EXTRA_POINTS = max(r.judge_total_cap for r in REGULATIONS.values())
#: Extra points of a judge (8.4): a JSON number above 0 and at most the largest cap of
#: the regulations, with at most 4 decimals (the tournament's own regulation is checked
#: by the core).
Points = Annotated[
    Decimal,
    BeforeValidator(_a_number),
    Field(gt=0, le=MAX_EXTRA_POINTS, max_digits=6, decimal_places=4),
    WithJsonSchema({"type": "number", "exclusiveMinimum": 0, "maximum": float(MAX_EXTRA_POINTS)}),
]
#: A game's date as protocols write it (YYYY-MM-DD; the core checks the form).
DateText = Annotated[str, StringConstraints(max_length=32), AfterValidator(_printable)]
#: A short label.
Label = Annotated[str, StringConstraints(max_length=100), AfterValidator(_printable)]
#: A game's id in an address (the games' and the console's routers).
GameId = Path(..., ge=1, le=MAX_ID, description="The game's id.")


def points(value: Decimal | Fraction) -> float:
    """Points for output: a number rounded to 2 decimals, halves up (as the CLI)."""
    rounded = round_half_up(Fraction(value))
    return rounded.numerator / rounded.denominator


class Pages(LimitOffsetPagination):
    """`?limit=&offset=` with bounds (a page of at most 500 items)."""

    class Input(Schema):
        limit: int = Field(100, ge=1, le=500, description="Items per page.")
        offset: int = Field(0, ge=0, le=2**31 - 1, description="Items to skip.")


class StageOut(Schema):
    """One stage of the plan, as the tournament file's `stages` holds it."""

    stage: Literal["qualifying", "semifinal", "final"]
    games: int = Field(description="Games each player of the stage plays.")
    players: int | None = Field(None, description="How many advance into the stage.")
    points: Literal["carry", "reset"] | None = Field(
        None, description="The final: its players ranked by the total (carry) or by its points."
    )
    hide_extras: bool | None = Field(
        None, description="The stage's judge extras are hidden until the tournament is closed."
    )
