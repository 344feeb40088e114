"""One pipeline: the same protocols submitted through the form, the API and a
tournament file are refused by all three with the same problem codes, and the same
valid ones are accepted by all three (issue 8)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from mafiatab.core.tournament_file import TournamentFileError, loads_tournament
from mafiatab.games.forms import raw_from_data
from mafiatab.games.models import GameStatus

from . import test_games_fixtures as fx
from .test_games_fixtures import complete_data

pytestmark = pytest.mark.django_db
two_tables = fx.two_tables

Change = Callable[[dict[str, Any]], None]


def _seat(n: int, **values: Any) -> Change:
    def change(data: dict[str, Any]) -> None:
        data["seats"][n - 1].update(values)

    return change


def _set(**values: Any) -> Change:
    def change(data: dict[str, Any]) -> None:
        for key, value in values.items():
            if value is None and key in ("best_move", "judge_extra", "penalties", "voting"):
                data.pop(key, None)
            else:
                data[key] = value

    return change


def _extra(*rows: tuple[int, float, bool]) -> Change:
    return _set(
        judge_extra=[
            {"seat": seat, "points": points, "reason": "play", "chief_approved": approved}
            for seat, points, approved in rows
        ]
    )


def _penalty(seat: int, rule: str) -> Change:
    return _set(penalties=[{"seat": seat, "rule": rule, "reason": "r"}])


def _removals(*seats: int) -> Change:
    return _set(
        disqualified=[
            {"seat": s, "reason": "4 fouls", "online": False, "fined": True} for s in seats
        ]
    )


def _both(*changes: Change) -> Change:
    def change(data: dict[str, Any]) -> None:
        for one in changes:
            one(data)

    return change


# Seats of `complete_data`: blacks 5 and 9, the don 7, the sheriff 3, the rest red;
# red wins, seat 1 killed first, best move 5 7 2, extras to seat 3, a vote on day 1.
BROKEN: dict[str, Change] = {
    "roles: two dons": _seat(1, role="don"),
    "roles: two sheriffs": _seat(1, role="sheriff"),
    "a role missing": _seat(4, role=None),
    "no winner": _set(winner=None),
    "four fouls without a removal": _seat(2, fouls=4),
    "black wins after every black left": _both(
        _set(winner="black", first_killed=5, best_move=None, judge_extra=None, voting=None),
        _removals(7, 9),
    ),
    "a seated player again in another case": _seat(2, player="ALPHA1"),
    "best move without the first killed": _set(first_killed=None),
    "best move naming the first killed": _set(best_move=[1, 5]),
    "best move naming a seat twice": _set(best_move=[5, 5]),
    "extra above 0.7 for a winner": _extra((3, 0.8, True)),
    "extra above 0.5 unapproved": _extra((3, 0.6, False)),
    "extra above 0.4 for a loser": _extra((5, 0.45, False)),
    "extras above 1.0 in total": _extra((1, 0.4, False), (2, 0.4, False), (3, 0.3, False)),
    "extra for one seat twice": _extra((3, 0.2, False), (3, 0.2, False)),
    "extra in a draw": _set(winner="draw", best_move=None, first_killed=None),
    "8.5 clause unknown": _penalty(2, "8.5.9"),
    "8.5.1 after a red win": _penalty(2, "8.5.1"),
    "8.5.2 for the sheriff": _penalty(3, "8.5.2"),
    "8.5.3 after a red win": _penalty(3, "8.5.3"),
    "8.5.4 for a red player": _penalty(2, "8.5.4"),
    "a removal of one seat twice": _removals(4, 4),
    "a date that is no date": _set(date="not-a-date"),
    "two nominations by one seat in a day": _set(
        voting=[{"day": 1, "nominees": [5, 9], "votes": [6, 4], "nominated_by": [2, 2]}]
    ),
    "more votes than living players": _set(
        voting=[{"day": 1, "nominees": [5, 9], "votes": [8, 4]}]
    ),
}

VALID: dict[str, Change] = {
    "the complete protocol": _set(),
    "four fouls with the removal": _both(_seat(4, fouls=4), _removals(4)),
    "an approved 0.6 and 8.5.2": _both(_extra((3, 0.6, True)), _penalty(2, "8.5.2")),
    "a black win with a best move": _both(
        _set(winner="black", first_killed=1, best_move=[5, 9], voting=None),
        _extra((5, 0.5, False), (7, 0.3, False)),
    ),
}


def _protocol(game: Any, change: Change) -> dict[str, Any]:
    data = complete_data(game)
    data.update(round=game.round, table=game.table)
    change(data)
    return data


def _by_form(client: Any, game: Any, data: dict[str, Any]) -> tuple[int, list[Any]]:
    raw = raw_from_data(data)
    post = {k: v for k, v in raw.items() if v not in ("", [])}
    post |= {"base_version": str(game.version), "action": "submit"}
    response = client.post(reverse("games:protocol", args=[game.tournament.slug, game.pk]), post)
    problems = response.context["problems"] if response.status_code == 422 else []
    return response.status_code, [(p.seat, p.field, p.code) for p in problems]


def _by_api(client: Any, game: Any, data: dict[str, Any]) -> tuple[int, list[Any]]:
    protocol = {k: v for k, v in data.items() if k not in ("id", "stage", "round", "table")}
    body = {"protocol": protocol, "base_version": game.version, "submit": True}
    url = f"/api/tournaments/{game.tournament.slug}/games/{game.pk}/protocol"
    response = client.put(url, json.dumps(body), content_type="application/json")
    if response.status_code != 422:
        return response.status_code, []
    return 422, [(p["seat"], p["field"], p["code"]) for p in response.json()["problems"]]


def _by_file(game: Any, data: dict[str, Any]) -> tuple[int, list[Any]]:
    document = {
        "format": "mafiatab-tournament/1",
        "name": "Doors",
        "ruleset": game.tournament.ruleset,
        "games": [data],
    }
    try:
        loads_tournament(json.dumps(document))
    except TournamentFileError as exc:
        return 422, [(p.seat, p.field, p.code) for p in exc.problems]
    return 200, []


@pytest.mark.parametrize("case", list(BROKEN), ids=list(BROKEN))
def test_a_broken_protocol_is_refused_by_every_door_with_the_same_codes(client, two_tables, case):
    game = two_tables["game1"]
    data = _protocol(game, BROKEN[case])
    client.force_login(two_tables["chief"])
    form_status, by_form = _by_form(client, game, copy.deepcopy(data))
    api_status, by_api = _by_api(client, game, copy.deepcopy(data))
    file_status, by_file = _by_file(game, copy.deepcopy(data))
    assert (form_status, api_status, file_status) == (422, 422, 422)
    assert by_file, case
    assert all(code for _seat, _field, code in by_file)
    assert sorted(by_form, key=repr) == sorted(by_file, key=repr), case
    assert sorted(by_api, key=repr) == sorted(by_file, key=repr), case
    game.refresh_from_db()
    assert game.version == 1 and game.status == GameStatus.DRAFT


@pytest.mark.parametrize("case", list(VALID), ids=list(VALID))
def test_a_valid_protocol_is_accepted_by_every_door(client, two_tables, case):
    client.force_login(two_tables["chief"])
    by_form, by_api = two_tables["game1"], two_tables["game2"]
    form_status, form_problems = _by_form(client, by_form, _protocol(by_form, VALID[case]))
    api_status, api_problems = _by_api(client, by_api, _protocol(by_api, VALID[case]))
    file_status, _ = _by_file(by_form, _protocol(by_form, VALID[case]))
    assert (form_status, api_status, file_status) == (302, 200, 200), (
        form_problems,
        api_problems,
    )
    for game in (by_form, by_api):
        game.refresh_from_db()
        assert game.status == GameStatus.SUBMITTED
    assert by_form.versions.get(number=2).data == _stored(_protocol(by_form, VALID[case]))


def _stored(data: dict[str, Any]) -> dict[str, Any]:
    """What the form stores of `data` (the voting blocks always listed)."""
    return {"voting": []} | data
