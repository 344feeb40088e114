"""Writes to tournaments: create, edit, staff, import. Each leaves an audit entry."""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import URLValidator
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from mafiatab.core.regulations import get_regulation
from mafiatab.notifications.services import messages_rezone, notify
from mafiatab.tournaments.bounds import MAX_YEAR, MIN_YEAR
from mafiatab.tournaments.days import rounds_outside_days
from mafiatab.tournaments.models import StaffMember, StaffRole, Tournament
from mafiatab.tournaments.permissions import APPROVED, ensure_can
from mafiatab.tournaments.stages import checked_plan
from mafiatab.tournaments.zones import time_zones

if TYPE_CHECKING:
    from mafiatab.accounts.models import User


@dataclass(frozen=True)
class TournamentInfo:
    """What an organiser writes about a tournament."""

    name: str
    ruleset: str
    starts_on: dt.date | None = None
    ends_on: dt.date | None = None
    place: str = ""
    platform: str = ""
    stars: int | None = None
    description: str = ""
    participant_limit: int | None = None
    waiting_list_limit: int | None = None
    registration_open: bool = True
    stream_url: str = ""
    """Where the tournament is streamed (empty: not given)."""
    language: str = ""
    """The broadcast's language code (empty: each viewer's own)."""
    time_zone: str = ""
    """The IANA time zone the schedule is said in (empty: the site's)."""

    def as_audit(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("starts_on", "ends_on"):
            if data[key] is not None:
                data[key] = data[key].isoformat()
        return data


def ensure_person(by: Any) -> None:
    """Creating or importing a tournament needs a signed-in, active person."""
    if by is None or not by.is_authenticated or not by.is_active:
        raise PermissionDenied("create_tournament")


def _is_web_address(value: str) -> bool:
    """An http(s) address of at most 300 characters, as Django's URL validator reads it."""
    if len(value) > 300 or not value.lower().startswith(("https://", "http://")):
        return False
    try:
        URLValidator(schemes=["http", "https"])(value)
    except ValidationError:
        return False
    return True


def check_info(info: TournamentInfo) -> None:
    """Raise ValidationError (by field) for information the regulation does not allow."""
    errors: dict[str, str] = {}
    if not info.name.strip():
        errors["name"] = _("A tournament needs a name.")
    try:
        regulation = get_regulation(info.ruleset)
    except KeyError:
        errors["ruleset"] = _("Unknown ruleset %(code)s.") % {"code": info.ruleset}
    else:
        if (
            info.stars is not None
            and regulation.max_stars is not None
            and info.stars > regulation.max_stars
        ):
            errors["stars"] = _(
                "A tournament under these rules cannot have more than %(max)d stars "
                "(online addendum, 2.1)."
            ) % {"max": regulation.max_stars}
    for key in ("starts_on", "ends_on"):
        day = getattr(info, key)
        if day is not None and not MIN_YEAR <= day.year <= MAX_YEAR:
            errors[key] = _("Give a date between the years %(low)d and %(high)d.") % {
                "low": MIN_YEAR,
                "high": MAX_YEAR,
            }
    if (
        "ends_on" not in errors
        and info.starts_on
        and info.ends_on
        and info.ends_on < info.starts_on
    ):
        errors["ends_on"] = _("The last day cannot be before the first day.")
    if info.stream_url and not _is_web_address(info.stream_url):
        errors["stream_url"] = _("The stream address must be a web address (https://...).")
    if info.language and info.language not in dict(settings.LANGUAGES):
        errors["language"] = _("Unknown language %(code)s.") % {"code": info.language[:8]}
    if info.time_zone and info.time_zone not in time_zones():
        errors["time_zone"] = _("Unknown time zone %(zone)s.") % {"zone": info.time_zone[:64]}
    if errors:
        raise ValidationError(errors)


_CYRILLIC_LETTERS = "абвгдеёжзийклмнопрстуфхцчшщъыьэюяії"
_LATIN = "a b v g d e e zh z i y k l m n o p r s t u f kh ts ch sh shch _ y _ e yu ya i yi"
_CYRILLIC = {
    cyr: ("" if lat == "_" else lat)
    for cyr, lat in zip(_CYRILLIC_LETTERS, _LATIN.split(), strict=True)
}


#: Addresses the site's own pages take (`/t/new/` creates a tournament): never a slug.
RESERVED_SLUGS = frozenset({"new"})


def _slug_taken(slug: str) -> bool:
    return slug in RESERVED_SLUGS or Tournament.objects.filter(slug=slug).exists()


def unique_slug(name: str) -> str:
    """A free slug made from `name` (Cyrillic transliterated)."""
    latin = "".join(_CYRILLIC.get(ch, ch) for ch in name.lower())
    base = slugify(latin)[:70].strip("-") or "tournament"
    slug, n = base, 1
    while _slug_taken(slug):
        n += 1
        slug = f"{base}-{n}"
    return slug


def _tournament_state(tournament: Tournament) -> dict[str, Any]:
    info = info_of(tournament)
    return info.as_audit()


def info_of(tournament: Tournament) -> TournamentInfo:
    """The organiser-written information of a stored tournament."""
    return TournamentInfo(
        name=tournament.name,
        ruleset=tournament.ruleset,
        starts_on=tournament.starts_on,
        ends_on=tournament.ends_on,
        place=tournament.place,
        platform=tournament.platform,
        stars=tournament.stars,
        description=tournament.description,
        participant_limit=tournament.participant_limit,
        waiting_list_limit=tournament.waiting_list_limit,
        registration_open=tournament.registration_open,
        stream_url=tournament.stream_url,
        language=tournament.language,
        time_zone=tournament.time_zone,
    )


#: The largest lot seed a tournament file holds (spec: `lot_seed` up to 2^63 - 1).
MAX_LOT_SEED = 2**63 - 1
#: Lot seeds drawn for new tournaments are below this (short enough to read aloud).
DRAWN_LOT_SEEDS = 10**9


def draw_lot_seed() -> int:
    """A fresh seed for the lot of 8.8.5, drawn when a tournament is created."""
    return secrets.randbelow(DRAWN_LOT_SEEDS - 1) + 1


@transaction.atomic
def tournament_create(
    *, info: TournamentInfo, by: User, chief_judge: User | None = None
) -> Tournament:
    """A new tournament organised by `by`; the seed of its lot (8.8.5) is drawn now.

    Its chief judge is `chief_judge` when named, else the organiser himself: a
    tournament is never without one to confirm its protocols."""
    ensure_person(by)
    check_info(info)
    if chief_judge is not None and not chief_judge.is_active:
        raise ValidationError({"chief_judge": _("This account is closed.")})
    chief = chief_judge or by
    lot_seed = draw_lot_seed()
    tournament = Tournament.objects.create(
        slug=unique_slug(info.name), lot_seed=lot_seed, **asdict(info)
    )
    StaffMember.objects.create(tournament=tournament, user=by, role=StaffRole.ORGANISER)
    tournament.log_action(
        "tournament.created",
        by=by,
        target=tournament.name,
        after=info.as_audit() | {"lot_seed": lot_seed},
    )
    StaffMember.objects.create(tournament=tournament, user=chief, role=StaffRole.CHIEF_JUDGE)
    tournament.log_action(
        "staff.assigned",
        by=by,
        target=chief.nickname or chief.username,
        after={"user": chief.nickname or chief.username, "role": StaffRole.CHIEF_JUDGE.value},
    )
    return tournament


@dataclass(frozen=True)
class ScoringInputs:
    """The scoring settings an organiser may set (None: the tournament's default)."""

    participants: int | None
    """N of 8.7; None: the approved participants."""
    games_before_final: int | None
    """Games one player is scheduled to play before the final (8.6); None: the schedule."""
    lot_seed: int
    """The seed of the lot (8.8.5)."""

    def as_audit(self) -> dict[str, Any]:
        return asdict(self)


def scoring_of(tournament: Tournament) -> ScoringInputs:
    """The scoring settings as the organiser set them."""
    return ScoringInputs(
        participants=tournament.participants,
        games_before_final=tournament.games_before_final,
        lot_seed=tournament.lot_seed,
    )


def check_scoring(scoring: ScoringInputs) -> None:
    """Raise ValidationError (by field) for settings no tournament can have."""
    errors: dict[str, str] = {}
    if scoring.participants is not None and not 1 <= scoring.participants <= 2**31 - 1:
        errors["participants"] = _("The number of participants must be 1 or more.")
    if scoring.games_before_final is not None and not (
        1 <= scoring.games_before_final <= 2**31 - 1
    ):
        errors["games_before_final"] = _("The games before the final must be 1 or more.")
    if not 0 <= scoring.lot_seed <= MAX_LOT_SEED:
        errors["lot_seed"] = _("The lot seed must be a whole number from 0 to %(max)d.") % {
            "max": MAX_LOT_SEED
        }
    if errors:
        raise ValidationError(errors)


@transaction.atomic
def tournament_scoring_update(
    *, tournament: Tournament, scoring: ScoringInputs, by: User
) -> Tournament:
    """Set the scoring settings (N of 8.7, the games before the final of 8.6, the lot
    seed of 8.8.5); the standings follow, and the change is on the record."""

    ensure_can(by, tournament, "edit_tournament")
    check_scoring(scoring)
    tournament = Tournament.objects.locked(tournament)
    before = scoring_of(tournament)
    if before == scoring:
        return tournament
    tournament.participants = scoring.participants
    tournament.games_before_final = scoring.games_before_final
    tournament.lot_seed = scoring.lot_seed
    tournament.save(update_fields=["participants", "games_before_final", "lot_seed"])
    tournament.log_action(
        "tournament.scoring_changed",
        by=by,
        target=tournament.name,
        before=before.as_audit(),
        after=scoring.as_audit(),
    )
    tournament.standings_changed()
    return tournament


def _check_limit(tournament: Tournament, limit: int | None) -> None:
    """A new participant limit cannot be below the participants already approved."""
    if limit is None or limit == tournament.participant_limit:
        return
    approved = tournament.registrations.filter(status=APPROVED).count()
    if limit < approved:
        raise ValidationError(
            {
                "participant_limit": _(
                    "The limit cannot be below the participants already approved: %(n)d. "
                    "Withdraw participants first, or set a limit of %(n)d or more."
                )
                % {"n": approved}
            }
        )


@transaction.atomic
def tournament_update(*, tournament: Tournament, info: TournamentInfo, by: User) -> Tournament:
    """Change the tournament's information."""

    ensure_can(by, tournament, "edit_tournament")
    check_info(info)
    Tournament.objects.locked(tournament)  # approvals wait until the limit is set
    _check_limit(tournament, info.participant_limit)
    before = _tournament_state(tournament)
    if before == info.as_audit():  # saved unchanged: nothing to put on the record
        return tournament
    rezoned = info.time_zone != tournament.time_zone
    moved = rounds_outside_days(
        tournament, starts_on=info.starts_on, ends_on=info.ends_on, time_zone=info.time_zone
    )
    if moved is not None:
        raise moved
    for key, value in asdict(info).items():
        setattr(tournament, key, value)
    tournament.save()
    if rezoned:  # its messages say their times in its time zone, as its pages do
        messages_rezone(tournament_id=tournament.pk, time_zone=tournament.time_zone)
    tournament.log_action(
        "tournament.updated", by=by, target=tournament.name, before=before, after=info.as_audit()
    )
    return tournament


@transaction.atomic
def staff_assign(*, tournament: Tournament, user: User, role: str, by: User) -> StaffMember:
    """Give `user` a staff role in the tournament."""

    ensure_can(by, tournament, "manage_staff", console=True)
    if role not in StaffRole.values:
        raise ValidationError({"role": _("Unknown role.")})
    if StaffMember.objects.filter(tournament=tournament, user=user, role=role).exists():
        raise ValidationError(
            _("%(name)s already holds this role.") % {"name": user.nickname or user.username}
        )
    member = StaffMember.objects.create(tournament=tournament, user=user, role=role)
    tournament.log_action(
        "staff.assigned",
        by=by,
        target=user.nickname or user.username,
        after={"user": user.nickname or user.username, "role": role},
    )
    if by is None or by.pk != user.pk:
        notify(
            [user],
            "staff.assigned",
            {"tournament": tournament.name, "role": role},
            link=tournament.get_absolute_url(),
            tournament=tournament,
        )
    return member


#: The roles a tournament always has someone in: without an organiser nobody manages
#: the tournament, without a chief judge nobody confirms its protocols.
KEPT_ROLES = (StaffRole.ORGANISER, StaffRole.CHIEF_JUDGE)


def is_last_of_role(member: StaffMember, members: Iterable[StaffMember]) -> bool:
    """`member` holds a role the tournament always has someone in (`KEPT_ROLES`) and
    nobody else of `members` (the tournament's staff) holds it."""
    if member.role not in KEPT_ROLES:
        return False
    return not any(m.role == member.role and m.pk != member.pk for m in members)


def _last_of_role_refusal(role: str) -> str:
    if role == StaffRole.ORGANISER:
        return _("The last organiser of the tournament keeps the role: give it to another first.")
    return _(
        "The last chief judge of the tournament keeps the role: name another chief judge first."
    )


@transaction.atomic
def staff_remove(*, member: StaffMember, by: User) -> None:
    """Take a staff role away. The tournament's last organiser and its last chief judge
    keep theirs (`KEPT_ROLES`): without them nobody could manage the tournament or
    confirm its protocols."""

    tournament = Tournament.objects.locked(member.tournament_id)
    ensure_can(by, tournament, "manage_staff", console=True)
    member = (
        StaffMember.objects.select_related("user")
        .filter(pk=member.pk, tournament=tournament)
        .first()
    )
    if member is None:
        raise ValidationError(_("This role was already taken away."))
    if is_last_of_role(member, tournament.staff_members.filter(role=member.role)):
        raise ValidationError(_last_of_role_refusal(member.role))
    user = member.user
    member.delete()
    tournament.log_action(
        "staff.removed",
        by=by,
        target=user.nickname or user.username,
        before={"user": user.nickname or user.username, "role": member.role},
    )


def chosen_slug(slug: str) -> str:
    """`slug` as a tournament's address (a restore keeping the address it had), or a
    ValidationError saying why it cannot be."""
    from django.core.validators import validate_slug

    if len(slug) > Tournament._meta.get_field("slug").max_length:
        raise ValidationError(_("The address %(slug)s is too long.") % {"slug": slug[:90]})
    try:
        validate_slug(slug)
    except ValidationError:
        raise ValidationError(
            _("The address %(slug)s may hold only Latin letters, digits, - and _.") % {"slug": slug}
        ) from None
    if _slug_taken(slug):
        raise ValidationError(_("The address %(slug)s is taken.") % {"slug": slug})
    return slug


@transaction.atomic
def tournament_close(*, tournament: Tournament, by: User, closed: bool = True) -> Tournament:
    """Close the tournament (its results are final: the final's hidden judge extras are
    shown to the public from now on), or with `closed=False` open it again. A second
    organiser who already did the same is told, not written twice."""

    ensure_can(by, tournament, "edit_tournament")
    tournament = Tournament.objects.locked(tournament)
    if tournament.is_closed == closed:
        raise ValidationError(
            _("The tournament is already closed.") if closed else _("The tournament is not closed.")
        )
    before = {"closed": tournament.is_closed}
    tournament.closed_at = dt.datetime.now(dt.UTC) if closed else None
    tournament.save(update_fields=["closed_at"])
    tournament.log_action(
        "tournament.closed" if closed else "tournament.reopened",
        by=by,
        target=tournament.name,
        before=before,
        after={"closed": closed},
    )
    tournament.standings_changed()
    return tournament


def _check_advanced_stages(
    tournament: Tournament, before: list[dict[str, Any]], after: list[dict[str, Any]]
) -> None:
    """Refuse a plan that drops a stage players already advanced into, or changes how
    many advance into it: its published advance list stands."""
    advanced = set(tournament.advancements.values_list("stage", flat=True))
    old = {s["stage"]: s.get("players") for s in before}
    new = {s["stage"]: s.get("players") for s in after}
    changed = sorted(stage for stage in advanced if old.get(stage) != new.get(stage))
    if changed:
        raise ValidationError(
            _(
                "The advance list of the %(stages)s is published: the plan must keep "
                "that stage and how many players advance into it."
            )
            % {"stages": ", ".join(_(stage) for stage in changed)}
        )


@transaction.atomic
def tournament_stages_update(
    *, tournament: Tournament, stages: list[dict[str, Any]] | None, by: User
) -> Tournament:
    """Set the stage plan (`stages` in the tournament file's form, None: no plan),
    validated by the core's reader and against the tournament's participants and
    published seating (`checked_plan`); the standings follow, and the change is on the
    record."""

    ensure_can(by, tournament, "edit_tournament")
    tournament = Tournament.objects.locked(tournament)
    plan = checked_plan(tournament, stages)
    stored = plan.to_json() if plan is not None else None
    before = tournament.stage_plan
    if before == stored:
        return tournament
    _check_advanced_stages(tournament, before or [], stored or [])
    tournament.stage_plan = stored
    tournament.save(update_fields=["stage_plan"])
    tournament.log_action(
        "tournament.stages_changed",
        by=by,
        target=tournament.name,
        before={"stages": before},
        after={"stages": stored},
    )
    tournament.standings_changed()
    return tournament
