"""A table judge on a phone: two devices of the same judge write to one game, the
night's shots entered without a connection, and the speaker line through a revote
and a lift vote. A clash of positions is no rule: the waiting events are kept and
sent after what the other device recorded; the night shows its own shots; nobody
"speaks" a speech once the day's vote has begun."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest
from django.urls import reverse
from web import test_games_fixtures as fx
from web.test_console import GAME

from mafiatab.console import services
from mafiatab.console.models import EntryKind, GameLog, LogEntry

from .conftest import log_in
from .test_console import _saved, _speaker

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
two_tables = fx.two_tables

PHONE = {"width": 390, "height": 844}
ROLES = {"sheriff": 3, "don": 7, "black": [5, 9]}


@pytest.fixture
def tournament(make_tournament: Any) -> Any:
    """An offline FIIM tournament (day 1 has a voting)."""
    return make_tournament(ruleset="fiim", platform="")


def _events() -> list[str]:
    entries = LogEntry.objects.filter(kind=EntryKind.EVENT, undone_by__isnull=True)
    return [e.event["type"] for e in entries.order_by("number")]


def _open(page: Any, two_tables: dict[str, Any], *events: dict[str, Any]) -> GameLog:
    game = two_tables["game1"]
    log = services.log_start(game=game, roles=ROLES, by=two_tables["judge"])
    for event in events:
        _append(log, two_tables["judge"], event)
    page.set_viewport_size(PHONE)
    log_in(page, two_tables["judge"].username)
    page.goto(page.live_url + reverse("console:console", args=[game.tournament.slug, game.pk]))
    page.locator("[data-testid=phase]").wait_for()
    return log


def _until(page: Any, expression: str) -> None:
    # polled from here: the page's policy forbids the evaluated strings of a polling wait
    for _i in range(100):
        if page.evaluate(expression):
            return
        time.sleep(0.1)
    raise AssertionError(f"never true: {expression}")


def _go_offline(page: Any) -> None:
    """The service worker keeps the page before the network goes, then it goes."""
    _until(page, "!!navigator.serviceWorker.controller")
    page.context.set_offline(True)
    _until(page, "!navigator.onLine")


def _append(log: GameLog, judge: Any, event: dict[str, Any]) -> None:
    log.refresh_from_db()
    services.event_append(log=log, event=event, client_id=uuid.uuid4(), after=None, by=judge)


def test_events_entered_offline_are_sent_after_another_devices_event_none_lost(page, two_tables):
    log = _open(page, two_tables)
    _go_offline(page)
    _speaker(page, 1)
    page.click("[data-testid=nominate-1-5]")
    _speaker(page, 2)
    page.click("[data-testid=nominate-2-9]")
    for _i in range(6):
        page.click("[data-testid=plus-5]")
    for _i in range(4):
        page.click("[data-testid=plus-9]")
    page.click("[data-testid=send-vote]")
    # Meanwhile the judge's other device, online, records a foul.
    _append(log, two_tables["judge"], {"type": "foul", "seat": 3})

    page.context.set_offline(False)
    moved = page.locator("[data-testid=moved]")
    moved.wait_for()
    told = page.locator("[data-testid=moved-text]").inner_text()
    assert "another device recorded" in told and "A foul to seat 3." in told
    assert "(3)" in told and "entries, not" not in told
    assert page.locator("[data-testid=refused]").count() == 0
    assert _events() == ["foul"]  # nothing of the three was dropped or sent yet
    # The foul of the other device is on the screen, the three still drawn over it.
    assert page.locator("[data-testid=seat-3] .c-dot.on").count() == 1
    page.click("[data-testid=moved] .c-rebase-keep")
    _saved(page)
    assert _events() == ["foul", "nominate", "nominate", "vote"]
    assert page.locator("[data-testid=dropped]").count() == 0
    assert "left" in page.locator("[data-testid=seat-5]").inner_text()


def test_a_rule_refusal_among_the_resent_events_stops_them_and_keeps_the_rest(page, two_tables):
    log = _open(page, two_tables)
    _go_offline(page)
    _speaker(page, 1)
    page.click("[data-testid=nominate-1-5]")
    page.click("[data-testid=foul-2]")
    # the other device removes seat 1 meanwhile: the voting of day 1 is cancelled
    _append(log, two_tables["judge"], {"type": "remove", "seat": 1, "reason": "insults"})
    page.context.set_offline(False)
    page.locator("[data-testid=moved]").wait_for()
    page.click("[data-testid=moved] .c-rebase-keep")
    refused = page.locator("[data-testid=refused]")
    refused.wait_for()
    assert "Seat 1 nominates seat 5" in refused.inner_text()
    assert "1 events were entered after it" in refused.inner_text()
    assert _events() == ["remove"]
    page.click("[data-testid=refused] .c-settle-keep")
    _saved(page)
    assert _events() == ["remove", "foul"]


def test_the_night_shows_its_own_shots_entered_offline(page, two_tables):
    _open(page, two_tables, *GAME[:9])  # day 2: night 1's shots were 7→1, 9→1
    _go_offline(page)
    page.click("[data-action=send][data-type=night]")
    page.click("[data-testid=aim-7-4]")
    page.click("[data-testid=aim-9-4]")
    page.click("[data-testid=send-shots]")
    shots = page.locator("[data-testid=night-shots]").inner_text()
    assert "7→4" in shots and "9→4" in shots and "not yet saved" in shots
    assert "shoots 1" not in shots
    page.context.set_offline(False)
    _saved(page)
    shots = page.locator("[data-testid=night-shots]").inner_text()
    assert "7 shoots 4" in shots and "shoots 1" not in shots


def test_nobody_speaks_a_speech_during_the_lift_vote_the_tied_defend_in_the_revote(
    page, two_tables
):
    tie = [{"type": "nominate", "by": 3, "seat": 4}, {"type": "nominate", "by": 4, "seat": 6}]
    log = _open(page, two_tables, *GAME[:9], *tie, {"type": "vote", "counts": [4, 4]})
    speaker = page.locator("[data-testid=speaker]")
    assert speaker.inner_text().startswith("Speaks: 4 ") and speaker.inner_text().endswith(
        "· Defence"
    )
    _append(log, two_tables["judge"], {"type": "vote", "counts": [4, 4]})
    page.reload()
    page.locator("[data-testid=lift]").wait_for()
    assert speaker.inner_text() == "Now: the lift vote (no speech)."
    page.click("[data-testid=lift] [data-d='1']")
    page.click("[data-testid=lift] .c-big")
    _saved(page)
    assert speaker.inner_text() == "The vote is over: no more speeches today."
    assert not speaker.inner_text().startswith("Speaks")


def test_an_offline_undo_never_takes_back_the_other_devices_event(page, two_tables):
    log = _open(page, two_tables, {"type": "foul", "seat": 4})
    _go_offline(page)
    page.click("[data-testid=undo]")
    page.click("[data-testid=undo-yes]")
    page.click("[data-testid=foul-2]")
    _append(log, two_tables["judge"], {"type": "foul", "seat": 6})
    page.context.set_offline(False)
    page.locator("[data-testid=moved]").wait_for()
    page.click("[data-testid=moved] .c-rebase-keep")
    refused = page.locator("[data-testid=refused]")
    refused.wait_for()
    assert "this undo would take back that one" in refused.inner_text()
    assert LogEntry.objects.filter(kind=EntryKind.UNDO).count() == 0
    page.click("[data-testid=refused] .c-settle-keep")
    _saved(page)
    assert _events() == ["foul", "foul", "foul"]


def test_the_clash_notice_says_what_the_other_devices_undo_took_back_in_sentences(page, two_tables):
    log = _open(page, two_tables, {"type": "foul", "seat": 4})
    _go_offline(page)
    page.click("[data-testid=foul-2]")
    # meanwhile the other device takes back the foul to seat 4
    log.refresh_from_db()
    services.event_undo(log=log, client_id=uuid.uuid4(), after=None, by=two_tables["judge"])
    page.context.set_offline(False)
    page.locator("[data-testid=moved]").wait_for()
    told = page.locator("[data-testid=moved-text]").inner_text()
    assert "recorded in the game: Undone (event 1): A foul to seat 4. Your waiting" in told, told
    assert "Undo the last event" not in told
    page.locator("summary", has_text="The log").click()
    history = page.locator("[data-testid=log] li").all_inner_texts()
    assert history[1] == "↶ Undone (event 1): A foul to seat 4.", history


def test_seats_that_left_are_offered_to_shots_and_checks_marked_as_gone(page, two_tables):
    # day 2: seat 5 was voted out on day 1, seat 1 shot in night 1
    _open(page, two_tables, *GAME[:9], {"type": "night"})
    for gone in (1, 5):
        aim = page.locator(f"[data-testid=aim-7-{gone}]")
        assert "c-gone-seat" in (aim.get_attribute("class") or "")
        assert aim.inner_text().split() == [str(gone), "left"]
    here = page.locator("[data-testid=aim-7-4]")
    assert "c-gone-seat" not in (here.get_attribute("class") or "") and here.inner_text() == "4"
    page.click("[data-testid=aim-7-4]")
    page.click("[data-testid=aim-9-4]")
    page.click("[data-testid=send-shots]")
    _saved(page)
    # a check may name a seat that left (game-log.md): offered, marked
    check = page.locator("[data-testid=sheriff_check-1]")
    assert "c-gone-seat" in (check.get_attribute("class") or "")
    assert check.inner_text().split() == ["1", "left"]
    assert "c-gone-seat" not in (
        page.locator("[data-testid=don_check-4]").get_attribute("class") or ""
    )
    check.click()
    _saved(page)
    assert _events()[-1] == "sheriff_check"
