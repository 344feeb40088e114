"""Pages of rounds and tables: the rounds with their tables (where rounds and tables
are added), the tables a judge serves and the chief judge's queue.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from mafiatab.games import forms as pf
from mafiatab.games import selectors, services
from mafiatab.games.models import Round
from mafiatab.games.views.access import _error_text
from mafiatab.registrations.selectors import seat_choices
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
    can = permissions_for(request.user, tournament)
    judges = _judges(tournament)
    form = pf.RoundForm(request.POST or None)
    if request.method == "POST":
        if not can["manage_rounds"]:
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
    context = {
        "tournament": tournament,
        "can": can,
        "rounds": [
            # each round's form has its own field ids, so every label finds its field
            (round_, pf.TableForm(judges=judges, auto_id=f"id_round{round_.pk}_%s"))
            for round_ in selectors.rounds_of(tournament)
        ],
        "form": form,
        "seat_choices": seat_choices(tournament.pk),
        "seat_choices_id": pf.SEAT_CHOICES_ID,
    }
    return render(request, "games/rounds.html", context)


@require_POST
@tournament_permission("manage_rounds")
def table_add(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    round_ = get_object_or_404(Round, tournament=tournament, pk=pk)
    form = pf.TableForm(request.POST, judges=_judges(tournament))
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
