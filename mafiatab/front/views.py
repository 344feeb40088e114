"""The tournament's own pages: the list, the tournament page, its settings, staff,
closing and history, and its file as a download."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from mafiatab.core.advancing import public_tournament
from mafiatab.core.tournament_file import dumps_tournament
from mafiatab.front.audit_display import history_rows
from mafiatab.games.calendar import player_seats, schedule_days
from mafiatab.registrations.forms import OnlineLinksForm
from mafiatab.registrations.models import Registration, Status
from mafiatab.registrations.online import online_links_of
from mafiatab.registrations.selectors import reserves_who_played
from mafiatab.standings.inputs import (
    approved_participants,
    core_tournament,
    default_games_before_final,
)
from mafiatab.tournaments.disclosure import disclosure_for, withheld_refusal
from mafiatab.tournaments.forms import (
    NewTournamentForm,
    ScoringForm,
    StaffForm,
    StagePlanForm,
    TournamentForm,
    add_service_errors,
    stage_plan_initial,
)
from mafiatab.tournaments.models import StaffMember, Tournament
from mafiatab.tournaments.pages import tournament_context
from mafiatab.tournaments.permissions import tournament_permission
from mafiatab.tournaments.services import (
    info_of,
    is_last_of_role,
    scoring_of,
    staff_assign,
    staff_remove,
    tournament_close,
    tournament_create,
    tournament_scoring_update,
    tournament_stages_update,
    tournament_update,
)
from mafiatab.tournaments.stages import players_refusal
from mafiatab.tournaments.zones import zone_label


def healthz(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")


def tournament_list(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.annotate(
        participant_count=Count("registrations", filter=Q(registrations__status=Status.APPROVED))
    )
    return render(request, "tournaments/list.html", {"tournaments": tournaments})


def _online_form(tournament: Tournament, mine: Registration | None) -> OnlineLinksForm | None:
    """The online addendum's details: asked on applying, changed later by the player."""
    if not tournament.is_online:
        return None
    if mine is not None and mine.is_active:
        return OnlineLinksForm(initial=asdict(online_links_of(mine)), auto_id="id_online_%s")
    return OnlineLinksForm(auto_id="id_online_%s")


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    registrations = tournament.registrations.select_related("user")
    mine = None
    if request.user.is_authenticated:
        mine = registrations.filter(user=request.user).order_by("-created_at").first()
    my_seats = list(player_seats(mine)) if mine and mine.is_seated_status else []
    context = tournament_context(request, tournament) | {
        "participants": registrations.filter(status=Status.APPROVED).order_by("nickname"),
        "reserves": reserves_who_played(tournament),
        "pending": registrations.filter(status=Status.PENDING),
        "waiting": registrations.filter(status=Status.WAITING).order_by("waiting_since", "id"),
        "replacements": tournament.replacements.select_related("absent"),
        "my_registration": mine,
        "my_seats": my_seats,
        # the personal calendar holds the player's timed tables only
        "my_calendar_empty": not any(seat.table.round.starts_at for seat in my_seats),
        "online_form": _online_form(tournament, mine),
        "schedule": schedule_days(tournament),
        "my_checkins": _checkin_days(mine, tournament.day_count(), tournament.checkin_day),
        "time_zone": zone_label(tournament.time_zone or settings.TIME_ZONE),
    }
    # The file holds what its reader may see: nothing while the standings are hidden
    # from him (no link to a refusal), the protocols confirmed as of a freeze.
    disclosure = disclosure_for(request.user, tournament)
    if not disclosure.withholds_all:
        core = core_tournament(tournament, as_of=disclosure.as_of)
        context["file_game_count"] = len(core.games)
    context["file_withheld"] = disclosure.withholds_all
    return render(request, "tournaments/detail.html", context)


def _checkin_days(registration: Any, day_count: int, open_day: int | None) -> dict[str, Any]:
    """The days `registration` is checked in for, the first day it is not, and the
    open day he may check himself in for now (None: check-in is closed, or done)."""
    if registration is None:
        return {"days": "", "next": None, "open": None}
    days = sorted(registration.checkins.values_list("day", flat=True))
    left = [day for day in range(1, day_count + 1) if day not in days]
    return {
        "days": ", ".join(map(str, days)),
        "next": left[0] if left else None,
        "open": open_day if open_day in left else None,
    }


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest) -> HttpResponse:
    form = NewTournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournament_create(
                info=form.info(), by=request.user, chief_judge=form.cleaned_data["chief_judge"]
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, _("Tournament created."))
            return redirect(tournament)
    return render(request, "tournaments/form.html", {"form": form, "tournament": None})


@dataclass(frozen=True)
class _Defaults:
    approved: int
    scheduled: int | None


def _scoring_form(tournament: Tournament, data: Any = None) -> ScoringForm:
    defaults = _Defaults(
        approved=approved_participants(tournament),
        scheduled=default_games_before_final(tournament),
    )
    return ScoringForm(
        data, initial=scoring_of(tournament).__dict__, defaults=defaults, prefix="scoring"
    )


def _stage_form(tournament: Tournament, data: Any = None) -> StagePlanForm:
    return StagePlanForm(data, initial=stage_plan_initial(tournament.stage_plan), prefix="stages")


