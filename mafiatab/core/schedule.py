"""The schedule's arithmetic: how late a player is for a round that starts at a time.

Lateness (tournament discipline, and the 5 and 15 minutes of the online addendum)
is measured from the round's start time, in whole minutes begun: a player who
arrives 5 minutes and 1 second after the start is 6 minutes late, "more than
5 minutes"; one who arrives on time or early is 0 minutes late.
"""

from __future__ import annotations

from datetime import datetime


def minutes_late(starts_at: datetime, arrived_at: datetime) -> int:
    """Whole minutes begun between `starts_at` and `arrived_at` (0 when not late).

    Both must be aware datetimes (any time zones) or both naive; seconds' fractions
    are not counted."""
    seconds = int((arrived_at - starts_at).total_seconds())
    if seconds <= 0:
        return 0
    return -(-seconds // 60)
