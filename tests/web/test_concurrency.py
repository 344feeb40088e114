"""Concurrent saves on the real database (SQLite in WAL mode, or PostgreSQL with
DATABASE_URL), from real threads: every writer gets an answer, never a server error;
of writers starting from the same version exactly one wins and the others hear that
someone else changed the protocol; versions stay contiguous."""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connections, transaction
from django.test import Client
from django.urls import reverse

from mafiatab.games.forms import raw_from_data
from mafiatab.games.models import Game, ProtocolVersion

from .test_games_fixtures import complete_data

pytestmark = pytest.mark.django_db(transaction=True)

TABLES = 20


def _round(tournament: Any, staff: dict[str, Any], tables: int) -> list[Game]:
    """One round of `tables` tables, all judged by the table judge."""
    from mafiatab.games.services import TablePlan, round_create
    from mafiatab.registrations.services import registration_add

    with transaction.atomic():  # one commit, not two hundred
        for t in range(1, tables + 1):
            for s in range(1, 11):  # a seat holds a participant
                registration_add(
                    tournament=tournament, nickname=f"T{t}Seat{s}", by=staff["organiser"]
                )
    round_ = round_create(
        tournament=tournament,
        stage="qualifying",
        number=1,
        tables=[
            TablePlan(
                number=t,
                judge=staff["judge"],
                players=tuple(f"T{t}Seat{s}" for s in range(1, 11)),
            )
            for t in range(1, tables + 1)
        ],
        by=staff["chief"],
    )
    return [table.game for table in round_.tables.order_by("number")]


@pytest.fixture
def twenty_tables(tournament: Any, staff: dict[str, Any]) -> list[Game]:
    return _round(tournament, staff, TABLES)


@pytest.fixture
def one_table(tournament: Any, staff: dict[str, Any]) -> list[Game]:
    return _round(tournament, staff, 1)


def _race(requests: list[Callable[[], Any]]) -> list[int]:
    """Run every request in its own thread, all released at once; their status codes."""
    barrier = threading.Barrier(len(requests))
    codes: list[int] = [0] * len(requests)

    def run(i: int) -> None:
        try:
            barrier.wait()
            codes[i] = requests[i]().status_code
        except Exception:  # a crash in the thread is a failed request
            codes[i] = -1
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return codes


def _client(user: Any) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def _api_save(client: Client, game: Game, base_version: int) -> Callable[[], Any]:
    data = complete_data(game)
    data.pop("id"), data.pop("stage")
    body = json.dumps({"protocol": data, "base_version": base_version})
    url = f"/api/tournaments/{game.tournament.slug}/games/{game.pk}/protocol"
    return lambda: client.put(url, body, content_type="application/json")


def _form_save(client: Client, game: Game, base_version: int) -> Callable[[], Any]:
    # not what the API saves: a save of the stored protocol as it is stores nothing
    raw = raw_from_data(complete_data(game, first_killed=2))
    data = {k: v for k, v in raw.items() if v not in ("", [])}
    data |= {"base_version": str(base_version), "action": "save"}
    url = reverse("games:protocol", args=[game.tournament.slug, game.pk])
    return lambda: client.post(url, data)


def _assert_contiguous(games: list[Game]) -> None:
    for game in games:
        game.refresh_from_db()
        numbers = list(
            ProtocolVersion.objects.filter(game=game)
            .order_by("number")
            .values_list("number", flat=True)
        )
        assert numbers == list(range(1, game.version + 1)), game.label


def test_twenty_judges_saving_twenty_games_at_once_all_succeed(twenty_tables, staff):
    clients = [_client(staff["judge"]) for _ in twenty_tables]
    pairs = list(zip(clients, twenty_tables, strict=True))
    assert _race([_api_save(c, g, 1) for c, g in pairs]) == [200] * TABLES
    assert _race([_form_save(c, g, 2) for c, g in pairs]) == [302] * TABLES
    _assert_contiguous(twenty_tables)
    assert all(g.version == 3 for g in twenty_tables)


