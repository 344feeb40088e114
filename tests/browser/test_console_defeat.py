"""A judge records a procedural defeat by mistake: the board tells the result but no
role, undo takes the defeat back, and closing the game (which shows the roles) takes a
second, explicit step."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from web import test_games_fixtures as fx

from mafiatab.console import services
from mafiatab.console.models import GameLog

from .conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
two_tables = fx.two_tables

ROLES = {"sheriff": 3, "don": 7, "black": [5, 9]}


@pytest.fixture
def tournament(make_tournament: Any) -> Any:
    return make_tournament(ruleset="fiim", platform="")


def _saved(page: Any) -> None:
    page.locator("[data-testid=sync]", has_text="saved").wait_for()


def test_a_mistaken_defeat_shows_no_role_and_is_undone(page, browser, two_tables):
    game = two_tables["game1"]
    slug = game.tournament.slug
    services.log_start(game=game, roles=ROLES, by=two_tables["judge"])
    page.set_viewport_size({"width": 390, "height": 844})
    viewer = browser.new_context(locale="en-US", extra_http_headers={"Accept-Language": "en"})
    spectator = viewer.new_page()
    spectator.goto(page.live_url + reverse("console:spectator", args=[slug, game.pk]))

    log_in(page, two_tables["judge"].username)
    page.goto(page.live_url + reverse("console:console", args=[slug, game.pk]))
    page.locator("[data-testid=phase]", has_text="Day 1").wait_for()
    page.click(".c-tools > summary")
    form = page.locator("[data-testid=defeat-form]")
    form.locator("select[name=team]").select_option("black")
    form.locator("input[name=reason]").fill("by mistake")
    form.locator("button[type=submit]").click()
    _saved(page)
    page.locator("[data-testid=close-game]").wait_for()
    assert page.locator("[data-testid=close-confirm]").is_hidden()

    # The public learns the result, not the roles.
    spectator.locator("[data-testid=board-result]", has_text="The red team wins.").wait_for()
    assert spectator.locator("[data-testid^=board-role-]").count() == 0
    assert "black" not in spectator.locator("[data-testid=board]").inner_text().lower()

    # The confirmation can be declined; undo takes the defeat back.
    page.click("[data-testid=close-game]")
    page.locator("[data-testid=close-confirm]").wait_for()
    page.click("[data-testid=close-cancel]")
    assert page.locator("[data-testid=close-confirm]").is_hidden()
    page.click("[data-testid=undo]")
    page.click("[data-testid=undo-yes]")
    _saved(page)
    page.locator("[data-testid=finish-form]").wait_for(state="hidden")
    spectator.locator("[data-testid=board-result]").wait_for(state="detached")
    log = GameLog.objects.get()
    assert log.last_number == 2 and not log.is_closed
    assert page.locator("[data-testid=log] li.c-undone").count() == 1
    viewer.close()
