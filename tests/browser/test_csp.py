"""The Content-Security-Policy forbids inline scripts and styles; the pages keep
working under it: no violation on a tour of the site, the confirmations, the
projector's paging and htmx's live parts run from static files."""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.urls import reverse

from mafiatab.core.demo import demo_tournament

from .conftest import log_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        bool(os.environ.get("DATABASE_URL")),
        reason="the policy does not depend on the database; runs in the SQLite pass",
    ),
]


@pytest.fixture
def demo(organiser: Any) -> Any:
    from mafiatab.standings.services.tournament_file import tournament_import

    return tournament_import(core=demo_tournament(), by=organiser)


def _watch(page: Any) -> list[str]:
    problems: list[str] = []
    page.on(
        "console",
        lambda msg: problems.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    return problems


def test_a_tour_of_the_site_breaks_no_rule_of_the_policy(page, demo, organiser):
    problems = _watch(page)
    response = page.goto(page.live_url + "/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    log_in(page, organiser.username)
    slug = demo.slug
    for path in (
        reverse("tournaments:detail", args=[slug]),
        reverse("standings:table", args=[slug]),
        reverse("registrations:manage", args=[slug]),
        reverse("games:list", args=[slug]),
        reverse("seating:index", args=[slug]),
    ):
        page.goto(page.live_url + path)
        page.wait_for_load_state("load")
    page.goto(page.live_url + "/api/docs")
    page.wait_for_selector("#swagger-ui .info")  # the API's documentation renders
    assert problems == []


def test_a_withdrawal_asks_first_and_cancelling_keeps_the_participant(page, demo, organiser):
    problems = _watch(page)
    log_in(page, organiser.username)
    page.goto(page.live_url + reverse("registrations:manage", args=[demo.slug]))
    asked: list[str] = []

    def dismiss(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    rows = page.locator("button[data-confirm]").count()
    page.locator("button[data-confirm]").first.click()
    # the question says what the withdrawal does: the place stays free (nobody waits)
    assert len(asked) == 1 and asked[0].startswith("Withdraw ")
    assert asked[0].endswith("? His place stays free.")
    assert page.locator("button[data-confirm]").count() == rows
    assert problems == []


def test_the_projector_turns_its_pages_from_a_static_script(page, demo):
    problems = _watch(page)
    page.set_viewport_size({"width": 800, "height": 300})
    url = reverse("standings:table", args=[demo.slug]) + "?view=projector"
    page.goto(page.live_url + url)
    page.wait_for_function("document.getElementById('pj-page').textContent.includes('/')")
    assert page.locator("#pj-page").inner_text().startswith("1 / ")
    assert problems == []
