"""The stages in the browser, in Russian: a player follows his outlook on a phone while
the qualifying stage runs; the organiser, once it is finished, publishes the advance
list of the final, seats the final and, its protocol entered, sees the finalists
first in the standings."""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.urls import reverse
from django.utils.translation import gettext, override

from mafiatab.games.models import Game
from mafiatab.games.services import TablePlan, protocol_confirm, protocol_save, round_create
from mafiatab.registrations.models import Advancement
from mafiatab.registrations.services import registration_add
from mafiatab.standings.services import tournament_standings
from mafiatab.tournaments.services import (
    TournamentInfo,
    tournament_create,
)
from tests.web.test_games_fixtures import complete_data

from .conftest import WAIT_MS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
PLAYERS = [f"Игрок {n:02d}" for n in range(1, 21)]
#: MAFIATAB_SHOTS=prefix keeps a screenshot of each step (prefix-NN-name.png).
SHOTS = os.environ.get("MAFIATAB_SHOTS", "")


def ru(text: str) -> str:
    with override("ru"):
        return gettext(text)


def _person(browser: Any, live_url: str, username: str, viewport: dict[str, int]) -> Any:
    context = browser.new_context(
        locale="ru-RU", extra_http_headers={"Accept-Language": "ru"}, viewport=viewport
    )
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(f"{live_url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "secret-pass-1")
    page.click("main button[type=submit]")
    page.wait_for_selector("[data-testid=current-user]")
    return page


def _shot(page: Any, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}-{name}.png", full_page=True)


def _play(tournament: Any, stage: str, number: int, tables: list[tuple[str, ...]], by: Any) -> None:
    made = round_create(
        tournament=tournament,
        stage=stage,
        number=number,
        tables=[TablePlan(number=n, judge=None, players=p) for n, p in enumerate(tables, 1)],
        by=by,
    )
    for table in made.tables.order_by("number"):
        game = table.game
        protocol_save(game=game, data=complete_data(game), by=by, base_version=1, submit=True)
        protocol_confirm(game=game, by=by)


def test_the_qualifying_to_the_final_in_the_browser(browser, live_server, make_user):
    organiser = make_user("Организатор", username="organiser")
    tournament = tournament_create(
        info=TournamentInfo(name="Кубок этапов", ruleset="fiim"), by=organiser
    )
    doc = make_user(PLAYERS[0], username="doc")
    for name in PLAYERS:
        registration_add(
            tournament=tournament,
            nickname=name,
            user=doc if name == PLAYERS[0] else None,
            by=organiser,
        )
    page = _person(browser, live_server.url, "organiser", LAPTOP)
    page.goto(live_server.url + reverse("tournaments:edit", args=[tournament.slug]))
    page.fill("#id_stages-qualifying_games", "2")
    page.select_option("#id_stages-final_players", "10")
    page.fill("#id_stages-final_games", "1")
    page.click("#stages button[type=submit]")
    page.locator("#stages").wait_for()
    _shot(page, "00-stage-plan")
    tournament.refresh_from_db()
    assert [s["stage"] for s in tournament.stage_plan] == ["qualifying", "final"]
    _play(tournament, "qualifying", 1, [tuple(PLAYERS[:10]), tuple(PLAYERS[10:])], organiser)

    phone = _person(browser, live_server.url, "doc", PHONE)
    phone.goto(live_server.url + reverse("standings:player", args=[tournament.slug, PLAYERS[0]]))
    outlook = phone.locator("[data-testid=outlook]")
    outlook.wait_for()
    assert "1" in outlook.inner_text() and ru("Way to the %(stage)s") % {"stage": ru("final")} in (
        outlook.inner_text()
    )
    width = phone.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1]
    _shot(phone, "01-outlook-phone")

    _play(tournament, "qualifying", 2, [tuple(PLAYERS[::2]), tuple(PLAYERS[1::2])], organiser)
    page.goto(live_server.url + reverse("standings:table", args=[tournament.slug]))
    page.locator("tr.st-cut").wait_for()  # (the table's own script owns its rows' test ids)
    _shot(page, "02-standings-cut")
    page.click("[data-testid=advance-links] a")
    page.click("[data-testid=advance-publish]")
    page.locator("[data-testid=advance-published]").wait_for()
    _shot(page, "03-advance-published")
    finalists = [a.registration.nickname for a in Advancement.objects.order_by("place")]
    assert len(finalists) == 10

    page.goto(live_server.url + reverse("seating:drafts", args=[tournament.slug]))
    page.select_option("#id_stage", "final")
    page.fill("#id_games", "1")
    page.fill("#id_tables", "1")
    page.click("#generate-form button[type=submit]")
    page.locator("[data-testid=after-balance]").wait_for()
    _shot(page, "04-final-draft")
    page.click("form[action*='/publish/'] button[type=submit]")
    page.wait_for_url("**/seating/**")
    final = Game.objects.get(tournament=tournament, stage="final")
    assert sorted(s.player for s in final.seats.all()) == sorted(finalists)
    protocol_save(game=final, data=complete_data(final), by=organiser, base_version=1, submit=True)
    protocol_confirm(game=final, by=organiser)

    page.goto(live_server.url + reverse("standings:table", args=[tournament.slug]))
    groups = page.locator("tr.st-group")
    groups.first.wait_for()
    assert groups.first.inner_text().strip().lower() == ru("final").lower()
    names = page.locator("[data-testid=standings] tbody tr:not(.st-group) td:nth-child(2)")
    assert sorted(names.all_inner_texts()[:10]) == sorted(finalists)
    order = [r.player for r in tournament_standings(tournament).rows]
    assert names.all_inner_texts()[:10] == order[:10]
    _shot(page, "05-standings-final")
    phone.context.close()
    page.context.close()
