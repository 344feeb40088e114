"""A tournament's pages and API answers speak its time zone: the schedule's times are
entered and shown in it (`Tournament.time_zone`; empty: the site's `TIME_ZONE`)."""

from __future__ import annotations

import contextlib
import re
import zoneinfo
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from mafiatab.tournaments.models import Tournament

#: A tournament's address, as its slug field takes it.
_SLUG = re.compile(r"[-a-zA-Z0-9_]{1,100}")


class TournamentTimeZone:
    """Activates the time zone of the tournament a view is about (by its `slug`)."""

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
        zone = Tournament.objects.filter(slug=slug).values_list("time_zone", flat=True).first()
        # a zone this machine no longer knows leaves the site's
        if zone:
            with contextlib.suppress(zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.activate(zoneinfo.ZoneInfo(zone))
        return None
