"""The games API: reading protocols, saving with optimistic locking, confirming,
protests, with the same permissions as the pages."""

from __future__ import annotations

import json

import pytest

from mafiatab.games.models import GameStatus

from . import test_games_fixtures as fx
from .test_games_fixtures import complete_data

pytestmark = pytest.mark.django_db
two_tables = fx.two_tables


def _protocol(game):
    data = complete_data(game)
    data.pop("id"), data.pop("stage")
    return data


def _put(client, game, body):
    url = f"/api/tournaments/{game.tournament.slug}/games/{game.pk}/protocol"
    return client.put(url, json.dumps(body), content_type="application/json")


def test_the_judge_saves_and_submits_and_the_chief_confirms_through_the_api(client, two_tables):
    game = two_tables["game1"]
    slug = game.tournament.slug
    client.force_login(two_tables["judge"])
    response = _put(client, game, {"protocol": _protocol(game), "base_version": 1, "submit": True})
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "submitted" and response.json()["version"] == 2
    client.force_login(two_tables["chief"])
    response = client.post(
        f"/api/tournaments/{slug}/games/{game.pk}/confirm",
        json.dumps({"base_version": 2}),
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    client.logout()
    body = client.get(f"/api/tournaments/{slug}/games/{game.pk}").json()
    assert body["status"] == "confirmed" and body["protocol"]["winner"] == "red"
    versions = client.get(f"/api/tournaments/{slug}/games/{game.pk}/versions").json()
    assert [v["action"] for v in versions] == ["created", "submitted", "confirmed"]


def test_the_api_refuses_the_judge_of_another_table_and_a_stale_version(client, two_tables):
    game = two_tables["game1"]
    client.force_login(two_tables["judge2"])
    response = _put(client, game, {"protocol": _protocol(game), "base_version": 1})
    assert response.status_code == 403
    client.force_login(two_tables["judge"])
    assert _put(client, game, {"protocol": _protocol(game), "base_version": 1}).status_code == 200
    response = _put(client, game, {"protocol": _protocol(game), "base_version": 1})
    assert response.status_code == 409
    assert "changed by someone else" in response.json()["detail"]
    game.refresh_from_db()
    assert game.version == 2 and game.status == GameStatus.DRAFT


def test_an_invalid_submission_is_refused_with_the_problems(client, two_tables):
    game = two_tables["game1"]
    client.force_login(two_tables["judge"])
    data = _protocol(game)
    data["seats"][0]["role"] = "don"
    response = _put(client, game, {"protocol": data, "base_version": 1, "submit": True})
    assert response.status_code == 422
    assert "roles must be 6 red" in response.json()["detail"]


def test_drafts_are_hidden_from_the_public(client, two_tables):
    game = two_tables["game1"]
    slug = game.tournament.slug
    assert client.get(f"/api/tournaments/{slug}/games/{game.pk}").status_code == 404
    assert client.get(f"/api/tournaments/{slug}/games").json() == []


def test_the_api_resolves_a_nickname_in_any_case_or_a_participant_id(client, two_tables):
    game = two_tables["game1"]
    client.force_login(two_tables["judge"])
    data = _protocol(game)
    data["seats"][1]["player"] = "ALPHA2"
    alpha3 = game.tournament.registrations.get(nickname="Alpha3")
    data["seats"][2] = {"participant": alpha3.pk, "role": data["seats"][2]["role"], "fouls": 0}
    response = _put(client, game, {"protocol": data, "base_version": 1})
    assert response.status_code == 200, response.content
    players = [s["player"] for s in response.json()["protocol"]["seats"]]
    assert players[:3] == ["Alpha1", "Alpha2", "Alpha3"]
    assert response.json()["participants"][2] == alpha3.pk


def test_a_seat_naming_one_player_and_another_participants_id_is_refused(client, two_tables):
    game = two_tables["game1"]
    client.force_login(two_tables["judge"])
    data = _protocol(game)
    alpha3 = game.tournament.registrations.get(nickname="Alpha3")
    role = data["seats"][2]["role"]
    data["seats"][2] = {"player": "Alpha2", "participant": alpha3.pk, "role": role}
    response = _put(client, game, {"protocol": data, "base_version": 1})
    assert response.status_code == 422
    assert response.json()["detail"] == (
        f"Seat 3 names the player Alpha2 but the participant {alpha3.pk} (Alpha3): give one."
    )
    game.refresh_from_db()
    assert game.version == 1
    data["seats"][2] = {"player": "alpha3", "participant": alpha3.pk, "role": role}
    assert _put(client, game, {"protocol": data, "base_version": 1}).status_code == 200


def test_the_api_refuses_a_seat_held_by_somebody_who_is_no_participant(client, two_tables):
    game = two_tables["game1"]
    client.force_login(two_tables["judge"])
    data = _protocol(game)
    data["seats"][4]["player"] = "Nobody Here"
    response = _put(client, game, {"protocol": data, "base_version": 1})
    assert response.status_code == 422
    assert response.headers["Content-Type"].startswith("application/json")
    assert "Nobody Here is not a participant of this tournament" in response.json()["detail"]
    data["seats"][4] = {"participant": 10**9, "role": "black"}
    response = _put(client, game, {"protocol": data, "base_version": 1})
    assert response.status_code == 422
    assert "There is no participant 1000000000 in this tournament." in response.json()["detail"]
    game.refresh_from_db()
    assert game.version == 1


def test_a_refusal_says_a_problem_only_the_application_sees_in_russian_without_a_code(
    client, two_tables
):
    game = two_tables["game1"]
    client.force_login(two_tables["judge"])
    data = _protocol(game)
    data["seats"][4]["player"] = "Nobody Here"
    url = f"/api/tournaments/{game.tournament.slug}/games/{game.pk}/protocol"
    response = client.put(
        url,
        json.dumps({"protocol": data, "base_version": 1}),
        content_type="application/json",
        headers={"Accept-Language": "ru"},
    )
    assert response.status_code == 422
    body = response.json()
    (item,) = body["problems"]
    assert item["code"] is None
    assert item["message"] == "Nobody Here — не участник этого турнира"
    assert "player.not_participant" not in body["detail"]
    assert "Nobody Here — не участник этого турнира" in body["detail"]
