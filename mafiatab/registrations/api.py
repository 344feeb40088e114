"""Applications and participants: apply, approve, reject, withdraw, add a player.

Every write goes through `mafiatab.registrations.services` and is allowed by
`user_can`, exactly as on the tournament's pages.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Field, Path, Query, Router, Schema
from ninja import Status as HttpStatus

from mafiatab.accounts.models import User
from mafiatab.api.auth import caller
from mafiatab.api.errors import AUTH_ERRORS, BAD_INPUT, MAX_ID, NOT_FOUND, Error, NotFound
from mafiatab.api.schemas import Nickname, Text
from mafiatab.core.names import nickname_key
from mafiatab.registrations.models import ACTIVE_STATUSES, Registration, Status
from mafiatab.registrations.online import (
    OnlineLinks,
    missing_online_links,
    registration_online_links_set,
)
from mafiatab.registrations.selectors import listed_participants
from mafiatab.registrations.services import (
    registration_add,
    registration_apply,
    registration_approve,
    registration_reject,
    registration_withdraw,
)
from mafiatab.tournaments.api import require, tournament_or_404
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.permissions import user_can

router = Router(tags=["registrations"])

StatusName = Literal[tuple(Status.values)]  # type: ignore[valid-type]
RegistrationId = Path(..., ge=1, le=MAX_ID, description="The application's id.")
STATUS_FILTER = Query(None, description="Only applications in this status.")
WRITE = {**AUTH_ERRORS, **NOT_FOUND, **BAD_INPUT}


class RegistrationOut(Schema):
    """One person's application to a tournament, and what became of it."""

    id: int
    nickname: str
    status: StatusName
    reason: str = Field(description="Why it was rejected, withdrawn or removed; may be empty.")
    applied_at: dt.datetime = Field(alias="created_at")
    decided_at: dt.datetime | None
    waiting_since: dt.datetime | None


class OnlineLinksIn(Schema):
    """The online addendum's details of a player (2.2, 2.5); the links are web addresses."""

    platform_account: str = Field("", max_length=100, description="The account on the platform.")
    screen_link: str = Field("", max_length=500, description="The screen share link (https).")
    camera_link: str = Field("", max_length=500, description="The side camera link (https).")

    def links(self) -> OnlineLinks:
        return OnlineLinks(
            platform_account=self.platform_account,
            screen_link=self.screen_link,
            camera_link=self.camera_link,
        )


class OnlineLinksOut(Schema):
    """A participant's online details, and whether every one is given."""

    id: int
    nickname: str
    platform_account: str
    screen_link: str
    camera_link: str
    complete: bool = Field(alias="has_online_links")


class RejectIn(Schema):
    reason: Text = Field(description="Why the application is rejected (required).")


class WithdrawIn(Schema):
    reason: Text = Field("", description="Why the player is withdrawn (optional).")


class AddIn(Schema):
    nickname: Nickname = Field(
        description="The player's nickname; an account with this nickname is linked."
    )


def _registration(tournament: Tournament, registration_id: int) -> Registration:
    registration = tournament.registrations.filter(pk=registration_id).first()
    if registration is None:
        raise NotFound(
            _("There is no application %(id)d in this tournament.") % {"id": registration_id}
        )
    return registration


@router.get(
    "/tournaments/{slug}/participants",
    response={200: list[RegistrationOut], **NOT_FOUND},
    auth=None,
    summary="The participants",
)
def list_participants(request: HttpRequest, slug: str):
    """The approved participants and the reserves who replaced one (status "reserve";
    not counted in N of 8.7), by nickname."""
    tournament = tournament_or_404(slug)
    return listed_participants(tournament)


@router.get(
    "/tournaments/{slug}/applications",
    response={200: list[RegistrationOut], 401: Error, **NOT_FOUND},
    auth=None,
    summary="Applications",
)
def list_applications(
    request: HttpRequest,
    slug: str,
    status: StatusName | None = STATUS_FILTER,
):
    """Applications in the order they came. Everyone sees the active ones (awaiting
    confirmation, participants, waiting list) and their own; the organiser and the
    judges see all of them, with the reasons."""
    tournament = tournament_or_404(slug)
    user = caller(request)
    registrations = tournament.registrations.all()
    if not user_can(user, tournament, "view_registrations"):
        visible = registrations.filter(status__in=ACTIVE_STATUSES)
        if user is not None:
            visible = visible | registrations.filter(user=user)
        registrations = visible
    if status is not None:
        registrations = registrations.filter(status=status)
    return registrations.order_by("created_at", "id")


