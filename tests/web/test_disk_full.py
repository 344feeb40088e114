"""A full disk is a 503 "try again" with Retry-After, like a busy database, and
nothing is half-written.

The database really runs out of room: SQLite may grow the test database by no page
(`PRAGMA max_page_count`), and the tables the request writes are filled up to their
last byte first, so its inserts fail with SQLite's own "database or disk is full".
"""

from __future__ import annotations

import datetime as dt
import errno
import json
import os
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.db import OperationalError, connection, transaction
from django.urls import reverse
from django.utils import timezone

from mafiatab.api.services import token_create
from mafiatab.audit.models import AuditEntry
from mafiatab.registrations.models import Registration
from mafiatab.security.busy import is_disk_full, is_retryable, server_error
from mafiatab.tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

#: The disk is filled for real through SQLite's page limit: these run in the SQLite pass
#: (PostgreSQL's disk_full is told apart by the classifier's tests below, on both).
SQLITE_DISK = pytest.mark.skipif(
    bool(os.environ.get("DATABASE_URL")),
    reason="fills the disk through SQLite's page limit; runs in the SQLite pass",
)

#: What SQLite may still allocate beyond the database's pages when the test starts.
SPARE_PAGES = 8


def _fill(insert: Callable[[int], Any]) -> None:
    """Insert rows of smaller and smaller payloads until not even an empty one fits."""
    for size in (20000, 4000, 1000, 200, 40, 0):
        for _ in range(10000):
            try:
                with transaction.atomic():
                    insert(size)
            except OperationalError as exc:
                assert "database or disk is full" in str(exc)
                break
        else:
            raise AssertionError("the database did not fill up")


def _session(size: int) -> None:
    Session.objects.create(
        session_key=secrets.token_hex(16),
        session_data="x" * size,
        expire_date=timezone.now() + dt.timedelta(days=1),
    )


def _audit(size: int) -> None:
    AuditEntry.objects.create(action="filler", target="x" * min(size, 200), after={"x": "x" * size})


@contextmanager
def full_disk() -> Iterator[None]:
    """The database cannot grow, and the session table and the audit log (which every
    write of the site adds to) are full."""
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA page_count")
        (pages,) = cursor.fetchone()
        cursor.execute(f"PRAGMA max_page_count = {pages + SPARE_PAGES}")
    try:
        _fill(_session)
        _fill(_audit)
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA max_page_count = 1073741823")


def _assert_try_again(response: Any, text: str) -> None:
    assert response.status_code == 503, response.content[:500]
    assert response["Retry-After"].isdigit()
    assert text in response.content.decode()


@SQLITE_DISK
def test_a_full_disk_answers_a_page_write_with_try_again_in_russian(client, organiser):
    client.force_login(organiser)
    known = Tournament.objects.count()
    with full_disk():
        response = client.post(
            reverse("tournaments:new"),
            {"name": "Кубок", "ruleset": "fiim"},
            HTTP_ACCEPT_LANGUAGE="ru",
        )
    _assert_try_again(response, "закончилось место на диске")
    assert "Попробуйте ещё раз" in response.content.decode()
    assert "<h1>Нет места на диске</h1>" in response.content.decode()
    assert Tournament.objects.count() == known  # nothing half-written


@SQLITE_DISK
def test_a_full_disk_answers_an_api_write_with_try_again_in_json(client, tournament, make_user):
    player = make_user("Scripted")
    _token, key = token_create(user=player, name="script")
    with full_disk():
        response = client.post(
            f"/api/tournaments/{tournament.slug}/applications",
            "",
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {key}",
        )
    _assert_try_again(response, "run out of disk space")
    body = json.loads(response.content)
    assert set(body) >= {"detail", "errors"} and "Try again" in body["detail"]
    assert not Registration.objects.filter(user=player).exists()


@SQLITE_DISK
def test_a_full_disk_answers_a_sign_in_with_try_again(client, make_user):
    make_user("Host")
    with full_disk():
        response = client.post(
            reverse("accounts:login"), {"username": "host", "password": "secret-pass-1"}
        )
    _assert_try_again(response, "run out of disk space")
    assert "_auth_user_id" not in client.session
    # once there is room again, the same sign-in goes through
    response = client.post(
        reverse("accounts:login"), {"username": "host", "password": "secret-pass-1"}
    )
    assert response.status_code == 302
    assert "_auth_user_id" in client.session


@pytest.mark.parametrize(
    "exc",
    [
        OperationalError("database or disk is full"),
        OperationalError('could not extend file "base/16384/2619": No space left on device'),
        OSError(errno.ENOSPC, "No space left on device"),
        OSError(errno.EDQUOT, "Disk quota exceeded"),
    ],
    ids=["sqlite", "postgresql", "file", "quota"],
)
def test_a_full_disk_is_told_apart_and_answered_with_try_again(exc):
    assert is_disk_full(exc) and is_retryable(exc)


def test_other_file_errors_are_not_a_full_disk():
    assert not is_retryable(OSError(errno.EACCES, "Permission denied"))
    assert not is_retryable(OperationalError("no such table: games_game"))


def test_a_full_disk_met_outside_a_view_is_answered_with_try_again(rf):
    """The session saved by its middleware after the view, for one: the site's 500
    handler answers a full disk with the 503 too."""
    request = rf.post("/accounts/login/")
    try:
        raise OperationalError("database or disk is full")
    except OperationalError:
        response = server_error(request)
    _assert_try_again(response, "run out of disk space")
    try:
        raise OperationalError("no such table: django_session")
    except OperationalError:
        assert server_error(request).status_code == 500
