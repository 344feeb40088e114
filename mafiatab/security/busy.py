"""A database too busy to take a write in time is a 503 "try again", not a 500.

SQLite writers wait for each other (`MAFIATAB_SQLITE_TIMEOUT`) and PostgreSQL
breaks a deadlock by failing one of the transactions; either way the transaction
was rolled back and nothing was saved, so the writer can simply try again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

logger = logging.getLogger("mafiatab.busy")

#: Texts of the database errors that mean "busy, try again" (SQLite, PostgreSQL).
BUSY_MARKERS = (
    "database is locked",
    "database table is locked",
    "deadlock detected",
    "lock timeout",
    "could not obtain lock",
    "could not serialize access",
)

RETRY_AFTER_SECONDS = 2


def is_busy(exc: BaseException) -> bool:
    """Whether `exc` says the database was too busy (the transaction was rolled back)."""
    if not isinstance(exc, OperationalError):
        return False
    text = str(exc).lower()
    return any(marker in text for marker in BUSY_MARKERS)


def busy_message() -> str:
    return _(
        "The database is busy with other saves; nothing of yours was saved. Try again in a moment."
    )


def log_busy(request: HttpRequest, exc: BaseException) -> None:
    logger.warning("Busy database on %s %s: %s", request.method, request.path, exc)


class BusyDatabaseMiddleware:
    """Answer a busy database with the 503 page (and Retry-After) instead of a 500."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if not is_busy(exc):
            return None
        log_busy(request, exc)
        response = render(request, "503.html", {"message": busy_message()}, status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
