"""A table judge runs a whole game on the console of a phone, reloads the page and
loses the connection in the middle, and submits the protocol the game produced;
a spectator's view never shows a role before the end."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from web import test_games_fixtures as fx

from mafiatab.console.models import GameLog
from mafiatab.games.models import Game, GameStatus

from .conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
two_tables = fx.two_tables

ROLE_WORDS = ("sheriff", "don", "black")


@pytest.fixture
def tournament(make_tournament: Any) -> Any:
    """An offline FIIM tournament (day 1 has a voting)."""
    return make_tournament(ruleset="fiim", platform="")


def _saved(page: Any) -> None:
    page.locator("[data-testid=sync]", has_text="saved").wait_for()


def _tap(page: Any, testid: str) -> None:
    page.click(f"[data-testid='{testid}']")
    _saved(page)


def _speaker(page: Any, seat: int) -> None:
    """Move the console to the speech of `seat`."""
    for _step in range(12):
        if page.locator("[data-testid=speaker]").inner_text().startswith(f"Speaks: {seat} "):
            return
        page.click("[data-action=next-speech]")
    raise AssertionError(f"seat {seat} never speaks")


def _vote(page: Any, counts: dict[int, int]) -> None:
    for seat, n in counts.items():
        for _i in range(n):
            page.click(f"[data-testid=plus-{seat}]")
    assert page.locator("[data-testid=send-vote]").is_enabled()
    _tap(page, "send-vote")


def _board_text(spectator: Any) -> str:
    spectator.reload()
    return spectator.locator("[data-testid=board]").inner_text().lower()


def test_a_judge_runs_a_whole_game_on_a_phone_and_submits_its_protocol(page, browser, two_tables):
    game = two_tables["game1"]
    slug = game.tournament.slug
    page.set_viewport_size({"width": 390, "height": 844})
    viewer = browser.new_context(locale="en-US", extra_http_headers={"Accept-Language": "en"})
    spectator = viewer.new_page()
    spectator.goto(page.live_url + reverse("console:spectator", args=[slug, game.pk]))

    log_in(page, two_tables["judge"].username)
    page.goto(page.live_url + reverse("games:my_tables", args=[slug]))
    page.click("[data-testid='console-Q1-T1']")
    for seat, role in enumerate(fx.ROLES, start=1):
        page.select_option(f"[data-testid=role-{seat}]", role)
    page.click("[data-testid=start-game]")
    page.locator("[data-testid=phase]", has_text="Day 1").wait_for()
    assert page.locator("[data-testid=seat-7]").inner_text().lower().count("don") == 1

    # Day 1: a foul, two nominations, a vote; the sum is checked before sending.
    foul = page.locator("[data-testid=foul-4]")
    box = foul.bounding_box()
    assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= 390
    _tap(page, "foul-4")
    _speaker(page, 1)
    _tap(page, "nominate-1-5")
    _speaker(page, 2)
    _tap(page, "nominate-2-9")
    page.click("[data-testid=plus-5]")
    assert not page.locator("[data-testid=send-vote]").is_enabled()
    assert "1 / 10" in page.locator("[data-testid=vote-sum]").inner_text()
    _vote(page, {5: 5, 9: 4})
    assert "Alpha5" in page.locator("[data-testid=seat-5]").inner_text()
    assert "left" in page.locator("[data-testid=seat-5]").inner_text()
    board = _board_text(spectator)
    assert "day 1" in board and "5 — 6" in board and "9 — 4" in board
    page.click("[data-action=send][data-type=night]")
    _saved(page)

    # A reload in the middle of the night loses nothing.
    page.reload()
    page.locator("[data-testid=phase]", has_text="Night 1").wait_for()
    _tap(page, "aim-7-1")
    page.click("[data-testid=aim-9-1]")
    _tap(page, "send-shots")
    _tap(page, "don_check-3")
    page.locator("[data-testid=answer-sheriff]", has_text="the judge nods").wait_for()
    _tap(page, "sheriff_check-9")
    page.locator("[data-testid=answer-black]", has_text="thumb down").wait_for()
    assert page.locator("[data-testid=answer-black] svg").count() == 1
    board = _board_text(spectator)
    assert not any(word in board for word in ROLE_WORDS), board
    page.click("[data-action=send][data-type=day]")
    _saved(page)

    # Day 2: the killed player's best move; the connection drops and comes back.
    page.locator("[data-testid=phase]", has_text="Day 2").wait_for()
    for seat in (7, 9, 2):
        page.click(f"[data-testid=best-move] [data-testid=pick-{seat}]")
    _tap(page, "send-best-move")
    page.context.set_offline(True)
    _speaker(page, 3)
    page.click("[data-testid=nominate-3-9]")
    page.locator("[data-testid=sync]", has_text="no connection").wait_for()
    assert page.locator(".c-pending").count() == 1
    page.context.set_offline(False)
    _saved(page)
    assert page.locator("[data-testid=nominations]").inner_text() == "Nominated: 9 (3)"
    _speaker(page, 4)
    _tap(page, "nominate-4-7")
    _vote(page, {9: 5, 7: 3})
    page.click("[data-action=send][data-type=night]")
    _saved(page)

    # Night 2 and day 3: an undo, then the single nominee leaves and red wins.
    _tap(page, "aim-7-2")
    _tap(page, "send-shots")
    page.click("[data-testid=undo]")
    _tap(page, "undo-yes")
    assert page.locator("[data-testid=send-shots]").count() == 1
    _tap(page, "aim-7-3")
    _tap(page, "send-shots")
    page.click("[data-action=send][data-type=day]")
    _saved(page)
    _speaker(page, 2)
    _tap(page, "nominate-2-7")
    board = _board_text(spectator)
    assert not any(word in board for word in ROLE_WORDS), board
    page.click("[data-action=send][data-type=night]")
    page.locator("[data-testid=result]", has_text="The red team wins.").wait_for()
    # The board refreshes itself: the result comes without a reload, the roles only
    # once the judge closes the game.
    spectator.locator("[data-testid=board-result]", has_text="The red team wins.").wait_for()
    assert spectator.locator("[data-testid^=board-role-]").count() == 0
    log = GameLog.objects.get()
    assert log.last_number == 20 and log.entries.filter(undone_by__isnull=False).count() == 1

    # Closing takes a confirmation; the protocol opens prefilled; the judge adds an
    # extra point and signs.
    page.click("[data-testid=close-game]")
    page.click("[data-testid=open-protocol]")
    page.wait_for_selector("#protocol-form")
    spectator.locator("[data-testid=board-role-7]").wait_for()
    assert spectator.locator("[data-testid=board-role-7]").text_content() == "don"
    board = spectator.locator("[data-testid=board]").inner_text().lower()
    assert "sheriff" in board and board.count("black") == 2
    assert page.locator("select[name=role_7]").input_value() == "don"
    page.select_option("select[name=extra1_seat]", "3")
    page.fill("input[name=extra1_points]", "0.3")
    page.fill("input[name=extra1_reason]", "found both blacks")
    page.get_by_text("No problems: the protocol can be signed.").wait_for()
    page.click("[data-testid=sign]")
    page.wait_for_selector("[data-testid=game-status]:has-text('submitted')")
    stored = Game.objects.get(pk=game.pk)
    assert stored.status == GameStatus.SUBMITTED and stored.winner == "red"
    assert stored.first_killed == 1 and stored.best_move == [7, 9, 2]
    assert [s.fouls for s in stored.seats.all()][3] == 1
    assert "Seat 1 nominates seat 5." in page.locator("[data-testid=game-log]").inner_text()
    viewer.close()


def test_a_reload_returns_to_the_same_speech_with_the_clock_still_running(page, two_tables):
    game = two_tables["game1"]
    log_in(page, two_tables["judge"].username)
    page.goto(page.live_url + reverse("console:console", args=[game.tournament.slug, game.pk]))
    for seat, role in enumerate(fx.ROLES, start=1):
        page.select_option(f"[data-testid=role-{seat}]", role)
    page.click("[data-testid=start-game]")
    page.locator("[data-testid=phase]", has_text="Day 1").wait_for()
    _speaker(page, 3)
    page.click("[data-action=timer-toggle]")
    page.locator(".c-clock", has_text="0:58").wait_for()

    page.reload()
    page.locator("[data-testid=phase]", has_text="Day 1").wait_for()
    assert page.locator("[data-testid=speaker]").inner_text().startswith("Speaks: 3 ")
    assert page.locator("[data-action=timer-toggle]").inner_text() == "Pause"
    page.locator(".c-clock", has_text="0:56").wait_for()
    page.click("[data-action=timer-toggle]")
    stopped = page.locator(".c-clock").inner_text()

    page.reload()
    page.locator("[data-testid=phase]", has_text="Day 1").wait_for()
    assert page.locator("[data-testid=speaker]").inner_text().startswith("Speaks: 3 ")
    assert page.locator(".c-clock").inner_text() == stopped
    assert page.locator("[data-action=timer-toggle]").inner_text() == "Start"
