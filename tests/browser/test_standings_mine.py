"""The standings table is the same for every viewer; a signed-in player's own row is
marked in his browser, and stays marked when the table refreshes itself."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from mafiatab.core.demo import demo_tournament

from .conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo(organiser: Any) -> Any:
    from mafiatab.standings.services.tournament_file import tournament_import

    return tournament_import(core=demo_tournament(), by=organiser)


def test_a_signed_in_player_sees_his_own_row_marked_and_nobody_elses(page, demo, make_user):
    player = make_user("Doc", username="doc-player")
    demo.registrations.filter(nickname="Doc").update(user=player)
    url = page.live_url + reverse("standings:table", args=[demo.slug])

    page.goto(url)
    assert page.locator("tr.mine").count() == 0  # an anonymous visitor has no row

    log_in(page, player.username)
    page.goto(url)
    mine = page.locator("tr.mine")
    mine.first.wait_for()
    assert mine.count() == 1
    assert mine.first.locator("td a").inner_text() == "Doc"

    page.evaluate(  # the table is refreshed (swapped for a new one) at once
        """() => {
            document.getElementById("standings-live").dataset.old = "yes";
            htmx.ajax("GET", location.pathname + "?since=stale",
                      {target: "#standings-live", swap: "outerHTML"});
        }"""
    )
    page.locator("#standings-live:not([data-old]) tr.mine").wait_for()
    assert page.locator("tr.mine").count() == 1
    assert page.locator("tr.mine td a").inner_text() == "Doc"
