"""A tournament in its own time zone: the schedule's times are entered and shown in it
(pages, the API's times without an offset, the players' messages), whatever the site's."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import replace

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from mafiatab.notifications.kinds import _when
from mafiatab.tournaments.services import info_of, tournament_update

from . import test_games_fixtures as fx

two_tables = fx.two_tables

pytestmark = pytest.mark.django_db

ZONE = "Asia/Yekaterinburg"  # UTC+5 all year


def _in_zone(two_tables):
    tournament = two_tables["round"].tournament
    info = replace(info_of(tournament), time_zone=ZONE)
    return tournament_update(tournament=tournament, info=info, by=two_tables["organiser"])


def test_an_unknown_time_zone_is_refused_by_name(two_tables):
    tournament = two_tables["round"].tournament
    info = replace(info_of(tournament), time_zone="Mars/Olympus")
    with pytest.raises(ValidationError) as refused:
        tournament_update(tournament=tournament, info=info, by=two_tables["organiser"])
    assert "time_zone" in refused.value.message_dict


def test_the_rounds_page_reads_and_shows_times_in_the_tournaments_zone(two_tables):
    tournament = _in_zone(two_tables)
    round_ = two_tables["round"]
    client = Client()
    client.force_login(two_tables["organiser"])
    client.cookies["django_language"] = "ru"
    response = client.post(
        reverse("games:round_schedule", args=[tournament.slug, round_.pk]),
        {"starts_at": "2026-12-05T10:00", "place": "Зал 1", "link": ""},
    )
    assert response.status_code in (200, 302)
    round_.refresh_from_db()
    assert round_.starts_at == dt.datetime(2026, 12, 5, 5, 0, tzinfo=dt.UTC)
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "10:00" in page and "по часовому поясу Екатеринбург (UTC+5)" in page
    rounds = client.get(reverse("games:rounds", args=[tournament.slug])).content.decode()
    assert 'value="2026-12-05T10:00"' in rounds  # the form shows what was typed


def test_the_api_reads_a_time_without_offset_in_the_tournaments_zone(two_tables):
    from mafiatab.api.services import token_create

    tournament = _in_zone(two_tables)
    round_ = two_tables["round"]
    _token, key = token_create(user=two_tables["organiser"], name="script")
    client = Client()
    response = client.put(
        f"/api/tournaments/{tournament.slug}/rounds/{round_.pk}/schedule",
        json.dumps({"starts_at": "2026-12-05T10:00:00", "place": "", "link": ""}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {key}",
    )
    assert response.status_code == 200, response.content
    round_.refresh_from_db()
    assert round_.starts_at == dt.datetime(2026, 12, 5, 5, 0, tzinfo=dt.UTC)
    assert client.get(f"/api/tournaments/{tournament.slug}").json()["time_zone"] == ZONE


def test_a_players_message_says_the_time_in_the_tournaments_zone():
    row = {"starts_at": "2026-12-05T05:00:00+00:00", "zone": ZONE, "place": "Зал 1"}
    assert "10:00" in _when(row) and "Зал 1" in _when(row)
    # a message stored before tournaments had a zone: the site's
    assert "05:00" in _when({"starts_at": "2026-12-05T05:00:00+00:00"})
    assert "05:00" in _when({"starts_at": "2026-12-05T05:00:00+00:00", "zone": "Nowhere/X"})
