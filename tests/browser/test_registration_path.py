from __future__ import annotations

import pytest

from mafiatab.registrations.models import Registration, Status
from mafiatab.registrations.services import registration_apply

from .conftest import log_in, log_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _section(page, selector):
    return page.locator(selector).inner_text()


def test_a_new_user_signs_up_applies_and_appears_once_approved(page, tournament, organiser):
    page.goto(page.live_url + "/")
    page.click("text=Spring Cup")
    page.click("header >> text=Sign up")
    page.fill("#id_username", "newplayer")
    page.fill("#id_nickname", "Ласточка")
    page.fill("#id_city", "Казань")
    page.fill("#id_password1", "a-long-passphrase-42")
    page.fill("#id_password2", "a-long-passphrase-42")
    page.click("main button[type=submit]")
    page.wait_for_selector("[data-testid=current-user]:has-text('Ласточка')")

    page.goto(page.live_url + tournament.get_absolute_url())
    page.click("text=Apply to play")
    page.wait_for_selector("[data-testid=my-status]:has-text('awaiting confirmation')")
    assert "Ласточка" in _section(page, "#pending")
    assert "Ласточка" not in _section(page, "#participants")
    log_out(page)

    log_in(page, organiser.username)
    page.goto(page.live_url + tournament.get_absolute_url())
    page.click("#pending >> text=Decide")
    page.click("[data-testid='pending-Ласточка'] >> text=Approve")
    page.wait_for_selector("text=Ласточка is approved.")
    log_out(page)

    page.goto(page.live_url + tournament.get_absolute_url())
    assert "Ласточка" in _section(page, "#participants")
    assert "No application is waiting for a decision." in _section(page, "#pending")
    assert Registration.objects.get(nickname="Ласточка").status == Status.APPROVED


def test_a_rejected_application_shows_its_reason(page, tournament, organiser, make_user):
    applicant = make_user("Shadow")
    registration_apply(tournament=tournament, user=applicant)

    log_in(page, organiser.username)
    page.goto(page.live_url + f"/t/{tournament.slug}/registrations/")
    row = page.locator("[data-testid=pending-Shadow]")
    row.locator("input[name=reason]").fill("no verified account on the platform")
    row.locator("text=Reject").click()
    page.wait_for_selector("text=The application of Shadow is rejected.")
    log_out(page)

    log_in(page, applicant.username)
    page.goto(page.live_url + tournament.get_absolute_url())
    status = page.locator("[data-testid=my-status]").inner_text()
    assert "rejected" in status
    assert "no verified account on the platform" in status


def test_the_language_switch_turns_the_page_russian_and_back(page, tournament):
    page.goto(page.live_url + tournament.get_absolute_url())
    assert "Applications awaiting confirmation" in _section(page, "#pending")
    page.click("header button[value=ru]")
    page.wait_for_selector("html[lang=ru]")
    assert "Заявки на участие, ожидающие подтверждения" in _section(page, "#pending")
    assert "Заявок, ожидающих решения, нет." in _section(page, "#pending")
    assert page.url.endswith(tournament.get_absolute_url())
    page.click("header button[value=en]")
    page.wait_for_selector("html[lang=en]")
    assert "Participants" in _section(page, "#participants")
