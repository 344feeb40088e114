"""The account of a session is found by the accounts' backend; the session is still
checked against the account as Django checks it."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

BACKEND = "mafiatab.accounts.backends.AccountBackend"


def _signed_in_as(client) -> str | None:
    page = client.get(reverse("tournaments:list")).content.decode()
    if 'data-testid="current-user">' not in page:
        return None
    return page.split('data-testid="current-user">', 1)[1].split("<", 1)[0]


def test_a_person_who_logs_in_stays_signed_in_through_the_accounts_backend(client, make_user):
    user = make_user("Лис")
    response = client.post(
        reverse("accounts:login"), {"username": user.username, "password": "secret-pass-1"}
    )
    assert response.status_code == 302
    assert client.session["_auth_user_backend"] == BACKEND
    assert _signed_in_as(client) == "Лис"


def test_a_deactivated_account_is_signed_out(client, make_user):
    user = make_user("Doc")
    client.force_login(user, backend=BACKEND)
    assert _signed_in_as(client) == "Doc"
    user.is_active = False
    user.save()
    assert _signed_in_as(client) is None


def test_a_new_password_ends_the_other_sessions(client, make_user):
    user = make_user("Кэп")
    client.force_login(user, backend=BACKEND)
    user.set_password("another-secret-9")
    user.save()
    assert _signed_in_as(client) is None
