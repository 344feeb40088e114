"""The console says what the phase is at an online table: day 1 has no voting (and
says so), an undo names the one event it takes back and asks once, the speaker line
follows a revote's defence and the last word of the seat voted out, and a day's single
nominee is told to leave with his last word as the night falls."""

from __future__ import annotations

import pytest
from django.urls import reverse
from web import test_games_fixtures as fx

from mafiatab.console.models import GameLog

from .conftest import log_in
from .test_console import _saved, _speaker, _tap, _vote

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
two_tables = fx.two_tables


def _speaks(page) -> str:
    return page.locator("[data-testid=speaker]").inner_text()


def test_the_console_names_the_phase_the_undo_and_the_single_nominee(page, two_tables):
    game = two_tables["game1"]
    slug = game.tournament.slug
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, two_tables["judge"].username)
    page.goto(page.live_url + reverse("console:console", args=[slug, game.pk]))
    for seat, role in enumerate(fx.ROLES, start=1):
        page.select_option(f"[data-testid=role-{seat}]", role)
    page.click("[data-testid=start-game]")
    page.locator("[data-testid=phase]", has_text="Day 1").wait_for()

    # Day 1 online: no nomination buttons, and a line that says why.
    assert page.locator("[data-action=nominate]").count() == 0
    told = page.locator("[data-testid=no-voting]").inner_text()
    assert "No nominations and no vote on day 1" in told

    # Two fouls; the undo names the last one, may be declined, and takes back one only.
    _tap(page, "foul-4")
    _tap(page, "foul-4")
    page.click("[data-testid=undo]")
    assert page.locator("[data-testid=undo-what]").inner_text() == "Undo: A foul to seat 4?"
    page.click("[data-testid=undo]")  # a second tap on the same button undoes nothing
    page.click("[data-testid=undo-no]")
    assert page.locator("[data-testid=undo-confirm]").is_hidden()
    log = GameLog.objects.get(game=game)
    assert log.entries.filter(undone_by__isnull=False).count() == 0
    page.click("[data-testid=undo]")
    page.click("[data-testid=undo-yes]")
    _saved(page)
    assert page.locator("[data-testid=undo-confirm]").is_hidden()
    assert log.entries.filter(undone_by__isnull=False).count() == 1
    assert page.locator("[data-testid=seat-4] .c-dot.on").count() == 1

    page.click("[data-action=send][data-type=night]")
    _saved(page)
    page.click("[data-testid=aim-5-1]")
    page.click("[data-testid=aim-7-2]")
    page.click("[data-testid=aim-9-1]")
    _tap(page, "send-shots")
    _tap(page, "don_check-3")
    _tap(page, "sheriff_check-7")
    page.click("[data-action=send][data-type=day]")
    _saved(page)

    # Day 2: a tie; the speaker line gives the tied seats' defence, then the last word
    # of the seat the revote sends out.
    page.locator("[data-testid=phase]", has_text="Day 2").wait_for()
    _speaker(page, 2)
    _tap(page, "nominate-2-1")
    _speaker(page, 3)
    _tap(page, "nominate-3-4")
    _vote(page, {1: 5, 4: 5})
    page.locator("[data-testid=vote] h3", has_text="Revote among the tied").wait_for()
    assert _speaks(page).startswith("Speaks: 1 ") and _speaks(page).endswith("· Defence")
    page.click("[data-action=next-speech]")
    assert _speaks(page).startswith("Speaks: 4 ") and _speaks(page).endswith("· Defence")
    _vote(page, {1: 7, 4: 3})
    assert _speaks(page).startswith("Speaks: 1 ") and _speaks(page).endswith("· Last word")
    assert page.locator(".c-timer-label").inner_text() == "Last word"
    page.click("[data-action=send][data-type=night]")
    _saved(page)

    # Night 2 kills seat 2; day 3 has a single nominee: the console says he leaves as the
    # night falls, and the night opens with his last word.
    for black in (5, 7, 9):
        page.click(f"[data-testid=aim-{black}-2]")
    _tap(page, "send-shots")
    page.click("[data-action=send][data-type=day]")
    _saved(page)
    page.locator("[data-testid=phase]", has_text="Day 3").wait_for()
    _speaker(page, 3)
    _tap(page, "nominate-3-6")
    single = page.locator("[data-testid=single-nominee]").inner_text()
    assert single.startswith("One nominee: player 6 ") and "leaves the table (last word)" in single
    page.click("[data-action=send][data-type=night]")
    _saved(page)
    page.locator("[data-testid=phase]", has_text="Night 3").wait_for()
    assert "Last word of player 6 " in page.locator("[data-testid=single-last-word]").inner_text()
    assert page.locator(".c-timer-label").inner_text() == "Last word · 6"
    page.click("[data-testid=single-last-word-timer]")
    assert page.locator("[data-testid=clock]").inner_text() == "1:00"
