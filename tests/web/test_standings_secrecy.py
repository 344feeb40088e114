"""Hidden and frozen standings hold at every door the public can reach.

While the organiser hides the standings, nothing an anonymous visitor or a player
can fetch carries points: the tournament file, the API (game, versions, standings,
console log), the game page and its history, the protocol PDF, the spectators'
board, the standings downloads. A finished game shows who played and which team
won. While they are frozen, the public sees the games as they were when frozen:
a game confirmed (or changed) after the freeze shows no points. The staff (the
organiser, the chief judge, the table judges) see everything, live.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.urls import reverse

from mafiatab.console import services as console
from mafiatab.core.standings import compute_standings
from mafiatab.core.tournament_file import loads_tournament
from mafiatab.games.conversion import game_data
from mafiatab.games.services import protocol_confirm, protocol_save
from mafiatab.penalties.services import penalty_give
from mafiatab.standings.services import (
    frozen_snapshot,
    standings_freeze,
    standings_set_hidden,
)

from . import test_games_fixtures as fx

two_tables = fx.two_tables

pytestmark = pytest.mark.django_db

#: Seat 3 sheriff, 5 and 9 black, 7 don (the fixtures' ROLES).
ROLES = {"sheriff": 3, "don": 7, "black": [5, 9]}
#: A whole game: red wins when the don, a single nominee on day 3, leaves.
GAME = [
    {"type": "nominate", "by": 1, "seat": 5},
    {"type": "nominate", "by": 2, "seat": 9},
    {"type": "vote", "counts": [6, 4]},
    {"type": "night"},
    {"type": "shots", "by": {"7": 1, "9": 1}},
    {"type": "don_check", "seat": 3},
    {"type": "sheriff_check", "seat": 9},
    {"type": "day"},
    {"type": "best_move", "seats": [7, 9, 2]},
    {"type": "nominate", "by": 3, "seat": 9},
    {"type": "nominate", "by": 4, "seat": 7},
    {"type": "vote", "counts": [5, 3]},
    {"type": "night"},
    {"type": "shots", "by": {"7": 3}},
    {"type": "day"},
    {"type": "nominate", "by": 2, "seat": 7},
    {"type": "night"},
]


@pytest.fixture
def tournament(make_tournament: Any) -> Any:
    """An offline FIIM tournament (day 1 has a voting)."""
    return make_tournament(ruleset="fiim", platform="")


def _play_on_console(people: dict[str, Any]) -> None:
    """Table 1 plays its game on the console to the end; its protocol is made from it."""
    game, judge = people["game1"], people["judge"]
    log = console.log_start(game=game, roles=ROLES, by=judge)
    for event in GAME:
        console.event_append(log=log, event=event, client_id=uuid.uuid4(), after=None, by=judge)
    console.log_finish(log=log, by=judge)


def _confirm_console_game(people: dict[str, Any]) -> None:
    game = people["game1"]
    game.refresh_from_db()
    protocol_save(
        game=game, data=game_data(game), by=people["judge"], base_version=game.version, submit=True
    )
    game.refresh_from_db()
    protocol_confirm(game=game, by=people["chief"])


def _confirm_paper_game(people: dict[str, Any]) -> None:
    """Table 2's protocol, with a judge's extra 0.3 for seat 3, signed and confirmed."""
    game = people["game2"]
    game.refresh_from_db()
    protocol_save(
        game=game,
        data=fx.complete_data(game),
        by=people["judge2"],
        base_version=game.version,
        submit=True,
    )
    game.refresh_from_db()
    protocol_confirm(game=game, by=people["chief"])


@pytest.fixture
def people(two_tables: dict[str, Any], tournament: Any) -> dict[str, Any]:
    return two_tables | {"tournament": tournament}


@pytest.fixture
def played(people: dict[str, Any]) -> dict[str, Any]:
    """Both games played and confirmed (table 1 on the console, table 2 on paper)."""
    _play_on_console(people)
    _confirm_console_game(people)
    _confirm_paper_game(people)
    for key in ("game1", "game2"):
        people[key].refresh_from_db()
    return people


@pytest.fixture
def hidden(played: dict[str, Any]) -> dict[str, Any]:
    standings_set_hidden(tournament=played["tournament"], hidden=True, by=played["organiser"])
    return played


@pytest.fixture
def frozen(people: dict[str, Any]) -> dict[str, Any]:
    """Table 2 confirmed, then the standings frozen, then table 1 confirmed and a
    tournament penalty given: the public must learn nothing of the last two."""
    _confirm_paper_game(people)
    standings_freeze(tournament=people["tournament"], by=people["organiser"])
    _play_on_console(people)
    _confirm_console_game(people)
    penalty_give(
        tournament=people["tournament"],
        player="Bravo4",
        kind="lateness",
        minutes_late=9,
        reason="late after the freeze",  # no round: his game of round 1 is played
        by=people["chief"],
    )
    for key in ("game1", "game2"):
        people[key].refresh_from_db()
    return people


def _viewers(people: dict[str, Any]) -> dict[str, Any]:
    """The public: an anonymous visitor, a player of table 1, a participant who sat at
    neither table."""
    return {"anonymous": None, "player of the game": people["alpha1"], "player": people["player"]}


def _staff(people: dict[str, Any]) -> dict[str, Any]:
    return {role: people[role] for role in ("organiser", "chief", "judge")}


def _as(client: Any, user: Any) -> Any:
    client.logout()
    if user is not None:
        client.force_login(user)
    return client


def _slug(people: dict[str, Any]) -> str:
    return people["tournament"].slug


def _api_game(client: Any, people: dict[str, Any], key: str) -> Any:
    return client.get(f"/api/tournaments/{_slug(people)}/games/{people[key].pk}")


def _has_points(protocol: dict[str, Any]) -> bool:
    """True when a protocol's file form holds anything that gives points."""
    keys = {"best_move", "judge_extra", "penalties", "disqualified", "first_killed", "voting"}
    seat_keys = {key for seat in protocol.get("seats") or [] for key in seat}
    return bool(keys & set(protocol)) or bool(seat_keys - {"player"})


