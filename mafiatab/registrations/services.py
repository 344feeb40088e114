"""Writes to registrations: apply, decide, withdraw, add, check in, replace.

Each runs in a transaction and leaves an audit entry on the tournament.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import TypeVar

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from mafiatab.accounts.models import User
from mafiatab.accounts.services import nickname_refusal
from mafiatab.core.names import nickname_key, normalize_nickname
from mafiatab.notifications.services import notify
from mafiatab.registrations.models import (
    ACTIVE_STATUSES,
    NAMED_STATUSES,
    REAPPLY_STATUSES,
    CheckIn,
    Registration,
    Status,
)
from mafiatab.registrations.online import OnlineLinks, check_online_links
from mafiatab.registrations.selectors import reserve_refusal, rounds_said, rounds_to_play
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.permissions import ensure_can, user_can


def _count(tournament: Tournament, status: str) -> int:
    return tournament.registrations.filter(status=status).count()


def has_free_place(tournament: Tournament) -> bool:
    limit = tournament.participant_limit
    return limit is None or _count(tournament, Status.APPROVED) < limit


def is_full(tournament: Tournament) -> bool:
    """No free place and no room on the waiting list."""
    if has_free_place(tournament):
        return False
    limit = tournament.waiting_list_limit
    return limit is not None and _count(tournament, Status.WAITING) >= limit


def _check_nickname_free(tournament: Tournament, nickname: str) -> None:
    if tournament.registrations.filter(
        nickname_key=nickname_key(nickname), status__in=NAMED_STATUSES
    ).exists():
        raise ValidationError(
            _("%(nick)s is already registered for this tournament.") % {"nick": nickname}
        )


def _participants_changed(tournament: Tournament) -> None:
    """N of 8.7 counts the approved participants by default: the standings follow."""
    tournament.standings_changed()


#: The message each new status of a registration sends to its player.
_NOTICES = {
    Status.PENDING: "application.received",
    Status.APPROVED: "application.approved",
    Status.WAITING: "application.waitlisted",
    Status.REJECTED: "application.rejected",
}


def _tell(tournament: Tournament, registration: Registration) -> None:
    """Tell the player (when he has an account) what became of his registration."""
    kind = _NOTICES.get(registration.status)  # type: ignore[call-overload]
    if kind is None or registration.user_id is None:
        return
    params = {"tournament": tournament.name, "nickname": registration.nickname}
    if registration.status == Status.REJECTED:
        params["reason"] = registration.reason
    notify(
        [registration.user_id],
        kind,
        params,
        link=tournament.get_absolute_url(),
        tournament=tournament,
    )


def _state(registration: Registration) -> dict[str, str]:
    state = {"nickname": registration.nickname, "status": registration.status}
    if registration.reason:
        state["reason"] = registration.reason
    return state


@transaction.atomic
def registration_apply(
    *, tournament: Tournament, user: User, online: OnlineLinks | None = None
) -> Registration:
    """`user` applies to play; the application awaits the organiser's decision. To an
    online tournament he gives his account on the platform and his links (`online`)."""
    ensure_can(user, tournament, "apply")
    links = check_online_links(online) if online is not None else OnlineLinks()
    tournament = Tournament.objects.locked(tournament)
    if not tournament.registration_open:
        raise ValidationError(_("Registration for this tournament is closed."))
    if not user.nickname:
        raise ValidationError(_("Set your nickname in your profile before applying."))
    if tournament.registrations.filter(user=user, status__in=ACTIVE_STATUSES).exists():
        raise ValidationError(_("You have already applied to this tournament."))
    listed = tournament.registrations.filter(user=user).exclude(status__in=REAPPLY_STATUSES)
    if (kept := listed.first()) is not None:
        raise ValidationError(
            _("You are on this tournament's lists (%(status)s): you cannot apply again.")
            % {"status": kept.get_status_display()}
        )
    _check_nickname_free(tournament, user.nickname)
    if is_full(tournament):
        raise ValidationError(
            _("The tournament is full: every place and the whole waiting list are taken.")
        )
    registration = Registration.objects.create(
        tournament=tournament,
        user=user,
        nickname=user.nickname,
        status=Status.PENDING,
        platform_account=links.platform_account,
        screen_link=links.screen_link,
        camera_link=links.camera_link,
    )
    tournament.log_action(
        "registration.applied", by=user, target=user.nickname, after=_state(registration)
    )
    _tell(tournament, registration)
    return registration


def _place(tournament: Tournament, registration: Registration) -> None:
    """Make the registration a participant, or put it on the waiting list when full."""
    if has_free_place(tournament):
        registration.status = Status.APPROVED
    else:
        registration.status = Status.WAITING
        registration.waiting_since = timezone.now()


@transaction.atomic
def registration_approve(*, registration: Registration, by: User) -> Registration:
    """Accept an application: a participant, or the waiting list when the places are taken."""
    ensure_can(by, registration.tournament, "approve_application")
    tournament = Tournament.objects.locked(registration.tournament)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.status != Status.PENDING:
        raise ValidationError(_("Only an application awaiting confirmation can be approved."))
    before = _state(registration)
    _place(tournament, registration)
    registration.decided_at = timezone.now()
    registration.decided_by = by
    registration.save()
    action = (
        "registration.approved"
        if registration.status == Status.APPROVED
        else "registration.waitlisted"
    )
    tournament.log_action(
        action, by=by, target=registration.nickname, before=before, after=_state(registration)
    )
    _tell(tournament, registration)
    _participants_changed(tournament)
    return registration


@transaction.atomic
def registration_reject(*, registration: Registration, by: User, reason: str) -> Registration:
    """Refuse an application, saying why."""
    ensure_can(by, registration.tournament, "approve_application")
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": _("Give the reason for the rejection.")})
    tournament = Tournament.objects.locked(registration.tournament)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.status not in (Status.PENDING, Status.WAITING):
        raise ValidationError(_("Only a pending or waiting application can be rejected."))
    _close(tournament, registration, Status.REJECTED, reason=reason, by=by)
    _tell(tournament, registration)
    return registration


def _promote_waiting(tournament: Tournament, by: User | None) -> Registration | None:
    """Move the first of the waiting list up to a free place."""
    if not has_free_place(tournament):
        return None
    first = (
        tournament.registrations.select_for_update()
        .filter(status=Status.WAITING)
        .order_by("waiting_since", "id")
        .first()
    )
    if first is None:
        return None
    before = _state(first)
    first.status = Status.APPROVED
    first.save()
    tournament.log_action(
        "registration.promoted", by=by, target=first.nickname, before=before, after=_state(first)
    )
    _tell(tournament, first)
    _participants_changed(tournament)
    return first


_CLOSING_ACTIONS = {
    Status.REJECTED: "registration.rejected",
    Status.WITHDRAWN: "registration.withdrawn",
    Status.REMOVED: "registration.removed",
}


def _close(
    tournament: Tournament, registration: Registration, status: str, *, reason: str, by: User
) -> None:
    """End a registration with `status` and its reason, on the record."""
    before = _state(registration)
    registration.status = status
    registration.reason = reason
    registration.decided_at = timezone.now()
    registration.decided_by = by
    registration.save()
    tournament.log_action(
        _CLOSING_ACTIONS[status],
        by=by,
        target=registration.nickname,
        before=before,
        after=_state(registration),
    )
    if before["status"] == Status.APPROVED:
        _participants_changed(tournament)


def _check_no_seats_to_play(
    tournament: Tournament, registration: Registration, *, own: bool = False
) -> None:
    """Refused while the participant holds seats in rounds not yet played: closed, he
    would keep them in the published seating, and the one moved up from the waiting
    list would have none. The way out is a replacement for the rest of the tournament,
    which seats those rounds again."""
    rounds = rounds_to_play(tournament).get(registration.pk)
    if not rounds:
        return
    said = {"nick": registration.nickname, "rounds": rounds_said(rounds)}
    # one round or several: the number of rounds is not said, so no plural count
    if own and len(rounds) == 1:
        raise ValidationError(
            _(
                "You are seated in a round not yet played (%(rounds)s): ask the organiser "
                "to replace you for the rest of the tournament."
            )
            % said
        )
    if own:
        raise ValidationError(
            _(
                "You are seated in rounds not yet played (%(rounds)s): ask the organiser to "
                "replace you for the rest of the tournament."
            )
            % said
        )
    if len(rounds) == 1:
        raise ValidationError(
            _(
                "%(nick)s is seated in a round not yet played (%(rounds)s): he would keep "
                "that seat, and the player moved up from the waiting list would have none. "
                "Replace him for the rest of the tournament instead (“Replace a late "
                "player”): the rounds not yet played are seated again."
            )
            % said
        )
    raise ValidationError(
        _(
            "%(nick)s is seated in rounds not yet played (%(rounds)s): he would keep those "
            "seats, and the player moved up from the waiting list would have none. Replace "
            "him for the rest of the tournament instead (“Replace a late player”): the "
            "rounds not yet played are seated again."
        )
        % said
    )


@transaction.atomic
def registration_withdraw(
    *, registration: Registration, by: User, reason: str = ""
) -> Registration:
    """Withdraw an application or a participant; the waiting list moves up. Refused
    for a participant seated in rounds not yet played (`_check_no_seats_to_play`)."""
    own = by is not None and by.pk == registration.user_id
    if not own:
        ensure_can(by, registration.tournament, "withdraw_participant")
    tournament = Tournament.objects.locked(registration.tournament)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.status not in ACTIVE_STATUSES:
        raise ValidationError(_("This application is no longer active."))
    if registration.status == Status.APPROVED:
        _check_no_seats_to_play(tournament, registration, own=own)
    was_participant = registration.status == Status.APPROVED
    _close(tournament, registration, Status.WITHDRAWN, reason=reason.strip(), by=by)
    if was_participant:
        _promote_waiting(tournament, by)
    return registration


@transaction.atomic
def registration_remove(*, registration: Registration, by: User, reason: str) -> Registration:
    """Remove a participant from the tournament (a disciplinary decision). Refused,
    like a withdrawal, while he is seated in rounds not yet played."""
    ensure_can(by, registration.tournament, "withdraw_participant", "give_penalty")
    tournament = Tournament.objects.locked(registration.tournament)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.status != Status.APPROVED:
        raise ValidationError(_("Only a participant can be removed from the tournament."))
    _check_no_seats_to_play(tournament, registration)
    _close(tournament, registration, Status.REMOVED, reason=reason.strip(), by=by)
    _promote_waiting(tournament, by)
    return registration


@transaction.atomic
def registration_add(
    *, tournament: Tournament, nickname: str, by: User, user: User | None = None
) -> Registration:
    """The organiser adds a player directly (an account, or a nickname without one)."""
    ensure_can(by, tournament, "add_participant")
    tournament = Tournament.objects.locked(tournament)
    nickname = normalize_nickname(user.nickname if user is not None else nickname)
    if not nickname:
        raise ValidationError({"nickname": _("Give the player's nickname.")})
    if (refusal := nickname_refusal(nickname)) is not None:
        raise ValidationError({"nickname": refusal})
    if (
        user is not None
        and tournament.registrations.filter(user=user, status__in=ACTIVE_STATUSES).exists()
    ):
        raise ValidationError(_("%(nick)s has already applied.") % {"nick": nickname})
    _check_nickname_free(tournament, nickname)
    if is_full(tournament):
        raise ValidationError(
            _("The tournament is full: every place and the whole waiting list are taken.")
        )
    registration = Registration(
        tournament=tournament,
        user=user,
        nickname=nickname,
        decided_at=timezone.now(),
        decided_by=by,
    )
    _place(tournament, registration)
    registration.save()
    tournament.log_action("registration.added", by=by, target=nickname, after=_state(registration))
    _tell(tournament, registration)
    _participants_changed(tournament)
    return registration


@transaction.atomic
def checkin_record(*, registration: Registration, day: int, by: User) -> CheckIn:
    """A participant is present for `day` (1-based) of the tournament. A player checks
    himself in only for the day the organiser opened check-in for (`checkin_open`);
    the staff check anybody in for any day."""
    own = by is not None and by.pk == registration.user_id
    ensure_can(by, registration.tournament, "check_in_self" if own else "check_in_player")
    tournament = registration.tournament
    if registration.status != Status.APPROVED:
        raise ValidationError(_("Only a participant can check in."))
    if not 1 <= day <= tournament.day_count():
        raise ValidationError({"day": _("The tournament has no day %(day)d.") % {"day": day}})
    if own and not user_can(by, tournament, "check_in_player") and tournament.checkin_day != day:
        raise ValidationError(
            {
                "day": _(
                    "Check-in for day %(day)d is not open: the organiser opens it on the day, "
                    "at the venue."
                )
                % {"day": day}
            }
        )
    if registration.checkins.filter(day=day).exists():
        raise ValidationError(
            _("%(nick)s has already checked in for day %(day)d.")
            % {"nick": registration.nickname, "day": day}
        )
    checkin = CheckIn.objects.create(registration=registration, day=day, by=by)
    tournament.log_action(
        "registration.checked_in",
        by=by,
        target=registration.nickname,
        after={"nickname": registration.nickname, "day": day},
    )
    return checkin


_Done = TypeVar("_Done")


def _each_of(
    tournament: Tournament,
    registration_ids: Sequence[int],
    action: Callable[[Registration], _Done],
) -> list[_Done]:
    """Run `action` (a service of one registration, which checks its permission and
    audits) on each registration of a selection, in one transaction: all of them, or
    none and a ValidationError naming every row that is out of date."""
    if not registration_ids:
        raise ValidationError(_("Choose at least one registration."))
    ids = list(dict.fromkeys(registration_ids))
    # in the order the applications came in (the page's): when the places run out,
    # the later applicants are the ones left on the waiting list
    found = list(tournament.registrations.filter(pk__in=ids).order_by("created_at", "id"))
    problems: list[str] = []
    if len(found) < len(ids):
        problems.append(_("A registration of the selection is no longer on this page."))
    done: list[_Done] = []
    for registration in found:
        try:
            done.append(action(registration))
        except ValidationError as exc:
            problems.extend(
                _("%(nick)s: %(problem)s") % {"nick": registration.nickname, "problem": message}
                for message in exc.messages
            )
    if problems:
        # raised inside the caller's transaction: every change above is rolled back
        raise ValidationError(
            [_("Nothing was changed: the selection is out of date. Reload the page."), *problems]
        )
    return done


@transaction.atomic
def registrations_approve(
    *, tournament: Tournament, registration_ids: Sequence[int], by: User
) -> list[Registration]:
    """Approve several applications at once, each as `registration_approve` does (its
    permission checked, its decision on the record): all of them or none."""
    ensure_can(by, tournament, "approve_application")
    return _each_of(
        tournament,
        registration_ids,
        lambda registration: registration_approve(registration=registration, by=by),
    )


@transaction.atomic
def checkins_record(
    *, tournament: Tournament, registration_ids: Sequence[int], day: int, by: User
) -> list[CheckIn]:
    """Check several participants in for `day` at once, each as `checkin_record` does:
    all of them or none."""
    ensure_can(by, tournament, "check_in_player")
    if not 1 <= day <= tournament.day_count():
        raise ValidationError({"day": _("The tournament has no day %(day)d.") % {"day": day}})
    return _each_of(
        tournament,
        registration_ids,
        lambda registration: checkin_record(registration=registration, day=day, by=by),
    )


@transaction.atomic
def reserve_take(
    *, tournament: Tournament, nickname: str, by: User, new_player: bool = False
) -> Registration:
    """The reserve named `nickname` for a replacement: his registration, turned into a
    reserve now (one of the waiting list; a reserve already is one), or with
    `new_player` made now. A ValidationError on `reserve_nickname` says why he cannot
    be the reserve (`reserve_refusal`)."""
    ensure_can(by, tournament, "replace_player")
    if (refusal := reserve_refusal(tournament, nickname, new_player=new_player)) is not None:
        raise ValidationError({"reserve_nickname": refusal})
    key = nickname_key(nickname)
    found = (
        tournament.registrations.select_for_update()
        .filter(nickname_key=key, status__in=NAMED_STATUSES)
        .first()
    )
    if found is not None and found.status == Status.RESERVE:
        return found
    if found is None:
        account = User.objects.filter(nickname_key=key).first()
        if (
            account is not None
            and tournament.registrations.filter(user=account, status__in=NAMED_STATUSES).exists()
        ):
            account = None
        found = Registration(
            tournament=tournament,
            user=account,
            nickname=account.nickname if account is not None else nickname,
            decided_at=timezone.now(),
            decided_by=by,
        )
        before = None
    else:
        before = _state(found)
    found.status = Status.RESERVE
    found.save()
    tournament.log_action(
        "registration.reserve", by=by, target=found.nickname, before=before, after=_state(found)
    )
    return found


@transaction.atomic
def calendar_address_renew(*, registration: Registration, by: User) -> Registration:
    """A new secret address for the player's own calendar feed: the old one stops
    working at once (a link shared by mistake). Only the player himself renews it."""
    if by is None or not by.is_authenticated or registration.user_id != by.pk:
        raise PermissionDenied("renew_calendar")
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    registration.calendar_key = secrets.token_hex(16)
    registration.save(update_fields=["calendar_key"])
    return registration


@transaction.atomic
def checkin_open(*, tournament: Tournament, day: int | None, by: User) -> Tournament:
    """Open check-in for `day` (players check themselves in for it from now on; those
    not yet checked in for it are told), or with None close it. A second organiser who
    already did the same is not written twice."""
    ensure_can(by, tournament, "open_checkin")
    tournament = Tournament.objects.locked(tournament)
    if day is not None and not 1 <= day <= tournament.day_count():
        raise ValidationError({"day": _("The tournament has no day %(day)d.") % {"day": day}})
    if tournament.checkin_day == day:
        return tournament
    before = tournament.checkin_day
    tournament.checkin_day = day
    tournament.save(update_fields=["checkin_day"])
    tournament.log_action(
        "checkin.opened" if day is not None else "checkin.closed",
        by=by,
        target=tournament.name,
        before={"day": before},
        after={"day": day},
    )
    if day is not None:
        waiting = (
            tournament.registrations.filter(status=Status.APPROVED, user__isnull=False)
            .exclude(checkins__day=day)
            .values_list("user_id", flat=True)
        )
        notify(
            list(waiting),
            "checkin.opened",
            {"tournament": tournament.name, "day": day},
            link=tournament.get_absolute_url() + "#my-registration",
            tournament=tournament,
        )
    return tournament
