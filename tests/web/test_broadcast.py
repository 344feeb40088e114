"""The broadcast: a table's stream overlay, its result card, the live channel that the
overlay and the spectators' board wait on, the director's private links, the standings
strip and the broadcast's links. Nothing on air tells a role before the end."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from mafiatab.audit.models import AuditEntry
from mafiatab.console import broadcast, broadcast_views, services
from mafiatab.console.models import DirectorLink

from . import test_games_fixtures as fx
from .test_console import GAME, ROLES

two_tables = fx.two_tables

pytestmark = pytest.mark.django_db

#: What a role looks like on the overlay, the card or the board.
ROLE_MARKS = ("ov-role", "board-role", "ov-seat-don", "ov-seat-sheriff", "ov-seat-black")


@pytest.fixture
def tournament(make_tournament: Any) -> Any:
    return make_tournament(ruleset="fiim", platform="")


@pytest.fixture
def started(two_tables: dict[str, Any]) -> dict[str, Any]:
    log = services.log_start(game=two_tables["game1"], roles=ROLES, by=two_tables["judge"])
    return two_tables | {"log": log, "game": two_tables["game1"]}


def _append(started: dict[str, Any], *events: dict[str, Any]) -> None:
    for event in events:
        services.event_append(
            log=started["log"], event=event, client_id=uuid.uuid4(), after=None, by=started["judge"]
        )


def _url(name: str, game: Any, *args: Any) -> str:
    return reverse(name, args=[game.tournament.slug, *args, game.pk])


def _live(client: Any, name: str, game: Any, *args: Any, v: str = "") -> Any:
    return client.get(_url(name, game, *args), {"v": v})


def _has_role(text: str) -> bool:
    return any(mark in text for mark in ROLE_MARKS)


def test_the_overlay_shows_the_table_but_no_role_before_the_end(client, started):
    game = started["game"]
    _append(started, {"type": "foul", "seat": 4}, *GAME[:9])  # night 1, day 2, best move
    client.force_login(started["chief"])  # whoever opens it, the overlay is the public's
    page = client.get(_url("console:overlay", game))
    assert page.status_code == 200
    text = page.content.decode()
    assert 'data-testid="ov-seat-10"' in text and fx.NICKS_1[9] in text
    assert 'aria-label="Fouls: 1"' in text
    assert "Night 1: seat 1 is killed" in text
    assert 'data-testid="ov-best-move"' in text
    assert not _has_role(text)
    for url in (
        _url("console:overlay_live", game),
        _url("console:board_live", game),
        _url("console:card_live", game),
    ):
        answer = client.get(url, {"v": ""})
        assert answer.status_code == 200
        assert not _has_role(answer.json()["html"]), url
    assert "card-wait" in client.get(_url("console:card", game)).content.decode()


def test_the_night_without_a_kill_is_told_as_a_miss(client, started):
    _append(started, *GAME[:3], {"type": "night"}, {"type": "shots", "by": {"7": 1, "9": 2}})
    _append(started, {"type": "day"})
    text = client.get(_url("console:overlay", started["game"])).content.decode()
    assert "Night 1: a miss, nobody is killed" in text


def test_the_roles_go_on_air_once_the_game_is_closed(client, started):
    game = started["game"]
    _append(started, *GAME)
    services.log_finish(log=started["log"], by=started["judge"])
    overlay = client.get(_url("console:overlay", game)).content.decode()
    assert 'data-testid="ov-role-7"' in overlay and "ov-result" in overlay
    card = client.get(_url("console:card", game)).content.decode()
    assert 'data-testid="card-result"' in card and 'data-testid="ov-role-3"' in card


def test_hidden_standings_keep_the_roles_off_the_card_and_the_strip_empty(client, started):
    from mafiatab.games.conversion import game_data
    from mafiatab.games.services import protocol_confirm, protocol_save
    from mafiatab.standings.services import standings_set_hidden

    game = started["game"]
    _append(started, *GAME)
    services.log_finish(log=started["log"], by=started["judge"])
    game.refresh_from_db()
    protocol_save(
        game=game, data=game_data(game), by=started["judge"], base_version=game.version, submit=True
    )
    game.refresh_from_db()
    protocol_confirm(game=game, by=started["chief"])
    strip_url = reverse("standings:strip", args=[game.tournament.slug])
    shown = client.get(strip_url).content.decode()
    assert 'data-testid="strip-rows"' in shown and fx.NICKS_1[1] in shown
    standings_set_hidden(tournament=game.tournament, hidden=True, by=started["organiser"])
    card = client.get(_url("console:card", game)).content.decode()
    assert 'data-testid="card-result"' in card and not _has_role(card)
    strip = client.get(strip_url)
    assert strip.status_code == 200
    assert (
        "strip-rows" not in strip.content.decode() and fx.NICKS_1[1] not in strip.content.decode()
    )
    client.force_login(started["chief"])  # on air is the public's view, whoever opens it
    assert fx.NICKS_1[1] not in client.get(strip_url).content.decode()


def test_the_live_channel_answers_a_new_version_with_the_table_and_an_old_one_without(
    client, started
):
    game = started["game"]
    first = _live(client, "console:overlay_live", game).json()
    assert first["html"] and first["v"]
    same = _live(client, "console:overlay_live", game, v=first["v"]).json()
    assert same["v"] == first["v"] and "html" not in same
    _append(started, {"type": "foul", "seat": 6})
    moved = _live(client, "console:overlay_live", game, v=first["v"]).json()
    assert moved["v"] != first["v"] and 'aria-label="Fouls: 1"' in moved["html"]


def test_a_waiting_viewer_is_answered_when_the_wait_ends_unchanged(client, started, monkeypatch):
    monkeypatch.setattr(broadcast_views, "LIVE_WAIT_SECONDS", 0.05)
    monkeypatch.setattr(broadcast_views, "LIVE_STEP_SECONDS", 0.01)
    game = started["game"]
    version = broadcast.live_version(game.pk)
    answer = client.get(_url("console:overlay_live", game), {"v": version, "wait": "1"}).json()
    assert answer == {"v": version, "waited": True}


def test_a_busy_server_answers_at_once_without_waiting(client, started, monkeypatch):
    slots = broadcast_views._waiters()
    taken = [slots.try_take() for _ in range(slots.size)]
    assert all(taken)
    try:
        game = started["game"]
        version = broadcast.live_version(game.pk)
        answer = client.get(_url("console:overlay_live", game), {"v": version, "wait": "1"})
        assert answer.json() == {"v": version, "waited": False}
    finally:
        for _ in taken:
            slots.give_back()


def test_the_directors_link_shows_the_roles_until_revoked(client, started):
    game, chief = started["game"], started["chief"]
    _append(started, *GAME[:3])
    link = broadcast.director_link_create(tournament=game.tournament, by=chief)
    overlay = client.get(_url("console:director_overlay", game, link.token))
    assert overlay.status_code == 200
    text = overlay.content.decode()
    assert 'data-testid="ov-role-3"' in text and "ov-role-sheriff" in text
    assert overlay["Referrer-Policy"] == "no-referrer"
    live = _live(client, "console:director_overlay_live", game, link.token)
    assert 'data-testid="ov-role-7"' in live.json()["html"]
    index = client.get(reverse("console:director", args=[game.tournament.slug, link.token]))
    assert _url("console:director_overlay", game, link.token) in index.content.decode()
    broadcast.director_link_revoke(link=link, by=chief)
    assert client.get(_url("console:director_overlay", game, link.token)).status_code == 404
    assert _live(client, "console:director_overlay_live", game, link.token).status_code == 404
    assert client.get(_url("console:director_overlay", game, "x" * 43)).status_code == 404
    actions = list(
        AuditEntry.objects.filter(action__startswith="broadcast.").values_list("action", flat=True)
    )
    assert sorted(actions) == ["broadcast.director_link.created", "broadcast.director_link.revoked"]


def test_only_the_chief_judge_makes_and_revokes_directors_links(client, started):
    game = started["game"]
    for person in ("organiser", "judge"):
        with pytest.raises(PermissionDenied):
            broadcast.director_link_create(tournament=game.tournament, by=started[person])
    url = reverse("console:director_links", args=[game.tournament.slug])
    client.force_login(started["judge"])
    assert client.post(url, {"action": "create"}).status_code == 403
    client.force_login(started["chief"])
    assert client.post(url, {"action": "create"}).status_code == 302
    link = DirectorLink.objects.get()
    page = client.get(reverse("console:broadcast", args=[game.tournament.slug])).content.decode()
    assert link.token in page
    assert client.post(url, {"action": "revoke", "link": "9" * 40}).status_code == 302
    assert client.post(url, {"action": "revoke", "link": str(link.pk)}).status_code == 302
    link.refresh_from_db()
    assert link.revoked_at is not None and link.revoked_by == started["chief"]
    again = client.post(url, {"action": "revoke", "link": str(link.pk)}, follow=True)
    assert "already revoked" in again.content.decode()


def test_the_rounds_page_links_each_tables_overlay_and_board_and_the_stream(client, started):
    from mafiatab.tournaments.services import info_of, tournament_update

    game = started["game"]
    info = info_of(game.tournament).__dict__ | {"stream_url": "https://example.org/live"}
    tournament_update(
        tournament=game.tournament,
        info=type(info_of(game.tournament))(**info),
        by=started["organiser"],
    )
    client.force_login(started["organiser"])
    page = client.get(reverse("games:rounds", args=[game.tournament.slug])).content.decode()
    assert _url("console:overlay", game) in page and _url("console:spectator", game) in page
    assert "https://example.org/live" in page


def test_the_settings_form_refuses_a_stream_address_that_is_not_a_web_address(client, started):
    from mafiatab.tournaments.services import info_of

    tournament = started["game"].tournament
    client.force_login(started["organiser"])
    data = {k: ("" if v is None else v) for k, v in info_of(tournament).__dict__.items()}
    data |= {"stream_url": "javascript:alert(1)", "registration_open": "on"}
    answer = client.post(reverse("tournaments:edit", args=[tournament.slug]), data)
    assert answer.status_code in (200, 422)
    assert "stream_url" in answer.context["form"].errors
    tournament.refresh_from_db()
    assert tournament.stream_url == ""


def test_the_broadcast_speaks_the_tournaments_language(client, started):
    from mafiatab.tournaments.services import info_of, tournament_update

    game = started["game"]
    info = info_of(game.tournament).__dict__ | {"language": "ru"}
    tournament_update(
        tournament=game.tournament,
        info=type(info_of(game.tournament))(**info),
        by=started["organiser"],
    )
    _append(started, {"type": "foul", "seat": 4})
    text = client.get(_url("console:overlay", game), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'lang="ru"' in text and "День 1" in text and 'aria-label="Фолы: 1"' in text


def test_the_overlay_shows_who_speaks_and_his_clock_from_the_judges_place(
    client, started, monkeypatch
):
    from mafiatab.console import selectors

    game = started["game"]
    _append(started, *GAME[:8])  # day 2
    read = selectors.log_view

    def with_place(place: dict[str, Any]) -> None:
        def log_view(*args: Any, **kwargs: Any) -> dict[str, Any]:
            return read(*args, **kwargs) | {"place": place}

        monkeypatch.setattr(broadcast.selectors, "log_view", log_view)

    timer = {"total": 60, "left": 50, "running": True, "label": "Speech"}
    with_place({"day": "d2", "speech": 2, "seat": 3, "timer": timer, "age": 8.2})
    text = client.get(_url("console:overlay", game)).content.decode()
    assert 'data-testid="ov-speaker"' in text and fx.NICKS_1[2] in text
    assert 'data-countdown="42" data-running="1"' in text and ">0:42<" in text
    assert "ov-speaking" in text
    with_place({"day": "d1", "speech": 2, "seat": 3, "timer": timer, "age": 1})  # yesterday's
    assert "ov-speaker" not in client.get(_url("console:overlay", game)).content.decode()


def test_the_live_version_does_not_depend_on_the_deal(started):
    from mafiatab.console.models import GameLog

    game = started["game"]
    version = broadcast.live_version(game.pk)
    GameLog.objects.filter(pk=started["log"].pk).update(
        header=started["log"].header | {"roles": {"sheriff": 1, "don": 2, "black": [3, 4]}}
    )
    assert broadcast.live_version(game.pk) == version


def _confirmed_by_form(two_tables: dict[str, Any]) -> Any:
    """Table 1's game, its protocol entered through the form (no console log), confirmed."""
    from mafiatab.games.services import protocol_confirm, protocol_save

    game = two_tables["game1"]
    protocol_save(
        game=game,
        data=fx.complete_data(game),
        by=two_tables["judge"],
        base_version=game.version,
        submit=True,
    )
    game.refresh_from_db()
    protocol_confirm(game=game, by=two_tables["chief"])
    game.refresh_from_db()
    return game


