"""Keeps each signed-in person's language, so that what he is sent away from the site
(e-mail) is written in the language he reads it in."""

from __future__ import annotations

from collections.abc import Callable

from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from mafiatab.notifications.services import language_remember

_SESSION_KEY = "mafiatab_notify_language"


class RememberLanguage:
    """After LocaleMiddleware and AuthenticationMiddleware: one write when a person's
    language changes (the session remembers what was written)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        session = getattr(request, "session", None)
        user = getattr(request, "user", None)
        if session is not None and user is not None and user.is_authenticated:
            language = translation.get_language()
            if language and session.get(_SESSION_KEY) != language:
                try:
                    language_remember(user=user, language=language)  # type: ignore[arg-type]
                except DatabaseError:  # a busy database: the page first, the next one keeps it
                    pass
                else:
                    session[_SESSION_KEY] = language
        return self.get_response(request)
