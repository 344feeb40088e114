"""The schedule of a tournament: its days of rounds for the tournament page, a
player's own tables, and both as iCalendar feeds (RFC 5545, built with `icalendar`)
that calendar apps subscribe to.

Times are stored in UTC and shown in the site's time zone (`TIME_ZONE`); a feed
carries them in UTC, so every calendar app shows them in its reader's own zone.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import F, QuerySet
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from icalendar import Calendar, Event

from mafiatab.games.models import Round, TableSeat
from mafiatab.registrations.models import Registration
from mafiatab.tournaments.models import Tournament

#: How long a calendar shows a round (a game of the FIIM rules takes about an hour).
ROUND_LENGTH = dt.timedelta(hours=1)
#: The product identifier of the feeds (RFC 5545, 3.7.3).
PRODID = "-//mafiatab//schedule//EN"


@dataclass(frozen=True)
class ScheduleDay:
    """The rounds of one day, in the order they start; `date` None: not yet timed."""

    date: dt.date | None
    rounds: list[Round] = field(default_factory=list)


def scheduled_rounds(tournament: Tournament) -> QuerySet[Round]:
    """The tournament's rounds, the earliest first, the untimed ones last."""
    return Round.objects.filter(tournament=tournament).order_by(
        F("starts_at").asc(nulls_last=True), "created_at", "id"
    )


def schedule_days(tournament: Tournament) -> list[ScheduleDay]:
    """The tournament's rounds by day (in the active time zone: the tournament's)."""
    days: dict[dt.date | None, ScheduleDay] = {}
    for round_ in scheduled_rounds(tournament):
        date = timezone.localdate(round_.starts_at) if round_.starts_at else None
        days.setdefault(date, ScheduleDay(date)).rounds.append(round_)
    return list(days.values())


def player_seats(registration: Registration) -> QuerySet[TableSeat]:
    """The seats of a player: round, table, judge, the earliest first."""
    return (
        TableSeat.objects.filter(registration=registration)
        .select_related("table__round", "table__judge")
        .order_by(
            F("table__round__starts_at").asc(nulls_last=True),
            "table__round__created_at",
            "table__round_id",
        )
    )


def _calendar(name: str) -> Calendar:
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", name)
    return calendar


def _event(uid: str, round_: Round, summary: str, description: str, url: str) -> Event:
    assert round_.starts_at is not None
    event = Event()
    event.add("uid", uid)
    event.add("dtstamp", round_.created_at)
    event.add("dtstart", round_.starts_at.astimezone(dt.UTC))
    event.add("dtend", (round_.starts_at + ROUND_LENGTH).astimezone(dt.UTC))
    event.add("summary", summary)
    if round_.place or round_.link:
        event.add("location", round_.place or round_.link)
    if round_.link:
        event.add("url", round_.link)
    elif url:
        event.add("url", url)
    if description:
        event.add("description", description)
    return event


def _where(round_: Round) -> str:
    """What the description adds to the location: the online link beside a place."""
    return round_.link if round_.place else ""


def tournament_feed(tournament: Tournament, *, url: str, host: str) -> bytes:
    """Every timed round of the tournament as an iCalendar feed."""
    calendar = _calendar(tournament.name)
    for round_ in scheduled_rounds(tournament).filter(starts_at__isnull=False):
        calendar.add_component(
            _event(
                f"round-{round_.pk}@{host}",
                round_,
                f"{tournament.name}: {capfirst(str(round_))}",
                _where(round_),
                url,
            )
        )
    return calendar.to_ical()


def seat_summary(seat: TableSeat) -> str:
    """ "Qualifying 1, table 2, seat 5" in the reader's language."""
    return _("%(round)s, table %(table)d, seat %(seat)d") % {
        "round": capfirst(str(seat.table.round)),
        "table": seat.table.number,
        "seat": seat.number,
    }


def player_feed(registration: Registration, *, url: str, host: str) -> bytes:
    """The player's own tables (round, table, seat, time, place or link) as a feed."""
    tournament = registration.tournament
    calendar = _calendar(f"{tournament.name}: {registration.nickname}")
    for seat in player_seats(registration).filter(table__round__starts_at__isnull=False):
        round_ = seat.table.round
        lines = [_where(round_)]
        if seat.table.judge is not None:
            judge = seat.table.judge.nickname or seat.table.judge.username
            lines.append(_("Judge: %(judge)s") % {"judge": judge})
        calendar.add_component(
            _event(
                f"seat-{seat.table_id}-{registration.pk}@{host}",
                round_,
                f"{tournament.name}: {seat_summary(seat)}",
                "\n".join(line for line in lines if line),
                url,
            )
        )
    return calendar.to_ical()
