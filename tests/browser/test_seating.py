from __future__ import annotations

import re

import pytest
from django.urls import reverse

from mafiatab.games.models import Round
from mafiatab.registrations.services import registration_add
from mafiatab.seating.models import DraftStatus, SeatingDraft
from mafiatab.tournaments.models import StaffRole
from mafiatab.tournaments.services import staff_assign

from .conftest import WAIT_MS, log_in, log_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def people(tournament, organiser, make_user, settings):
    settings.MAFIATAB_SEATING_ITERATIONS = 3_000
    players = [make_user(f"Ace{i:02d}") for i in range(1, 31)]
    for user in players:
        registration_add(tournament=tournament, nickname="", user=user, by=organiser)
    judges = [make_user(f"Judge{i}") for i in (1, 2, 3)]
    for judge in judges:
        staff_assign(tournament=tournament, user=judge, role=StaffRole.TABLE_JUDGE, by=organiser)
    return players


def test_the_organiser_generates_compares_and_publishes_and_a_player_finds_his_table(
    page, tournament, organiser, people
):
    log_in(page, organiser.username)
    page.goto(page.live_url + tournament.get_absolute_url())
    page.click(".tabs >> text=Seating")
    page.wait_for_selector("[data-testid=not-published]")
    page.click("text=Drafts and generation")
    assert page.input_value("#id_tables") == "3"
    page.fill("#id_games", "10")
    page.fill("#id_seed", "42")
    page.click("#generate-form button[type=submit]")
    page.wait_for_selector("text=Seating generated with seed 42.")

    assert page.locator("[data-testid=seat-balance]").inner_text() == "exact"
    assert page.locator("[data-testid=max-meetings]").inner_text().isdigit()
    assert page.locator("#histogram .bar-row").count() >= 3
    assert page.locator("[data-testid=round-10-table-3] td").count() == 10

    page.click("text=Regenerate with another seed")
    page.wait_for_selector("text=Seating generated with seed 43.")
    assert page.locator("#drafts [data-testid=draft-42]").is_visible()
    assert page.locator("#drafts [data-testid=draft-43]").is_visible()

    page.select_option("#id_table_1", label="Judge3")
    page.select_option("#id_table_3", label="Judge1")
    page.click("text=Publish the seating")
    page.wait_for_selector("text=Seating published: the rounds and tables are created.")
    assert Round.objects.filter(tournament=tournament).count() == 10
    published = SeatingDraft.objects.get(status=DraftStatus.PUBLISHED)
    assert published.seed == 43
    assert published.judges == {"1": "Judge3", "2": "Judge2", "3": "Judge1"}
    log_out(page)

    player = people[11]
    log_in(page, player.username)
    page.goto(page.live_url + tournament.get_absolute_url())
    page.click(".tabs >> text=Seating")
    page.click(".seating-nav >> text=My seating")
    first = published.rounds[0]
    table = next(t for t in first["tables"] if player.nickname in t["seats"])
    row = page.locator("[data-testid=my-round-1]").inner_text().split()
    judge = published.judges[str(table["table"])]
    assert row == ["1", str(table["table"]), str(table["seats"].index(player.nickname) + 1), judge]
    assert page.locator("#my-seating tbody tr").count() == 10


def test_anyone_finds_a_player_on_the_published_seating(page, tournament, organiser, people):
    from mafiatab.seating.services import SeatingInputs, seating_generate, seating_publish

    draft = seating_generate(
        tournament=tournament,
        inputs=SeatingInputs(stage="qualifying", games=10, tables=3, seed=1),
        by=organiser,
    )
    seating_publish(draft=draft, judges={}, by=organiser)
    page.goto(page.live_url + f"/t/{tournament.slug}/seating/")
    page.fill("#seating-search input[name=q]", "ace2")
    page.wait_for_selector("[data-testid=found-Ace29]")
    found = page.locator("#search-results [data-testid^=found-]")
    assert found.count() == 10  # Ace20..Ace29
    assert page.locator("[data-testid=found-Ace20] tbody tr").count() == 10

    page.click("text=Printable sheet")
    page.wait_for_selector("[data-testid=sheet-round-10]")
    assert page.locator(".sheet-table").count() == 30
    pdf = page.pdf(format="A4")
    # One A4 page per round: three tables fit on a page, and every round starts a new one.
    assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == 10


def test_a_phone_in_russian_reads_the_drafts_compromises_new_and_old_in_words(
    browser, live_server, fast_passwords, tournament, organiser, people
):
    context = browser.new_context(
        locale="ru-RU",
        extra_http_headers={"Accept-Language": "ru"},
        viewport={"width": 390, "height": 844},
    )
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.live_url = live_server.url
    try:
        log_in(page, organiser.username)
        page.goto(page.live_url + reverse("seating:drafts", args=[tournament.slug]))
        page.fill("#id_games", "10")
        page.fill("#id_seed", "42")
        page.click("#generate-form button[type=submit]")
        page.wait_for_selector("#flags")
        draft = SeatingDraft.objects.get()
        assert draft.flags and all(set(flag) == {"code", "params"} for flag in draft.flags)
        said = page.locator(".seating-flags li").all_inner_texts()
        assert len(said) == len(draft.flags)
        for text in said:
            assert not re.search(r"[a-z]+\.[a-z_]+", text), text  # never a code
            assert re.search(r"[а-яё]", text), text
        page.locator("#flags").scroll_into_view_if_needed()
        page.screenshot(path="/tmp/messages-shots/seating-flags.png")
        # a draft made before flags had codes stored the English sentence: shown as written
        old = "time limit reached after 10 of 20 iterations"
        SeatingDraft.objects.filter(pk=draft.pk).update(flags=[*draft.flags, old])
        page.reload()
        assert page.locator(".seating-flags li").last.inner_text() == old.capitalize()
    finally:
        context.close()
