"""A tournament's pages and API answers speak its time zone: the schedule's times are
entered and shown in it (`Tournament.time_zone`; empty: the site's `TIME_ZONE`). To a
request that names no language (no `Accept-Language`, no language chosen on the site:
a calendar app, a script), they speak the tournament's language (`Tournament.language`;
empty: the site's `LANGUAGE_CODE`)."""

from __future__ import annotations

import contextlib
import re
import zoneinfo
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation

from mafiatab.tournaments.models import Tournament

#: A tournament's address, as its slug field takes it.
_SLUG = re.compile(r"[-a-zA-Z0-9_]{1,100}")


def names_language(request: HttpRequest) -> bool:
    """True when the request says which language it reads: an `Accept-Language`
    header, or the language chosen on the site (its cookie)."""
    return bool(
        request.META.get("HTTP_ACCEPT_LANGUAGE", "").strip()
        or request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    )


class TournamentLocale:
    """After LocaleMiddleware: activates the time zone of the tournament a view is about
    (by its `slug`), and its language for a request that names none."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: dict[str, Any]
    ) -> None:
        slug = kwargs.get("slug")
        if not isinstance(slug, str) or not _SLUG.fullmatch(slug):
            return None  # no tournament's address (the view answers it)
        row = Tournament.objects.filter(slug=slug).values_list("time_zone", "language").first()
        if row is None:
            return None
        zone, language = row
        # a zone this machine no longer knows leaves the site's
        if zone:
            with contextlib.suppress(zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.activate(zoneinfo.ZoneInfo(zone))
        if language in dict(settings.LANGUAGES) and not names_language(request):
            translation.activate(language)
            request.LANGUAGE_CODE = language  # type: ignore[attr-defined]
        return None
