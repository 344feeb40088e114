"""A draft protocol is filled while the game is played and names every role: a player
of the table reads his game only once the judge has submitted (signed) it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from mafiatab.games.services import protocol_save

from . import test_games_fixtures as fx
from .test_games_fixtures import complete_data

pytestmark = pytest.mark.django_db
two_tables = fx.two_tables


def _urls(game):
    slug = game.tournament.slug
    return [
        reverse("games:detail", args=[slug, game.pk]),
        reverse("printables:protocol", args=[slug, game.pk]),
        f"/api/tournaments/{slug}/games/{game.pk}",
        f"/api/tournaments/{slug}/games/{game.pk}/versions",
    ]


def _save(two_tables, *, submit):
    game = two_tables["game1"]
    protocol_save(
        game=game,
        data=complete_data(game),
        by=two_tables["judge"],
        base_version=game.version,
        submit=submit,
    )
    game.refresh_from_db()
    return game


def test_a_player_of_the_table_cannot_read_the_draft_with_its_roles(client, two_tables):
    game = _save(two_tables, submit=False)
    client.force_login(two_tables["alpha1"])
    for url in _urls(game):
        response = client.get(url)
        assert response.status_code in (403, 404), url
        assert "sheriff" not in response.content.decode(), url


def test_a_player_of_the_table_reads_his_game_once_it_is_submitted(client, two_tables):
    game = _save(two_tables, submit=True)
    client.force_login(two_tables["alpha1"])
    for url in _urls(game):
        assert client.get(url).status_code == 200, url


def test_the_table_judge_still_reads_his_draft(client, two_tables):
    game = _save(two_tables, submit=False)
    client.force_login(two_tables["judge"])
    assert client.get(_urls(game)[0]).status_code == 200
