"""The schedule of rounds: when and where each round is played (`round_schedule_set`),
and lateness measured from a round's start (`lateness_give`)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from mafiatab.core.names import nickname_key
from mafiatab.core.schedule import ScheduledRound, minutes_late, play_order
from mafiatab.games.models import Round
from mafiatab.penalties.models import Kind, Penalty
from mafiatab.penalties.services import penalty_give
from mafiatab.registrations.selectors import seat_holders
from mafiatab.tournaments.bounds import MAX_YEAR, MIN_YEAR
from mafiatab.tournaments.days import day_refusal
from mafiatab.tournaments.permissions import ensure_can

if TYPE_CHECKING:
    from mafiatab.accounts.models import User

MAX_PLACE = 200
#: The code of the refusal of a save over a change made meanwhile.
CHANGED_MEANWHILE = "changed_meanwhile"
MAX_LINK = 500


@dataclass(frozen=True)
class RoundSchedule:
    """When and where a round is played."""

    starts_at: datetime | None = None
    """The start time (aware); None: not scheduled."""
    place: str = ""
    """The hall or room."""
    link: str = ""
    """The room or platform link of an online round (a web address)."""

    def as_audit(self) -> dict[str, str | None]:
        return {
            "starts_at": self.starts_at.isoformat() if self.starts_at else None,
            "place": self.place,
            "link": self.link,
        }

    def stamp(self) -> str:
        """A short digest of the schedule: a form sends back the stamp of what it
        showed, and a save over someone else's change is refused."""
        text = json.dumps(self.as_audit(), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def schedule_of(round: Round) -> RoundSchedule:
    return RoundSchedule(starts_at=round.starts_at, place=round.place, link=round.link)


def check_schedule(schedule: RoundSchedule, zone: tzinfo | None = None) -> RoundSchedule:
    """The schedule with its texts trimmed and a start time without an offset read in
    `zone` (the tournament's; the active one when None); ValidationError naming each
    wrong field."""
    place, link = schedule.place.strip(), schedule.link.strip()
    errors: dict[str, str] = {}
    if len(place) > MAX_PLACE:
        errors["place"] = _("The place is at most %(n)d characters.") % {"n": MAX_PLACE}
    if len(link) > MAX_LINK:
        errors["link"] = _("The link is at most %(n)d characters.") % {"n": MAX_LINK}
    elif link:
        try:
            URLValidator(schemes=["http", "https"])(link)
        except ValidationError:
            errors["link"] = _("The link must be a web address (https://…).")
    starts_at = schedule.starts_at
    if starts_at is not None and timezone.is_naive(starts_at):
        starts_at = timezone.make_aware(starts_at, zone)
    if errors:
        raise ValidationError(errors)
    return RoundSchedule(starts_at=starts_at, place=place, link=link)


def _when(moment: datetime, zone: tzinfo) -> str:
    return formats.date_format(timezone.localtime(moment, zone), "SHORT_DATETIME_FORMAT")


def _check_start(round: Round, starts_at: datetime | None) -> None:
    """A round starts within its tournament's days (between the years 2000 and 2100 when
    they are not set), after every round played before it and before every round played
    after it (the stages in order, then the rounds' numbers); ValidationError on
    `starts_at` naming what it contradicts."""
    if starts_at is None:
        return
    tournament = round.tournament
    zone = tournament.zone()
    day = timezone.localtime(starts_at, zone).date()
    error = day_refusal(day, tournament.starts_on, tournament.ends_on)
    if error is None and not MIN_YEAR <= day.year <= MAX_YEAR:
        error = _("Give a date between the years %(low)d and %(high)d.") % {
            "low": MIN_YEAR,
            "high": MAX_YEAR,
        }
    if error is None:
        error = _order_error(round, starts_at, zone)
    if error is not None:
        raise ValidationError({"starts_at": error})


def _order_error(round: Round, starts_at: datetime, zone: tzinfo) -> str | None:
    def order(row: Round) -> tuple[int, int]:
        return play_order(ScheduledRound(row.stage, row.number))

    mine = order(round)
    others = Round.objects.filter(tournament=round.tournament, starts_at__isnull=False).exclude(
        pk=round.pk
    )
    before = [r for r in others if order(r) < mine and r.starts_at >= starts_at]
    after = [r for r in others if order(r) > mine and r.starts_at <= starts_at]
    if before:
        other = max(before, key=lambda r: r.starts_at)
        return _(
            "Round %(round)s starts at %(time)s: this round is played after it, so it must "
            "start later."
        ) % {"round": other, "time": _when(other.starts_at, zone)}
    if after:
        other = min(after, key=lambda r: r.starts_at)
        return _(
            "Round %(round)s starts at %(time)s: this round is played before it, so it must "
            "start earlier."
        ) % {"round": other, "time": _when(other.starts_at, zone)}
    return None


@transaction.atomic
def round_schedule_set(
    *, round: Round, schedule: RoundSchedule, by: User | None, stamp: str | None = None
) -> Round:
    """Set when and where `round` is played; the change is on the record. With
    `stamp` (of the schedule the writer saw), a change made meanwhile is not overwritten."""
    ensure_can(by, round.tournament, "manage_rounds")
    schedule = check_schedule(schedule, round.tournament.zone())
    locked = Round.objects.select_for_update().get(pk=round.pk)
    before = schedule_of(locked)
    if before == schedule:
        return locked
    if schedule.starts_at != before.starts_at:
        _check_start(locked, schedule.starts_at)
    if stamp and stamp != before.stamp():
        raise ValidationError(
            _(
                "Someone changed this round's time and place meanwhile: look at them and save "
                "again."
            ),
            code=CHANGED_MEANWHILE,
        )
    locked.starts_at, locked.place, locked.link = schedule.starts_at, schedule.place, schedule.link
    locked.save(update_fields=["starts_at", "place", "link"])
    round.tournament.log_action(
        "round.scheduled",
        by=by,
        target=str(locked),
        before=before.as_audit(),
        # the round by its stage and number: the history names it in the reader's language
        after=schedule.as_audit() | {"stage": locked.stage, "number": locked.number},
    )
    return locked


def round_minutes_late(round: Round, arrived_at: datetime) -> int:
    """How many minutes late a player arriving at `arrived_at` is for `round`;
    ValidationError when the round has no start time."""
    if round.starts_at is None:
        raise ValidationError(
            {"arrived_at": _("The round has no start time: set it on the rounds page first.")}
        )
    if timezone.is_naive(arrived_at):
        arrived_at = timezone.make_aware(arrived_at, round.tournament.zone())
    return minutes_late(round.starts_at, arrived_at)


@transaction.atomic
def lateness_give(
    *, round: Round, player: str, arrived_at: datetime, reason: str, by: User
) -> Penalty:
    """Fine a player late for `round`: the minutes late are measured from the round's
    start time, and the fine follows the regulation (more than 5 minutes)."""
    ensure_can(by, round.tournament, "give_penalty")
    round = Round.objects.select_related("tournament").get(pk=round.pk)  # its newest time
    minutes = round_minutes_late(round, arrived_at)
    holder = seat_holders(round.tournament_id).get(nickname_key(player.strip()))
    return penalty_give(
        tournament=round.tournament,
        player=holder.nickname if holder is not None else player,
        kind=Kind.LATENESS.value,
        reason=reason,
        minutes_late=minutes,
        round=round.number,
        stage=round.stage,
        by=by,
    )