def _game_page(client: Any, people: dict[str, Any], key: str) -> Any:
    return client.get(reverse("games:detail", args=[_slug(people), people[key].pk]))


def _refused(answer: Any) -> bool:
    """A page the viewer does not get: the login page for a visitor, 403/404 otherwise."""
    return answer.status_code in (302, 403, 404)


# --- the tournament file ---------------------------------------------------------------


def test_the_tournament_file_is_refused_to_the_public_while_the_standings_are_hidden(
    client, hidden
):
    url = reverse("tournaments:export", args=[_slug(hidden)])
    for who, user in _viewers(hidden).items():
        answer = _as(client, user).get(url)
        assert answer.status_code == 403, who
        assert "Bravo" not in answer.content.decode(), who
        assert "hidden" in answer.content.decode(), who
    russian = _as(client, None).get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "скрыл" in russian
    for who, user in _staff(hidden).items():
        answer = _as(client, user).get(url)
        assert answer.status_code == 200, who
        assert len(loads_tournament(answer.content).games) == 2, who


def test_the_tournament_file_of_frozen_standings_holds_what_was_confirmed_at_the_freeze(
    client, frozen
):
    url = reverse("tournaments:export", args=[_slug(frozen)])
    table = frozen_snapshot(tournament=frozen["tournament"]).standings
    for who, user in _viewers(frozen).items():
        answer = _as(client, user).get(url)
        assert answer.status_code == 200, who
        core = loads_tournament(answer.content)
        assert [g.id for g in core.games] == [frozen["game2"].label], who
        assert core.penalties == (), who
        # so `mafiatab standings` on the public file gives the frozen table, not the live one
        assert compute_standings(core).to_json() == table.to_json(), who
    for who, user in _staff(frozen).items():
        core = loads_tournament(_as(client, user).get(url).content)
        assert len(core.games) == 2 and len(core.penalties) == 1, who


