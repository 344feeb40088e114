from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from mafiatab.announcements.forms import BroadcastForm
from mafiatab.announcements.services import broadcast_send
from mafiatab.notifications.kinds import render as render_message
from mafiatab.notifications.models import Delivery
from mafiatab.tournaments.forms import add_service_errors
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.pages import tournament_context
from mafiatab.tournaments.permissions import tournament_permission

#: Rows of the outbox one page shows (the newest).
OUTBOX_ROWS = 200


@require_http_methods(["GET", "POST"])
@tournament_permission("broadcast")
def messages_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The organiser's message form and the state of the tournament's e-mails."""
    form = BroadcastForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            sent = broadcast_send(
                tournament=tournament,
                audience=form.audience(),
                text=form.cleaned_data["text"],
                by=request.user,  # type: ignore[arg-type]
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(
                request,
                ngettext(
                    "The message was sent to %(n)d person.",
                    "The message was sent to %(n)d people.",
                    sent,
                )
                % {"n": sent},
            )
            return redirect("announcements:messages", slug=tournament.slug)
    rows = list(
        Delivery.objects.filter(notification__tournament_id=tournament.pk)
        .select_related("notification__recipient")
        .order_by("-id")[:OUTBOX_ROWS]
    )
    outbox = [
        {"row": row, "title": render_message(row.notification.kind, row.notification.params).title}
        for row in rows
    ]
    context = tournament_context(request, tournament) | {"form": form, "outbox": outbox}
    return render(request, "announcements/messages.html", context)
