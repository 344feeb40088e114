"""Tournaments: the list and one tournament's information and people."""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Field, Router, Schema
from ninja.pagination import paginate

from mafiatab.api.errors import INVALID, NOT_FOUND, SLUG_RE, Forbidden, NotFound
from mafiatab.api.schemas import Pages, StageOut
from mafiatab.core.regulations import REGULATIONS
from mafiatab.tournaments.models import StaffRole, Tournament
from mafiatab.tournaments.permissions import APPROVED, ensure_can

router = Router(tags=["tournaments"])


def tournament_or_404(slug: str) -> Tournament:
    """The tournament at this address, or a 404 naming it."""
    tournament = None
    if SLUG_RE.fullmatch(slug):
        tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        raise NotFound(_("There is no tournament at the address %(slug)r.") % {"slug": slug})
    return tournament


def require(user: Any, tournament: Tournament, action: str, *, game: Any = None) -> None:
    """Refuse with 403 unless `user` may perform `action` in `tournament` (on `game`,
    when given): `ensure_can`'s answer, said as the API says it."""
    try:
        ensure_can(user, tournament, action, game=game)
    except PermissionDenied:
        if game is not None:
            message = _("You may not do this with this game (%(action)s).")
        else:
            message = _("You may not do this in this tournament (%(action)s).")
        raise Forbidden(message % {"action": action}) from None


Ruleset = Literal[tuple(REGULATIONS)]  # type: ignore[valid-type]


class TournamentOut(Schema):
    """A tournament as listed."""

    slug: str
    name: str
    ruleset: Ruleset
    starts_on: dt.date | None
    ends_on: dt.date | None
    place: str
    platform: str
    stars: int | None
    registration_open: bool
    participant_count: int
    url: str

    @staticmethod
    def resolve_url(tournament: Tournament) -> str:
        return tournament.get_absolute_url()


class StaffOut(Schema):
    """The nicknames of the people running a tournament."""

    organisers: list[str]
    chief_judges: list[str]
    table_judges: list[str]


class ScoringOut(Schema):
    """The settings the standings are computed with, and where each comes from."""

    participants: int | None = Field(description="N of 8.7.")
    participants_set: bool = Field(
        description="Set by the organiser; false: the approved participants are counted."
    )
    games_before_final: int | None = Field(
        description="Games one player is scheduled to play before the final (8.6)."
    )
    games_before_final_set: bool = Field(
        description="Set by the organiser; false: from the schedule (null: none yet)."
    )
    games_before_final_from_plan: bool = Field(
        False, description="Not set by the organiser and given by the stage plan."
    )
    lot_seed: int = Field(description="The seed of the lot of 8.8.5.")


class TournamentDetailOut(TournamentOut):
    """A tournament with everything its page shows about it."""

    description: str
    participant_limit: int | None
    waiting_list_limit: int | None
    staff: StaffOut
    game_count: int
    scoring: ScoringOut
    standings_hidden: bool = Field(
        description="The organiser hides the standings: the public gets no points "
        "(no tournament file, games without their protocols' points)."
    )
    stages: list[StageOut] | None = Field(
        description="The stage plan (null: qualifying rounds alone), as the file's `stages`.",
    )
    closed: bool = Field(
        description="The organiser closed the tournament: its results are final and "
        "hidden judge extras are shown."
    )
    standings_frozen_at: dt.datetime | None = Field(
        description="When the standings were frozen: the public sees the table and the "
        "games as they were then (null: not frozen)."
    )

    @staticmethod
    def resolve_closed(tournament: Tournament) -> bool:
        return tournament.is_closed

    @staticmethod
    def resolve_stages(tournament: Tournament) -> list[dict[str, object]] | None:
        return tournament.stage_plan

    @staticmethod
    def resolve_standings_frozen_at(tournament: Tournament) -> dt.datetime | None:
        if tournament.standings_frozen_version is None:
            return None
        return tournament.standings_frozen_at

    @staticmethod
    def resolve_scoring(tournament: Tournament) -> dict[str, object]:
        from dataclasses import asdict

        from mafiatab.tournaments.conversion import scoring_settings

        return asdict(scoring_settings(tournament))

    @staticmethod
    def resolve_staff(tournament: Tournament) -> dict[str, list[str]]:
        return {
            "organisers": _names(tournament, StaffRole.ORGANISER),
            "chief_judges": _names(tournament, StaffRole.CHIEF_JUDGE),
            "table_judges": _names(tournament, StaffRole.TABLE_JUDGE),
        }

    @staticmethod
    def resolve_game_count(tournament: Tournament) -> int:
        return tournament.games.count()


def _with_counts():
    return Tournament.objects.annotate(
        participant_count=Count("registrations", filter=Q(registrations__status=APPROVED))
    )


def _names(tournament: Tournament, role: str) -> list[str]:
    return [str(user) for user in tournament.staff(role)]


@router.get(
    "/tournaments",
    response={200: list[TournamentOut], **INVALID},
    auth=None,
    summary="List tournaments",
)
@paginate(Pages)
def list_tournaments(request: HttpRequest):
    """Every tournament, the latest first."""
    return _with_counts()


@router.get(
    "/tournaments/{slug}",
    response={200: TournamentDetailOut, **NOT_FOUND},
    auth=None,
    summary="One tournament",
)
def get_tournament(request: HttpRequest, slug: str):
    tournament = tournament_or_404(slug)
    return _with_counts().get(pk=tournament.pk)
