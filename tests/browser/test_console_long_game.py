"""A table judge opens the console of a long game (150 events: the fouls and pauses
of three days) on a phone in Russian, and takes back its last event: the page shows
the game as it was before it, and the whole log is still there."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.urls import reverse
from web import test_games_fixtures as fx

from mafiatab.console import services
from mafiatab.console.models import GameLog

from .conftest import WAIT_MS, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
two_tables = fx.two_tables

#: Seat 3 sheriff, 7 don, 5 and 9 black (the fixtures' roles).
ROLES = {"sheriff": 3, "don": 7, "black": [5, 9]}
#: A game to day 3: seat 5 voted out, seat 1 shot, seat 9 voted out, seat 3 shot.
GAME: list[dict[str, Any]] = [
    {"type": "nominate", "by": 1, "seat": 5},
    {"type": "nominate", "by": 2, "seat": 9},
    {"type": "vote", "counts": [6, 4]},
    {"type": "night"},
    {"type": "shots", "by": {"7": 1, "9": 1}},
    {"type": "don_check", "seat": 3},
    {"type": "sheriff_check", "seat": 9},
    {"type": "day"},
    {"type": "best_move", "seats": [7, 9, 2]},
    {"type": "nominate", "by": 3, "seat": 9},
    {"type": "nominate", "by": 4, "seat": 7},
    {"type": "vote", "counts": [5, 3]},
    {"type": "night"},
    {"type": "shots", "by": {"7": 3}},
    {"type": "day"},
]
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def tournament(make_tournament: Any) -> Any:
    """An offline FIIM tournament (day 1 has a voting)."""
    return make_tournament(ruleset="fiim", platform="")


def _long_game() -> list[dict[str, Any]]:
    """150 events: the game with a time-out after each event but a vote or shots,
    two fouls of seats 4 and 6, pauses up to the 149th event, and on day 3 seat 2
    nominates seat 7."""
    events: list[dict[str, Any]] = []
    for event in GAME:
        events.append(event)
        if event["type"] not in ("vote", "shots"):
            events.append({"type": "pause", "seat": 2, "minutes": 1, "reason": "тайм-аут"})
    events += [{"type": "foul", "seat": seat} for seat in (4, 6, 4, 6)]
    while len(events) < 149:
        events.append({"type": "pause", "seat": 8, "minutes": 1, "reason": ""})
    return [*events, {"type": "nominate", "by": 2, "seat": 7}]


def test_a_judge_takes_back_the_last_event_of_a_long_game_on_a_phone(
    browser: Any, live_server: Any, two_tables: dict[str, Any]
) -> None:
    game, judge = two_tables["game1"], two_tables["judge"]
    log = services.log_start(game=game, roles=ROLES, by=judge)
    for event in _long_game():
        services.event_append(log=log, event=event, client_id=uuid.uuid4(), after=None, by=judge)
    context = browser.new_context(
        locale="ru-RU", extra_http_headers={"Accept-Language": "ru"}, viewport=PHONE
    )
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.live_url = live_server.url
    try:
        log_in(page, judge.username)
        page.goto(
            live_server.url + reverse("console:console", args=[game.tournament.slug, game.pk])
        )
        page.locator("[data-testid=phase]", has_text="День 3").wait_for()
        page.locator("[data-testid=nominations]", has_text="7 (2)").wait_for()
        assert page.locator("[data-testid=log] li").count() == 150

        page.click("[data-testid=undo]")
        page.click("[data-testid=undo-yes]")
        page.locator("[data-testid=sync]", has_text="сохранено").wait_for()
        page.locator("[data-testid=nominations]", has_text="7 (2)").wait_for(state="detached")
        assert page.locator("[data-testid=log] li.c-undone").count() == 1
        assert page.locator("[data-testid=log] li").count() == 151
        stored = GameLog.objects.get()
        assert (
            stored.last_number == 151
            and stored.entries.filter(undone_by__isnull=False).count() == 1
        )

        # The page read again from the server shows the same: day 3, nobody nominated,
        # and the seat shot at night 2 in his last word again (the nomination ended it).
        page.reload()
        page.locator("[data-testid=phase]", has_text="День 3").wait_for()
        assert page.locator("[data-testid=nominations]", has_text="7 (2)").count() == 0
        assert "Последнее слово" in page.locator("[data-testid=seat-3]").inner_text()
    finally:
        context.close()
