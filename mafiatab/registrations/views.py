from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from mafiatab.accounts.models import User
from mafiatab.core.names import nickname_key
from mafiatab.registrations.forms import (
    REPLACEMENT_REFUSED,
    AddPlayerForm,
    ApproveSelectionForm,
    CheckInForm,
    CheckInSelectionForm,
    OnlineLinksForm,
    RejectForm,
    ReplacementForm,
    WithdrawForm,
)
from mafiatab.registrations.models import (
    ACTIVE_STATUSES,
    NAMED_STATUSES,
    SEATED_STATUSES,
    Registration,
    Status,
)
from mafiatab.registrations.online import missing_online_links, registration_online_links_set
from mafiatab.registrations.selectors import (
    reserve_choices,
    reserves_who_played,
    rounds_said,
    rounds_to_play,
)
from mafiatab.registrations.services import (
    calendar_address_renew,
    checkin_open,
    checkin_record,
    checkins_record,
    registration_add,
    registration_apply,
    registration_approve,
    registration_reject,
    registration_withdraw,
    registrations_approve,
)
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.pages import tournament_context
from mafiatab.tournaments.permissions import tournament_permission


def _report(request: HttpRequest, exc: ValidationError) -> None:
    for message in exc.messages:
        messages.error(request, message)


def _run(request: HttpRequest, action: Callable[[], Any], done: str | Callable[[Any], str]) -> bool:
    """Run a service call; show its errors as messages. True when it succeeded.
    `done` is the message of success, or makes it from what the call returned."""
    try:
        result = action()
    except ValidationError as exc:
        _report(request, exc)
        return False
    messages.success(request, done(result) if callable(done) else done)
    return True


def _approved_text(registration: Registration) -> str:
    if registration.status == Status.WAITING:
        return _("All places are taken: %(nick)s is on the waiting list.") % {
            "nick": registration.nickname
        }
    return _("%(nick)s is approved.") % {"nick": registration.nickname}


def _added_text(registration: Registration) -> str:
    if registration.status == Status.WAITING:
        return _("All places are taken: %(nick)s is on the waiting list.") % {
            "nick": registration.nickname
        }
    return _("%(nick)s is added.") % {"nick": registration.nickname}


def _approved_many_text(registrations: list[Registration]) -> str:
    text = ngettext(
        "%(count)d application is approved.",
        "%(count)d applications are approved.",
        len(registrations),
    ) % {"count": len(registrations)}
    waiting = sum(1 for r in registrations if r.status == Status.WAITING)
    if waiting:
        text += " " + ngettext(
            "%(count)d of them is on the waiting list: the places are taken.",
            "%(count)d of them are on the waiting list: the places are taken.",
            waiting,
        ) % {"count": waiting}
    return text


def _registration(tournament: Tournament, pk: int) -> Registration:
    return get_object_or_404(Registration, pk=pk, tournament=tournament)


@require_POST
@tournament_permission("apply")
def apply(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    online = None
    if tournament.is_online:
        form = OnlineLinksForm(request.POST)
        if not form.is_valid():
            _form_errors(request, form)
            return redirect(f"{tournament.get_absolute_url()}#my-registration")
        online = form.links()
    _run(
        request,
        lambda: registration_apply(tournament=tournament, user=request.user, online=online),
        _("Your application is sent. The organiser will confirm it."),
    )
    return redirect(tournament)


def _form_errors(request: HttpRequest, form: forms.Form) -> None:
    for name, errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else error)


@require_POST
@login_required
def online_links(request: HttpRequest, slug: str) -> HttpResponse:
    """The player gives or changes his account on the platform and his links."""
    tournament = get_object_or_404(Tournament, slug=slug)
    registration = tournament.registrations.filter(
        user=request.user, status__in=ACTIVE_STATUSES
    ).first()
    if registration is None:
        messages.error(request, _("You have no active application to this tournament."))
        return redirect(tournament)
    form = OnlineLinksForm(request.POST)
    if form.is_valid():
        _run(
            request,
            lambda: registration_online_links_set(
                registration=registration,
                links=form.links(),
                by=request.user,  # type: ignore[arg-type]
            ),
            _("Your online details are saved."),
        )
    else:
        _form_errors(request, form)
    return redirect(f"{tournament.get_absolute_url()}#my-registration")


