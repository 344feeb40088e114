"""One date format per language everywhere: 05.12.2026 on Russian pages, 5 Dec 2026 on
English ones; no template writes a date pattern of its own."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from django.urls import reverse

from mafiatab.tournaments.services import TournamentInfo, info_of, tournament_update

PACKAGE = Path(__file__).resolve().parents[2] / "mafiatab"
NAMED = {"DATE_FORMAT", "DATETIME_FORMAT", "SHORT_DATE_FORMAT", "SHORT_DATETIME_FORMAT"}
NAMED |= {"TIME_FORMAT"}


@pytest.mark.django_db
def test_a_tournament_date_is_day_month_year_in_russian_and_english(client, tournament, organiser):
    info = info_of(tournament)
    dates = {"starts_on": dt.date(2026, 12, 5), "ends_on": dt.date(2026, 12, 6)}
    tournament_update(
        tournament=tournament, info=TournamentInfo(**(info.__dict__ | dates)), by=organiser
    )
    url = reverse("tournaments:detail", args=[tournament.slug])
    russian = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "05.12.2026" in russian and "06.12.2026" in russian
    assert "5 Dec 2026" in english and "6 Dec 2026" in english
    for page in (russian, english):
        assert "2026-12-05" not in page and "12/05/2026" not in page and "Dec. 5" not in page


def test_no_template_writes_a_date_pattern_of_its_own():
    own = []
    for path in PACKAGE.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        for pattern in re.findall(r"""\|date:["']([^"']*)["']""", text):
            if pattern not in NAMED:
                own.append(f"{path.relative_to(PACKAGE)}: {pattern}")
    assert not own, own


def test_a_protocol_date_is_shown_in_the_readers_format():
    from django.utils import translation

    from mafiatab.messages import date_text

    with translation.override("ru"):
        assert date_text("2026-03-01") == "01.03.2026"
    with translation.override("en"):
        assert date_text("2026-03-01") == "1 Mar 2026"
    assert date_text("next Tuesday") == "next Tuesday" and date_text(None) == ""
