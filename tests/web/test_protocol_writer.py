"""One writer of a protocol's data (`protocol_data`) and one of a game's rows
(`write_game_data`), whatever the door: the rows of every game, imported or saved,
read back as its version's data."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from mafiatab.games import conversion
from mafiatab.games.models import Game, ProtocolVersion
from mafiatab.games.services import protocol_save

from . import test_games_fixtures as fx
from .test_games_fixtures import complete_data

two_tables = fx.two_tables


def test_the_writer_keeps_the_file_forms_keys_in_order_and_only_those_that_hold_something():
    data = conversion.protocol_data(
        {
            "voting": None,
            "winner": None,
            "seats": [],
            "date": None,
            "judge": "Judge",
            "best_move": [],
            "replayed": False,
            "stage": "qualifying",
            "id": "Q1-T1",
            "first_killed": None,
            "kept": 1,
        }
    )
    assert list(data.items()) == [
        ("id", "Q1-T1"),
        ("stage", "qualifying"),
        ("judge", "Judge"),
        ("seats", []),
        ("winner", None),
        ("first_killed", None),
        ("voting", []),
        ("kept", 1),
    ]


#: How a game stored before versions got its first version: from its rows.
_rows_data = importlib.import_module(
    "mafiatab.games.migrations.0008_every_game_has_a_version"
)._data


@pytest.mark.django_db
def test_an_imported_games_rows_read_back_as_its_first_version(demo_imported: Any):
    games = list(Game.objects.filter(tournament=demo_imported).order_by("position"))
    assert games
    for game in games:
        assert _rows_data(game) == conversion.game_data(game)


@pytest.mark.django_db
def test_a_saved_protocols_rows_read_back_as_its_version(two_tables: dict[str, Any]):
    game = two_tables["game1"]
    protocol_save(
        game=game,
        data=complete_data(game, penalties=[{"seat": 4, "rule": "9.5", "reason": "rude"}]),
        by=two_tables["judge"],
        base_version=game.version,
    )
    game.refresh_from_db()
    stored = conversion.game_data(game)
    assert _rows_data(game) == stored
    assert stored["judge_extra"] == [
        {"seat": 3, "points": 0.3, "reason": "fine play", "chief_approved": False}
    ]


@pytest.mark.django_db
def test_a_game_stored_before_versions_gets_its_first_version_from_its_rows(
    two_tables: dict[str, Any],
):
    from django.apps import apps as django_apps

    game = two_tables["game1"]
    protocol_save(
        game=game, data=complete_data(game), by=two_tables["judge"], base_version=game.version
    )
    game.refresh_from_db()
    expected = conversion.game_data(game)
    ProtocolVersion.objects.filter(game=game).delete()
    migration = importlib.import_module("mafiatab.games.migrations.0008_every_game_has_a_version")
    migration.versions_for_every_game(django_apps, None)
    game.refresh_from_db()
    assert conversion.game_data(game) == expected
    assert ProtocolVersion.objects.filter(game=game).count() == 1
