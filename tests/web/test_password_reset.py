"""Accounts by e-mail: an optional address at sign-up, a password reset sent through a
real SMTP server (aiosmtpd, started here on a free loopback port) and its link
followed to a new password, in both languages; the mail settings from the
environment; one word for the login everywhere."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.urls import reverse

from mafiatab.accounts.models import User
from mafiatab.settings import email_sender, email_settings

from .test_serve import ONCE, _env, _free_port, _one_line_refusal, _run

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "subject_word", "body_words"),
    [
        ("en", "A new password", ("Your login: lis", "open this link")),
        ("ru", "Новый пароль", ("Ваш логин: lis", "откройте эту ссылку")),
    ],
)
def test_a_forgotten_password_is_reset_through_the_link_sent_by_e_mail(
    client, smtp_server, make_user, language, subject_word, body_words
):
    make_user("Lis", email="lis@example.org")
    lang = {"HTTP_ACCEPT_LANGUAGE": language}
    login_page = client.get(reverse("accounts:login"), **lang).content.decode()
    assert reverse("accounts:password_reset") in login_page
    response = client.post(reverse("accounts:password_reset"), {"email": "LIS@example.org"}, **lang)
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:password_reset_done")

    (message,) = smtp_server.messages
    assert message["To"] == "lis@example.org"
    assert subject_word in message["Subject"]
    body = smtp_server.text(message)
    for words in body_words:
        assert words in body
    link = re.search(r"http://testserver(/\S+)", body)
    assert link is not None

    form = client.get(link.group(1), follow=True, **lang)
    assert 'name="new_password1"' in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "a-new-secret-42", "new_password2": "a-new-secret-42"},
        follow=True,
        **lang,
    )
    assert done.redirect_chain[-1][0] == reverse("accounts:password_reset_complete")
    client.logout()
    signed_in = client.post(
        reverse("accounts:login"), {"username": "lis", "password": "a-new-secret-42"}
    )
    assert signed_in.status_code == 302
    again = client.get(link.group(1), follow=True, **lang).content.decode()
    assert 'data-testid="invalid-link"' in again


def test_an_unknown_address_gets_the_same_answer_and_no_mail(client, smtp_server, make_user):
    make_user("Lis", email="lis@example.org")
    response = client.post(reverse("accounts:password_reset"), {"email": "fox@example.org"})
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert smtp_server.messages == []


def test_without_a_mail_server_the_reset_page_says_so_and_sends_nothing(
    client, settings, make_user, mailoutbox
):
    settings.EMAIL_CONFIGURED = False
    make_user("Lis", email="lis@example.org")
    page = client.get(reverse("accounts:password_reset"), HTTP_ACCEPT_LANGUAGE="ru")
    assert "Этот сайт не отправляет писем" in page.content.decode()
    response = client.post(reverse("accounts:password_reset"), {"email": "lis@example.org"})
    assert response.status_code == 200
    assert mailoutbox == []


def test_sign_up_takes_an_optional_e_mail_and_refuses_one_that_is_not(client, fast_passwords):
    data = {
        "username": "lis",
        "nickname": "Lis",
        "password1": "a-long-secret-42",
        "password2": "a-long-secret-42",
    }
    page = client.post(reverse("accounts:signup"), data | {"email": "not an address"})
    assert page.status_code == 200
    assert "Enter a valid email address." in page.content.decode()
    assert not User.objects.exists()
    client.post(reverse("accounts:signup"), data | {"email": "lis@example.org"})
    assert User.objects.get().email == "lis@example.org"
    client.logout()
    client.post(reverse("accounts:signup"), data | {"username": "fox", "nickname": "Fox"})
    assert User.objects.get(username="fox").email == ""


def test_the_login_is_called_login_on_every_form_in_both_languages(client, fast_passwords):
    for url in (reverse("accounts:login"), reverse("accounts:signup")):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
        assert 'for="id_username">Логин' in page and "Имя пользователя" not in page
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert 'for="id_username">Login' in page and "Username" not in page
    wrong = client.post(
        reverse("accounts:login"),
        {"username": "nobody", "password": "wrong-password"},
        HTTP_ACCEPT_LANGUAGE="ru",
    ).content.decode()
    assert "логин" in wrong and "имя пользователя" not in wrong
    similar = client.post(
        reverse("accounts:signup"),
        {
            "username": "lisitsa",
            "nickname": "Lis",
            "password1": "lisitsa1",
            "password2": "lisitsa1",
        },
        HTTP_ACCEPT_LANGUAGE="ru",
    ).content.decode()
    assert "похож на логин" in similar
    bad = client.post(
        reverse("accounts:signup"),
        {"username": "lis fox", "nickname": "Lis", "password1": "x", "password2": "x"},
        HTTP_ACCEPT_LANGUAGE="ru",
    ).content.decode()
    assert "Логин может содержать только" in bad


def test_the_mail_address_setting_is_read_or_refused_in_one_line():
    plain = email_settings("smtp://mail.example.org:2525")
    assert plain["EMAIL_HOST"] == "mail.example.org" and plain["EMAIL_PORT"] == 2525
    assert not plain["EMAIL_USE_TLS"] and not plain["EMAIL_USE_SSL"]
    tls = email_settings("smtps://club%40example.org:p%3Ass@smtp.example.org")
    assert tls["EMAIL_PORT"] == 465 and tls["EMAIL_USE_SSL"]
    assert tls["EMAIL_HOST_USER"] == "club@example.org" and tls["EMAIL_HOST_PASSWORD"] == "p:ss"
    assert email_settings("smtp+starttls://u:p@smtp.example.org:587")["EMAIL_USE_TLS"]
    assert email_settings("console://")["EMAIL_BACKEND"].endswith("console.EmailBackend")
    assert email_settings("")["EMAIL_BACKEND"].endswith("dummy.EmailBackend")
    for bad in ("mail.example.org:25", "http://x:1", "smtp://:25", "smtp://h:99999"):
        with pytest.raises(ImproperlyConfigured, match="MAFIATAB_EMAIL_URL"):
            email_settings(bad)
    with pytest.raises(ImproperlyConfigured) as refused:
        email_settings("imap://user:hunter2@mail.example.org")
    assert "hunter2" not in str(refused.value)
    assert email_sender("Mafia Club <club@example.org>") == "Mafia Club <club@example.org>"
    with pytest.raises(ImproperlyConfigured, match="MAFIATAB_EMAIL_FROM"):
        email_sender("the club")


@ONCE
@pytest.mark.parametrize("command", ["demo", "serve"])
def test_demo_and_serve_refuse_an_unusable_mail_address_in_one_line(tmp_path, command):
    env = _env(tmp_path, MAFIATAB_EMAIL_URL="smtp://mail.example.org:25x")
    result = _run([command, "--port", str(_free_port())], env)
    _one_line_refusal(result, "MAFIATAB_EMAIL_URL")


def test_the_profile_sets_the_e_mail_a_reset_is_sent_to(client, smtp_server, make_user):
    user = make_user("Lis")
    client.force_login(user)
    data = {"nickname": "Lis", "city": "", "club": ""}
    page = client.post(reverse("accounts:profile"), data | {"email": "lis@"}).content.decode()
    assert "Enter a valid email address." in page
    client.post(reverse("accounts:profile"), data | {"email": "lis@example.org"})
    user.refresh_from_db()
    assert user.email == "lis@example.org"
    client.logout()
    client.post(reverse("accounts:password_reset"), {"email": "lis@example.org"})
    assert [m["To"] for m in smtp_server.messages] == ["lis@example.org"]