def test_a_game_entered_by_the_form_shows_its_result_on_the_card_overlay_and_board(
    client, two_tables
):
    game = _confirmed_by_form(two_tables)
    card = client.get(_url("console:card", game)).content.decode()
    assert "card-wait" not in card
    assert 'data-testid="card-result"' in card and "The red team wins." in card
    assert fx.NICKS_1[0] in card and 'data-testid="ov-role-7"' in card
    assert 'data-testid="card-points-3"' in card  # the standings are shown: so are the points
    overlay = client.get(_url("console:overlay", game)).content.decode()
    assert "The game has not started yet." not in overlay
    assert 'data-testid="ov-result"' in overlay and "The red team wins." in overlay
    board = client.get(_url("console:spectator", game)).content.decode()
    assert "The game has not started yet." not in board
    assert 'data-testid="board-result"' in board and fx.NICKS_1[9] in board
    for name in ("console:card_live", "console:overlay_live", "console:board_live"):
        html = _live(client, name, game).json()["html"]
        assert "The red team wins." in html, name


def test_a_game_entered_by_the_form_under_hidden_standings_shows_only_who_played_and_won(
    client, two_tables
):
    from mafiatab.standings.services import standings_set_hidden

    game = _confirmed_by_form(two_tables)
    standings_set_hidden(tournament=game.tournament, hidden=True, by=two_tables["organiser"])
    card = client.get(_url("console:card", game)).content.decode()
    assert 'data-testid="card-result"' in card and "The red team wins." in card
    assert fx.NICKS_1[0] in card
    assert not _has_role(card) and "card-points" not in card and "ov-best-move" not in card
    overlay = client.get(_url("console:overlay", game)).content.decode()
    assert "The red team wins." in overlay and not _has_role(overlay)
    board = client.get(_url("console:spectator", game)).content.decode()
    assert "The red team wins." in board and not _has_role(board)


