from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_a_russian_browser_gets_the_page_in_russian(client, tournament):
    page = client.get(tournament.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert '<html lang="ru">' in page
    assert "Участники турнира" in page
    assert "Заявки на участие, ожидающие подтверждения" in page
    assert "Заявок, ожидающих решения, нет." in page
    assert "Настройки стола" in page
    assert "Participants" not in page


def test_an_english_browser_gets_english(client, tournament):
    page = client.get(tournament.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Applications awaiting confirmation" in page
    assert "Участники турнира" not in page


def test_the_language_switch_keeps_the_choice(client, tournament):
    response = client.post(
        reverse("set_language"), {"language": "ru", "next": tournament.get_absolute_url()}
    )
    assert response.status_code == 302
    page = client.get(tournament.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Участники турнира" in page


def test_form_errors_are_translated(client, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("tournaments:new"),
        {"name": "Кубок", "ruleset": "fiim-online", "stars": "4"},
        HTTP_ACCEPT_LANGUAGE="ru",
    )
    assert "не может иметь больше 2 звёзд" in response.content.decode()