@require_POST
@login_required
def withdraw_own(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    registration = tournament.registrations.filter(
        user=request.user, status__in=ACTIVE_STATUSES
    ).first()
    if registration is None:
        messages.error(request, _("You have no active application to this tournament."))
        return redirect(tournament)
    _run(
        request,
        lambda: registration_withdraw(registration=registration, by=request.user),
        _("Your application is withdrawn."),
    )
    return redirect(tournament)


@require_POST
@login_required
def calendar_renew(request: HttpRequest, slug: str) -> HttpResponse:
    """The player's calendar feed at a new secret address; the old one stops working."""
    tournament = get_object_or_404(Tournament, slug=slug)
    registration = (
        tournament.registrations.filter(user=request.user, status__in=SEATED_STATUSES)
        .order_by("-created_at")
        .first()
    )
    if registration is None:
        messages.error(request, _("You have no tables in this tournament."))
        return redirect(tournament)
    calendar_address_renew(registration=registration, by=request.user)
    messages.success(
        request,
        _(
            "Your calendar has a new address: subscribe to it again. The old address "
            "no longer works."
        ),
    )
    return redirect(f"{tournament.get_absolute_url()}#my-tables")


@require_POST
@tournament_permission("check_in_self")
def checkin_self(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    registration = tournament.registrations.get(user=request.user, status=Status.APPROVED)
    form = CheckInForm({"registration": registration.pk, "day": request.POST.get("day")})
    if not form.is_valid():
        messages.error(request, _("Choose a day of the tournament."))
        return redirect(tournament)
    _run(
        request,
        lambda: checkin_record(
            registration=registration, day=form.cleaned_data["day"], by=request.user
        ),
        _("You are checked in."),
    )
    return redirect(tournament)


@tournament_permission("view_registrations")
def manage(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    registrations = tournament.registrations.select_related("user", "decided_by")
    participants = list(
        registrations.filter(status=Status.APPROVED)
        .prefetch_related("checkins")
        .order_by("nickname")
    )
    days = list(range(1, tournament.day_count() + 1))
    # seated in rounds not yet played: withdrawn he would keep his seats (refused)
    to_play = rounds_to_play(tournament)
    for registration in participants:
        checked = {c.day for c in registration.checkins.all()}
        registration.day_marks = [(day, day in checked) for day in days]
        registration.rounds_to_play = rounds_said(to_play.get(registration.pk, []))
        registration.plays_one_round = len(to_play.get(registration.pk, [])) == 1
    waiting = list(registrations.filter(status=Status.WAITING).order_by("waiting_since", "id"))
    context = tournament_context(request, tournament) | {
        "pending": registrations.filter(status=Status.PENDING),
        "waiting": waiting,
        # whom a withdrawal moves up, said before the organiser confirms it
        "next_waiting": waiting[0] if waiting else None,
        "participants": participants,
        "reserves": reserves_who_played(tournament),
        "closed": registrations.exclude(status__in=NAMED_STATUSES).order_by("-decided_at"),
        "replacements": tournament.replacements.select_related("absent", "by"),
        "days": days,
        "add_form": AddPlayerForm(),
        "reject_form": RejectForm(),
        "replacement_form": ReplacementForm(),
        "reserve_choices": reserve_choices(tournament),
        # a refused replacement comes back with what was typed and why
        "replacement_refused": request.session.pop(REPLACEMENT_REFUSED, None),
        "missing_online": list(missing_online_links(tournament)) if tournament.is_online else [],
    }
    return render(request, "registrations/manage.html", context)


def _back(tournament: Tournament) -> HttpResponse:
    return redirect("registrations:manage", slug=tournament.slug)


@require_POST
@tournament_permission("approve_application")
def approve(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    registration = _registration(tournament, pk)
    _run(
        request,
        lambda: registration_approve(registration=registration, by=request.user),
        _approved_text,
    )
    return _back(tournament)


def _form_errors(request: HttpRequest, form: forms.Form) -> None:
    for errors in form.errors.values():
        for error in errors:
            messages.error(request, error)


@require_POST
@tournament_permission("approve_application")
def approve_selected(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Approve the ticked applications, all or none."""
    form = ApproveSelectionForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
        return _back(tournament)
    ids = list(dict.fromkeys(form.cleaned_data["registrations"]))
    _run(
        request,
        lambda: registrations_approve(tournament=tournament, registration_ids=ids, by=request.user),
        _approved_many_text,
    )
    return _back(tournament)


@require_POST
@tournament_permission("open_checkin")
def checkin_open_view(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Open the players' own check-in for a day, or close it."""
    raw = request.POST.get("day", "").strip()
    if raw and not (raw.isdigit() and len(raw) <= 3):
        messages.error(request, _("Choose a day of the tournament."))
        return _back(tournament)
    day = int(raw) if raw else None
    _run(
        request,
        lambda: checkin_open(tournament=tournament, day=day, by=request.user),
        _("Check-in for day %(day)d is open: the participants are told.") % {"day": day}
        if day is not None
        else _("Check-in is closed."),
    )
    return _back(tournament)


@require_POST
@tournament_permission("check_in_player")
def checkin_selected(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Check the ticked participants in for the chosen day, all or none."""
    form = CheckInSelectionForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
        return _back(tournament)
    ids = list(dict.fromkeys(form.cleaned_data["registrations"]))
    day = form.cleaned_data["day"]
    _run(
        request,
        lambda: checkins_record(
            tournament=tournament, registration_ids=ids, day=day, by=request.user
        ),
        ngettext(
            "%(count)d participant is checked in for day %(day)d.",
            "%(count)d participants are checked in for day %(day)d.",
            len(ids),
        )
        % {"count": len(ids), "day": day},
    )
    return _back(tournament)


@require_POST
@tournament_permission("approve_application")
def reject(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    registration = _registration(tournament, pk)
    form = RejectForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the reason for the rejection."))
        return _back(tournament)
    _run(
        request,
        lambda: registration_reject(
            registration=registration, by=request.user, reason=form.cleaned_data["reason"]
        ),
        _("The application of %(nick)s is rejected.") % {"nick": registration.nickname},
    )
    return _back(tournament)


@require_POST
@tournament_permission("withdraw_participant")
def withdraw(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    registration = _registration(tournament, pk)
    form = WithdrawForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    _run(
        request,
        lambda: registration_withdraw(registration=registration, by=request.user, reason=reason),
        _("%(nick)s is withdrawn.") % {"nick": registration.nickname},
    )
    return _back(tournament)


@require_POST
@tournament_permission("add_participant")
def add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = AddPlayerForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(form.errors.get("nickname", [])))
        return _back(tournament)
    nickname = form.cleaned_data["nickname"].strip()
    user = User.objects.filter(nickname_key=nickname_key(nickname)).first()
    _run(
        request,
        lambda: registration_add(
            tournament=tournament, nickname=nickname, user=user, by=request.user
        ),
        _added_text,
    )
    return _back(tournament)


@require_POST
@tournament_permission("check_in_player")
def checkin(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = CheckInForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a participant and a day."))
        return _back(tournament)
    registration = _registration(tournament, form.cleaned_data["registration"])
    _run(
        request,
        lambda: checkin_record(
            registration=registration, day=form.cleaned_data["day"], by=request.user
        ),
        _("%(nick)s is checked in.") % {"nick": registration.nickname},
    )
    return _back(tournament)