@router.post(
    "/tournaments/{slug}/applications",
    response={201: RegistrationOut, **WRITE},
    summary="Apply to play",
)
def apply(request: HttpRequest, slug: str, data: OnlineLinksIn | None = None):
    """The caller applies to play; the application awaits the organiser's decision.
    To an online tournament the body may give his account on the platform and his
    screen share and side camera links (online addendum 2.2, 2.5)."""
    tournament = tournament_or_404(slug)
    require(request.auth, tournament, "apply")
    online = data.links() if data is not None else None
    registration = registration_apply(tournament=tournament, user=request.auth, online=online)
    return HttpStatus(201, registration)


@router.get(
    "/tournaments/{slug}/online-links",
    response={200: list[OnlineLinksOut], **AUTH_ERRORS, **NOT_FOUND},
    summary="The participants' online details",
)
def list_online_links(request: HttpRequest, slug: str, missing: bool = False):
    """Every participant's account on the platform and links (online addendum 2.2,
    2.5), by nickname; `missing=true`: only those who have not given every one."""
    tournament = tournament_or_404(slug)
    require(request.auth, tournament, "view_registrations")
    if missing:
        rows = missing_online_links(tournament)
    else:
        rows = tournament.registrations.filter(status=Status.APPROVED)
    return rows.order_by("nickname")


@router.put(
    "/tournaments/{slug}/applications/{registration_id}/online-links",
    response={200: OnlineLinksOut, **WRITE},
    summary="Give a player's online details",
)
def set_online_links(
    request: HttpRequest, slug: str, data: OnlineLinksIn, registration_id: int = RegistrationId
):
    """The player gives (or changes) his account on the platform and his links; the
    organiser may do it for him."""
    tournament = tournament_or_404(slug)
    registration = _registration(tournament, registration_id)
    return registration_online_links_set(
        registration=registration, links=data.links(), by=request.auth
    )


@router.post(
    "/tournaments/{slug}/applications/{registration_id}/approve",
    response={200: RegistrationOut, **WRITE},
    summary="Approve an application",
)
def approve(request: HttpRequest, slug: str, registration_id: int = RegistrationId):
    """The application becomes a participant, or joins the waiting list when the
    places are taken."""
    tournament = tournament_or_404(slug)
    require(request.auth, tournament, "approve_application")
    registration = _registration(tournament, registration_id)
    return registration_approve(registration=registration, by=request.auth)


@router.post(
    "/tournaments/{slug}/applications/{registration_id}/reject",
    response={200: RegistrationOut, **WRITE},
    summary="Reject an application",
)
def reject(request: HttpRequest, slug: str, data: RejectIn, registration_id: int = RegistrationId):
    """Refuse an application awaiting confirmation or on the waiting list, saying why."""
    tournament = tournament_or_404(slug)
    require(request.auth, tournament, "approve_application")
    registration = _registration(tournament, registration_id)
    return registration_reject(registration=registration, by=request.auth, reason=data.reason)


@router.post(
    "/tournaments/{slug}/applications/{registration_id}/withdraw",
    response={200: RegistrationOut, **WRITE},
    summary="Withdraw an application or a participant",
)
def withdraw(
    request: HttpRequest,
    slug: str,
    data: WithdrawIn | None = None,
    registration_id: int = RegistrationId,
):
    """A player withdraws their own application; the organiser may withdraw anyone.
    The waiting list moves up."""
    tournament = tournament_or_404(slug)
    registration = _registration(tournament, registration_id)
    if registration.user_id is None or registration.user_id != request.auth.pk:
        require(request.auth, tournament, "withdraw_participant")
    reason = data.reason if data is not None else ""
    return registration_withdraw(registration=registration, by=request.auth, reason=reason)


@router.post(
    "/tournaments/{slug}/participants",
    response={201: RegistrationOut, **WRITE},
    summary="Add a participant",
)
def add_participant(request: HttpRequest, slug: str, data: AddIn):
    """The organiser adds a player directly: the account with this nickname, or a
    player known only by the nickname. Beyond the limit the player joins the
    waiting list."""
    tournament = tournament_or_404(slug)
    require(request.auth, tournament, "add_participant")
    nickname = data.nickname.strip()
    user = User.objects.filter(nickname_key=nickname_key(nickname)).first() if nickname else None
    registration = registration_add(
        tournament=tournament, nickname=nickname, user=user, by=request.auth
    )
    return HttpStatus(201, registration)
