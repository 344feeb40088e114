"""The standings: exactly the JSON of `mafiatab standings FILE --json`."""

from __future__ import annotations

from typing import Literal

from django.http import HttpRequest
from ninja import Router, Schema

from mafiatab.api.errors import NOT_FOUND, tournament_or_404
from mafiatab.standings.services import tournament_standings

router = Router(tags=["standings"])


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


class StandingsOut(Schema):
    """The standings document of the tournament file specification."""

    tournament: str
    coefficient_k: float
    heavy_side: Literal["red", "black"] | None
    compensation_b: int
    standings: list[StandingOut]


@router.get(
    "/tournaments/{slug}/standings",
    response={200: StandingsOut, **NOT_FOUND},
    auth=None,
    summary="The standings",
)
def get_standings(request: HttpRequest, slug: str):
    """The standings computed by the scoring core from the tournament's confirmed
    protocols and penalties: the same document as `mafiatab standings FILE --json`
    gives for the tournament's exported file."""
    tournament = tournament_or_404(slug)
    return tournament_standings(tournament).to_json()
