"""The console offers what the rules of real games allow: a foul to the seat giving
its last word after the vote, and the don's check of a seat that has left."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from web import test_games_fixtures as fx

from mafiatab.console.models import GameLog

from .conftest import log_in
from .test_console import _speaker, _tap, _vote

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
two_tables = fx.two_tables


@pytest.fixture
def tournament(make_tournament: Any) -> Any:
    """An offline FIIM tournament (day 1 has a voting)."""
    return make_tournament(ruleset="fiim", platform="")


def test_a_foul_in_the_last_word_and_a_check_of_the_seat_voted_out(page, two_tables):
    game = two_tables["game1"]
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, two_tables["judge"].username)
    page.goto(page.live_url + reverse("console:console", args=[game.tournament.slug, game.pk]))
    for seat, role in enumerate(fx.ROLES, start=1):
        page.select_option(f"[data-testid=role-{seat}]", role)
    page.click("[data-testid=start-game]")
    page.locator("[data-testid=phase]", has_text="Day 1").wait_for()
    _speaker(page, 1)
    _tap(page, "nominate-1-4")
    _speaker(page, 2)
    _tap(page, "nominate-2-6")
    _vote(page, {4: 6, 6: 4})

    # Seat 4 has left and gives his last word: he can still be given a foul.
    tile = page.locator("[data-testid=seat-4]")
    assert "left" in tile.inner_text() and "Last word" in tile.inner_text()
    _tap(page, "foul-4")
    assert tile.locator(".c-dot.on").count() == 1
    assert page.locator("[data-testid=foul-6]").count() == 1
    assert "Seat 4 leaves." in page.locator("[data-testid=log]").text_content()
    assert page.locator("[data-testid=vote-result]").inner_text() == (
        "Vote: 4 — 6; 6 — 4. Seat 4 leaves."
    )

    # At night his last word is over; the don may check him all the same.
    page.click("[data-action=send][data-type=night]")
    page.locator("[data-testid=phase]", has_text="Night 1").wait_for()
    assert page.locator("[data-testid=foul-4]").count() == 0
    # A shot may name the seat that has left (a miss): it is offered, marked as gone.
    assert "c-gone-seat" in (page.locator("[data-testid=aim-7-4]").get_attribute("class") or "")
    page.click("[data-testid=aim-7-1]")
    page.click("[data-testid=aim-9-1]")
    page.click("[data-testid=aim-5-1]")
    _tap(page, "send-shots")
    checks = page.locator("[data-testid=don_check] [data-action=don_check]")
    texts = checks.all_inner_texts()
    assert [int(b.split()[0]) for b in texts] == [1, 2, 3, 4, 5, 6, 8, 9, 10]
    # the seat that has left (4, voted out) is offered, marked as gone
    assert [int(b.split()[0]) for b in texts if "left" in b] == [4]
    _tap(page, "don_check-4")
    page.locator("[data-testid=answer-not_sheriff]").wait_for()
    events = [e.event for e in GameLog.objects.get().entries.order_by("number")]
    assert events[-1] == {"type": "don_check", "seat": 4}
    assert {"type": "foul", "seat": 4} in events
