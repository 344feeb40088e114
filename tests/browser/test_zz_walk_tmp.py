from __future__ import annotations
from typing import Any
import pytest
from django.urls import reverse
from web import test_games_fixtures as fx
from mafiatab.console import services
from .conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
two_tables = fx.two_tables
PHONE = {"width": 390, "height": 844}

@pytest.fixture
def tournament(make_tournament: Any) -> Any:
    return make_tournament(ruleset="fiim", platform="")

def _saved(page):
    page.locator("[data-testid=sync]", has_text="сохранено").wait_for()

def _speaker(page, seat):
    for _ in range(12):
        if page.locator("[data-testid=speaker]").inner_text().startswith(f"Говорит: {seat} "):
            return
        page.click("[data-action=next-speech]")
    raise AssertionError(page.locator("[data-testid=speaker]").inner_text())

def test_walk(browser, live_server, fast_passwords, two_tables):
    game = two_tables["game1"]
    services.log_start(game=game, roles={"sheriff": 3, "don": 7, "black": [5, 9]}, by=two_tables["judge"])
    ctx = browser.new_context(locale="ru-RU", extra_http_headers={"Accept-Language": "ru"}, viewport=PHONE)
    page = ctx.new_page(); page.set_default_timeout(15000); page.live_url = live_server.url
    url = live_server.url + reverse("console:console", args=[game.tournament.slug, game.pk])
    log_in(page, two_tables["judge"].username)
    page.goto(url)
    page.click("[data-testid=foul-4]"); _saved(page)
    page.wait_for_function("!!navigator.serviceWorker.controller")
    page.screenshot(path="/tmp/console-offline-1-online.png", full_page=True)
    ctx.set_offline(True)
    _speaker(page, 1); page.click("[data-testid=nominate-1-5]")
    _speaker(page, 2); page.click("[data-testid=nominate-2-9]")
    page.click("[data-testid=foul-6]")
    page.wait_for_timeout(300)
    page.screenshot(path="/tmp/console-offline-2-nominated.png", full_page=True)
    for _ in range(6): page.click("[data-testid=plus-5]")
    for _ in range(4): page.click("[data-testid=plus-9]")
    page.click("[data-testid=send-vote]")
    page.click("[data-action=send][data-type=night]")
    page.wait_for_timeout(300)
    page.screenshot(path="/tmp/console-offline-3-night.png", full_page=True)
    page.reload()
    page.wait_for_timeout(800)
    page.screenshot(path="/tmp/console-offline-4-reloaded.png", full_page=True)
    page.click(".c-tools summary")
    page.select_option("[data-testid=remove-form] select[name=seat]", "5")
    page.fill("[data-testid=remove-form] input[name=reason]", "оскорбления")
    page.click("[data-testid=remove-form] button[type=submit]")
    page.click(".c-tools summary")
    page.click("[data-testid=aim-7-1]"); page.click("[data-testid=aim-9-1]"); page.click("[data-testid=send-shots]")
    ctx.set_offline(False)
    page.locator("[data-testid=refused]").wait_for()
    page.screenshot(path="/tmp/console-offline-5-refused.png", full_page=True)
    page.click("[data-testid=refused] .c-settle-keep"); _saved(page)
    page.click(".c-logbox summary")
    page.screenshot(path="/tmp/console-offline-6-kept.png", full_page=True)
    page.click("[data-action=send][data-type=day]"); _saved(page)
    _speaker(page, 3)
    page.click("[data-action=timer-toggle]")
    page.wait_for_timeout(1500)
    page.screenshot(path="/tmp/console-offline-7-day2.png", full_page=False)
    c2 = browser.new_context(locale="ru-RU", extra_http_headers={"Accept-Language": "ru"}, viewport=PHONE)
    chief = c2.new_page(); chief.set_default_timeout(15000); chief.live_url = live_server.url
    log_in(chief, two_tables["chief"].username)
    chief.goto(url)
    chief.wait_for_timeout(1200)
    chief.screenshot(path="/tmp/console-offline-8-chief.png", full_page=False)
    print("CHIEF", chief.locator("[data-testid=speaker]").inner_text(), chief.locator(".c-clock").inner_text())
