"""The online addendum's details of a player (2.2 and 2.5): his account on the
tournament's platform and the links to his screen share and side camera. A player
gives them when he applies to an online tournament and may change them later; the
organiser sees, before the first round, who has not given them."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import URLValidator
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from mafiatab.registrations.models import Registration, Status
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.permissions import user_can

if TYPE_CHECKING:
    from mafiatab.accounts.models import User

MAX_ACCOUNT = 100
MAX_LINK = 500
_WEB = URLValidator(schemes=["http", "https"])


@dataclass(frozen=True)
class OnlineLinks:
    """A player's account on the platform (2.2), screen share and side camera (2.5)."""

    platform_account: str = ""
    screen_link: str = ""
    camera_link: str = ""

    def is_complete(self) -> bool:
        return bool(self.platform_account and self.screen_link and self.camera_link)


def online_links_of(registration: Registration) -> OnlineLinks:
    return OnlineLinks(
        platform_account=registration.platform_account,
        screen_link=registration.screen_link,
        camera_link=registration.camera_link,
    )


def check_online_links(links: OnlineLinks) -> OnlineLinks:
    """The links trimmed; ValidationError naming each field that is too long or not a
    web address. Empty fields are allowed (the organiser sees who has not given them)."""
    trimmed = OnlineLinks(**{key: value.strip() for key, value in asdict(links).items()})
    errors: dict[str, str] = {}
    if len(trimmed.platform_account) > MAX_ACCOUNT:
        errors["platform_account"] = _("The account is at most %(n)d characters.") % {
            "n": MAX_ACCOUNT
        }
    for key in ("screen_link", "camera_link"):
        value = getattr(trimmed, key)
        if len(value) > MAX_LINK:
            errors[key] = _("The link is at most %(n)d characters.") % {"n": MAX_LINK}
        elif value:
            try:
                _WEB(value)
            except ValidationError:
                errors[key] = _("The link must be a web address (https://…).")
    if errors:
        raise ValidationError(errors)
    return trimmed


@transaction.atomic
def registration_online_links_set(
    *, registration: Registration, links: OnlineLinks, by: User
) -> Registration:
    """The player (or the organiser) gives the player's online details."""
    tournament = registration.tournament
    own = registration.user_id is not None and registration.user_id == by.pk
    if not (own and user_can(by, tournament, "apply")) and not user_can(
        by, tournament, "approve_application"
    ):
        raise PermissionDenied("online_links")
    links = check_online_links(links)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    before = online_links_of(registration)
    if before == links:
        return registration
    for key, value in asdict(links).items():
        setattr(registration, key, value)
    registration.save(update_fields=list(asdict(links)))
    tournament.log_action(
        "registration.online_links",
        by=by,
        target=registration.nickname,
        before=asdict(before),
        after=asdict(links),
    )
    return registration


def missing_online_links(tournament: Tournament) -> QuerySet[Registration]:
    """The participants of an online tournament who have not given every detail."""
    return tournament.registrations.filter(status=Status.APPROVED).filter(
        Q(platform_account="") | Q(screen_link="") | Q(camera_link="")
    )
