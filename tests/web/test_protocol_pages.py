"""The protocol pages: the form with the core's problems next to their fields, live
points, optimistic locking, permissions, history, and standings that follow."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils import translation

from mafiatab.cli import main
from mafiatab.games.forms import raw_from_data
from mafiatab.games.models import GameStatus
from mafiatab.games.services import protocol_confirm, protocol_save
from mafiatab.registrations.services import registration_add

from . import test_games_fixtures as fx
from .test_games_fixtures import complete_data

pytestmark = pytest.mark.django_db
two_tables = fx.two_tables


def _post_data(game, base_version, action="submit", **changes):
    raw = raw_from_data(complete_data(game, **changes))
    return {k: v for k, v in raw.items() if v not in ("", [])} | {
        "base_version": str(base_version),
        "action": action,
    }


def _url(name, game):
    return reverse(f"games:{name}", args=[game.tournament.slug, game.pk])


def test_an_anonymous_visitor_is_sent_to_log_in_except_for_a_confirmed_game(client, two_tables):
    game = two_tables["game1"]
    slug = game.tournament.slug
    for name in ("detail", "history", "protocol", "preview", "confirm", "protest", "replay"):
        response = (
            client.post(_url(name, game)) if name != "detail" else client.get(_url(name, game))
        )
        assert response.status_code in (302, 405), name
    for name in ("rounds", "my_tables", "queue"):
        assert client.get(reverse(f"games:{name}", args=[slug])).status_code == 302
    protocol_save(
        game=game, data=complete_data(game), by=two_tables["judge"], base_version=1, submit=True
    )
    protocol_confirm(game=game, by=two_tables["chief"])
    response = client.get(_url("detail", game))
    assert response.status_code == 200 and "Alpha10" in response.content.decode()


def test_the_form_shows_every_problem_next_to_its_field_and_saves_nothing(client, two_tables):
    game = two_tables["game1"]
    client.force_login(two_tables["judge"])
    data = _post_data(game, 1)
    data["role_1"] = "don"
    data["extra1_points"] = "0.9"
    response = client.post(_url("protocol", game), data)
    assert response.status_code == 422
    page = response.content.decode()
    roles_cell = page.split('id="pb-roles"')[1].split("</div>")[0]
    assert "Roles must be 6 red, 1 sheriff, 2 black and 1 don" in roles_cell
    extra_cell = page.split('id="pb-extra1"')[1].split("</div>")[0]
    assert "above 0.4 for a loser" in extra_cell or "above" in extra_cell
    assert 'value="0.9"' in page
    game.refresh_from_db()
    assert game.version == 1 and game.status == GameStatus.DRAFT


def test_the_preview_gives_the_points_columns_as_the_core_computes_them(client, two_tables):
    game = two_tables["game1"]
    client.force_login(two_tables["judge"])
    response = client.post(_url("preview", game), _post_data(game, 1))
    page = response.content.decode()
    assert '<span id="pts-3" class="pts" hx-swap-oob="true">1.00</span>' in page
    assert '<span id="ext-3" class="pts" hx-swap-oob="true">+0.30</span>' in page
    assert '<span id="pts-5" class="pts" hx-swap-oob="true">0.00</span>' in page
    assert "No problems" in page


def test_the_judge_signs_and_submits_then_the_chief_confirms_on_the_pages(client, two_tables):
    game = two_tables["game1"]
    client.force_login(two_tables["judge"])
    response = client.post(_url("protocol", game), _post_data(game, 1))
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == GameStatus.SUBMITTED
    client.force_login(two_tables["chief"])
    queue = client.get(reverse("games:queue", args=[game.tournament.slug])).content.decode()
    assert "Q1-T1" in queue
    assert client.post(_url("confirm", game), {"base_version": "2"}).status_code == 302
    game.refresh_from_db()
    assert game.status == GameStatus.CONFIRMED


def test_a_stale_form_is_told_the_protocol_changed_and_keeps_the_entries(client, two_tables):
    game = two_tables["game1"]
    protocol_save(game=game, data=complete_data(game), by=two_tables["chief"], base_version=1)
    client.force_login(two_tables["judge"])
    data = _post_data(game, 1, action="save")
    data["player_2"] = "Renamed"
    response = client.post(_url("protocol", game), data)
    assert response.status_code == 409
    page = response.content.decode()
    assert "changed by someone else" in page and 'value="Renamed"' in page
    game.refresh_from_db()
    assert game.version == 2 and game.seats.get(number=2).player == "Alpha2"


def test_the_judge_of_table_2_cannot_open_table_1s_protocol(client, two_tables):
    client.force_login(two_tables["judge2"])
    game = two_tables["game1"]
    assert client.get(_url("protocol", game)).status_code == 403
    assert client.post(_url("protocol", game), _post_data(game, 1)).status_code == 403
    assert client.get(_url("protocol", two_tables["game2"])).status_code == 200


def test_a_confirmed_protocol_changes_only_through_the_chief_and_the_history_shows_it(
    client, two_tables
):
    game = two_tables["game1"]
    protocol_save(
        game=game, data=complete_data(game), by=two_tables["judge"], base_version=1, submit=True
    )
    protocol_confirm(game=game, by=two_tables["chief"])
    client.force_login(two_tables["judge"])
    # the table's judge is sent to the confirmed protocol, told why; a change is refused,
    # saying why (409)
    assert client.get(_url("protocol", game))["Location"] == _url("detail", game)
    refused = client.post(_url("protocol", game), _post_data(game, 3, action="save"))
    assert refused.status_code == 409 and "only he can change it now" in refused.content.decode()
    client.force_login(two_tables["chief"])
    data = _post_data(game, 3, action="save")
    data["role_4"], data["role_5"] = "black", "red"
    data["reason"] = "roles swapped by mistake"
    assert client.post(_url("protocol", game), data).status_code == 302
    game.refresh_from_db()
    assert game.version == 4 and game.status == GameStatus.CONFIRMED
    page = client.get(_url("history", game)).content.decode()
    assert "roles swapped by mistake" in page
    assert "<td>seat 4 role</td><td>К</td><td>Ч</td>" in page
    assert "<td>seat 5 role</td><td>Ч</td><td>К</td>" in page


def test_web_standings_equal_the_command_line_on_the_exported_file(
    client, two_tables, tmp_path, capsys
):
    game1, game2 = two_tables["game1"], two_tables["game2"]
    for game, judge in ((game1, two_tables["judge"]), (game2, two_tables["judge2"])):
        protocol_save(game=game, data=complete_data(game), by=judge, base_version=1, submit=True)
    protocol_confirm(game=game1, by=two_tables["chief"])
    slug = game1.tournament.slug
    exported = tmp_path / "t.json"
    assert main(["export", slug, "-o", str(exported)]) == 0
    assert [g["id"] for g in json.loads(exported.read_text())["games"]] == ["Q1-T1"]
    capsys.readouterr()
    assert main(["standings", str(exported), "--json"]) == 0
    expected = json.loads(capsys.readouterr().out)
    web = client.get(f"/api/tournaments/{slug}/standings").json()
    assert web == expected
    assert {row["player"] for row in expected["standings"]} == set(fx.NICKS_1)
    page = client.get(reverse("standings:table", args=[slug])).content.decode()
    assert "Alpha3" in page and "Bravo3" not in page


def test_the_chief_judge_creates_a_round_and_a_table_by_hand(client, tournament, staff):
    client.force_login(staff["chief"])
    slug = tournament.slug
    url = reverse("games:rounds", args=[slug])
    assert client.post(url, {"stage": "semifinal", "number": "1"}).status_code == 302
    round_ = tournament.rounds.get()
    for n in range(1, 11):
        registration_add(tournament=tournament, nickname=f"Semi{n}", by=staff["organiser"])
    seats = {f"player_{n}": f"semi{n}" for n in range(1, 11)}  # any case finds the participant
    response = client.post(
        reverse("games:table_add", args=[slug, round_.pk]),
        {"number": "3", "judge": str(staff["judge"].pk), **seats},
    )
    assert response.status_code == 302
    table = round_.tables.get()
    assert table.number == 3 and table.judge == staff["judge"]
    assert table.game.label == "S1-T3" and table.game.status == GameStatus.DRAFT
    assert [s.player for s in table.seats.all()] == [f"Semi{n}" for n in range(1, 11)]
    client.force_login(staff["judge"])
    page = client.get(reverse("games:my_tables", args=[slug])).content.decode()
    assert "S1-T3" in page
    client.force_login(staff["player"])
    assert client.post(url, {"stage": "final", "number": "1"}).status_code == 403


def test_the_history_names_each_version_and_value_in_the_readers_language(client, two_tables):
    game = two_tables["game1"]
    protocol_save(
        game=game, data=complete_data(game), by=two_tables["judge"], base_version=1, submit=True
    )
    client.force_login(two_tables["chief"])
    english = client.get(_url("history", game)).content.decode()
    assert "signed and submitted" in english and "<td>winner</td><td>—</td><td>red</td>" in english
    with translation.override("en"):  # the request's Russian stays in the request
        russian = client.get(_url("history", game), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "подписан и сдан" in russian and "создан" in russian
    assert "подписан и сдан · <span" not in russian  # the action says the status once
    assert "<td>3 0.3 fine play</td>" in russian
    assert "submitted ·" not in russian and "False" not in russian


def test_the_game_page_names_the_winning_team_in_russian(client, two_tables):
    game = two_tables["game1"]
    protocol_save(
        game=game, data=complete_data(game), by=two_tables["judge"], base_version=1, submit=True
    )
    protocol_confirm(game=game, by=two_tables["chief"])
    with translation.override("en"):  # the request's Russian stays in the request
        page = client.get(_url("detail", game), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "<dd>красные</dd>" in page
    assert "место 3: +0.3 — fine play" in page


def test_the_form_refuses_a_seat_held_by_a_non_participant_next_to_that_seat(client, two_tables):
    game = two_tables["game1"]
    client.force_login(two_tables["judge"])
    data = _post_data(game, 1, action="save")
    data["player_4"] = "Nobody Here"
    response = client.post(_url("protocol", game), data)
    assert response.status_code == 422
    page = response.content.decode()
    cell = page.split('id="pb-player_4"')[1].split("</div>")[0]
    assert "Nobody Here is not a participant of this tournament" in cell
    assert '<datalist id="seat-choices">' in page and '<option value="Bravo7">' in page
    game.refresh_from_db()
    assert game.version == 1


def test_the_form_keeps_the_participants_spelling_of_a_nickname_typed_in_another_case(
    client, two_tables
):
    game = two_tables["game1"]
    client.force_login(two_tables["judge"])
    data = _post_data(game, 1, action="save")
    data["player_4"] = "ALPHA4"
    assert client.post(_url("protocol", game), data).status_code == 302
    game.refresh_from_db()
    assert game.versions.get(number=2).data["seats"][3]["player"] == "Alpha4"


def _told(response) -> tuple[str, str]:
    """The last message the request left for the next page."""
    from django.contrib.messages import get_messages

    told = list(get_messages(response.wsgi_request))[-1]
    return told.level_tag, str(told)


def test_the_chiefs_buttons_tell_how_it_went_and_go_back_to_the_game(client, two_tables):
    game, other = two_tables["game1"], two_tables["game2"]
    detail = _url("detail", game)
    protocol_save(
        game=game, data=complete_data(game), by=two_tables["judge"], base_version=1, submit=True
    )
    client.force_login(two_tables["chief"])
    refused = client.post(_url("return", game), {"reason": " "})
    assert refused["Location"] == detail
    assert _told(refused) == ("error", "Say what the table judge should fix.")
    stale = client.post(_url("confirm", game), {"base_version": "1"})
    assert stale["Location"] == detail and "changed by someone else" in _told(stale)[1]
    returned = client.post(_url("return", game), {"reason": "seat 4 fouls"})
    assert _told(returned) == ("success", "The protocol was returned to its judge.")
    game.refresh_from_db()
    assert game.status == GameStatus.DRAFT
    replayed = client.post(_url("replay", game), {"reason": "lost connection", "replay": other.pk})
    assert replayed["Location"] == detail
    assert _told(replayed) == ("success", "The game is marked replayed.")
    game.refresh_from_db()
    assert game.replayed and game.replay == other
    assert client.get(_url("confirm", game)).status_code == 405
