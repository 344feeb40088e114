"""A streamer puts a table on air: the overlay follows the console within two seconds
without reloading, shows no role before the end (nor does the board), and the
director's private link shows the roles until the chief judge revokes it."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.urls import reverse
from web import test_games_fixtures as fx

from mafiatab.console import broadcast, services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
two_tables = fx.two_tables

ROLES = {"sheriff": 3, "don": 7, "black": [5, 9]}
#: The console's answer reaches the overlay within this (the issue's promise).
WITHIN_MS = 2000


@pytest.fixture
def tournament(make_tournament: Any) -> Any:
    return make_tournament(ruleset="fiim", platform="")


def _append(log: Any, judge: Any, event: dict[str, Any]) -> None:
    services.event_append(log=log, event=event, client_id=uuid.uuid4(), after=None, by=judge)


def test_the_overlay_follows_the_console_and_keeps_the_roles_for_the_director(
    page, browser, two_tables
):
    game, judge, chief = two_tables["game1"], two_tables["judge"], two_tables["chief"]
    slug = game.tournament.slug
    log = services.log_start(game=game, roles=ROLES, by=judge)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(page.live_url + reverse("console:overlay", args=[slug, game.pk]))
    page.locator("[data-testid=ov-seat-4]").wait_for()

    _append(log, judge, {"type": "foul", "seat": 4})
    page.locator("[data-testid=ov-fouls-4][aria-label$=': 1']").wait_for(timeout=WITHIN_MS)
    _append(log, judge, {"type": "nominate", "by": 1, "seat": 5})
    page.locator("[data-testid=ov-nominations]", has_text="5").wait_for(timeout=WITHIN_MS)
    assert page.locator(".ov-role").count() == 0

    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(page.live_url + reverse("console:spectator", args=[slug, game.pk]))
    _append(log, judge, {"type": "foul", "seat": 6})
    phone.locator("[data-testid=board-seat-6] [aria-label$=': 1']").wait_for(timeout=WITHIN_MS)
    assert phone.locator("[data-testid^=board-role]").count() == 0

    link = broadcast.director_link_create(tournament=game.tournament, by=chief)
    director = page.context.new_page()
    address = reverse("console:director_overlay", args=[slug, link.token, game.pk])
    director.goto(page.live_url + address)
    assert director.locator("[data-testid=ov-role-7]").inner_text().strip() != ""
    broadcast.director_link_revoke(link=link, by=chief)
    _append(log, judge, {"type": "foul", "seat": 8})  # the open page asks again: refused
    director.locator("[data-testid=ov-seat-1]").wait_for(state="detached")
    assert director.goto(page.live_url + address).status == 404