# --- the API ---------------------------------------------------------------------------


def test_the_api_gives_the_public_who_played_and_who_won_but_no_points_while_hidden(client, hidden):
    slug = _slug(hidden)
    for who, user in _viewers(hidden).items():
        _as(client, user)
        info = client.get(f"/api/tournaments/{slug}").json()
        assert info["standings_hidden"] is True and info["standings_frozen_at"] is None, who
        for key in ("game1", "game2"):
            answer = _api_game(client, hidden, key)
            assert answer.status_code == 200, (who, key)
            data = answer.json()
            assert data["points_withheld"] is True, (who, key)
            assert not _has_points(data["protocol"]), (who, key, data["protocol"])
            assert data["protocol"]["winner"] == "red"
            assert len(data["protocol"]["seats"]) == 10
            assert data["problems"] == []
            versions = client.get(f"/api/tournaments/{slug}/games/{hidden[key].pk}/versions")
            assert versions.status_code == 403, (who, key)
            assert "role" not in versions.content.decode()
        assert client.get(f"/api/tournaments/{slug}/standings").status_code == 403, who
        listed = client.get(f"/api/tournaments/{slug}/games").json()
        assert [g["label"] for g in listed] == [hidden["game1"].label, hidden["game2"].label]


def test_the_api_gives_the_staff_every_protocol_while_hidden(client, hidden):
    slug = _slug(hidden)
    for who, user in _staff(hidden).items():
        _as(client, user)
        data = _api_game(client, hidden, "game2").json()
        assert data["points_withheld"] is False, who
        assert data["protocol"]["judge_extra"][0]["points"] == 0.3, who
        assert data["protocol"]["seats"][2]["role"] == "sheriff", who
        versions = client.get(f"/api/tournaments/{slug}/games/{hidden['game2'].pk}/versions")
        assert versions.status_code == 200, who
        assert client.get(f"/api/tournaments/{slug}/standings").status_code == 200, who


def test_the_api_withholds_the_points_of_a_game_confirmed_after_the_freeze(client, frozen):
    slug = _slug(frozen)
    for who, user in _viewers(frozen).items():
        _as(client, user)
        info = client.get(f"/api/tournaments/{slug}").json()
        assert info["standings_hidden"] is False and info["standings_frozen_at"], who
        before = _api_game(client, frozen, "game2").json()
        assert before["points_withheld"] is False, who
        assert before["protocol"]["judge_extra"][0]["points"] == 0.3, who
        after = _api_game(client, frozen, "game1").json()
        assert after["points_withheld"] is True, who
        assert not _has_points(after["protocol"]), who
        versions = client.get(f"/api/tournaments/{slug}/games/{frozen['game1'].pk}/versions")
        assert versions.status_code == 403, who
        table = client.get(f"/api/tournaments/{slug}/standings").json()
        assert {row["player"] for row in table["standings"]} == set(fx.NICKS_2), who
    for who, user in _staff(frozen).items():
        _as(client, user)
        assert _api_game(client, frozen, "game1").json()["points_withheld"] is False, who
        table = client.get(f"/api/tournaments/{slug}/standings").json()
        assert len(table["standings"]) == 20, who


# --- the console log and the spectators' board --------------------------------------------


def _log(client: Any, people: dict[str, Any]) -> Any:
    return client.get(f"/api/tournaments/{_slug(people)}/games/{people['game1'].pk}/log")


def _tells_roles(text: str) -> bool:
    return any(word in text for word in ('"sheriff"', '"don"', '"black"', "board-role"))


