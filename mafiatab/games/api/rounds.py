"""The API of the schedule: every round with its start time, place and online link,
and the organiser's setting of them and of each table's judge (as on the rounds page)."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from django.core.exceptions import ValidationError
from django.db.models import Q
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
from mafiatab.core.names import nickname_key
from mafiatab.games import services
from mafiatab.games.calendar import scheduled_rounds
from mafiatab.games.models import Round, Table
from mafiatab.tournaments.api import require, tournament_or_404
from mafiatab.tournaments.models import StaffMember

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
        None,
        description="The start time (ISO 8601; without an offset: the tournament's time zone).",
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


TableNumber = Path(..., ge=1, le=MAX_ID, description="The table's number in the round.")


class TableJudgeIn(Schema):
    judge: str | None = Field(
        None,
        max_length=150,
        description="The login or nickname of a judge of the tournament; null: no judge.",
    )


class TableJudgeOut(Schema):
    """A table of a round and who judges it."""

    round: int = Field(description="The round's id.")
    table: int
    game: str = Field(description="The table's game (its label).")
    judge: str | None = Field(description="The judge's nickname; null: none.")


@router.put(
    "/tournaments/{slug}/rounds/{round_id}/tables/{table}/judge",
    response={200: TableJudgeOut, **AUTH_ERRORS, **NOT_FOUND, **BAD_INPUT},
    summary="Give a table another judge",
)
def set_table_judge(
    request: HttpRequest,
    slug: str,
    data: TableJudgeIn,
    round_id: int = RoundId,
    table: int = TableNumber,
):
    """The organiser or the chief judge gives a table of a round another judge (as on
    the rounds page); refused (422) for a confirmed protocol or a person who is not a
    judge of the tournament."""
    tournament = tournament_or_404(slug)
    require(request.auth, tournament, "manage_rounds")
    row = Table.objects.filter(round__tournament=tournament, round_id=round_id, number=table)
    found = row.select_related("round").first()
    if found is None:
        raise NotFound(
            _("There is no table %(n)d in round %(id)d of this tournament.")
            % {"n": table, "id": round_id}
        )
    judge = None
    if data.judge:
        member = (
            StaffMember.objects.filter(tournament=tournament)
            .filter(Q(user__username=data.judge) | Q(user__nickname_key=nickname_key(data.judge)))
            .select_related("user")
            .first()
        )
        if member is None:
            raise ValidationError(
                {"judge": _("%(judge)s is not a judge of this tournament.") % {"judge": data.judge}}
            )
        judge = member.user
    done = services.table_judge_set(table=found, judge=judge, by=request.auth)
    game = done.game
    return {
        "round": done.round_id,
        "table": done.number,
        "game": game.label,
        "judge": game.judge,
    }
