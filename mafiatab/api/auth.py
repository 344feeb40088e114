"""Who is calling: a personal token (scripts) or the browser's session (with CSRF)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja.errors import HttpError
from ninja.security import APIKeyCookie, HttpBearer
from ninja.utils import check_csrf

from mafiatab.api.services import token_user


class TokenAuth(HttpBearer):
    """`Authorization: Bearer <token>` with a personal API token."""

    openapi_description = "A personal API token (POST /api/me/tokens while signed in)."

    def authenticate(self, request: HttpRequest, token: str) -> Any:
        user = token_user(token)
        if user is not None:
            request.user = user
        return user


class SessionAuth(APIKeyCookie):
    """The signed-in browser session. Writes need Django's CSRF token
    (the `X-CSRFToken` header carrying the `csrftoken` cookie).

    Unlike ninja's own session auth, a request without a signed-in session is
    simply not authenticated here (401), whatever its CSRF token.
    """

    param_name = settings.SESSION_COOKIE_NAME
    openapi_description = "The signed-in session of the web application (with CSRF)."

    def _get_key(self, request: HttpRequest) -> str | None:
        return request.COOKIES.get(self.param_name)

    def authenticate(self, request: HttpRequest, key: str | None) -> Any:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated or not user.is_active:
            return None
        if self.csrf and check_csrf(request) is not None:
            raise HttpError(
                403,
                _(
                    "CSRF check failed: send the X-CSRFToken header with the csrftoken "
                    "cookie, or use a personal API token."
                ),
            )
        return user


#: Every operation that needs a person: a token first, then the session.
AUTH = [TokenAuth(), SessionAuth()]


def caller(request: HttpRequest) -> Any:
    """The person calling a public operation (where auth is not required), or None.

    A token that is sent must be valid; otherwise the session's user, if any.
    """
    header = request.headers.get("Authorization", "")
    if header:
        scheme, _sep, key = header.partition(" ")
        user = token_user(key.strip()) if scheme.lower() == "bearer" else None
        if user is None:
            raise HttpError(401, _("The API token is not valid."))
        return user
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and user.is_active:
        return user
    return None
