from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from mafiatab.accounts.models import User

pytestmark = pytest.mark.django_db


def _signup(client, **fields):
    data = {
        "username": "newcomer",
        "nickname": "Newcomer",
        "city": "Kazan",
        "club": "Red Table",
        "password1": "a-long-passphrase-42",
        "password2": "a-long-passphrase-42",
    } | fields
    return client.post(reverse("accounts:signup"), data)


def test_sign_up_creates_the_account_and_logs_in(client, fast_passwords):
    response = _signup(client)
    assert response.status_code == 302
    user = User.objects.get(username="newcomer")
    assert (user.nickname, user.city, user.club) == ("Newcomer", "Kazan", "Red Table")
    page = client.get(reverse("tournaments:list"))
    assert "Newcomer" in page.content.decode()


def test_sign_up_refuses_a_nickname_taken_in_another_case(client, make_user):
    make_user("Shadow")
    response = _signup(client, nickname="SHADOW")
    assert response.status_code == 200
    assert "The nickname SHADOW is already taken." in response.content.decode()
    assert not User.objects.filter(username="newcomer").exists()


def test_sign_up_and_profile_refuse_a_nickname_no_protocol_could_hold(client, make_user):
    response = _signup(client, nickname="Sha\u202edow")
    assert response.status_code == 200
    assert "the nickname holds a bidirectional-formatting character" in response.content.decode()
    assert not User.objects.filter(username="newcomer").exists()
    user = make_user("Plain")
    client.force_login(user)
    client.post(reverse("accounts:profile"), {"nickname": "Plain\u2066", "city": "", "club": ""})
    user.refresh_from_db()
    assert user.nickname == "Plain"


def test_nicknames_are_unique_regardless_of_case_in_the_database(make_user):
    make_user("Lucky", username="one")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create(username="two", nickname="lUCKY")


def test_log_in_and_out(client, make_user):
    make_user("Misty")
    response = client.post(
        reverse("accounts:login"), {"username": "misty", "password": "secret-pass-1"}
    )
    assert response.status_code == 302
    assert client.get(reverse("accounts:profile")).status_code == 200
    client.post(reverse("accounts:logout"))
    assert client.get(reverse("accounts:profile")).status_code == 302


def test_profile_changes_nickname_city_and_club(client, make_user):
    user = make_user("Doc")
    client.force_login(user)
    response = client.post(
        reverse("accounts:profile"), {"nickname": "Doctor", "city": "Minsk", "club": "Noir"}
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert (user.nickname, user.city, user.club) == ("Doctor", "Minsk", "Noir")


def test_profile_refuses_someone_elses_nickname(client, make_user):
    make_user("Joker")
    user = make_user("Doc")
    client.force_login(user)
    response = client.post(reverse("accounts:profile"), {"nickname": "joker", "city": ""})
    assert "already taken" in response.content.decode()
    user.refresh_from_db()
    assert user.nickname == "Doc"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"username": "u" * 151}, "at most 150 characters"),
        ({"username": "bad name"}, "A login may hold only letters"),
        ({"email": "not-an-address"}, "Enter a valid email address"),
    ],
)
def test_an_account_the_sign_up_form_would_refuse_is_refused_by_the_command_too(
    capsys, monkeypatch, fields, message
):
    from mafiatab.cli import main

    monkeypatch.setenv("MAFIATAB_ADMIN_PASSWORD", "a-long-passphrase-42")
    argv = ["createsuperuser", "--username", "boss", "--nickname", "Boss", "--no-input"]
    for name, value in fields.items():
        argv += [f"--{name}", value]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not User.objects.exists()
