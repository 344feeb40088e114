"""A player learns his seat without asking: the unread badge appears in the header
once the seating is published, and the inbox says his table and seat in Russian."""

from __future__ import annotations

from typing import Any

import pytest

from mafiatab.notifications.services import inbox_mark_read
from mafiatab.registrations.services import registration_add
from mafiatab.seating.services import SeatingInputs, seating_generate, seating_publish

from .conftest import WAIT_MS, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_a_player_sees_the_badge_after_the_seating_is_published_and_reads_his_seat(
    browser: Any, live_server: Any, tournament: Any, organiser: Any, make_user: Any, settings: Any
) -> None:
    settings.MAFIATAB_SEATING_ITERATIONS = 200
    players = [make_user(f"Игрок{n:02d}", username=f"igrok{n:02d}") for n in range(1, 11)]
    for user in players:
        registration_add(tournament=tournament, nickname="", user=user, by=organiser)
    me = players[0]
    inbox_mark_read(user=me)  # the message of his registration, read already
    context = browser.new_context(
        locale="ru-RU", extra_http_headers={"Accept-Language": "ru"}, viewport=PHONE
    )
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.live_url = live_server.url
    try:
        log_in(page, me.username)
        page.goto(live_server.url + tournament.get_absolute_url())
        link = page.locator("header [data-testid=inbox-link]")
        link.wait_for()
        page.wait_for_load_state("networkidle")
        assert page.locator("[data-testid=unread-badge]").count() == 0

        draft = seating_generate(
            tournament=tournament,
            inputs=SeatingInputs(stage="qualifying", games=1, tables=1, seed=2),
            by=organiser,
        )
        seating_publish(draft=draft, judges={}, by=organiser)
        seat = draft.rounds[0]["tables"][0]["seats"].index(me.nickname) + 1

        page.reload()
        badge = page.locator("header [data-testid=unread-badge]")
        badge.wait_for()
        assert badge.inner_text() == "1"
        page.click("header [data-testid=inbox-link]")
        message = page.locator("[data-testid=message]").first
        assert "опубликована рассадка" in message.inner_text()
        assert f"Тур 1: стол 1, место {seat}" in message.inner_text()
        message.locator("a").click()
        page.wait_for_url("**/seating/mine/")
        page.goto(live_server.url + "/accounts/inbox/")
        assert page.locator("header [data-testid=unread-badge]").count() == 0
    finally:
        context.close()