@pytest.mark.parametrize("door", [_api_save, _form_save], ids=["api", "form"])
def test_ten_saves_of_one_game_from_the_same_version_have_one_winner(one_table, staff, door):
    game = one_table[0]
    clients = [_client(staff["judge"] if i % 2 else staff["chief"]) for i in range(10)]
    codes = _race([door(c, game, 1) for c in clients])
    success = 302 if door is _form_save else 200
    assert Counter(codes) == {success: 1, 409: 9}
    _assert_contiguous([game])
    assert game.version == 2


def test_the_form_tells_the_loser_of_a_race_that_someone_else_saved(one_table, staff):
    game = one_table[0]
    client = _client(staff["judge"])
    assert _form_save(client, game, 1)().status_code == 302
    response = _form_save(client, game, 1)()
    assert response.status_code == 409
    assert "changed by someone else" in response.content.decode()


def test_a_form_save_without_its_base_version_is_refused(one_table, staff):
    game = one_table[0]
    client = _client(staff["judge"])
    # not what the API saves: a save of the stored protocol as it is stores nothing
    raw = raw_from_data(complete_data(game, first_killed=2))
    data = {k: v for k, v in raw.items() if v not in ("", [])} | {"action": "submit"}
    url = reverse("games:protocol", args=[game.tournament.slug, game.pk])
    for base in (None, "", "abc", "9" * 40):
        response = client.post(url, data if base is None else data | {"base_version": base})
        assert response.status_code == 400
        assert "which version of the protocol" in response.content.decode()
    game.refresh_from_db()
    assert game.version == 1


def test_the_refusal_without_a_base_version_is_in_russian_for_a_russian_judge(one_table, staff):
    game = one_table[0]
    client = _client(staff["judge"])
    url = reverse("games:protocol", args=[game.tournament.slug, game.pk])
    response = client.post(url, {"action": "save"}, HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 400
    assert "с какой версии протокола" in response.content.decode()


@pytest.mark.parametrize("door", [_api_save, _form_save], ids=["api", "form"])
def test_a_database_too_busy_to_save_answers_try_again_not_a_server_error(
    one_table, staff, door, monkeypatch
):
    from django.db import OperationalError

    from mafiatab.games import services

    def busy(**kwargs: Any) -> None:
        raise OperationalError("database is locked")

    monkeypatch.setattr(services, "protocol_save", busy)
    response = door(_client(staff["judge"]), one_table[0], 1)()
    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    assert "nothing of yours was saved" in response.content.decode()


def test_other_database_errors_stay_server_errors(one_table, staff, monkeypatch):
    from django.db import OperationalError

    from mafiatab.games import services

    def broken(**kwargs: Any) -> None:
        raise OperationalError("no such table: games_game")

    monkeypatch.setattr(services, "protocol_save", broken)
    client = _client(staff["judge"])
    assert _api_save(client, one_table[0], 1)().status_code == 500
    assert _form_save(client, one_table[0], 1)().status_code == 500


def test_ten_devices_keeping_the_console_place_at_once_are_all_answered(one_table, staff):
    from mafiatab.console import services as console
    from mafiatab.console.models import GameLog

    game = one_table[0]
    console.log_start(game=game, roles={"sheriff": 3, "don": 7, "black": [5, 9]}, by=staff["judge"])
    url = f"/api/tournaments/{game.tournament.slug}/games/{game.pk}/log/place"

    def put(client: Client, speech: int) -> Callable[[], Any]:
        timer = {"total": 60, "left": 60, "running": False, "label": ""}
        body = json.dumps({"day": "d1", "speech": speech, "timer": timer})
        return lambda: client.put(url, body, content_type="application/json")

    clients = [_client(staff["judge"] if i % 2 else staff["chief"]) for i in range(10)]
    codes = _race([put(c, i) for i, c in enumerate(clients)])
    # Each is answered (saved, or told to try again when the database is busy); the
    # saves are counted one by one and the last one stands whole.
    assert set(codes) <= {200, 503} and codes.count(200) >= 1, codes
    log = GameLog.objects.get(game=game)
    assert log.place_revision == codes.count(200)
    assert log.place["speech"] in range(10) and log.place["day"] == "d1"
