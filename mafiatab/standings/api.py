"""The standings: exactly the JSON of `mafiatab standings FILE --json`."""

from __future__ import annotations

from typing import Any, Literal

from django.core.exceptions import ValidationError
from django.http import HttpRequest
from ninja import Field, Query, Router, Schema

from mafiatab.api.auth import caller
from mafiatab.api.errors import AUTH_ERRORS, INVALID, NOT_FOUND, Error, Forbidden, NotFound
from mafiatab.api.schemas import StageOut
from mafiatab.core.advancing import standings_json
from mafiatab.messages import remark_text
from mafiatab.standings.advancing import (
    advance_draft,
    advance_publish,
    advance_withdraw,
    published,
)
from mafiatab.standings.services import viewer_standings
from mafiatab.standings.staged import public_outlook
from mafiatab.tournaments.api import require, tournament_or_404
from mafiatab.tournaments.disclosure import disclosure_for, withheld_message
from mafiatab.tournaments.permissions import user_can

router = Router(tags=["standings"])


class OutlookOut(Schema):
    """Where a player of the running stage stands against the next stage's cut."""

    places: int = Field(description="How many players advance.")
    margin: float | None = Field(
        description="Above the cut: his points minus the first below it; below: minus "
        "the last above it (negative). Null when every player advances."
    )
    games_left: int
    mark: Literal["through", "out"] | None = Field(
        description="Shown only where certain (no penalty from now on)."
    )


class StandingOut(Schema):
    """One player's line; points are rounded to 2 decimals, the ranking uses exact values."""

    rank: int
    player: str
    total: float
    main: float
    extra: float
    penalties: float
    compensation: float
    wins: int
    wins_as_don_or_sheriff: int
    first_night_deaths: int
    games: int
    decided_by_lot: bool
    stage: Literal["qualifying", "semifinal", "final"] | None = Field(
        None, description="With a stage plan: the furthest stage he was seated in."
    )
    by_stage: dict[str, float] | None = Field(
        None, description="With a stage plan: his points in each stage he was seated in."
    )
    outlook: OutlookOut | None = Field(
        None, description="While a stage that players advance from runs, for its players."
    )


class StandingsOut(Schema):
    """The standings document of the tournament file specification."""

    tournament: str
    coefficient_k: float
    heavy_side: Literal["red", "black"] | None
    compensation_b: int
    stages: list[StageOut] | None = Field(
        None, description="The stage plan the rows are grouped by (absent: no plan)."
    )
    standings: list[StandingOut]


PROVISIONAL = Query(
    False, description="Count the protocols submitted but not yet confirmed as well."
)


@router.get(
    "/tournaments/{slug}/standings",
    response={200: StandingsOut, 401: Error, 403: Error, **NOT_FOUND},
    auth=None,
    summary="The standings",
    exclude_unset=True,
)
def get_standings(request: HttpRequest, slug: str, provisional: bool = PROVISIONAL):
    """The standings computed by the scoring core: the same document as
    `mafiatab standings FILE --json` gives for the tournament's exported file.

    Official standings count the confirmed protocols; `provisional=true` counts the
    submitted ones too. As on the standings page, the public sees nothing while the
    organiser hides the standings (403) and the frozen state while they are frozen;
    the organiser and the judges always see them live.
    """
    tournament = tournament_or_404(slug)
    staff = user_can(caller(request), tournament, "view_live_standings")
    shown = viewer_standings(tournament=tournament, staff=staff, provisional=provisional)
    if shown.snapshot is None:
        raise Forbidden(withheld_message(disclosure_for(caller(request), tournament)))
    data = standings_json(shown.snapshot.standings)
    marks = public_outlook(shown.snapshot.standings)
    for row in data["standings"]:
        if "outlook" in row and marks.get(row["player"]) is not None:
            row["outlook"]["mark"] = marks[row["player"]].to_json()["mark"]
    return data


StageName = Literal["semifinal", "final"]


class RemarkOut(Schema):
    code: str = Field(description="advance.withdrawn, advance.removed, advance.tie_chain, ...")
    params: dict[str, str]
    text: str = Field(description="The remark in the request's language.")


class AdvanceEntryOut(Schema):
    player: str
    rank: int
    total: float
    points: float = Field(description="The points he is ranked by for this cut.")
    advances: bool
    remarks: list[RemarkOut]


class AdvanceListOut(Schema):
    """The advance list of a stage: the draft, and who advanced once it is published."""

    into: StageName
    source: Literal["qualifying", "semifinal"] = Field(alias="from")
    places: int
    entries: list[AdvanceEntryOut]
    blockers: list[str] = Field(
        description="Games of the stage before, unconfirmed or under protest (named)."
    )
    advanced: list[str] | None = Field(
        description="Published: the players who advanced and still do, by place (null: a draft)."
    )


def _advance_list(tournament: Any, stage: str) -> dict[str, Any]:
    try:
        draft = advance_draft(tournament, stage)
    except ValidationError as exc:
        raise NotFound(" ".join(exc.messages)) from None
    data = draft.list.to_json()
    for entry, made in zip(data["entries"], draft.rows, strict=True):
        entry["remarks"] = [
            {"code": r.code, "params": dict(r.params), "text": remark_text(r)} for r in made.remarks
        ]
    rows = published(tournament, stage)
    data["blockers"] = [f"{b.label}: {b.reason}" for b in draft.blockers]
    data["advanced"] = [a.registration.nickname for a in rows if a.active] if rows else None
    return data


@router.get(
    "/tournaments/{slug}/advance/{stage}",
    response={200: AdvanceListOut, **AUTH_ERRORS, **NOT_FOUND},
    summary="The advance list of a stage",
    by_alias=True,
)
def get_advance_list(request: HttpRequest, slug: str, stage: StageName):
    """The advance list into `stage` (organiser): every candidate of the stage before
    with his rank, total, whether he advances and the remarks, what blocks it, and
    once published who advanced."""
    tournament = tournament_or_404(slug)
    require(request.auth, tournament, "advance_players")
    return _advance_list(tournament, stage)


@router.post(
    "/tournaments/{slug}/advance/{stage}",
    response={200: AdvanceListOut, **AUTH_ERRORS, **NOT_FOUND, **INVALID},
    summary="Publish the advance list of a stage",
    by_alias=True,
)
def publish_advance_list(request: HttpRequest, slug: str, stage: StageName):
    """Publish the advance list into `stage` (organiser): refused (422, naming the games)
    while a game of the stage before is unconfirmed or under protest, and once published."""
    tournament = tournament_or_404(slug)
    require(request.auth, tournament, "advance_players")
    advance_publish(tournament=tournament, into=stage, by=request.auth)
    return _advance_list(tournament, stage)


@router.delete(
    "/tournaments/{slug}/advance/{stage}",
    response={200: AdvanceListOut, **AUTH_ERRORS, **NOT_FOUND, **INVALID},
    summary="Take back the published advance list of a stage",
    by_alias=True,
)
def withdraw_advance_list(request: HttpRequest, slug: str, stage: StageName):
    """Take back the published advance list into `stage` (organiser): it is a draft
    again. Refused (422) once the stage has rounds or a published seating."""
    tournament = tournament_or_404(slug)
    require(request.auth, tournament, "advance_players")
    advance_withdraw(tournament=tournament, into=stage, by=request.auth)
    return _advance_list(tournament, stage)
