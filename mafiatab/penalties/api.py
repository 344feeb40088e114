"""Tournament-level penalties: the list (staff) and giving one (chief judge).

Writes go through `mafiatab.penalties.services`, allowed by `user_can` as on the
penalties page.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from django.http import HttpRequest
from ninja import Field, Router, Schema
from ninja import Status as HttpStatus

from mafiatab.api.errors import AUTH_ERRORS, BAD_INPUT, NOT_FOUND
from mafiatab.api.schemas import Nickname, Text, points
from mafiatab.penalties.models import Kind, Penalty
from mafiatab.penalties.services import penalty_give
from mafiatab.tournaments.api import require, tournament_or_404

router = Router(tags=["penalties"])

#: The kinds of penalty the chief judge gives (the others come from imported files).
GivenKind = Literal[tuple(k for k in Kind.values if k != Kind.OTHER)]  # type: ignore[misc]
AnyKind = Literal[tuple(Kind.values)]  # type: ignore[misc]
SMALL_INT = 32767


class PenaltyOut(Schema):
    """A tournament-level penalty; a cancelled one stays in the list, marked."""

    id: int
    player: str
    kind: AnyKind  # type: ignore[valid-type]
    points: float = Field(description="Points, rounded to 2 decimals (0 or negative).")
    reason: str
    minutes_late: int | None
    round: int | None
    stage: str = Field(
        description="The stage of `round` (each stage numbers its rounds from 1); blank "
        "when no round is named. Added: older clients may ignore it."
    )
    given_at: dt.datetime
    cancelled: bool

    @staticmethod
    def resolve_points(penalty: Penalty) -> float:
        return points(penalty.points)

    @staticmethod
    def resolve_given_at(penalty: Penalty) -> dt.datetime:
        return penalty.created_at

    @staticmethod
    def resolve_cancelled(penalty: Penalty) -> bool:
        return penalty.is_cancelled


class PenaltyIn(Schema):
    player: Nickname = Field(description="The nickname of a player of the tournament.")
    kind: GivenKind = Field(description="The points follow from the kind and the ruleset.")  # type: ignore[valid-type]
    reason: Text
    minutes_late: int | None = Field(
        None, ge=0, le=SMALL_INT, description="For lateness: how many minutes late."
    )
    round: int | None = Field(None, ge=1, le=SMALL_INT, description="The round concerned.")
    stage: Literal["", "qualifying", "semifinal", "final"] = Field(
        "",
        description="The stage of `round`; when blank, the stage where the player's game of "
        "that round is still to be played.",
    )


@router.get(
    "/tournaments/{slug}/penalties",
    response={200: list[PenaltyOut], **AUTH_ERRORS, **NOT_FOUND},
    summary="Tournament penalties",
)
def list_penalties(request: HttpRequest, slug: str):
    """Every tournament-level penalty, cancelled ones included (organiser and judges)."""
    tournament = tournament_or_404(slug)
    require(request.auth, tournament, "view_registrations")
    return tournament.penalties.all()


@router.post(
    "/tournaments/{slug}/penalties",
    response={201: PenaltyOut, **AUTH_ERRORS, **NOT_FOUND, **BAD_INPUT},
    summary="Give a tournament penalty",
)
def give_penalty(request: HttpRequest, slug: str, data: PenaltyIn):
    """The chief judge penalises a player: lateness or a lobby violation."""
    tournament = tournament_or_404(slug)
    require(request.auth, tournament, "give_penalty")
    penalty = penalty_give(
        tournament=tournament,
        player=data.player.strip(),
        kind=data.kind,
        reason=data.reason,
        minutes_late=data.minutes_late,
        round=data.round,
        stage=data.stage,
        by=request.auth,
    )
    return HttpStatus(201, penalty)
