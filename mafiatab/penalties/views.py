from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from mafiatab.penalties.forms import CancelForm, PenaltyForm
from mafiatab.penalties.models import Penalty
from mafiatab.penalties.services import penalty_cancel, penalty_give
from mafiatab.registrations.models import Status
from mafiatab.tournaments.forms import add_service_errors
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.pages import tournament_context
from mafiatab.tournaments.permissions import tournament_permission


def _page(request: HttpRequest, tournament: Tournament, form: PenaltyForm) -> HttpResponse:
    players = (
        tournament.registrations.filter(status=Status.APPROVED)
        .order_by("nickname")
        .values_list("nickname", flat=True)
    )
    context = tournament_context(request, tournament) | {
        "form": form,
        "cancel_form": CancelForm(),
        "penalties": tournament.penalties.select_related("given_by", "cancelled_by"),
        "players": list(players),
    }
    return render(request, "penalties/list.html", context)


@tournament_permission("view_registrations")
def penalty_list(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _page(request, tournament, PenaltyForm(regulation=tournament.regulation))


@require_http_methods(["POST"])
@tournament_permission("give_penalty")
def give(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = PenaltyForm(request.POST, regulation=tournament.regulation)
    if form.is_valid():
        data = form.cleaned_data
        try:
            penalty_give(
                tournament=tournament,
                player=data["player"].strip(),
                kind=data["kind"],
                reason=data["reason"],
                minutes_late=data.get("minutes_late"),
                round=data.get("round"),
                by=request.user,
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, _("Penalty recorded."))
            return redirect("penalties:list", slug=tournament.slug)
    return _page(request, tournament, form)


@require_POST
@tournament_permission("give_penalty")
def cancel(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    penalty = get_object_or_404(Penalty, pk=pk, tournament=tournament)
    form = CancelForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the reason for the cancellation."))
    else:
        try:
            penalty_cancel(penalty=penalty, by=request.user, reason=form.cleaned_data["reason"])
        except ValidationError as exc:
            for message in exc.messages:
                messages.error(request, message)
        else:
            messages.success(request, _("Penalty cancelled."))
    return redirect("penalties:list", slug=tournament.slug)
