"""A table judge saves a half-filled protocol on a phone, in Russian: the draft keeps
what he typed (no date, no winner yet) and the form shows it again when reopened."""

from __future__ import annotations

import pytest
from django.urls import reverse
from web import test_games_fixtures as fx

from mafiatab.games.conversion import game_data
from mafiatab.games.models import Game

from .conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
two_tables = fx.two_tables

ROLES = ["red", "red", "sheriff", "red", "black", "red", "don", "red", "black", "red"]


def test_a_judge_saves_a_draft_and_finds_it_again(page, two_tables):
    game = two_tables["game1"]
    slug = game.tournament.slug
    page.context.add_cookies([{"name": "django_language", "value": "ru", "url": page.live_url}])
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, two_tables["judge"].username)
    tables = page.live_url + reverse("games:my_tables", args=[slug])
    page.goto(tables)
    page.click("[data-testid='my-table-Q1-T1']")
    page.wait_for_selector("#protocol-form")
    assert page.locator("html").get_attribute("lang") == "ru"
    for seat, role in enumerate(ROLES, start=1):
        page.select_option(f"select[name=role_{seat}]", role)
    page.select_option("select[name=extra1_seat]", "3")
    page.fill("input[name=extra1_points]", "0.3")
    page.fill("input[name=extra1_reason]", "нашёл обоих чёрных")
    saved = game.version
    with page.expect_navigation():
        page.locator("button[name=action][value=save]").last.click()
    for _i in range(50):  # the page has come back: the save is stored (a busy machine)
        if Game.objects.get(pk=game.pk).version > saved:
            break
        page.wait_for_timeout(100)

    data = game_data(Game.objects.get(pk=game.pk))
    assert "date" not in data and data["winner"] is None
    assert [s["role"] for s in data["seats"]] == ROLES
    assert data["judge_extra"] == [
        {"seat": 3, "points": 0.3, "reason": "нашёл обоих чёрных", "chief_approved": False}
    ]
    assert data["voting"] == []

    page.goto(tables)
    page.click("[data-testid='my-table-Q1-T1']")
    page.wait_for_selector("#protocol-form")
    assert page.locator("input[name=extra1_points]").input_value() in ("0.3", "0,3")
    assert page.locator("input[name=extra1_reason]").input_value() == "нашёл обоих чёрных"
    assert page.locator("select[name=role_7]").input_value() == "don"
