"""The public list of a tournament's games: confirmed games for everyone, every
status for the staff, nothing written by a visitor."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from mafiatab.audit.models import AuditEntry
from mafiatab.games.models import Game, GameStatus
from mafiatab.games.services import protocol_confirm, protocol_save

from . import test_games_fixtures as fx
from .test_games_fixtures import complete_data

pytestmark = pytest.mark.django_db
two_tables = fx.two_tables


def _url(tournament):
    return reverse("games:list", args=[tournament.slug])


def _confirm_first(two_tables):
    game = two_tables["game1"]
    protocol_save(
        game=game, data=complete_data(game), by=two_tables["judge"], base_version=1, submit=True
    )
    protocol_confirm(game=game, by=two_tables["chief"])
    return game


def test_the_public_sees_only_confirmed_games_with_their_players_and_result(client, two_tables):
    game = _confirm_first(two_tables)
    page = client.get(_url(game.tournament))
    assert page.status_code == 200
    text = page.content.decode()
    assert 'data-testid="game-Q1-T1"' in text
    assert reverse("games:detail", args=[game.tournament.slug, game.pk]) in text
    assert all(f"Alpha{n}" in text for n in range(1, 11))
    assert "Red won" in text and "TableJudge" in text
    assert "Q1-T2" not in text and "Bravo1" not in text
    assert "status-Q1-T1" not in text


def test_a_tournament_without_confirmed_games_says_so(client, two_tables):
    text = client.get(_url(two_tables["round"].tournament)).content.decode()
    assert "No confirmed game yet." in text
    assert "Alpha1" not in text


def test_the_staff_see_every_game_with_its_status(client, two_tables):
    _confirm_first(two_tables)
    second = two_tables["game2"]
    protocol_save(
        game=second,
        data=complete_data(second),
        by=two_tables["judge2"],
        base_version=1,
        submit=True,
    )
    tournament = second.tournament
    for who in ("chief", "judge", "organiser"):
        client.force_login(two_tables[who])
        text = client.get(_url(tournament)).content.decode()
        assert 'data-testid="status-Q1-T1">confirmed<' in text, who
        assert 'data-testid="status-Q1-T2">submitted<' in text, who


def test_a_player_sees_the_public_list_not_the_drafts(client, two_tables):
    client.force_login(two_tables["alpha1"])
    text = client.get(_url(two_tables["round"].tournament)).content.decode()
    assert "Q1-T1" not in text and "No confirmed game yet." in text


def test_games_are_grouped_by_stage_and_round_in_table_order(client, two_tables):
    tournament = two_tables["round"].tournament
    client.force_login(two_tables["chief"])
    text = client.get(_url(tournament)).content.decode()
    assert "Qualifying" in text and "Round 1" in text
    assert text.index("game-Q1-T1") < text.index("game-Q1-T2")


def test_the_list_is_in_russian_for_a_russian_visitor(client, two_tables):
    _confirm_first(two_tables)
    tournament = two_tables["round"].tournament
    with translation.override("en"):  # the request's Russian stays in the request
        text = client.get(_url(tournament), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Победа красных" in text and "Игры" in text


def test_an_anonymous_visitor_cannot_write_through_the_list(client, two_tables):
    tournament = two_tables["round"].tournament
    before = (AuditEntry.objects.count(), list(Game.objects.values_list("status", flat=True)))
    assert client.post(_url(tournament), {"status": "confirmed"}).status_code == 405
    after = (AuditEntry.objects.count(), list(Game.objects.values_list("status", flat=True)))
    assert after == before
    assert GameStatus.CONFIRMED not in after[1]


def _top_bar(text):
    return text.split('class="mainnav"', 1)[1].split("</nav>", 1)[0]


def test_the_top_bar_leads_the_staff_to_their_tables_by_that_name(client, two_tables):
    tournament = two_tables["round"].tournament
    my_tables = reverse("games:my_tables", args=[tournament.slug])
    client.force_login(two_tables["judge"])
    bar = _top_bar(client.get(_url(tournament)).content.decode())
    assert f'<a href="{my_tables}">My tables</a>' in bar
    assert ">Games<" not in bar
    with translation.override("en"):  # the request's Russian stays in the request
        text = client.get(_url(tournament), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert f'<a href="{my_tables}">Мои столы</a>' in _top_bar(text)


def test_the_top_bar_has_no_tables_link_for_a_player(client, two_tables):
    tournament = two_tables["round"].tournament
    client.force_login(two_tables["alpha1"])
    bar = _top_bar(client.get(_url(tournament)).content.decode())
    assert reverse("games:my_tables", args=[tournament.slug]) not in bar
