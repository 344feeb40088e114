"""The schedule's arithmetic: how late a player is for a round that starts at a time.

Lateness (tournament discipline, and the 5 and 15 minutes of the online addendum)
is measured from the round's start time, in whole minutes begun: a player who
arrives 5 minutes and 1 second after the start is 6 minutes late, "more than
5 minutes"; one who arrives on time or early is 0 minutes late.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

#: A web address the schedule accepts as a room's link: http(s), a host, no spaces.
WEB_ADDRESS = re.compile(r"https?://[^\s/?#]+[^\s]*", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ScheduledRound:
    """When and where one round of a stage is played (the tournament file's `schedule`)."""

    stage: str
    """The stage's code: "qualifying", "semifinal" or "final"."""
    round: int
    """The round's number within the stage."""
    starts_at: datetime | None = None
    """The start time, aware (with its offset); None: not scheduled."""
    place: str = ""
    """The hall or room."""
    link: str = ""
    """The room or platform link of an online round (a web address)."""


#: The stages in the order they are played (a round of a later stage starts after every
#: round of an earlier one).
STAGE_ORDER = ("qualifying", "semifinal", "final")


def play_order(scheduled: ScheduledRound) -> tuple[int, int]:
    """Where a round comes in the order of play: its stage first, then its number."""
    stage = STAGE_ORDER.index(scheduled.stage) if scheduled.stage in STAGE_ORDER else 99
    return (stage, scheduled.round)


def out_of_order(
    rounds: Iterable[ScheduledRound],
) -> list[tuple[ScheduledRound, ScheduledRound]]:
    """The rounds that do not start after the rounds played before them: for each such
    round, the pair (the earlier round that starts the latest, the round). Rounds
    follow each other: a later stage after an earlier one, round 2 after round 1.
    Rounds without a start time are not compared."""
    timed = sorted(
        ((play_order(r), r.starts_at, r) for r in rounds if r.starts_at is not None),
        key=lambda item: item[0],
    )
    found: list[tuple[ScheduledRound, ScheduledRound]] = []
    latest: tuple[tuple[int, int], datetime, ScheduledRound] | None = None
    for order, starts_at, entry in timed:
        if latest is not None and latest[0] < order and starts_at <= latest[1]:
            found.append((latest[2], entry))
        if latest is None or starts_at > latest[1]:
            latest = (order, starts_at, entry)
    return found


def parse_starts_at(text: str) -> datetime | None:
    """An ISO 8601 date and time with its offset; None for anything else (a naive time
    could be read in any zone, so it is refused)."""
    if len(text) > 40:
        return None
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        return None
    return value if value.tzinfo is not None else None


def is_web_address(text: str) -> bool:
    """True for an http(s) address."""
    return len(text) <= 500 and WEB_ADDRESS.fullmatch(text) is not None


def minutes_late(starts_at: datetime, arrived_at: datetime) -> int:
    """Whole minutes begun between `starts_at` and `arrived_at` (0 when not late).

    Both must be aware datetimes (any time zones) or both naive; seconds' fractions
    are not counted."""
    seconds = int((arrived_at - starts_at).total_seconds())
    if seconds <= 0:
        return 0
    return -(-seconds // 60)
