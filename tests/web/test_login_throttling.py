"""Login throttling: repeated failures of one account from one address lock that pair
out for the cool-off; the login page says so in the reader's language."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

URL = "/accounts/login/"


def _login(client, password, *, username="misty", address="10.0.0.1", **extra):
    return client.post(
        reverse("accounts:login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        **extra,
    )


def _is_signed_in(client) -> bool:
    return client.get(reverse("accounts:profile")).status_code == 200


@pytest.fixture
def misty(make_user):
    return make_user("Misty")


def test_five_wrong_passwords_lock_the_account_out_even_for_the_right_one(client, misty):
    codes = [_login(client, f"wrong-{n}").status_code for n in range(4)]
    assert codes == [200] * 4  # the form again, with the usual error
    response = _login(client, "wrong-5")
    assert response.status_code == 429
    assert "Too many failed logins" in response.content.decode()
    assert "15 minutes" in response.content.decode()
    response = _login(client, "secret-pass-1")
    assert response.status_code == 429
    assert not _is_signed_in(client)


def test_the_lockout_is_per_account_and_address(client, misty, make_user):
    make_user("Other")
    for n in range(5):
        _login(client, f"wrong-{n}")
    assert _login(client, "secret-pass-1", address="10.0.0.2").status_code == 302
    client.logout()
    assert _login(client, "secret-pass-1", username="other").status_code == 302


def test_a_successful_login_starts_the_count_again(client, misty):
    for n in range(4):
        _login(client, f"wrong-{n}")
    assert _login(client, "secret-pass-1").status_code == 302
    client.logout()
    for n in range(4):
        assert _login(client, f"wrong-again-{n}").status_code == 200
    assert _login(client, "secret-pass-1").status_code == 302


def test_after_the_cool_off_the_right_password_works_again(client, misty):
    from axes.models import AccessAttempt

    for n in range(5):
        _login(client, f"wrong-{n}")
    AccessAttempt.objects.update(attempt_time=dt.datetime.now(dt.UTC) - dt.timedelta(minutes=16))
    assert _login(client, "secret-pass-1").status_code == 302
    assert _is_signed_in(client)


def test_the_lockout_message_is_in_russian_for_a_russian_reader(client, misty):
    for n in range(4):
        _login(client, f"wrong-{n}")
    response = _login(client, "wrong-5", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 429
    page = response.content.decode()
    assert "Слишком много неудачных попыток входа" in page
    assert "15 минут" in page


def test_behind_the_proxy_the_address_the_proxy_saw_is_counted(client, misty, settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    for n in range(5):
        _login(client, f"wrong-{n}", address="127.0.0.1", HTTP_X_FORWARDED_FOR="1.2.3.4")
    locked = _login(client, "secret-pass-1", address="127.0.0.1", HTTP_X_FORWARDED_FOR="1.2.3.4")
    assert locked.status_code == 429
    # A client cannot dodge the count by sending its own X-Forwarded-For: the proxy
    # appends the address it saw, and that last one counts.
    spoofed = _login(
        client, "secret-pass-1", address="127.0.0.1", HTTP_X_FORWARDED_FOR="9.9.9.9, 1.2.3.4"
    )
    assert spoofed.status_code == 429
    other = _login(client, "secret-pass-1", address="127.0.0.1", HTTP_X_FORWARDED_FOR="5.6.7.8")
    assert other.status_code == 302
