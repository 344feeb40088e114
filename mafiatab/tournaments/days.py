"""A tournament's days and the rounds' start times: one rule for both doors.

A round starts within its tournament's days, read in the tournament's time zone. The
rounds page checks a new start time against the days (`day_refusal`, called by the
games' schedule); the tournament's settings check the rounds' start times against new
days or a new time zone (`rounds_outside_days`). The rounds live in the games app,
above this one: they are read through the reverse relation `tournament.rounds`.

A new time zone keeps the rounds' instants (what was agreed with the players), so the
times said in the zone move; a round that would then start outside the days is refused.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from typing import Literal

from django.core.exceptions import ValidationError
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from mafiatab.tournaments.models import Tournament

Side = Literal["before", "after"]


def day_side(day: dt.date, first: dt.date | None, last: dt.date | None) -> Side | None:
    """Whether `day` falls before the first day or after the last one (None: within)."""
    if first is not None and day < first:
        return "before"
    if last is not None and day > last:
        return "after"
    return None


def _date(day: dt.date) -> str:
    return formats.date_format(day, "SHORT_DATE_FORMAT")


def day_refusal(day: dt.date, first: dt.date | None, last: dt.date | None) -> str | None:
    """Why a round cannot start on `day` of a tournament held from `first` to `last`, in
    the reader's language (None: it can)."""
    side = day_side(day, first, last)
    if side == "before":
        return _("The tournament starts on %(first)s: a round cannot start before it.") % {
            "first": _date(first)  # type: ignore[arg-type]
        }
    if side == "after":
        return _("The tournament ends on %(last)s: a round cannot start after it.") % {
            "last": _date(last)  # type: ignore[arg-type]
        }
    return None


def zone_named(name: str) -> dt.tzinfo:
    """The time zone `name` (IANA), else the site's (also for a zone this machine does
    not know)."""
    if name:
        try:
            return zoneinfo.ZoneInfo(name)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            pass
    return timezone.get_default_timezone()


def rounds_outside_days(
    tournament: Tournament, *, starts_on: dt.date | None, ends_on: dt.date | None, time_zone: str
) -> ValidationError | None:
    """What refuses new days (`starts_on`, `ends_on`) or a new time zone for `tournament`:
    each of its rounds whose start time would fall outside the days in that zone, named
    with its time said in that zone, beside the field that moved it (the time zone when
    the round was within the new days in the old zone, else the day it falls outside).
    None: every round still starts within the days."""
    zone = zone_named(time_zone)
    old_zone = tournament.zone()
    rezoned = time_zone != tournament.time_zone
    errors: dict[str, list[str]] = {}
    timed = tournament.rounds.filter(starts_at__isnull=False).order_by("starts_at", "pk")
    for row in timed:
        day = timezone.localtime(row.starts_at, zone).date()
        side = day_side(day, starts_on, ends_on)
        if side is None:
            continue
        params = {
            "round": str(row),
            "time": formats.date_format(
                timezone.localtime(row.starts_at, zone), "SHORT_DATETIME_FORMAT"
            ),
            "first": _date(starts_on) if starts_on else "",
            "last": _date(ends_on) if ends_on else "",
        }
        old_day = timezone.localtime(row.starts_at, old_zone).date()
        if rezoned and day_side(old_day, starts_on, ends_on) is None:
            field = "time_zone"
            if side == "before":
                text = _(
                    "In this time zone round %(round)s would start at %(time)s, before the "
                    "tournament's first day %(first)s: move the round first."
                )
            else:
                text = _(
                    "In this time zone round %(round)s would start at %(time)s, after the "
                    "tournament's last day %(last)s: move the round first."
                )
        elif side == "before":
            field = "starts_on"
            text = _(
                "Round %(round)s starts at %(time)s, before the first day %(first)s: move "
                "the round first."
            )
        else:
            field = "ends_on"
            text = _(
                "Round %(round)s starts at %(time)s, after the last day %(last)s: move the "
                "round first."
            )
        errors.setdefault(field, []).append(text % params)
    return ValidationError(errors) if errors else None
