"""The console API's bodies (django-ninja schemas): a game's log and its entries, the
judge's place and timer, and the online table's reports, ready check and side judge.
The free texts a page shows must be printable."""

from __future__ import annotations

import unicodedata
import uuid
from typing import Any, Literal

from django.utils.translation import gettext as _
from ninja import Field, Schema
from pydantic import field_validator

from mafiatab.api.errors import MAX_ID
from mafiatab.console import services

After = Field(None, ge=0, le=MAX_ID, description="The number of the last entry the writer knew.")


class ConsoleEntryOut(Schema):
    number: int
    id: str = Field(description="The id the console gave the entry.")
    kind: str = Field(description="`event`, or `undo` (takes back the event `undoes`).")
    event: dict[str, Any] | None = None
    undone: bool = False
    undoes: int | None = None
    text: str = Field("", description="The event as a sentence, in the reader's language.")


def _unprintable(ch: str) -> bool:
    """A control, text-direction or lone surrogate character: no page holds it."""
    return unicodedata.category(ch) in {"Cc", "Cf", "Cs"}


class ConsoleTimer(Schema):
    total: int = Field(ge=0, le=3600, description="The seconds the timer was set to.")
    left: int = Field(ge=0, le=3600, description="The seconds left when the place was saved.")
    running: bool = Field(description="The timer runs (it has run `age` seconds since).")
    label: str = Field(
        "", max_length=80, description="What the timer times, as the console said it."
    )

    @field_validator("label")
    @classmethod
    def _printable(cls, value: str) -> str:
        if any(_unprintable(ch) for ch in value):
            raise ValueError(_("Only printable characters are allowed."))
        return value


class ConsolePlaceIn(Schema):
    day: str = Field(
        pattern=r"^[dn][0-9]{1,2}$",
        max_length=3,
        description="The phase the place belongs to: `d2` (day 2), `n1` (night 1).",
    )
    speech: int = Field(ge=0, le=40, description="The speech of the day's order (0 the first).")
    seat: int | None = Field(None, ge=1, le=10, description="The seat of that speech.")
    timer: ConsoleTimer


class ConsolePlaceOut(ConsolePlaceIn):
    revision: int = Field(description="How many times the place was saved.")
    age: float = Field(description="Seconds since it was saved (by the server's clock).")


class ConsoleLogOut(Schema):
    game_id: int
    label: str
    started: bool
    closed: bool = Field(description="The protocol was made from the log; no more entries.")
    full: bool = Field(description="True when roles are included (judges, or after the end).")
    number: int = Field(description="The number of the last entry.")
    finished: bool
    winner: str | None = None
    phase_text: str = ""
    winner_text: str = ""
    header: dict[str, Any] | None = None
    entries: list[ConsoleEntryOut]
    state: dict[str, Any] | None = None
    problems: list[str] = []
    duplicate: bool = Field(False, description="The write was a resend of a stored entry.")
    partial: bool = Field(
        False,
        description="The answer to a write: `entries` holds only the entry written (also "
        "in `entry`); the client adds it to the entries it has, marking the event an undo "
        "`undoes` as undone.",
    )
    entry: ConsoleEntryOut | None = Field(None, description="The entry written (a write only).")
    first_speaker: int | None = Field(
        None, description="The first regular speaker of the current (or last) day."
    )
    place: ConsolePlaceOut | None = Field(
        None, description="Where the judge stands: the speaker and the timer (no rule)."
    )


class ConsoleEventIn(Schema):
    id: uuid.UUID = Field(description="A fresh id for the entry, made by the client.")
    after: int | None = After
    event: dict[str, Any] = Field(description="A `mafiatab-game-log/1` event.")


class ConsoleUndoIn(Schema):
    id: uuid.UUID
    after: int | None = After


class ConsoleStartIn(Schema):
    roles: dict[str, Any] = Field(
        description='The roles dealt: {"sheriff": 3, "don": 5, "black": [7, 9]}.'
    )


class ConsoleReportIn(Schema):
    seat: int = Field(ge=1, le=10, description="The seat that broke the online addendum.")
    reason: str = Field(
        min_length=1,
        max_length=services.MAX_REPORT_REASON,
        description="What the player did (addendum 4.1).",
    )

    @field_validator("reason")
    @classmethod
    def _printable(cls, value: str) -> str:
        if any(_unprintable(ch) for ch in value):
            raise ValueError(_("Only printable characters are allowed."))
        return value


class ConsoleReportOut(Schema):
    id: int
    seat: int
    reason: str
    status: str = Field(description="`pending`, `accepted` (the seat removed) or `dismissed`.")
    reported_by: str
    reported_at: str
    decided_by: str | None = None
    decided_at: str | None = None
    entry: int | None = Field(None, description="The removal's entry in the log (accepted).")
    fine: float | None = Field(None, description="The fine of the removal, by the regulation.")


class ConsoleDecisionIn(Schema):
    decision: Literal["accept", "dismiss"]
    id: uuid.UUID = Field(description="A fresh id for the removal's entry (accept).")
    after: int | None = After


class ConsoleReadyIn(Schema):
    seat: int = Field(ge=1, le=10)
    microphone: bool | None = None
    connection: bool | None = None
    camera: bool | None = None
    confirmed: bool | None = Field(None, description="The player confirmed he is ready.")


class ConsoleReadySeat(Schema):
    seat: int
    player: str
    microphone: bool
    connection: bool
    camera: bool
    confirmed: bool
    fined: bool = Field(description="The seat got the lateness fine from the check.")


class ConsoleReadyOut(Schema):
    open: bool = Field(description="The check may still change: before the first speech.")
    ready: bool = Field(description="Every seat passed every check and confirmed.")
    revision: int
    seats: list[ConsoleReadySeat]


class ConsoleFineIn(Schema):
    seat: int = Field(ge=1, le=10)
    reason: str = Field(min_length=1, max_length=services.MAX_REPORT_REASON)


class SideJudgeIn(Schema):
    judge: str = Field(
        max_length=64,
        description='The nickname of one of the tournament\'s table judges; "": none.',
    )


class SideJudgeOut(Schema):
    game_id: int
    judge: str | None = Field(None, description="The side judge's nickname (addendum 2.6).")
