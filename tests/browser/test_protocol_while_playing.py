"""On a phone in Russian, a judge who signs the protocol of a game still played on the
judge console is told, at the top of the form, to close the game in the console
first; the form then offers no signature, only the way to the console."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse
from web import test_games_fixtures as fx
from web.test_console import GAME, ROLES

from mafiatab.console import services as console
from mafiatab.games.models import Game, GameStatus

from .conftest import WAIT_MS, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
two_tables = fx.two_tables

PLAYING_RU = "Эта игра ещё идёт на пульте судьи"


@pytest.fixture
def tournament(make_tournament):
    return make_tournament(ruleset="fiim", platform="")


def test_signing_a_game_still_played_on_the_console_is_refused_in_words(
    browser, live_server, fast_passwords, two_tables
):
    game, judge = two_tables["game1"], two_tables["judge"]
    context = browser.new_context(
        locale="ru-RU",
        extra_http_headers={"Accept-Language": "ru"},
        viewport={"width": 390, "height": 844},
    )
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.live_url = live_server.url
    url = page.live_url + reverse("games:protocol", args=[game.tournament.slug, game.pk])
    try:
        log_in(page, judge.username)
        page.goto(url)  # the form opened before the game began on the console
        page.locator("[data-testid=sign]").wait_for()
        log = console.log_start(game=game, roles=ROLES, by=judge)
        for event in GAME[:3]:
            console.event_append(log=log, event=event, client_id=uuid.uuid4(), after=None, by=judge)
        page.locator("[data-testid=sign]").click()
        error = page.locator("[data-testid=form-error]")
        error.wait_for()
        assert PLAYING_RU in error.inner_text()
        assert "закройте её на пульте" in error.inner_text()
        notice = page.locator("[data-testid=playing-notice]")
        assert PLAYING_RU in notice.inner_text()
        box = notice.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert page.locator("[data-testid=sign]").count() == 0
        assert Game.objects.get(pk=game.pk).status == GameStatus.DRAFT
        page.locator("[data-testid=playing-notice] a").click()
        page.wait_for_url("**/console/**")
        page.locator("[data-testid=phase]").wait_for()
    finally:
        context.close()
