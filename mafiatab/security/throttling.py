"""Login throttling with django-axes: after `MAFIATAB_LOGIN_FAILURES` failed logins of
one account from one address, that pair is locked out for
`MAFIATAB_LOGIN_COOLOFF_MINUTES`; the login page says so."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import ngettext

#: The longest login an account can have (Django's username field).
LOGIN_MAX_LENGTH = 150


def client_ip(request: HttpRequest) -> str:
    """The client's address: behind the trusted reverse proxy (production settings),
    the address the proxy appended to X-Forwarded-For; otherwise the peer's."""
    if getattr(settings, "SECURE_PROXY_SSL_HEADER", None):
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        last = forwarded.rsplit(",", 1)[-1].strip()
        if last:
            return last[:64]
    return str(request.META.get("REMOTE_ADDR", ""))


def login_username(request: HttpRequest, credentials: Any = None) -> str:
    """The login a failed attempt named, cut to the length a login can have: a hostile
    form's 10,000 characters are recorded as an attempt, never as a database error."""
    name: object = None
    if isinstance(credentials, dict):
        name = credentials.get("username")
    if name is None:
        name = request.POST.get("username", "")
    return str(name)[:LOGIN_MAX_LENGTH]


def locked_out_message() -> str:
    minutes = max(1, int(settings.AXES_COOLOFF_TIME.total_seconds() // 60))
    return ngettext(
        "Too many failed logins to this account from your address: logging in is "
        "locked for %(minutes)d minute. Wait, then try again.",
        "Too many failed logins to this account from your address: logging in is "
        "locked for %(minutes)d minutes. Wait, then try again.",
        minutes,
    ) % {"minutes": minutes}


def login_locked_out(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """The login page again, with the lockout explained (429 Too Many Requests)."""
    username = ""
    if isinstance(credentials, dict):
        username = str(credentials.get("username", ""))[:LOGIN_MAX_LENGTH]
    form = AuthenticationForm(request, initial={"username": username})
    context = {"form": form, "next": request.POST.get("next", ""), "locked_out": True}
    context["locked_out_message"] = locked_out_message()
    response = TemplateResponse(request, "accounts/login.html", context, status=429)
    return response.render()