@pytest.mark.parametrize("setting", ["hidden", "frozen"])
def test_a_finished_console_game_shows_the_public_its_winner_but_no_role(client, request, setting):
    people = request.getfixturevalue(setting)
    slug, game = _slug(people), people["game1"]
    for who, user in _viewers(people).items():
        _as(client, user)
        answer = _log(client, people)
        data = answer.json()
        assert data["finished"] is True and data["winner"] == "red", who
        assert data["full"] is False and "roles" not in data["header"], who
        assert "protocol" not in data["state"] and "nights" not in data["state"], who
        assert not _tells_roles(answer.content.decode()), who
        for name in ("console:spectator", "console:board"):
            page = client.get(reverse(name, args=[slug, game.pk])).content.decode()
            assert "board-role" not in page, (who, name)
    for who, user in _staff(people).items():
        data = _as(client, user).get(_log(client, people).request["PATH_INFO"]).json()
        assert data["header"]["roles"] == ROLES, who
        board = client.get(reverse("console:board", args=[slug, game.pk])).content.decode()
        assert "board-role" in board, who


# --- the pages and the downloads -----------------------------------------------------------


def _withholds(page: str) -> bool:
    return (
        'data-testid="points-withheld"' in page
        and 'data-testid="protocol-pdf"' not in page
        and "fine play" not in page
        and "History of changes" not in page
        and "The don checks" not in page
        # no legend of role letters the page does not show
        and 'data-testid="role-legend"' not in page
    )


def test_a_game_page_shows_the_public_who_played_and_who_won_but_no_points_while_hidden(
    client, hidden
):
    slug = _slug(hidden)
    for who, user in _viewers(hidden).items():
        _as(client, user)
        for key in ("game1", "game2"):
            game = hidden[key]
            page = _game_page(client, hidden, key).content.decode()
            assert _withholds(page), (who, key)
            assert "Alpha2" in page or "Bravo2" in page, (who, key)
            assert "Winning team" in page, (who, key)
            for name in ("games:history", "printables:protocol"):
                answer = client.get(reverse(name, args=[slug, game.pk]))
                assert _refused(answer), (who, key, name)
        games = client.get(reverse("games:list", args=[slug])).content.decode()
        assert "Red won" in games and "Bravo2" in games, who
        for name in ("printables:standings_pdf", "printables:standings_xlsx"):
            assert _refused(client.get(reverse(name, args=[slug]))), (who, name)
        assert _refused(client.get(reverse("printables:archive", args=[slug]))), who


def test_the_staff_see_every_page_and_download_while_hidden(client, hidden):
    slug = _slug(hidden)
    for who, user in _staff(hidden).items():
        _as(client, user)
        page = _game_page(client, hidden, "game2").content.decode()
        assert "fine play" in page and 'data-testid="protocol-pdf"' in page, who
        assert 'data-testid="points-withheld"' not in page, who
        assert 'data-testid="role-legend"' in page, who
        for name in ("games:history", "printables:protocol"):
            answer = client.get(reverse(name, args=[slug, hidden["game2"].pk]))
            assert answer.status_code == 200, (who, name)
        for name in ("printables:standings_pdf", "printables:standings_xlsx", "printables:archive"):
            answer = client.get(reverse(name, args=[slug]))
            assert answer.status_code == 200, (who, name)
            if answer.streaming:  # a streamed archive gives its export slot back once read
                b"".join(answer.streaming_content)


def test_the_game_pages_of_frozen_standings_withhold_only_the_games_confirmed_since(client, frozen):
    slug = _slug(frozen)
    for who, user in _viewers(frozen).items():
        _as(client, user)
        after = _game_page(client, frozen, "game1").content.decode()
        assert _withholds(after), who
        assert "Winning team" in after, who
        assert _refused(client.get(reverse("printables:protocol", args=[slug, frozen["game1"].pk])))
        before = _game_page(client, frozen, "game2").content.decode()
        assert "fine play" in before and 'data-testid="points-withheld"' not in before, who
        answer = client.get(reverse("printables:protocol", args=[slug, frozen["game2"].pk]))
        assert answer.status_code == 200, who
    for who, user in _staff(frozen).items():
        _as(client, user)
        page = _game_page(client, frozen, "game1").content.decode()
        assert 'data-testid="points-withheld"' not in page, who
        answer = client.get(reverse("printables:protocol", args=[slug, frozen["game1"].pk]))
        assert answer.status_code == 200, who


