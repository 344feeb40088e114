"""A judge runs a game on a phone at a dead spot: the network is cut for several
events and a reload; what he enters shows at once, marked not yet saved, and reaches
the server in order when the network returns; an event the server refuses is shown
with its rule and the judge decides about the events after it; the chief judge's
other device continues at the same speech."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.urls import reverse
from web import test_games_fixtures as fx

from mafiatab.console import services
from mafiatab.console.models import EntryKind, GameLog, LogEntry

from .conftest import WAIT_MS, log_in
from .test_console import _saved, _speaker, _tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
two_tables = fx.two_tables

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def tournament(make_tournament: Any) -> Any:
    """An offline FIIM tournament (day 1 has a voting)."""
    return make_tournament(ruleset="fiim", platform="")


def _events() -> list[str]:
    return [
        e.event["type"]
        for e in LogEntry.objects.filter(kind=EntryKind.EVENT, undone_by__isnull=True).order_by(
            "number"
        )
    ]


def _place_saved(log: GameLog, seat: int, *, running: bool = False) -> None:
    """Wait until the console has kept its place at `seat`'s speech on the server."""
    for _i in range(150):
        log.refresh_from_db()
        if log.place.get("seat") == seat and log.place["timer"]["running"] == running:
            return
        time.sleep(0.1)
    raise AssertionError(f"the place is {log.place}, not seat {seat}")


def _remove(page: Any, seat: int) -> None:
    page.click(".c-tools summary")
    page.select_option("[data-testid=remove-form] select[name=seat]", str(seat))
    page.fill("[data-testid=remove-form] input[name=reason]", "insults")
    page.click("[data-testid=remove-form] button[type=submit]")
    page.click(".c-tools summary")


