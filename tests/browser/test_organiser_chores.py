"""An organiser's chores in Russian on a laptop screen (approving and checking in a
selection at once), and a forgotten password set again from the e-mail on a phone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from mafiatab.registrations.models import CheckIn, Status
from mafiatab.registrations.services import registration_apply

from .conftest import WAIT_MS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _tab(browser: Any, live_server: Any, width: int, height: int) -> Iterator[Any]:
    context = browser.new_context(
        locale="ru-RU",
        viewport={"width": width, "height": height},
        extra_http_headers={"Accept-Language": "ru"},
    )
    tab = context.new_page()
    tab.set_default_timeout(WAIT_MS)
    tab.live_url = live_server.url
    yield tab
    context.close()


@pytest.fixture
def laptop(browser: Any, live_server: Any, fast_passwords: None) -> Iterator[Any]:
    yield from _tab(browser, live_server, 1280, 800)


@pytest.fixture
def phone(browser: Any, live_server: Any, fast_passwords: None) -> Iterator[Any]:
    yield from _tab(browser, live_server, 390, 844)


def _log_in(tab: Any, username: str, password: str = "secret-pass-1") -> None:
    tab.goto(f"{tab.live_url}/accounts/login/")
    tab.fill("#id_username", username)
    tab.fill("#id_password", password)
    tab.click("main button[type=submit]")
    tab.wait_for_selector("[data-testid=current-user]")


def test_the_organiser_approves_and_checks_in_a_selection_in_russian(
    laptop, tournament, organiser, make_user
):
    for nick in ("Лис", "Сова", "Ёж"):
        registration_apply(
            tournament=tournament, user=make_user(nick, username=f"u{len(nick)}{nick}")
        )
    _log_in(laptop, organiser.username)
    laptop.goto(f"{laptop.live_url}/t/{tournament.slug}/registrations/")
    laptop.check("[data-testid='pending-Лис'] input[type=checkbox]")
    laptop.check("[data-testid='pending-Ёж'] input[type=checkbox]")
    laptop.click("text=Подтвердить выбранные")
    laptop.wait_for_selector("text=Подтверждены 2 заявки.")
    statuses = {r.nickname: r.status for r in tournament.registrations.all()}
    assert statuses == {"Лис": Status.APPROVED, "Ёж": Status.APPROVED, "Сова": Status.PENDING}

    laptop.check("[data-testid='participant-Лис'] input[type=checkbox]")
    laptop.check("[data-testid='participant-Ёж'] input[type=checkbox]")
    laptop.click("text=Отметить выбранных")
    laptop.wait_for_selector("text=2 участника отмечены на день 1.")
    assert CheckIn.objects.count() == 2


def test_a_player_sets_a_new_password_from_the_e_mail_on_a_phone(
    phone,
    smtp_server,
    make_user,
):
    make_user("Лис", username="lis", email="lis@example.org")
    phone.goto(f"{phone.live_url}/accounts/login/")
    phone.click("text=Забыли пароль?")
    phone.fill("#id_email", "lis@example.org")
    phone.click("text=Отправить ссылку")
    phone.wait_for_selector("text=Проверьте почту")
    (message,) = smtp_server.messages
    link = re.search(r"http://\S+", smtp_server.text(message))
    assert link is not None
    phone.goto(link.group(0))
    phone.fill("#id_new_password1", "a-fresh-secret-42")
    phone.fill("#id_new_password2", "a-fresh-secret-42")
    phone.click("text=Сохранить новый пароль")
    phone.wait_for_selector("text=Пароль изменён")
    _log_in(phone, "lis", "a-fresh-secret-42")
