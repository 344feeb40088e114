"""On a phone, a judge who changes a vote of a game played on the console reads, as he
types, how the protocol differs from the console's log, at the top and beside the
block; a vote with more votes than the living players the log knew is not signed."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse
from web import test_games_fixtures as fx
from web.test_protocol_log_check import GAME, ROLES

from mafiatab.console import services as console
from mafiatab.games.conversion import game_data
from mafiatab.games.models import Game, GameStatus
from mafiatab.games.services import protocol_confirm, protocol_save

from .conftest import WAIT_MS, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
two_tables = fx.two_tables


@pytest.fixture
def tournament(make_tournament):
    return make_tournament(ruleset="fiim", platform="")


def test_a_changed_vote_is_named_against_the_log_and_too_many_votes_are_not_signed(
    browser, live_server, fast_passwords, two_tables
):
    game, judge = two_tables["game1"], two_tables["judge"]
    log = console.log_start(game=game, roles=ROLES, by=judge)
    for event in GAME:
        console.event_append(log=log, event=event, client_id=uuid.uuid4(), after=None, by=judge)
    console.log_finish(log=log, by=judge)
    context = browser.new_context(
        locale="ru-RU",
        extra_http_headers={"Accept-Language": "ru"},
        viewport={"width": 390, "height": 844},
    )
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.live_url = live_server.url
    try:
        log_in(page, judge.username)
        page.goto(page.live_url + reverse("games:protocol", args=[game.tournament.slug, game.pk]))
        same = page.locator("[data-testid=log-same]").inner_text()
        assert "Расхождений с журналом пульта этой игры нет" in same
        page.fill("input[name=date]", "2026-03-01")
        page.fill("input[name=v3_votes]", "4 3")
        differences = page.locator("[data-testid=log-differences]")
        differences.wait_for()
        assert "день 3: в журнале пульта голоса 4 2, в протоколе — 4 3" in differences.inner_text()
        beside = page.locator("#pb-v3").inner_text()
        assert "7 голосов, а в журнале пульта при этом голосовании живых игроков только 6" in beside
        page.locator("[data-testid=sign]").click()
        page.wait_for_selector("[data-testid=form-error]")
        assert Game.objects.get(pk=game.pk).status == GameStatus.DRAFT
    finally:
        context.close()


def test_a_confirmed_protocol_is_checked_live_before_the_reason_of_its_change_is_written(
    browser, live_server, fast_passwords, two_tables
):
    game, judge, chief = two_tables["game1"], two_tables["judge"], two_tables["chief"]
    log = console.log_start(game=game, roles=ROLES, by=judge)
    for event in GAME:
        console.event_append(log=log, event=event, client_id=uuid.uuid4(), after=None, by=judge)
    console.log_finish(log=log, by=judge)
    game.refresh_from_db()
    data = game_data(game) | {"date": "2026-03-01"}
    protocol_save(game=game, data=data, by=judge, base_version=game.version, submit=True)
    game.refresh_from_db()
    protocol_confirm(game=game, by=chief)
    context = browser.new_context(
        locale="ru-RU",
        extra_http_headers={"Accept-Language": "ru"},
        viewport={"width": 390, "height": 844},
    )
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.live_url = live_server.url
    try:
        log_in(page, chief.username)
        page.goto(page.live_url + reverse("games:protocol", args=[game.tournament.slug, game.pk]))
        page.locator("[data-testid=log-same]").wait_for()
        assert page.input_value("textarea[name=reason]") == ""
        page.check("input[name=winner][value=black]")
        page.locator("#pb-winner p.error").first.wait_for()
        beside = page.locator("#pb-winner").inner_text()
        assert "В журнале пульта игра закончилась так: победа красной команды" in beside
        assert page.locator("[data-testid=log-same]").count() == 0
        # saving a change without a reason is refused by the server, beside the reason field
        page.check("input[name=winner][value=red]")
        page.fill("input[name=judge]", "Главный Иван")
        page.get_by_role("button", name="Сохранить изменение").click()
        page.wait_for_selector("[data-testid=reason-error]")
        assert Game.objects.get(pk=game.pk).version == game.version + 1  # the confirmation
    finally:
        context.close()
