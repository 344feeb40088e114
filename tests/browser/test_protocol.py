"""A table judge fills a protocol on a phone, sees a problem fixed in place, signs;
the chief judge confirms; the standings and the player's points follow."""

from __future__ import annotations

import pytest
from django.urls import reverse
from web import test_games_fixtures as fx

from mafiatab.games.models import Game, GameStatus

from .conftest import log_in, log_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
two_tables = fx.two_tables

ROLES = ["red", "red", "sheriff", "red", "black", "red", "don", "red", "black", "red"]


def test_a_judge_fills_a_protocol_on_a_phone_and_the_chief_confirms_it(page, two_tables):
    game = two_tables["game1"]
    slug = game.tournament.slug
    page.set_viewport_size({"width": 390, "height": 844})
    standings = page.live_url + reverse("standings:table", args=[slug])
    page.goto(standings)
    assert "Alpha3" not in page.locator("main").inner_text()

    log_in(page, two_tables["judge"].username)
    page.goto(page.live_url + reverse("games:my_tables", args=[slug]))
    page.click("[data-testid='my-table-Q1-T1']")
    page.wait_for_selector("#protocol-form")

    page.fill("input[name=date]", "2026-03-01")
    page.select_option("select[name=role_1]", "don")  # a slip: a second don
    for seat, role in enumerate(ROLES[1:], start=2):
        page.select_option(f"select[name=role_{seat}]", role)
    page.check("input[name=fouls_4][value='1']")
    page.fill("input[name=v1_day]", "1")
    page.fill("input[name=v1_nominees]", "5 9")
    page.fill("input[name=v1_votes]", "6 4")
    page.select_option("select[name=first_killed]", "1")
    for i, seat in enumerate(("5", "7", "2"), start=1):
        page.select_option(f"select[name=bm_{i}]", seat)
    page.check("input[name=winner][value=red]")
    page.select_option("select[name=extra1_seat]", "3")
    page.fill("input[name=extra1_points]", "0.3")
    page.fill("input[name=extra1_reason]", "found both blacks on day one")

    # Each change sends the form again; wait for the answer to the last one.
    page.locator("[data-testid=summary]", has_text="1 problem to fix").wait_for()
    roles_problem = page.locator("#pb-roles")
    roles_problem.get_by_text("roles must be 6 red").wait_for()
    page.select_option("select[name=role_1]", "red")
    page.get_by_text("No problems: the protocol can be signed.").wait_for()
    assert roles_problem.inner_text() == ""
    assert page.locator("#pts-3").inner_text() == "1.00"
    assert page.locator("#ext-3").inner_text() == "+0.30"
    assert page.locator("#ext-1").inner_text() == "+0.25"

    sign = page.locator("[data-testid=sign]")
    box = sign.bounding_box()
    assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= 390
    sign.click()
    page.wait_for_selector("[data-testid=game-status]:has-text('submitted')")
    assert Game.objects.get(pk=game.pk).status == GameStatus.SUBMITTED
    page.goto(standings)
    assert "Alpha3" not in page.locator("main").inner_text()
    log_out(page)

    log_in(page, two_tables["chief"].username)
    page.goto(page.live_url + reverse("games:queue", args=[slug]))
    page.click("[data-testid='queue-Q1-T1']")
    page.click("[data-testid=confirm]")
    page.wait_for_selector("[data-testid=game-status]:has-text('confirmed')")

    page.goto(standings)
    assert "Alpha3" in page.locator("main").inner_text()
    page.goto(page.live_url + reverse("standings:player", args=[slug, "Alpha3"]))
    text = page.locator("main").inner_text()
    assert "Q1-T1" in text and "+0.30" in text and "1.30" in text
