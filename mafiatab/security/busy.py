"""A database too busy to take a write in time, or a full disk, is a 503 "try again",
not a 500.

SQLite writers wait for each other (`MAFIATAB_SQLITE_TIMEOUT`) and PostgreSQL
breaks a deadlock by failing one of the transactions; either way the transaction
was rolled back and nothing was saved, so the writer can simply try again. A full
disk (SQLite's "database or disk is full", PostgreSQL's disk_full, a file that
cannot be written for want of space) rolls the transaction back the same way; the
writer tries again once the operator has made room, and the log says so.

Heavy exports past their limit (`mafiatab.security.heavy`) are answered the same
way: nothing was started, the download can be asked for again in a moment.

Pages get the 503 page in the reader's language and the API its JSON error shape,
both with `Retry-After`: from the view (the middleware below) and from anywhere
else in the request, such as the session saved after a sign-in (`server_error`,
the site's 500 handler).
"""

from __future__ import annotations

import errno
import logging
import sys
from collections.abc import Callable

from django.db import DatabaseError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views import defaults

from mafiatab.security import API_PREFIX

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
#: Texts of the database errors that mean "the disk is full" (SQLite, PostgreSQL).
DISK_FULL_MARKERS = (
    "database or disk is full",
    "no space left on device",
    "disk quota exceeded",
)
#: PostgreSQL's SQLSTATE of disk_full (psycopg's `DiskFull`).
DISK_FULL_SQLSTATE = "53100"
#: The errors of a file write that mean "the disk is full".
DISK_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})

RETRY_AFTER_SECONDS = 2
#: A full disk takes longer than a busy moment: the operator has to make room.
DISK_FULL_RETRY_AFTER_SECONDS = 60
#: An archive or a big PDF takes seconds: the next download after a few of them.
HEAVY_EXPORTS_RETRY_AFTER_SECONDS = 10


class HeavyExportsFull(Exception):
    """Every slot for heavy exports of this process is taken (`mafiatab.security.heavy`)."""

    def __init__(self, size: int) -> None:
        self.size = size
        super().__init__(f"all {size} slots for heavy exports are taken")


def is_busy(exc: BaseException | None) -> bool:
    """Whether `exc` says the database was too busy (the transaction was rolled back)."""
    if not isinstance(exc, OperationalError):
        return False
    text = str(exc).lower()
    return any(marker in text for marker in BUSY_MARKERS)


def is_disk_full(exc: BaseException | None) -> bool:
    """Whether `exc` says the disk is full: the database could not grow (its transaction
    was rolled back) or a file could not be written."""
    if isinstance(exc, OSError):
        return exc.errno in DISK_FULL_ERRNOS
    if not isinstance(exc, DatabaseError):
        return False
    if getattr(exc.__cause__, "sqlstate", None) == DISK_FULL_SQLSTATE:
        return True
    text = str(exc).lower()
    return any(marker in text for marker in DISK_FULL_MARKERS)


def is_retryable(exc: BaseException | None) -> bool:
    """Whether `exc` is answered with 503 "try again": nothing was saved, and trying
    again later will do."""
    return is_busy(exc) or is_disk_full(exc)


def busy_message() -> str:
    return _(
        "The database is busy with other saves; nothing of yours was saved. Try again in a moment."
    )


def disk_full_message() -> str:
    return _(
        "The server has run out of disk space; nothing of yours was saved. "
        "Try again in a few minutes."
    )


def heavy_exports_message() -> str:
    return _(
        "The server is making other large downloads (archives, PDF, XLSX) right now. "
        "Try again in a few seconds."
    )


def retry_message(exc: BaseException) -> str:
    """What the reader is told, in his language."""
    if isinstance(exc, HeavyExportsFull):
        return heavy_exports_message()
    return disk_full_message() if is_disk_full(exc) else busy_message()


def retry_heading(exc: BaseException) -> str:
    """The 503 page's heading."""
    return _("Out of disk space") if is_disk_full(exc) else _("Busy")


def retry_after(exc: BaseException) -> int:
    """The seconds of the `Retry-After` header."""
    if isinstance(exc, HeavyExportsFull):
        return HEAVY_EXPORTS_RETRY_AFTER_SECONDS
    return DISK_FULL_RETRY_AFTER_SECONDS if is_disk_full(exc) else RETRY_AFTER_SECONDS


def log_busy(request: HttpRequest, exc: BaseException) -> None:
    if isinstance(exc, HeavyExportsFull):
        logger.warning("Heavy exports full on %s %s: %s", request.method, request.path, exc)
    elif is_disk_full(exc):
        logger.error("Disk full on %s %s: %s", request.method, request.path, exc)
    else:
        logger.warning("Busy database on %s %s: %s", request.method, request.path, exc)


def retry_response(request: HttpRequest, exc: BaseException) -> HttpResponse:
    """The 503 answer: the API's JSON error shape under /api/, the 503 page elsewhere."""
    log_busy(request, exc)
    message = retry_message(exc)
    response: HttpResponse
    if request.path_info.startswith(API_PREFIX):
        response = JsonResponse({"detail": message, "errors": {}}, status=503)
    else:
        context = {"message": message, "heading": retry_heading(exc)}
        response = render(request, "503.html", context, status=503)
    response["Retry-After"] = str(retry_after(exc))
    return response


class BusyDatabaseMiddleware:
    """Answer a busy database or a full disk with the 503 page (and Retry-After)
    instead of a 500."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if not is_retryable(exc):
            return None
        return retry_response(request, exc)


def server_error(request: HttpRequest) -> HttpResponse:
    """The site's 500 handler: an error raised outside the views (a middleware saving
    the session, for one) that is a busy database or a full disk is a 503 too."""
    exc = sys.exc_info()[1]
    if exc is not None and is_retryable(exc):
        return retry_response(request, exc)
    return defaults.server_error(request)
