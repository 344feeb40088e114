"""Pages of rounds and tables: the rounds with their tables (where rounds and tables
are added), the tables a judge serves and the chief judge's queue.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from mafiatab.games import schedule_forms as sf
from mafiatab.games import selectors, services
from mafiatab.games.models import Round, Table
from mafiatab.games.services.schedule import CHANGED_MEANWHILE
from mafiatab.games.views.access import _error_text
from mafiatab.registrations.selectors import seat_choices
from mafiatab.tournaments.forms import add_service_errors
from mafiatab.tournaments.models import StaffMember, Tournament
from mafiatab.tournaments.permissions import permissions_for, tournament_permission


def _judges(tournament: Tournament) -> list[tuple[str, str]]:
    members = StaffMember.objects.filter(
        tournament=tournament, role__in=["table_judge", "chief_judge"]
    ).select_related("user")
    seen: dict[str, str] = {}
    for m in members:
        seen[str(m.user.pk)] = m.user.nickname or m.user.username
    return sorted(seen.items(), key=lambda item: item[1].lower())


@tournament_permission("view_protocols")
def rounds(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every round with its tables; the organiser and the chief judge add rounds here."""
    form = sf.RoundForm(request.POST or None)
    if request.method == "POST":
        if not permissions_for(request.user, tournament)["manage_rounds"]:
            raise PermissionDenied("manage_rounds")
        if form.is_valid():
            try:
                services.round_create(
                    tournament=tournament,
                    stage=form.cleaned_data["stage"],
                    number=form.cleaned_data["number"],
                    tables=[],
                    by=request.user,  # type: ignore[arg-type]
                )
            except ValidationError as exc:
                form.add_error(None, exc)
            else:
                messages.success(request, _("The round was created; add its tables."))
                return redirect("games:rounds", slug=tournament.slug)
    return _rounds_page(request, tournament, form=form)


def _rounds_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    form: sf.RoundForm,
    refused: sf.RoundScheduleForm | None = None,
    refused_pk: int | None = None,
) -> HttpResponse:
    """The rounds page; `refused`: the time and place form of round `refused_pk` as it
    was sent, each refusal beside its field and what was typed kept."""
    judges = _judges(tournament)
    shown = {refused_pk: refused} if refused is not None else {}
    context = {
        "tournament": tournament,
        "can": permissions_for(request.user, tournament),
        "judges": judges,
        "rounds": [
            # each round's forms have their own field ids, so every label finds its field
            (
                round_,
                sf.TableForm(judges=judges, auto_id=f"id_round{round_.pk}_%s"),
                shown[round_.pk] if round_.pk in shown else _schedule_form(round_),
                sf.LatenessForm(auto_id=f"id_late{round_.pk}_%s"),
            )
            for round_ in selectors.rounds_of(tournament)
        ],
        "form": form,
        "seat_choices": seat_choices(tournament.pk),
        "seat_choices_id": sf.SEAT_CHOICES_ID,
    }
    return render(request, "games/rounds.html", context)


def _schedule_form(round_: Round, data: dict[str, Any] | None = None) -> sf.RoundScheduleForm:
    return sf.RoundScheduleForm(
        data,
        initial={
            "starts_at": round_.starts_at,
            "place": round_.place,
            "link": round_.link,
            "stamp": services.schedule_of(round_).stamp(),
        },
        auto_id=f"id_when{round_.pk}_%s",
    )


def _back_to(tournament: Tournament, pk: int, *, done: bool) -> HttpResponse:
    """The rounds page at the round when done, at its top (the error) otherwise."""
    url = reverse("games:rounds", kwargs={"slug": tournament.slug})
    return redirect(f"{url}#round-{pk}" if done else url)


def _form_errors(form: forms.Form) -> str:
    return " ".join(
        f"{form.fields[name].label}: {' '.join(errors)}"
        if name in form.fields
        else " ".join(errors)
        for name, errors in form.errors.items()
    )


