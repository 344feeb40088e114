"""The online table in Russian on a phone: the table judge ticks the lobby's ready check
seat by seat; the side judge, following the table's console link, sees the players'
links and the phase, and reports a violation of the online addendum (4.1); the table
judge sees the proposed removal with its -0.8 fine and accepts it, and the side judge
sees the outcome."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from web import test_games_fixtures as fx

from mafiatab.console import services
from mafiatab.console.models import GameLog
from mafiatab.games.models import Table
from mafiatab.registrations.models import Registration
from mafiatab.tournaments.models import StaffRole
from mafiatab.tournaments.services import staff_assign

from .conftest import WAIT_MS, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
two_tables = fx.two_tables

PHONE = {"width": 390, "height": 844}
ROLES = {"sheriff": 3, "don": 7, "black": [5, 9]}


def _russian_tab(browser: Any, live_server: Any) -> tuple[Any, Any]:
    context = browser.new_context(
        locale="ru-RU", extra_http_headers={"Accept-Language": "ru"}, viewport=PHONE
    )
    tab = context.new_page()
    tab.set_default_timeout(WAIT_MS)
    tab.live_url = live_server.url
    return context, tab


def test_the_side_judge_reports_and_the_table_judge_accepts_after_the_ready_check(
    browser: Any, live_server: Any, two_tables: dict[str, Any], make_user: Any
) -> None:
    game = two_tables["game1"]
    slug = game.tournament.slug
    side = make_user("Боковой", username="side")
    staff_assign(
        tournament=game.tournament,
        user=side,
        role=StaffRole.TABLE_JUDGE,
        by=two_tables["organiser"],
    )
    services.side_judge_set(
        table=Table.objects.get(pk=game.table_slot_id), judge=side, by=two_tables["chief"]
    )
    Registration.objects.filter(nickname="Alpha4").update(
        screen_link="https://vdo.ninja/?view=alpha4", camera_link="https://vdo.ninja/?view=cam4"
    )
    services.log_start(game=game, roles=ROLES, by=two_tables["judge"])
    console_url = live_server.url + reverse("console:console", args=[slug, game.pk])

    judge_context, judge = _russian_tab(browser, live_server)
    side_context, watcher = _russian_tab(browser, live_server)
    try:
        # The table judge ticks the ready check, seat by seat.
        log_in(judge, two_tables["judge"].username)
        judge.goto(console_url)
        check = judge.locator("[data-testid=ready-check]")
        assert "Проверка готовности" in check.locator("summary").inner_text()
        for seat in range(1, 11):
            row = judge.locator(f"[data-testid=ready-{seat}]")
            for name in ("microphone", "connection", "camera", "confirmed"):
                row.locator(f"input[name={name}]").check()
            row.locator(f"[data-testid=ready-save-{seat}]").click()
            judge.wait_for_load_state("load")
        assert "все готовы" in judge.locator("[data-testid=ready-check] summary").inner_text()

        # The side judge follows the table's console link and lands on his own view.
        log_in(watcher, side.username)
        watcher.goto(console_url)
        watcher.wait_for_url("**/console/side/")
        assert "День 1" in watcher.locator("[data-testid=side-phase]").inner_text()
        row = watcher.locator("[data-testid=side-seat-4]")
        assert row.locator("a[href='https://vdo.ninja/?view=alpha4']").inner_text() == "экран"
        assert "шериф" not in watcher.locator("main").inner_text().lower()
        assert watcher.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        form = watcher.locator("[data-testid=report-form]")
        form.locator("select[name=seat]").select_option("4")
        form.locator("textarea[name=reason]").fill("телефон в руках во время речи")
        watcher.click("[data-testid=send-report]")
        assert (
            "ждёт решения судьи за столом"
            in watcher.locator("[data-testid=side-reports]").inner_text()
        )

        # The table judge, his console open, is told of it; he sees the proposed removal
        # with its fine and accepts it.
        judge.locator("[data-testid=report-notice]").wait_for()
        judge.click("[data-testid=report-reload]")
        reports = judge.locator("[data-testid=reports]")
        text = reports.inner_text()
        assert "телефон в руках во время речи" in text and "штраф -0,8" in text
        reports.locator("[data-testid^=accept-]").click()
        judge.locator(".messages", has_text="Сообщение принято: игрок удалён.").wait_for()
        judge.locator("[data-testid=seat-4]", has_text="выбыл").wait_for()
        assert judge.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert judge.locator("[data-testid=ready-check]").count() == 0  # the game has begun
        event = services.live_events(GameLog.objects.get(game=game))[-1]
        assert (event["type"], event["seat"], event["online"]) == ("remove", 4, True)

        # The side judge sees the decision and the seat gone.
        watcher.reload()
        assert "принято: игрок удалён" in watcher.locator("[data-testid=side-reports]").inner_text()
        assert "выбыл" in watcher.locator("[data-testid=side-seat-4]").inner_text()
    finally:
        judge_context.close()
        side_context.close()