def test_the_overlay_names_no_stale_speaker_during_a_revote_or_the_lift_vote(
    client, started, monkeypatch
):
    from mafiatab.console import selectors

    game = started["game"]
    _append(started, *GAME[:9], {"type": "nominate", "by": 3, "seat": 4})
    _append(started, {"type": "nominate", "by": 4, "seat": 6}, {"type": "vote", "counts": [4, 4]})
    read = selectors.log_view
    timer = {"total": 60, "left": 50, "running": False, "label": "Speech"}

    def speaker_at(seat: int) -> bool:
        place = {"day": "d2", "speech": 2, "seat": seat, "timer": timer, "age": 0}

        def log_view(*args: Any, **kwargs: Any) -> dict[str, Any]:
            return read(*args, **kwargs) | {"place": place}

        monkeypatch.setattr(broadcast.selectors, "log_view", log_view)
        return (
            'data-testid="ov-speaker"' in client.get(_url("console:overlay", game)).content.decode()
        )

    # the revote: the tied seats defend; the speech kept from before is not on air
    assert not speaker_at(3) and speaker_at(4) and speaker_at(6)
    _append(started, {"type": "vote", "counts": [4, 4]})  # the same tie: the lift vote
    assert not speaker_at(4) and not speaker_at(3)
    _append(started, {"type": "lift", "for": 3})  # nobody leaves: the vote is over
    assert not speaker_at(4)