def _edit_page(
    request: HttpRequest, tournament: Tournament, *, status: int = 200, **forms: Any
) -> HttpResponse:
    context = tournament_context(request, tournament) | {
        "form": forms.get("form") or TournamentForm(initial=info_of(tournament).__dict__),
        "scoring_form": forms.get("scoring_form") or _scoring_form(tournament),
        "stage_form": forms.get("stage_form") or _stage_form(tournament),
    }
    return render(request, "tournaments/form.html", context, status=status)


def _saved_part(
    request: HttpRequest,
    tournament: Tournament,
    form: Any,
    key: str,
    save: Callable[[Any], object],
    done: str,
) -> HttpResponse:
    """One part of the edit page posted: saved by its service, or the page again with
    what is wrong beside its fields (422)."""
    if form.is_valid():
        try:
            save(form)
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, done)
            return redirect("tournaments:edit", slug=tournament.slug)
    return _edit_page(request, tournament, status=422, **{key: form})


def _say_players_problems(tournament: Tournament, form: StagePlanForm) -> None:
    """A stage plan refused for a missing field says at once what is wrong with its
    players too (more than the participants, not whole tables), not after a second try."""
    if form.is_valid():
        return
    stages = form.stages(partial=True)
    refusal = players_refusal(tournament, stages) if stages and len(stages) > 1 else None
    if refusal is not None:
        add_service_errors(form, refusal)


@tournament_permission("edit_tournament")
@require_http_methods(["GET", "POST"])
def tournament_edit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    which = request.POST.get("form") if request.method == "POST" else None
    if which == "scoring":
        return _saved_part(
            request,
            tournament,
            _scoring_form(tournament, request.POST),
            "scoring_form",
            lambda form: tournament_scoring_update(
                tournament=tournament, scoring=form.scoring(), by=request.user
            ),
            _("Scoring settings saved."),
        )
    if which == "stages":
        stage_form = _stage_form(tournament, request.POST)
        _say_players_problems(tournament, stage_form)
        return _saved_part(
            request,
            tournament,
            stage_form,
            "stage_form",
            lambda form: tournament_stages_update(
                tournament=tournament, stages=form.stages(), by=request.user
            ),
            _("Stage plan saved."),
        )
    form = TournamentForm(request.POST or None, initial=info_of(tournament).__dict__)
    if request.method == "POST" and form.is_valid():
        try:
            tournament_update(tournament=tournament, info=form.info(), by=request.user)
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, _("Tournament saved."))
            return redirect(tournament)
    return _edit_page(request, tournament, form=form)


@require_POST
@tournament_permission("edit_tournament")
def close_view(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Close the tournament, or open it again (`closed=0`)."""
    closed = request.POST.get("closed", "1") != "0"
    try:
        tournament_close(tournament=tournament, by=request.user, closed=closed)  # type: ignore[arg-type]
    except ValidationError as exc:
        for message in exc.messages:
            messages.error(request, message)
    else:
        messages.success(
            request,
            _("The tournament is closed: its results are final.")
            if closed
            else _("The tournament is open again."),
        )
    return redirect("tournaments:edit", slug=tournament.slug)


@tournament_permission("manage_staff")
@require_http_methods(["GET", "POST"])
def staff(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = StaffForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            staff_assign(
                tournament=tournament,
                user=form.cleaned_data["nickname"],
                role=form.cleaned_data["role"],
                by=request.user,
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, _("Role given."))
            return redirect("tournaments:staff", slug=tournament.slug)
    members = list(tournament.staff_members.select_related("user"))
    for member in members:  # the last organiser's or chief judge's role is not offered
        member.removable = not is_last_of_role(member, members)
    context = tournament_context(request, tournament) | {"form": form, "members": members}
    return render(request, "tournaments/staff.html", context)


@require_POST
@tournament_permission("manage_staff")
def staff_remove_view(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    member = StaffMember.objects.filter(pk=pk, tournament=tournament).first()
    try:
        if member is None:
            raise ValidationError(_("This role was already taken away."))
        staff_remove(member=member, by=request.user)
    except ValidationError as exc:
        for message in exc.messages:
            messages.error(request, message)
    else:
        messages.success(
            request,
            _("%(name)s no longer holds the role %(role)s.")
            % {"name": member.user, "role": member.get_role_display()},
        )
    return redirect("tournaments:staff", slug=tournament.slug)


@tournament_permission("view_history")
def history(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    entries = tournament.audit_entries.select_related("actor")
    context = tournament_context(request, tournament) | {"rows": history_rows(entries, tournament)}
    return render(request, "tournaments/history.html", context)


def export_file(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament file (confirmed protocols and penalties) as a download.

    Every protocol of the file gives points: while the standings are hidden the file
    is the staff's only (the public gets the refusal of every door of hidden
    standings, `withheld_refusal`); while they are frozen the public gets the
    protocols and penalties as they were at the freeze, the file of the frozen table
    (`disclosure_for`)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    disclosure = disclosure_for(request.user, tournament)
    if disclosure.withholds_all:
        return withheld_refusal(request, disclosure)
    core = core_tournament(tournament, as_of=disclosure.as_of)
    if not disclosure.staff:  # the judges' extras a stage hides, until it is closed
        core = public_tournament(core, closed=tournament.is_closed)
    response = HttpResponse(dumps_tournament(core), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.json"'
    return response