def test_the_refusals_say_why_in_both_languages(client, hidden):
    slug, game = _slug(hidden), hidden["game2"]
    _as(client, hidden["alpha1"])
    versions = client.get(f"/api/tournaments/{slug}/games/{game.pk}/versions")
    assert "hidden" in json.loads(versions.content)["detail"]
    russian = client.get(
        f"/api/tournaments/{slug}/games/{game.pk}/versions", HTTP_ACCEPT_LANGUAGE="ru"
    )
    assert "скрыл" in json.loads(russian.content)["detail"]
    page = client.get(reverse("games:detail", args=[slug, game.pk]), HTTP_ACCEPT_LANGUAGE="ru")
    assert 'data-testid="points-withheld"' in page.content.decode()
    assert "скрыл" in page.content.decode()


def test_a_protocol_changed_after_the_freeze_is_public_as_it_was_frozen(client, frozen):
    game = frozen["game2"]
    changed = fx.complete_data(game)
    changed["judge_extra"] = [
        {"seat": 3, "points": 0.5, "reason": "better play", "chief_approved": True}
    ]
    protocol_save(
        game=game, data=changed, by=frozen["chief"], base_version=game.version, reason="recount"
    )
    _as(client, frozen["alpha1"])
    data = _api_game(client, frozen, "game2").json()
    assert data["points_withheld"] is True and not _has_points(data["protocol"])
    assert "better play" not in _game_page(client, frozen, "game2").content.decode()
    core = loads_tournament(client.get(reverse("tournaments:export", args=[_slug(frozen)])).content)
    assert [e.reason for g in core.games for e in g.judge_extra] == ["fine play"]
    _as(client, frozen["chief"])
    assert "better play" in _game_page(client, frozen, "game2").content.decode()


def test_the_tournament_page_offers_the_file_only_to_who_may_download_it(client, hidden):
    page = reverse("tournaments:detail", args=[_slug(hidden)])
    link = reverse("tournaments:export", args=[_slug(hidden)])
    for who, user in _viewers(hidden).items():
        assert link not in _as(client, user).get(page).content.decode(), who
    for who, user in _staff(hidden).items():
        assert "(2 games)" in _as(client, user).get(page).content.decode(), who


def test_the_file_link_counts_the_games_the_frozen_file_holds(client, frozen):
    page = reverse("tournaments:detail", args=[_slug(frozen)])
    for who, user in _viewers(frozen).items():
        assert "(1 game)" in _as(client, user).get(page).content.decode(), who


def test_every_door_of_hidden_standings_refuses_alike_saying_why(client, hidden):
    """The standings' PDF, XLSX and CSV, the tournament file, a game's protocol PDF and
    its history: for a visitor and a player alike one 403 page, its reason in the
    reader's language (not a 404 as if the address were mistyped)."""
    slug, game = _slug(hidden), hidden["game2"].pk
    doors = [
        reverse("printables:standings_pdf", args=[slug]),
        reverse("printables:standings_xlsx", args=[slug]),
        reverse("standings:table", args=[slug]) + "?format=csv",
        reverse("standings:table", args=[slug]) + "?format=csv&provisional=1",
        reverse("tournaments:export", args=[slug]),
        reverse("printables:protocol", args=[slug, game]),
        reverse("games:history", args=[slug, game]),
    ]
    for who, user in _viewers(hidden).items():
        _as(client, user)
        for language, reason in (("en", "has hidden the standings"), ("ru", "скрыл")):
            reasons = set()
            for url in doors:
                answer = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
                assert answer.status_code == 403, (who, url)
                page = answer.content.decode()
                assert 'data-testid="refusal-reason"' in page and reason in page, (who, url)
                reasons.add(page.split('data-testid="refusal-reason">')[1].split("<")[0])
            assert len(reasons) == 1, (who, language, reasons)
    api = _as(client, None).get(f"/api/tournaments/{slug}/standings", HTTP_ACCEPT_LANGUAGE="ru")
    assert api.status_code == 403 and reasons == {api.json()["detail"]}
