"""On a phone (390x844, Russian): the boxes a judge ticks are touch targets of 24 px or
more with their labels beside them, the spectators' board keeps a table's label on one
line, and a player's points page shows its points column without scrolling."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from web import test_games_fixtures as fx
from web.test_games_fixtures import complete_data

from mafiatab.games.services import protocol_confirm, protocol_save

from .conftest import WAIT_MS, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
two_tables = fx.two_tables

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser: Any, live_server: Any, fast_passwords: None) -> Any:
    context = browser.new_context(
        locale="ru-RU", viewport=PHONE, extra_http_headers={"Accept-Language": "ru"}
    )
    tab = context.new_page()
    tab.set_default_timeout(WAIT_MS)
    tab.live_url = live_server.url
    yield tab
    context.close()


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


def test_the_ready_checks_and_the_protocols_boxes_are_touch_targets_beside_their_labels(
    phone, two_tables
):
    game = two_tables["game1"]
    slug = game.tournament.slug
    log_in(phone, two_tables["judge"].username)
    phone.goto(phone.live_url + reverse("console:console", args=[slug, game.pk]))
    for seat, role in enumerate(fx.ROLES, start=1):
        phone.select_option(f"[data-testid=role-{seat}]", role)
    phone.click("[data-testid=start-game]")
    phone.locator("[data-testid=ready-check]").wait_for()
    boxes = phone.locator("[data-testid=ready-check] input[type=checkbox]")
    assert boxes.count() == 40
    for i in range(boxes.count()):
        box = boxes.nth(i).bounding_box()
        assert box["width"] >= 24 and box["height"] >= 24, box

    phone.goto(phone.live_url + reverse("games:protocol", args=[slug, game.pk]))
    for name in ("rem1_online", "rem1_waived"):
        tick = _box(phone, f"input[name={name}]")
        label = _box(phone, f"label.check:has(input[name={name}])")
        assert tick["width"] >= 24 and tick["height"] >= 24, tick
        # the box opens its label's line, the words follow on its right
        assert tick["x"] - label["x"] < 4, (tick, label)
        bottom = label["y"] + label["height"]
        assert label["y"] <= tick["y"] and tick["y"] + tick["height"] <= bottom


def test_the_board_keeps_the_tables_label_on_one_line(phone, two_tables):
    game = two_tables["game1"]
    phone.goto(phone.live_url + reverse("console:spectator", args=[game.tournament.slug, game.pk]))
    lines = phone.locator("[data-testid=board-label]").evaluate("e => e.getClientRects().length")
    assert lines == 1


def test_a_players_points_page_shows_the_points_column_on_a_phone(phone, two_tables):
    game = two_tables["game1"]
    protocol_save(
        game=game, data=complete_data(game), by=two_tables["judge"], base_version=1, submit=True
    )
    protocol_confirm(game=game, by=two_tables["chief"])
    nickname = game.seats.get(number=3).player
    phone.goto(phone.live_url + reverse("standings:player", args=[game.tournament.slug, nickname]))
    table = phone.locator("[data-testid=explanation]")
    fits = table.evaluate("t => t.parentElement.scrollWidth <= t.parentElement.clientWidth")
    assert fits
    points = _box(phone, "[data-testid=explanation] tbody td.num")
    assert points["x"] + points["width"] <= PHONE["width"]
