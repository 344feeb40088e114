"""The inbox, the unread badge of the header, the e-mail choices and the link that
turns one kind of e-mail off without signing in."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from mafiatab.notifications.forms import PreferencesForm
from mafiatab.notifications.kinds import KINDS
from mafiatab.notifications.kinds import render as render_message
from mafiatab.notifications.models import Notification
from mafiatab.notifications.services import (
    email_kind_off,
    inbox_mark_read,
    preferences_of,
    preferences_update,
    unread_count,
    unsubscribe_read,
)

#: Messages one inbox page shows (the newest).
PAGE_SIZE = 100


@login_required
@require_GET
def inbox(request: HttpRequest) -> HttpResponse:
    rows = list(Notification.objects.filter(recipient_id=request.user.pk)[:PAGE_SIZE])
    items = [
        {"row": row, "said": render_message(row.kind, row.params), "zone": row.zone()}
        for row in rows
    ]
    unread = sum(1 for row in rows if row.read_at is None)
    return render(
        request,
        "notifications/inbox.html",
        {"items": items, "unread": unread, "unread_total": unread_count(request.user)},
    )


@login_required
@require_GET
def open_message(request: HttpRequest, pk: int) -> HttpResponse:
    """Mark one message read and go to what it is about."""
    row = get_object_or_404(Notification, pk=pk, recipient_id=request.user.pk)
    inbox_mark_read(user=request.user, ids=[row.pk])  # type: ignore[arg-type]
    if row.link and url_has_allowed_host_and_scheme(row.link, allowed_hosts=None):
        return redirect(row.link)
    return redirect("notifications:inbox")


@login_required
@require_POST
def mark_all_read(request: HttpRequest) -> HttpResponse:
    inbox_mark_read(user=request.user)  # type: ignore[arg-type]
    return redirect("notifications:inbox")


@require_GET
def badge(request: HttpRequest) -> HttpResponse:
    """The header's link to the inbox with the unread count (fetched by every page)."""
    return render(request, "notifications/_badge.html", {"unread": unread_count(request.user)})


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    user = request.user
    prefs = preferences_of(user)  # type: ignore[arg-type]
    initial = {PreferencesForm.field_of(code): code not in prefs.email_off for code in KINDS}
    form = PreferencesForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        preferences_update(
            user=user,  # type: ignore[arg-type]
            email_off=form.email_off(),
        )
        messages.success(request, _("Your choices are saved."))
        return redirect("notifications:preferences")
    return render(
        request,
        "notifications/preferences.html",
        {"form": form, "has_email": bool(getattr(user, "email", ""))},
    )


@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """From an e-mail: turn its kind off (asked first, so that a mail scanner opening
    the link changes nothing)."""
    try:
        user, kind = unsubscribe_read(token)
    except ValidationError as exc:
        return render(
            request, "notifications/unsubscribe.html", {"error": exc.messages[0]}, status=400
        )
    done = False
    if request.method == "POST":
        email_kind_off(token=token)
        done = True
    return render(
        request,
        "notifications/unsubscribe.html",
        {"person": user, "kind": KINDS[kind], "done": done},
    )