@require_POST
@tournament_permission("manage_rounds")
def round_schedule(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    """The organiser sets when and where a round is played. A refusal is said beside
    its field on the rounds page, with what was typed kept."""
    round_ = get_object_or_404(Round, tournament=tournament, pk=pk)
    form = _schedule_form(round_, request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            services.round_schedule_set(
                round=round_,
                schedule=services.RoundSchedule(
                    starts_at=data["starts_at"], place=data["place"], link=data["link"]
                ),
                by=request.user,  # type: ignore[arg-type]
                stamp=data["stamp"] or None,
            )
        except ValidationError as exc:
            if _is_changed_meanwhile(exc):  # saving again now overwrites what is shown
                posted = request.POST.copy()
                round_.refresh_from_db()
                posted["stamp"] = services.schedule_of(round_).stamp()
                form = _schedule_form(round_, posted)
                form.is_valid()
            add_service_errors(form, exc)
        else:
            messages.success(request, _("The round's time and place were saved."))
            return _back_to(tournament, pk, done=True)
    return _rounds_page(
        request, tournament, form=sf.RoundForm(), refused=form, refused_pk=round_.pk
    )


def _is_changed_meanwhile(exc: ValidationError) -> bool:
    return any(e.code == CHANGED_MEANWHILE for e in getattr(exc, "error_list", []))


@require_POST
@tournament_permission("give_penalty")
def lateness(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    """The chief judge fines a player late for a round: the minutes are counted from
    the round's start time."""
    round_ = get_object_or_404(Round, tournament=tournament, pk=pk)
    form = sf.LatenessForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            penalty = services.lateness_give(
                round=round_,
                player=data["player"].strip(),
                arrived_at=data["arrived_at"],
                reason=data["reason"].strip() or _("late for %(round)s") % {"round": round_},
                by=request.user,  # type: ignore[arg-type]
            )
        except ValidationError as exc:
            messages.error(request, _error_text(exc))
        else:
            messages.success(
                request,
                _("%(nick)s was %(minutes)d minutes late: fined %(points)s.")
                % {
                    "nick": penalty.player,
                    "minutes": penalty.minutes_late,
                    "points": penalty.points,
                },
            )
            if tournament.regulation.may_replace(penalty.minutes_late or 0):
                messages.info(
                    request,
                    _(
                        "More than %(minutes)d minutes late: a reserve may play instead "
                        "(Registrations, replace a late player)."
                    )
                    % {"minutes": tournament.regulation.replacement_after_minutes},
                )
    else:
        messages.error(request, _form_errors(form))
    # the fine is told at the top of the page, not at the round
    return _back_to(tournament, pk, done=False)


@require_POST
@tournament_permission("manage_rounds")
def table_add(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    round_ = get_object_or_404(Round, tournament=tournament, pk=pk)
    form = sf.TableForm(request.POST, judges=_judges(tournament))
    if form.is_valid():
        judge_id = form.cleaned_data["judge"]
        judge = None
        if judge_id:
            judge = StaffMember.objects.filter(tournament=tournament, user_id=judge_id).first()
        try:
            services.table_add(
                round=round_,
                plan=services.TablePlan(
                    number=form.cleaned_data["number"],
                    judge=judge.user if judge else None,
                    players=form.players_list(),
                ),
                by=request.user,  # type: ignore[arg-type]
            )
        except ValidationError as exc:
            messages.error(request, _error_text(exc))
        else:
            messages.success(request, _("The table was added."))
    else:
        messages.error(request, _("Give the table number and ten participants."))
    return redirect("games:rounds", slug=tournament.slug)


@require_POST
@tournament_permission("manage_rounds")
def table_judge(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    """Give a table of a round another judge (the rounds page's select beside it)."""
    table = get_object_or_404(Table, round__tournament=tournament, pk=pk)
    form = sf.TableJudgeForm(request.POST, judges=_judges(tournament))
    if not form.is_valid():
        messages.error(request, _("Choose a judge of this tournament."))
        return redirect("games:rounds", slug=tournament.slug)
    judge_id = form.cleaned_data["judge"]
    member = None
    if judge_id:
        member = StaffMember.objects.filter(tournament=tournament, user_id=judge_id).first()
    judge = member.user if member else None
    try:
        services.table_judge_set(table=table, judge=judge, by=request.user)  # type: ignore[arg-type]
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
    else:
        said = {
            "n": table.number,
            "round": table.round.number,
            "stage": table.round.get_stage_display(),
        }
        if judge is None:
            messages.success(
                request, _("Table %(n)s of round %(round)s (%(stage)s) has no judge now.") % said
            )
        else:
            messages.success(
                request,
                _("%(judge)s judges table %(n)s of round %(round)s (%(stage)s) now.")
                % (said | {"judge": judge.nickname or judge.username}),
            )
    return redirect("games:rounds", slug=tournament.slug)


@tournament_permission("view_protocols")
def my_tables(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The protocols of the tables the signed-in judge serves."""
    context = {
        "tournament": tournament,
        "can": permissions_for(request.user, tournament),
        "games": selectors.games_of_judge(tournament, request.user),
    }
    return render(request, "games/my_tables.html", context)


@tournament_permission("confirm_protocol")
def queue(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The chief judge's queue: submitted protocols and open protests."""
    context = {
        "tournament": tournament,
        "can": permissions_for(request.user, tournament),
        "games": selectors.submitted_games(tournament),
        "protests": selectors.open_protests(tournament),
    }
    return render(request, "games/queue.html", context)
