"""The seating pages read the rounds' tables, however they were made: tables entered by
hand on the rounds page (no seating published) show on /seating/ and on a player's
/seating/mine/ as they do in the tournament page's "Your tables"."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from . import test_games_fixtures as fx

two_tables = fx.two_tables

pytestmark = pytest.mark.django_db


def _client(user):
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = "ru"
    return client


def test_a_players_seating_page_shows_his_hand_entered_table(two_tables):
    slug = two_tables["round"].tournament.slug
    page = _client(two_tables["alpha1"]).get(reverse("seating:mine", args=[slug]))
    text = page.content.decode()
    assert "Рассадка ещё не опубликована." not in text
    seats = page.context["my_seats"]
    assert [(s.round, s.table, s.seat) for _draft, row in seats for s in row] == [(1, 1, 1)]
    assert 'data-testid="my-round-1"' in text
    front = _client(two_tables["alpha1"]).get(two_tables["round"].tournament.get_absolute_url())
    tables = [(s.table.round.number, s.table.number, s.number) for s in front.context["my_seats"]]
    assert tables == [(1, 1, 1)]


def test_the_seating_page_shows_the_hand_entered_tables_and_finds_a_player(two_tables):
    slug = two_tables["round"].tournament.slug
    client = _client(two_tables["alpha1"])
    text = client.get(reverse("seating:index", args=[slug])).content.decode()
    assert "Рассадка ещё не опубликована." not in text
    assert "Bravo7" in text and 'data-testid="my-round-1"' in text
    found = client.get(reverse("seating:index", args=[slug]), {"q": "bravo7"})
    assert [r["player"] for r in found.context["results"]] == ["Bravo7"]


def test_without_any_table_the_seating_is_still_not_published(tournament, organiser):
    text = _client(organiser).get(reverse("seating:index", args=[tournament.slug]))
    assert "Рассадка ещё не опубликована." in text.content.decode()
