"""On a phone, a judge whose "Sign and submit" is refused sees the first problem at
once, named in Russian, without scrolling for it."""

from __future__ import annotations

import pytest
from django.urls import reverse
from web import test_games_fixtures as fx

from mafiatab.games.models import Game, GameStatus

from .conftest import WAIT_MS, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
two_tables = fx.two_tables

ROLES = ["red", "red", "sheriff", "red", "black", "red", "don", "red", "black", "red"]


def _in_viewport(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["height"] > 0 and box["y"] >= 0 and box["y"] + 20 <= height


def _comes_into_view(page, selector: str) -> bool:
    """True once `selector` is on the screen: a smooth scroll may take a moment."""
    for _i in range(50):
        if _in_viewport(page, selector):
            return True
        page.wait_for_timeout(100)
    return False


def test_after_a_refused_submit_a_phone_shows_the_first_problem_in_russian(
    browser, live_server, fast_passwords, two_tables
):
    context = browser.new_context(
        locale="ru-RU",
        extra_http_headers={"Accept-Language": "ru"},
        viewport={"width": 390, "height": 844},
    )
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.live_url = live_server.url
    game = two_tables["game1"]
    try:
        log_in(page, two_tables["judge"].username)
        page.goto(page.live_url + reverse("games:protocol", args=[game.tournament.slug, game.pk]))
        page.fill("input[name=date]", "2026-03-01")
        for seat, role in enumerate(ROLES, start=1):
            page.select_option(f"select[name=role_{seat}]", role)
        page.check("input[name=winner][value=red]", force=True)
        # far down the page: 0.6 to a winner needs the chief judge's approval
        page.select_option("select[name=extra1_seat]", "4")
        page.fill("input[name=extra1_points]", "0.6")
        page.fill("input[name=extra1_reason]", "хорошая речь")
        page.locator("[data-testid=sign]").click()
        page.wait_for_selector("[data-testid=form-error]")
        page.wait_for_function("window.scrollY > 0")

        assert Game.objects.get(pk=game.pk).status == GameStatus.DRAFT
        assert _comes_into_view(page, "#pb-extra1")
        problem = page.locator("#pb-extra1").inner_text()
        assert "согласия главного судьи" in problem and "chief_approved" not in problem
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height > 2 * 844  # the problem is far from the top of a long page
        page.screenshot(path="/tmp/protocol-refused-submit.png")

        # the list at the top names it, and links to it
        page.evaluate("window.scrollTo(0, 0)")
        item = page.locator("[data-testid=problem-list] li").first
        assert item.inner_text().startswith("Место 4, Доп. баллы от судьи (8.4): ")
        page.evaluate("window.scrollTo(0, 0)")
        item.locator("a").click()
        page.wait_for_function("window.scrollY > 0")
        assert _comes_into_view(page, "#pb-extra1")
    finally:
        context.close()


def test_a_cell_the_form_cannot_read_is_named_in_russian_on_a_phone(
    browser, live_server, fast_passwords, two_tables
):
    context = browser.new_context(
        locale="ru-RU",
        extra_http_headers={"Accept-Language": "ru"},
        viewport={"width": 390, "height": 844},
    )
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.live_url = live_server.url
    game = two_tables["game1"]
    try:
        log_in(page, two_tables["judge"].username)
        page.goto(page.live_url + reverse("games:protocol", args=[game.tournament.slug, game.pk]))
        page.fill("input[name=date]", "2026-03-01")
        for seat, role in enumerate(ROLES, start=1):
            page.select_option(f"select[name=role_{seat}]", role)
        page.check("input[name=winner][value=red]", force=True)
        # points without the seat they are for: a problem only the form sees
        page.fill("input[name=extra1_points]", "0.3")
        page.locator("[data-testid=sign]").click()
        page.wait_for_selector("[data-testid=form-error]")
        page.wait_for_function("window.scrollY > 0")

        assert Game.objects.get(pk=game.pk).status == GameStatus.DRAFT
        problem = page.locator("#pb-extra1").inner_text()
        assert "Укажите и место, и баллы." in problem
        assert "form." not in problem
        page.screenshot(path="/tmp/messages-shots/form-cell-problem.png")
        page.evaluate("window.scrollTo(0, 0)")
        item = page.locator("[data-testid=problem-list] li").first
        assert "укажите и место, и баллы" in item.inner_text()
        page.screenshot(path="/tmp/messages-shots/form-problem-list.png")
    finally:
        context.close()