def test_a_game_goes_on_with_the_network_cut_and_a_reload_and_reaches_the_server(
    page, browser, two_tables
):
    game = two_tables["game1"]
    services.log_start(
        game=game, roles={"sheriff": 3, "don": 7, "black": [5, 9]}, by=two_tables["judge"]
    )
    url = page.live_url + reverse("console:console", args=[game.tournament.slug, game.pk])
    page.set_viewport_size(PHONE)
    log_in(page, two_tables["judge"].username)
    page.goto(url)
    _tap(page, "foul-4")
    # The service worker keeps the page: it controls the console before the network goes.
    page.wait_for_function("!!navigator.serviceWorker.controller")

    # The page has the server's answer for both fouls before the network goes (an
    # answer lost on the way would leave the foul in the queue, not on the screen's log).
    _tap(page, "foul-6")
    assert _events() == ["foul", "foul"]
    page.context.set_offline(True)
    page.wait_for_function("!navigator.onLine")
    # An undo without a connection goes back to the state kept from before the foul.
    page.click("[data-testid=undo]")
    page.click("[data-testid=undo-yes]")
    assert page.locator("[data-testid=seat-6] .c-dot.on").count() == 0
    assert page.locator("[data-testid=seat-4] .c-dot.on").count() == 1
    _speaker(page, 1)
    page.click("[data-testid=nominate-1-5]")
    _speaker(page, 2)
    page.click("[data-testid=nominate-2-9]")
    nominations = page.locator("[data-testid=nominations]").inner_text()
    assert "5 (1)" in nominations and "9 (2) · not yet saved" in nominations
    # The vote screen offers the nominees entered offline.
    assert page.locator("[data-testid=vote]").inner_text().startswith("Vote · not yet saved")
    for _i in range(6):
        page.click("[data-testid=plus-5]")
    for _i in range(4):
        page.click("[data-testid=plus-9]")
    page.click("[data-testid=send-vote]")
    seat5 = page.locator("[data-testid=seat-5]")
    assert "left" in seat5.inner_text() and "c-unsaved" in (seat5.get_attribute("class") or "")
    page.click("[data-action=send][data-type=night]")
    page.locator("[data-testid=phase]", has_text="Night 1 · not yet saved").wait_for()
    page.locator("[data-testid=sync]", has_text="no connection").wait_for()
    assert _events() == ["foul", "foul"]  # nothing entered offline reached the server

    # A reload at the dead spot: the page, the state and the queue come back.
    page.reload()
    page.locator("[data-testid=phase]", has_text="Night 1 · not yet saved").wait_for()
    assert page.locator(".c-pending").count() == 5
    assert page.locator("[data-testid=seat-6] .c-dot.on").count() == 0
    assert "left" in page.locator("[data-testid=seat-5]").inner_text()
    # Still offline: a removal the rules refuse (seat 5 has left), then the shots.
    _remove(page, 5)
    page.click("[data-testid=aim-7-1]")
    page.click("[data-testid=aim-9-1]")
    page.click("[data-testid=send-shots]")
    # Chromium's offline switch can let the queue's head (the undo) through while the
    # page reloads; the server then holds it by its id and its second sending below
    # gets the same answer. Nothing after it has reached the server.
    assert _events() in (["foul", "foul"], ["foul"])

    # The network returns: the events go in order; the refused one stops the queue,
    # is shown with its rule, and the judge sends the event made after it.
    page.context.set_offline(False)
    refused = page.locator("[data-testid=refused]")
    refused.wait_for()
    assert "seat 5 has left the game" in refused.inner_text()
    assert "1 events were entered after it" in refused.inner_text()
    assert _events() == ["foul", "nominate", "nominate", "vote", "night"]
    page.click("[data-testid=refused] .c-settle-keep")
    _saved(page)
    assert _events() == ["foul", "nominate", "nominate", "vote", "night", "shots"]
    assert LogEntry.objects.filter(kind=EntryKind.UNDO).count() == 1
    assert page.locator("[data-testid=dropped]").text_content().startswith("✕ Removal: seat 5")
    assert page.locator("[data-testid=refused]").count() == 0

    # Once more, and this time the judge discards what came after the refused event.
    page.context.set_offline(True)
    _remove(page, 5)
    page.click("[data-testid=don_check-3]")
    page.locator("[data-testid=answer-sheriff]").wait_for()
    page.context.set_offline(False)
    page.locator("[data-testid=refused]").wait_for()
    page.click("[data-testid=refused] .c-settle-drop")
    _saved(page)
    assert _events()[-1] == "shots"
    assert "discarded by the judge" in page.locator("[data-testid=log]").text_content()
    page.locator("[data-testid=don_check-3]").wait_for()

    # Day 2: the judge moves to seat 3's speech and starts the clock.
    page.click("[data-action=send][data-type=day]")
    page.locator("[data-testid=phase]", has_text="Day 2").wait_for()
    _saved(page)
    _speaker(page, 3)
    page.click("[data-action=timer-toggle]")
    log = GameLog.objects.get()
    _place_saved(log, 3, running=True)
    assert log.place["day"] == "d2"
    # A reload on day 2 stays at seat 3's speech.
    page.reload()
    page.locator("[data-testid=speaker]", has_text="Speaks: 3 ").wait_for()

    # The chief judge's other device continues at the same speech, the clock running.
    other = browser.new_context(
        locale="en-US", extra_http_headers={"Accept-Language": "en"}, viewport=PHONE
    )
    chief = other.new_page()
    chief.set_default_timeout(WAIT_MS)
    chief.live_url = page.live_url
    log_in(chief, two_tables["chief"].username)
    chief.goto(url)
    chief.locator("[data-testid=speaker]", has_text="Speaks: 3 ").wait_for()
    assert chief.locator("[data-action=timer-toggle]").inner_text() == "Pause"
    minutes, seconds = chief.locator(".c-clock").inner_text().split(":")
    assert 20 < int(minutes) * 60 + int(seconds) <= 60  # the clock ran on meanwhile
    # The chief moves on to the next speech; the judge's device follows it with the
    # answer to its next event.
    chief.click("[data-action=next-speech]")
    _place_saved(log, 4)
    _tap(page, "foul-2")
    page.locator("[data-testid=speaker]", has_text="Speaks: 4 ").wait_for()
    other.close()
