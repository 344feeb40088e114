"""The console at an online table (fiim-online): no voting on day 1, a first-night
miss, a tie that goes to a revote and a lift, an online removal, a time-out with its
timer, a fourth foul, and a procedural defeat that ends the game."""

from __future__ import annotations

import pytest
from django.urls import reverse
from web import test_games_fixtures as fx

from .conftest import WAIT_MS, log_in
from .test_console import _saved, _speaker, _tap, _vote

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
two_tables = fx.two_tables


def test_an_online_game_with_a_revote_a_lift_removals_and_a_defeat(page, two_tables):
    game = two_tables["game1"]
    slug = game.tournament.slug
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, two_tables["judge"].username)
    page.goto(page.live_url + reverse("console:console", args=[slug, game.pk]))
    for seat, role in enumerate(fx.ROLES, start=1):
        page.select_option(f"[data-testid=role-{seat}]", role)
    page.click("[data-testid=start-game]")
    page.locator("[data-testid=phase]", has_text="Day 1").wait_for()
    assert page.locator(".c-timer-label").inner_text() == "Zero night"

    # Day 1 online: no voting, only fouls and the night.
    for _i in range(3):
        _tap(page, "foul-4")
    assert "c-three" in (page.locator("[data-testid=seat-4]").get_attribute("class") or "")
    assert page.locator("[data-testid=loses-4]").inner_text() == "no speech"
    assert page.locator("[data-action=nominate]").count() == 0
    page.click("[data-action=send][data-type=night]")
    _saved(page)

    # Night 1: the blacks shoot different seats, a miss; both checks.
    page.click("[data-testid=aim-5-1]")
    page.click("[data-testid=aim-7-2]")
    page.click("[data-testid=aim-9-1]")
    _tap(page, "send-shots")
    assert "7 shoots 2" in page.locator("[data-testid=panel]").inner_text()
    _tap(page, "don_check-3")
    _tap(page, "sheriff_check-7")
    page.locator("[data-testid=answer-black]").wait_for()
    page.click("[data-action=send][data-type=day]")
    _saved(page)

    # Day 2: no best move after a miss; a tie, the same tie again, the lift.
    page.locator("[data-testid=phase]", has_text="Day 2").wait_for()
    assert page.locator("[data-testid=best-move]").count() == 0
    _speaker(page, 2)
    _tap(page, "nominate-2-5")
    _speaker(page, 3)
    _tap(page, "nominate-3-6")
    _vote(page, {5: 5, 6: 5})
    page.locator("[data-testid=vote] h3", has_text="Revote among the tied").wait_for()
    page.click("[data-testid=defence-6]")
    assert page.locator("[data-testid=clock]").inner_text() == "0:30"
    _vote(page, {5: 5, 6: 5})
    lift = page.locator("[data-testid=lift]")
    for _i in range(6):
        lift.locator("[data-d='1']").click()
    assert page.locator("[data-testid=count-lift]").inner_text() == "6"
    lift.locator("[data-action=lift]").click()
    _saved(page)
    for seat in (5, 6):
        assert "left" in page.locator(f"[data-testid=seat-{seat}]").inner_text()

    # The tools: an online removal, a time-out with its timer, a fourth foul.
    page.click(".c-tools summary")
    form = page.locator("[data-testid=remove-form]")
    form.locator("select[name=seat]").select_option("2")
    form.locator("input[name=reason]").fill("left the call")
    form.locator("input[name=online]").check()
    form.locator("button[type=submit]").click()
    _saved(page)
    assert "left" in page.locator("[data-testid=seat-2]").inner_text()
    pause = page.locator("[data-testid=pause-form]")
    pause.locator("select[name=seat]").select_option("8")
    pause.locator("input[name=reason]").fill("lost connection")
    pause.locator("button[type=submit]").click()
    _saved(page)
    assert page.locator("[data-testid=clock]").inner_text() == "4:00"
    _tap(page, "foul-4")
    assert "left" in page.locator("[data-testid=seat-4]").inner_text()

    # A foul given with no connection, the page closed: it waits in the browser and is
    # sent when the console is opened again.
    console_url = page.url
    page.context.set_offline(True)
    page.click("[data-testid=foul-8]")
    page.locator("[data-testid=sync]", has_text="no connection").wait_for()
    context = page.context
    page.close()
    context.set_offline(False)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(console_url)
    page.locator("[data-testid=seat-8] .c-dot.on").wait_for()
    _saved(page)
    assert page.locator("[data-testid=seat-8] .c-dot.on").count() == 1

    # A procedural defeat of the black team ends the game.
    page.click(".c-tools summary")
    defeat = page.locator("[data-testid=defeat-form]")
    defeat.locator("select[name=team]").select_option("black")
    defeat.locator("input[name=reason]").fill("peeking")
    defeat.locator("button[type=submit]").click()
    page.locator("[data-testid=result]", has_text="The red team wins.").wait_for()
    assert not page.locator(".c-tools").is_visible()
    page.click(".c-logbox summary")
    log = page.locator("[data-testid=log]").inner_text()
    assert "Seat 2 is removed: left the call. (online addendum)" in log
    assert "Time-out for seat 8: 4 minutes (lost connection)." in log
    assert "Procedural defeat of the black team: peeking." in log
    assert "Vote: 5 — 5; 6 — 5." in log
    assert "Lift vote for seats 5, 6: 6 for all of them leaving." in log


def test_the_ready_check_folds_up_once_the_game_has_begun_and_can_be_opened(page, two_tables):
    game = two_tables["game1"]
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, two_tables["judge"].username)
    page.goto(page.live_url + reverse("console:console", args=[game.tournament.slug, game.pk]))
    for seat, role in enumerate(fx.ROLES, start=1):
        page.select_option(f"[data-testid=role-{seat}]", role)
    page.click("[data-testid=start-game]")
    page.locator("[data-testid=phase]", has_text="Day 1").wait_for()
    ready = page.locator("[data-testid=ready-check]")
    assert ready.evaluate("d => d.open")  # before the first speech: open, nobody is ready
    _tap(page, "foul-4")
    _saved(page)
    assert not ready.evaluate("d => d.open")
    assert ready.bounding_box()["height"] < 80
    ready.locator("summary").click()  # still there for the judge who looks for it
    assert ready.evaluate("d => d.open")
    _tap(page, "foul-6")
    _saved(page)
    assert ready.evaluate("d => d.open")  # folded once, not against the judge's hand
