"""The API of the schedule: every round with its start time, place and online link,
and the organiser's setting of them (as on the rounds page)."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Field, Path, Router, Schema

from mafiatab.api.errors import (
    AUTH_ERRORS,
    BAD_INPUT,
    MAX_ID,
    NOT_FOUND,
    NotFound,
)
from mafiatab.games import services
from mafiatab.games.calendar import scheduled_rounds
from mafiatab.games.models import Round
from mafiatab.tournaments.api import require, tournament_or_404

router = Router(tags=["rounds"])

RoundId = Path(..., ge=1, le=MAX_ID, description="The round's id.")


class RoundOut(Schema):
    """A round with when and where it is played."""

    id: int
    stage: Literal["qualifying", "semifinal", "final"]
    number: int
    starts_at: dt.datetime | None = Field(description="The start time; null: not scheduled.")
    place: str = Field(description="The hall or room; may be empty.")
    link: str = Field(description="The room or platform link of an online round; may be empty.")


class RoundScheduleIn(Schema):
    starts_at: dt.datetime | None = Field(
        None, description="The start time (ISO 8601; without an offset: the site's time zone)."
    )
    place: str = Field("", max_length=200, description="The hall or room.")
    link: str = Field("", max_length=500, description="A web address (https) of the room.")


@router.get(
    "/tournaments/{slug}/rounds",
    response={200: list[RoundOut], **NOT_FOUND},
    auth=None,
    summary="The schedule",
)
def list_rounds(request: HttpRequest, slug: str):
    """The tournament's rounds, the earliest first, the unscheduled ones last."""
    return scheduled_rounds(tournament_or_404(slug))


@router.put(
    "/tournaments/{slug}/rounds/{round_id}/schedule",
    response={200: RoundOut, **AUTH_ERRORS, **NOT_FOUND, **BAD_INPUT},
    summary="Set a round's time and place",
)
def set_round_schedule(
    request: HttpRequest, slug: str, data: RoundScheduleIn, round_id: int = RoundId
):
    """The organiser or the chief judge sets when and where a round is played."""
    tournament = tournament_or_404(slug)
    require(request.auth, tournament, "manage_rounds")
    round_ = Round.objects.filter(tournament=tournament, pk=round_id).first()
    if round_ is None:
        raise NotFound(_("There is no round %(id)d in this tournament.") % {"id": round_id})
    schedule = services.RoundSchedule(starts_at=data.starts_at, place=data.place, link=data.link)
    return services.round_schedule_set(round=round_, schedule=schedule, by=request.auth)
