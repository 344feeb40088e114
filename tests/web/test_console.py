"""The judge console's storage, API and pages: a game's log kept event by event,
resends that change nothing, undo, the permission check, and spectators who never
see a role before the end."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import translation

from mafiatab.audit.models import AuditEntry
from mafiatab.console import services
from mafiatab.console.models import GameLog, LogEntry
from mafiatab.games.models import GameStatus

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


@pytest.fixture
def started(two_tables: dict[str, Any]) -> dict[str, Any]:
    log = services.log_start(game=two_tables["game1"], roles=ROLES, by=two_tables["judge"])
    return two_tables | {"log": log}


def _append(log: GameLog, by: Any, event: dict[str, Any], **kw: Any) -> services.Appended:
    return services.event_append(
        log=log, event=event, client_id=kw.pop("client_id", uuid.uuid4()), after=None, by=by, **kw
    )


def _url(game: Any, tail: str = "") -> str:
    return f"/api/tournaments/{game.tournament.slug}/games/{game.pk}/log{tail}"


def _post(client: Any, game: Any, tail: str, body: dict[str, Any]) -> Any:
    return client.post(_url(game, tail), data=json.dumps(body), content_type="application/json")


def _event_body(event: dict[str, Any], after: int | None = None, **kw: Any) -> dict[str, Any]:
    return {"id": str(kw.get("id") or uuid.uuid4()), "after": after, "event": event}


# --- storage ---------------------------------------------------------------------------


def test_starting_takes_the_published_tables_seats_and_the_rulesets_table(started):
    log = started["log"]
    assert log.header["seats"] == fx.NICKS_1
    assert log.header["table"] == "fiim"
    assert log.header["roles"] == ROLES
    assert log.header["id"] == "Q1-T1" and log.header["table_number"] == 1
    assert AuditEntry.objects.filter(action="game.console.started").count() == 1


def test_an_online_tournament_runs_its_games_at_an_online_table(make_tournament, staff):
    from mafiatab.games.services import TablePlan, round_create
    from mafiatab.registrations.services import registration_add
    from mafiatab.tournaments.models import StaffRole
    from mafiatab.tournaments.services import staff_assign

    online = make_tournament(name="Online Cup")
    organiser = staff["organiser"]
    staff_assign(tournament=online, user=staff["judge"], role=StaffRole.TABLE_JUDGE, by=organiser)
    for nickname in fx.NICKS_1:
        registration_add(tournament=online, nickname=nickname, by=organiser)
    round_ = round_create(
        tournament=online,
        stage="qualifying",
        number=1,
        tables=[TablePlan(number=1, judge=staff["judge"], players=tuple(fx.NICKS_1))],
        by=organiser,
    )
    log = services.log_start(game=round_.tables.get().game, roles=ROLES, by=staff["judge"])
    assert log.header["table"] == "fiim-online"


def test_a_replacement_before_the_start_seats_the_reserve_in_the_log(two_tables):
    from mafiatab.games.services import seat_replace
    from mafiatab.registrations.models import Registration
    from mafiatab.registrations.services import registration_add

    tournament = two_tables["game1"].tournament
    reserve = registration_add(
        tournament=tournament, nickname="Reserve1", by=two_tables["organiser"]
    )
    absent = Registration.objects.get(tournament=tournament, nickname="Alpha4")
    seat_replace(
        tournament=tournament,
        stage="qualifying",
        round_number=1,
        absent=absent,
        reserve=reserve,
        by=two_tables["chief"],
    )
    log = services.log_start(game=two_tables["game1"], roles=ROLES, by=two_tables["judge"])
    assert log.header["seats"][3] == "Reserve1"


def test_a_deal_with_three_blacks_is_refused_with_the_engines_reason(two_tables):
    with pytest.raises(ValidationError) as caught:
        services.log_start(
            game=two_tables["game1"],
            roles={"sheriff": 3, "don": 7, "black": [5, 9, 10]},
            by=two_tables["judge"],
        )
    assert "black must be a list of 2 seats" in " ".join(caught.value.messages)
    assert not GameLog.objects.exists()


def test_each_accepted_event_is_stored_in_order(started):
    log, judge = started["log"], started["judge"]
    for event in GAME[:3]:
        _append(log, judge, event)
    log.refresh_from_db()
    assert log.last_number == 3
    assert [e.event for e in log.entries.all()] == GAME[:3]
    assert services.live_events(log) == GAME[:3]


def test_a_refused_event_is_not_stored_and_names_the_event_by_its_type(started):
    # never logged, it has no number in the history: it is named by what it is
    log, judge = started["log"], started["judge"]
    _append(log, judge, GAME[0])
    _append(log, judge, GAME[1])
    with pytest.raises(services.EventRefused) as caught:
        _append(log, judge, {"type": "vote", "counts": [6, 3]})
    assert caught.value.problems[0].event is None
    assert "Vote: counts sum to 9, but 10 players are alive" in caught.value.messages
    assert LogEntry.objects.count() == 2


def test_a_check_refused_after_the_other_devices_says_so_in_russian_without_a_number(started):
    # the history numbers every entry, an undo and what it took back included; the
    # engine counts the events in force: a number from it names another line
    log, judge = started["log"], started["judge"]
    _append(log, judge, {"type": "foul", "seat": 2})
    services.event_undo(log=log, client_id=uuid.uuid4(), after=None, by=judge)
    for event in GAME[:6]:  # to night 1's don check
        _append(log, judge, event)
    with translation.override("ru"), pytest.raises(services.EventRefused) as caught:
        _append(log, judge, {"type": "don_check", "seat": 4})
    assert caught.value.messages == ["Проверка дона: дон уже проверял этой ночью"]
    assert caught.value.problems[0].event is None


def test_a_log_that_no_longer_replays_names_the_event_by_its_number_in_the_history(started):
    from mafiatab.console import selectors

    log, judge = started["log"], started["judge"]
    _append(log, judge, {"type": "foul", "seat": 2})
    services.event_undo(log=log, client_id=uuid.uuid4(), after=None, by=judge)
    _append(log, judge, {"type": "foul", "seat": 3})
    # stored as it came, before a rule refused it: shots on day 1 (the 2nd event in force)
    LogEntry.objects.create(
        log=log, number=4, client_id=uuid.uuid4(), kind="event", event={"type": "shots", "by": {}}
    )
    GameLog.objects.filter(pk=log.pk).update(last_number=4)
    view = selectors.log_view(started["game1"], full=True, disclose=True)
    [said] = view["problems"]
    assert said.startswith("Event 4 (shots): "), said
    assert [e["number"] for e in view["entries"]] == [1, 2, 3, 4]
    with pytest.raises(services.EventRefused) as caught:
        _append(log, judge, {"type": "foul", "seat": 5})
    assert caught.value.messages[0].startswith("Event 4 (shots): ")


def test_a_resent_event_is_answered_from_the_store_and_not_appended_twice(started):
    log, judge = started["log"], started["judge"]
    same = uuid.uuid4()
    first = _append(log, judge, {"type": "foul", "seat": 4}, client_id=same)
    again = _append(log, judge, {"type": "foul", "seat": 4}, client_id=same)
    assert not first.duplicate and again.duplicate
    assert again.entry.pk == first.entry.pk
    assert LogEntry.objects.count() == 1


def test_an_overlong_event_is_refused_before_the_engine_reads_it(started):
    event = {"type": "remove", "seat": 4, "reason": "x" * 3000}
    with pytest.raises(ValidationError) as caught:
        _append(started["log"], started["judge"], event)
    assert "too long" in " ".join(caught.value.messages)
    assert LogEntry.objects.count() == 0


def test_an_engine_problem_reads_in_russian_at_the_console():
    from django.utils import translation

    from mafiatab.console.messages import problem_text
    from mafiatab.core.game import GameProblem

    found = GameProblem("seat.not_alive", {"seat": 4}, event=7, event_type="foul")
    with translation.override("ru"):
        assert problem_text(found) == "Событие 7 (фол): игрока 4 нет в игре"
    with translation.override("en"):
        assert problem_text(found) == "Event 7 (foul): seat 4 is not in the game"


def test_an_append_made_on_an_old_copy_of_the_log_is_a_conflict(started):
    log, judge = started["log"], started["judge"]
    _append(log, judge, GAME[0])
    with pytest.raises(services.LogConflict):
        services.event_append(log=log, event=GAME[1], client_id=uuid.uuid4(), after=0, by=judge)
    services.event_append(log=log, event=GAME[1], client_id=uuid.uuid4(), after=1, by=judge)


def test_undo_takes_back_the_last_event_and_keeps_it_in_the_history(started):
    log, judge = started["log"], started["judge"]
    _append(log, judge, GAME[0])
    _append(log, judge, {"type": "foul", "seat": 2})
    undo = services.event_undo(log=log, client_id=uuid.uuid4(), after=2, by=judge)
    assert undo.entry.undoes.event == {"type": "foul", "seat": 2}
    assert services.live_events(log) == [GAME[0]]
    assert LogEntry.objects.count() == 3
    # the next undo takes back the event before
    services.event_undo(log=log, client_id=uuid.uuid4(), after=3, by=judge)
    assert services.live_events(log) == []
    with pytest.raises(ValidationError):
        services.event_undo(log=log, client_id=uuid.uuid4(), after=4, by=judge)


def test_another_tables_judge_and_a_player_cannot_append(started):
    log = started["log"]
    for person in (started["judge2"], started["alpha1"], started["organiser"]):
        with pytest.raises(PermissionDenied):
            _append(log, person, GAME[0])
    _append(log, started["chief"], GAME[0])
    assert LogEntry.objects.count() == 1


def test_a_finished_game_makes_the_protocol_draft_and_closes_the_log(started):
    log, judge = started["log"], started["judge"]
    for event in GAME:
        _append(log, judge, event)
    services.log_finish(log=log, by=judge)
    game = started["game1"]
    game.refresh_from_db()
    assert game.status == GameStatus.DRAFT and game.winner == "red"
    assert game.first_killed == 1 and game.best_move == [7, 9, 2]
    assert [s.role for s in game.seats.all()] == fx.ROLES
    assert [b["nominees"] for b in game.voting] == [[5, 9], [9, 7], [7]]
    assert game.versions.last().action == "saved"
    assert AuditEntry.objects.filter(action="game.console.finished").count() == 1
    with pytest.raises(services.LogConflict):
        _append(log, judge, {"type": "foul", "seat": 2})


def test_a_game_whose_protocol_was_submitted_by_hand_keeps_it(two_tables):
    from mafiatab.games.services import protocol_save

    judge, game = two_tables["judge"], two_tables["game1"]
    protocol_save(
        game=game, data=fx.complete_data(game), by=judge, base_version=game.version, submit=True
    )
    game.refresh_from_db()
    # as stored before a signature was refused while the console ran the game
    log = GameLog.objects.create(
        game=game, header=services.header_for(game, ROLES), started_by=judge
    )
    with pytest.raises(ValidationError):
        services.log_finish(log=log, by=judge)
    game.refresh_from_db()
    assert game.status == GameStatus.SUBMITTED and game.versions.last().action == "submitted"


def test_signing_by_hand_while_the_console_runs_the_game_is_refused(started):
    from mafiatab.games.services import protocol_save

    log, judge, game = started["log"], started["judge"], started["game1"]
    for event in GAME:
        _append(log, judge, event)
    with pytest.raises(ValidationError, match="still being played on the judge console"):
        protocol_save(
            game=game, data=fx.complete_data(game), by=judge, base_version=game.version, submit=True
        )
    services.log_finish(log=log, by=judge)
    game.refresh_from_db()
    assert game.status == GameStatus.DRAFT and game.versions.last().action == "saved"


def test_a_game_still_running_cannot_make_its_protocol(started):
    _append(started["log"], started["judge"], GAME[0])
    with pytest.raises(ValidationError):
        services.log_finish(log=started["log"], by=started["judge"])


def test_the_archive_takes_each_log_as_a_document_that_replays_to_the_same_end(started):
    from mafiatab.console.selectors import logs_for_tournament
    from mafiatab.core import game as core_game

    log, judge = started["log"], started["judge"]
    for event in GAME[:3]:
        _append(log, judge, event)
    services.event_undo(log=log, client_id=uuid.uuid4(), after=3, by=judge)
    for event in GAME[2:]:
        _append(log, judge, event)
    [(name, document)] = list(logs_for_tournament(started["game1"].tournament))
    assert name == "Q1-T1.json" and document["events"] == GAME
    state = core_game.replay(core_game.parse_log(json.loads(json.dumps(document))))
    assert state.winner is not None and state.winner.value == "red"


# --- the API -----------------------------------------------------------------------------


def test_the_api_appends_and_answers_a_resend_with_the_stored_entry(client, started):
    game = started["game1"]
    client.force_login(started["judge"])
    body = _event_body(GAME[0], after=0)
    first = _post(client, game, "/events", body)
    assert first.status_code == 201, first.content
    again = _post(client, game, "/events", body)
    assert again.status_code == 200 and again.json()["duplicate"] is True
    data = again.json()
    assert data["number"] == 1 and len(data["entries"]) == 1
    assert data["entries"][0]["text"] == "Seat 1 nominates seat 5."
    assert data["state"]["voting"]["nominations"] == [{"seat": 5, "by": 1}]


def test_the_api_refuses_a_rule_breaking_event_with_the_reason(client, started):
    game = started["game1"]
    client.force_login(started["judge"])
    answer = _post(client, game, "/events", _event_body({"type": "vote", "counts": [10]}))
    assert answer.status_code == 422
    assert "a vote needs at least two nominees" in answer.json()["detail"]
    assert LogEntry.objects.count() == 0


def test_the_api_says_conflict_when_the_log_moved_on(client, started):
    game = started["game1"]
    client.force_login(started["judge"])
    assert _post(client, game, "/events", _event_body(GAME[0], after=0)).status_code == 201
    late = _post(client, game, "/events", _event_body(GAME[1], after=0))
    assert late.status_code == 409 and "1 entries, not 0" in late.json()["detail"]


def test_the_api_refuses_another_tables_judge_and_a_player(client, started):
    game = started["game1"]
    for person in ("judge2", "alpha1"):
        client.force_login(started[person])
        answer = _post(client, game, "/events", _event_body(GAME[0]))
        assert answer.status_code == 403, person
        assert answer.json()["detail"]
    client.logout()
    assert _post(client, game, "/events", _event_body(GAME[0])).status_code == 401
    assert LogEntry.objects.count() == 0


def test_the_api_undoes_the_last_event(client, started):
    game = started["game1"]
    client.force_login(started["chief"])
    _post(client, game, "/events", _event_body(GAME[0], after=0))
    answer = _post(client, game, "/undo", {"id": str(uuid.uuid4()), "after": 1})
    assert answer.status_code == 201
    data = answer.json()
    # the answer holds the undo alone, which names the event it took back
    assert data["partial"] is True and data["number"] == 2
    assert data["entries"] == [data["entry"]]
    assert data["entry"]["kind"] == "undo" and data["entry"]["undoes"] == 1
    assert data["state"]["voting"]["nominations"] == []
    full = client.get(_url(game)).json()
    assert full["entries"][0]["undone"] is True and full["entries"][1]["undoes"] == 1


def test_the_api_starts_a_game_for_its_judge(client, two_tables):
    game = two_tables["game1"]
    client.force_login(two_tables["judge"])
    answer = _post(client, game, "", {"roles": ROLES})
    assert answer.status_code == 201 and answer.json()["header"]["roles"] == ROLES
    assert _post(client, game, "", {"roles": ROLES}).status_code == 422


def test_the_api_lets_only_the_tables_judges_start_and_shows_a_table_not_yet_started(
    client, two_tables
):
    game = two_tables["game1"]
    before = client.get(_url(game)).json()
    assert before["started"] is False and before["entries"] == [] and before["state"] is None
    for person in ("alpha1", "judge2", "organiser"):
        client.force_login(two_tables[person])
        assert _post(client, game, "", {"roles": ROLES}).status_code == 403, person
    assert not GameLog.objects.exists()
    assert client.get(_url(game, "").replace(str(game.pk), "999999")).status_code == 404


def _spectator_json(client: Any, game: Any) -> str:
    client.logout()
    answer = client.get(_url(game))
    assert answer.status_code == 200
    return answer.content.decode()


def test_the_spectators_json_tells_no_role_before_the_end(client, started):
    log, judge, game = started["log"], started["judge"], started["game1"]
    for event in GAME[:8]:  # through night 1: shots and both checks
        _append(log, judge, event)
    text = _spectator_json(client, game)
    data = json.loads(text)
    assert data["full"] is False and "roles" not in data["header"]
    assert "roles" not in data["state"] and "nights" not in data["state"]
    for word in ('sheriff"', '"don"', '"black"', "answer"):
        assert word not in text, word
    shots = [e["event"] for e in data["entries"] if e["event"]["type"] == "shots"]
    assert shots == [{"type": "shots"}]
    # a check is not even counted: how many a night had would tell who can still check
    assert not [e for e in data["entries"] if e["event"]["type"].endswith("_check")]
    numbers = [e["number"] for e in data["entries"]]
    assert numbers == list(range(1, len(numbers) + 1)) and data["number"] == len(numbers)
    # the same events with other roles look the same to a spectator
    other = services.log_start(
        game=started["game2"], roles={"sheriff": 4, "don": 9, "black": [7, 5]}, by=started["judge2"]
    )
    swapped = {"7": 1, "9": 1}
    for event in GAME[:8]:
        _append(
            other,
            started["judge2"],
            event if event["type"] != "shots" else {**event, "by": swapped},
        )
    other_data = json.loads(_spectator_json(client, started["game2"]))
    assert other_data["state"] | {"seats": None} == data["state"] | {"seats": None}


def test_the_judge_is_offered_the_checks_that_spectators_are_not_told_of(client, started):
    log, judge, game = started["log"], started["judge"], started["game1"]
    for event in GAME[:5]:  # through night 1's shots
        _append(log, judge, event)
    client.force_login(judge)
    assert {"don_check", "sheriff_check"} <= set(client.get(_url(game)).json()["state"]["expects"])
    public = json.loads(_spectator_json(client, game))["state"]["expects"]
    assert "day" in public and "don_check" not in public


def test_the_judge_reads_the_roles_and_everyone_reads_them_once_the_judge_closes_the_game(
    client, started
):
    log, judge, game = started["log"], started["judge"], started["game1"]
    client.force_login(judge)
    assert client.get(_url(game)).json()["header"]["roles"] == ROLES
    for event in GAME:
        _append(log, judge, event)
    client.logout()
    data = json.loads(_spectator_json(client, game))
    assert data["finished"] is True and data["winner"] == "red"
    assert "roles" not in data["header"] and "protocol" not in data["state"]
    services.log_finish(log=log, by=judge)
    data = json.loads(_spectator_json(client, game))
    assert data["header"]["roles"] == ROLES
    assert data["state"]["protocol"]["seats"][6]["role"] == "don"


# --- the pages --------------------------------------------------------------------------


def test_the_spectator_board_shows_fouls_and_votes_but_no_role_before_the_end(client, started):
    log, judge, game = started["log"], started["judge"], started["game1"]
    for event in [{"type": "foul", "seat": 4}, *GAME[:3]]:
        _append(log, judge, event)
    slug = game.tournament.slug
    page = client.get(reverse("console:spectator", args=[slug, game.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert 'data-live="' + reverse("console:board_live", args=[slug, game.pk]) in text
    board = client.get(reverse("console:board", args=[slug, game.pk])).content.decode()
    assert "Day 1" in board and "5 — 6" in board and "9 — 4" in board
    assert 'aria-label="Fouls: 1"' in board
    assert "board-role" not in board


def test_the_games_page_links_the_boards_of_the_tables_played_now(client, started):
    game = started["game1"]
    url = reverse("games:list", args=[game.tournament.slug])
    board = reverse("console:spectator", args=[game.tournament.slug, game.pk])
    assert board in client.get(url).content.decode()
    for event in GAME:
        _append(started["log"], started["judge"], event)
    services.log_finish(log=started["log"], by=started["judge"])
    assert board not in client.get(url).content.decode()


def test_the_console_page_is_for_the_tables_judge_only(client, started):
    game = started["game1"]
    url = reverse("console:console", args=[game.tournament.slug, game.pk])
    client.force_login(started["judge2"])
    assert client.get(url).status_code == 403
    client.force_login(started["judge"])
    page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert 'id="console-strings" type="application/json"' in text
    assert "<script>" not in text  # no inline script: the page runs under a CSP


def test_the_console_and_the_board_speak_russian(client, started):
    game = started["game1"]
    slug = game.tournament.slug
    _append(started["log"], started["judge"], {"type": "foul", "seat": 4})
    client.force_login(started["judge"])
    page = client.get(
        reverse("console:console", args=[slug, game.pk]), HTTP_ACCEPT_LANGUAGE="ru"
    ).content.decode()
    assert '"foul": "\\u0424\\u043e\\u043b"' in page or '"foul": "Фол"' in page
    assert "Ход игры" in page
    board = client.get(
        reverse("console:board", args=[slug, game.pk]), HTTP_ACCEPT_LANGUAGE="ru"
    ).content.decode()
    assert "День 1" in board and 'aria-label="Фолы: 1"' in board


def test_the_judge_deals_the_roles_on_the_start_form(client, two_tables):
    game = two_tables["game1"]
    url = reverse("console:console", args=[game.tournament.slug, game.pk])
    client.force_login(two_tables["judge"])
    roles = {f"role_{n}": r for n, r in enumerate(fx.ROLES, start=1)}
    answer = client.post(url, roles | {"role_1": "sheriff"})
    assert answer.status_code == 422 and "one" in answer.content.decode()
    assert client.post(url, roles).status_code == 302
    assert GameLog.objects.get().header["roles"] == ROLES


def test_the_finished_games_log_reads_as_sentences_on_the_game_page_in_russian(client, started):
    log, judge, game = started["log"], started["judge"], started["game1"]
    for event in GAME:
        _append(log, judge, event)
    services.log_finish(log=log, by=judge)
    client.force_login(judge)
    url = reverse("games:detail", args=[game.tournament.slug, game.pk])
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Seat 1 nominates seat 5." in english and "The don checks seat 3." in english
    assert "Vote: 5 — 6; 9 — 4." in english
    russian = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Игрок 1 выставляет игрока 5." in russian
    assert "Победа красной команды." in russian
    assert "Голосование: 5 — 6; 9 — 4." in russian


def test_finishing_from_the_console_opens_the_protocol_form(client, started):
    log, judge, game = started["log"], started["judge"], started["game1"]
    for event in GAME:
        _append(log, judge, event)
    client.force_login(judge)
    answer = client.post(reverse("console:finish", args=[game.tournament.slug, game.pk]))
    assert answer.status_code == 302
    assert answer["Location"] == reverse("games:protocol", args=[game.tournament.slug, game.pk])
    log.refresh_from_db()
    assert log.is_closed


def test_finishing_while_someone_else_saves_the_protocol_says_so_instead_of_an_error(
    client, started, monkeypatch
):
    from django.db.models import F

    from mafiatab.games.models import Game

    log, judge, game = started["log"], started["judge"], started["game1"]
    for event in GAME:
        _append(log, judge, event)
    protocol_of = services.engine.protocol_of

    def saved_meanwhile(state):
        Game.objects.filter(pk=game.pk).update(version=F("version") + 1)
        return protocol_of(state)

    monkeypatch.setattr(services.engine, "protocol_of", saved_meanwhile)
    client.force_login(judge)
    url = reverse("console:finish", args=[game.tournament.slug, game.pk])
    answer = client.post(url, follow=True)
    assert answer.status_code == 200
    assert "changed by someone else" in answer.content.decode()
    log.refresh_from_db()
    assert not log.is_closed


def test_the_admin_reads_a_log_and_cannot_change_it(client, started, make_user):
    _append(started["log"], started["judge"], GAME[0])
    admin_user = make_user("Admin", is_staff=True, is_superuser=True)
    client.force_login(admin_user)
    url = reverse("admin:console_gamelog_change", args=[started["log"].pk])
    page = client.get(url)
    assert page.status_code == 200 and "nominate" in page.content.decode()
    assert client.post(url, {}).status_code == 403


def test_a_start_without_the_roles_dealt_says_which_to_choose_in_russian(client, two_tables):
    game = two_tables["game1"]
    client.force_login(two_tables["judge"])
    body = {"roles": {"sheriff": None, "don": None, "black": []}}
    answer = client.post(
        _url(game, ""),
        data=json.dumps(body),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="ru",
    )
    assert answer.status_code == 422
    detail = json.dumps(answer.json(), ensure_ascii=False)
    assert "Выберите место шерифа." in detail and "Выберите место дона." in detail
    assert "Выберите места двух чёрных игроков." in detail
    assert "null" not in detail and "1..10" not in detail
    assert GameLog.objects.count() == 0


# --- the rules of real games, and the log told as a game ----------------------------------


def test_a_seat_voted_out_gets_a_foul_in_his_last_word_and_a_check_after_it(client, started):
    game = started["game1"]
    client.force_login(started["judge"])
    for n, event in enumerate(GAME[:3]):
        assert _post(client, game, "/events", _event_body(event, after=n)).status_code == 201
    state = client.get(_url(game)).json()["state"]
    assert state["last_word"] == [5] and 5 not in state["alive"]
    assert "foul" in state["expects"]
    fouled = _post(client, game, "/events", _event_body({"type": "foul", "seat": 5}, after=3))
    assert fouled.status_code == 201, fouled.content
    assert fouled.json()["state"]["fouls"] == {"5": 1}
    steps = [{"type": "night"}, {"type": "shots", "by": {"7": 1, "9": 1}}]
    steps += [{"type": "don_check", "seat": 5}, {"type": "sheriff_check", "seat": 5}]
    for n, event in enumerate(steps, start=4):
        answer = _post(client, game, "/events", _event_body(event, after=n))
        assert answer.status_code == 201, answer.content
    night = answer.json()["state"]["nights"][-1]
    assert night["don_check"]["answer"] == "not_sheriff"
    assert night["sheriff_check"]["answer"] == "black"
    late = _post(client, game, "/events", _event_body({"type": "foul", "seat": 5}, after=8))
    assert late.status_code == 422 and "5" in late.json()["detail"]


def test_the_log_tells_who_left_and_how_after_every_vote_and_night(started):
    from mafiatab.console.selectors import log_view

    log, judge, game = started["log"], started["judge"], started["game1"]
    for event in GAME:
        _append(log, judge, event)
    texts = [e["text"] for e in log_view(game, full=True, disclose=True)["entries"]]
    assert texts[2] == "Vote: 5 — 6; 9 — 4. Seat 5 leaves."
    assert texts[7] == "The day begins. Seat 1 was killed in the night."
    assert texts[14] == "The day begins. Seat 3 was killed in the night."
    assert texts[16] == "The night falls. Seat 7, the only nominee, leaves. The red team wins."


def test_a_revote_a_lost_lift_and_a_cancelled_day_are_told(started):
    from mafiatab.console.selectors import log_view

    log, judge, game = started["log"], started["judge"], started["game1"]
    events = [{"type": "nominate", "by": 1, "seat": 4}, {"type": "nominate", "by": 2, "seat": 6}]
    events += [{"type": "vote", "counts": [5, 5]}, {"type": "vote", "counts": [5, 5]}]
    events += [{"type": "lift", "for": 4}, {"type": "remove", "seat": 8, "reason": "threats"}]
    events += [{"type": "night"}, {"type": "shots", "by": {"5": None, "7": 2, "9": 2}}]
    events += [{"type": "day"}]
    for event in events:
        _append(log, judge, event)
    with translation.override("ru"):
        view = log_view(game, full=False, disclose=False)
    texts = [e["text"] for e in view["entries"]]
    assert texts[2] == "Голосование: 4 — 5; 6 — 5. Поровну: игроки 4, 6 идут на переголосование."
    assert texts[3] == "Переголосование: 4 — 5; 6 — 5. Снова поровну: подъём за игроков 4, 6."
    assert texts[4].endswith("Никто не покидает игру.")
    assert texts[5] == "Игрок 8 удалён: threats. Голосование дня 2 отменено."
    assert texts[-1] == "Наступает день. Ночью никто не убит."


def test_the_board_of_a_finished_game_names_the_single_nominee_and_every_result(client, started):
    log, judge, game = started["log"], started["judge"], started["game1"]
    for event in GAME:
        _append(log, judge, event)
    url = reverse("console:board", args=[game.tournament.slug, game.pk])
    board = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    votes = re.findall(r'data-testid="board-votes">(.*?)</p>', board, re.S)
    assert [" ".join(re.sub(r"<[^>]+>", " ", v).split()) for v in votes] == [
        "Единственный выставленный: 7 → Игрок 7, единственный выставленный, покидает игру."
    ]


def test_the_board_says_the_voting_is_cancelled_and_who_left_by_the_vote(client, started):
    log, judge, game = started["log"], started["judge"], started["game1"]
    for event in GAME[:3]:
        _append(log, judge, event)
    url = reverse("console:board", args=[game.tournament.slug, game.pk])
    board = client.get(url).content.decode()
    assert "→ Seat 5 leaves." in board
    for event in GAME[3:8]:
        _append(log, judge, event)
    _append(log, judge, {"type": "remove", "seat": 1, "reason": "insult"})
    board = client.get(url).content.decode()
    assert "Today's voting is cancelled by a removal." in board


def test_an_undo_in_the_history_says_what_it_took_back_as_that_event_was_told(started):
    from mafiatab.console import selectors

    log, judge = started["log"], started["judge"]
    tie = [{"type": "nominate", "by": 3, "seat": 4}, {"type": "nominate", "by": 4, "seat": 6}]
    for event in [*GAME[:9], *tie, {"type": "vote", "counts": [4, 4]}]:
        _append(log, judge, event)
    _append(log, judge, {"type": "vote", "counts": [5, 3]})  # the revote: seat 4 leaves
    services.event_undo(log=log, client_id=uuid.uuid4(), after=None, by=judge)
    _append(log, judge, {"type": "foul", "seat": 2})
    view = selectors.log_view(started["game1"], full=True, disclose=True)
    undo = view["entries"][13]
    assert undo["kind"] == "undo" and undo["undoes"] == 13
    assert undo["text"] == "Undone (event 13): Revote: 4 — 5; 6 — 3. Seat 4 leaves."
    # the undone event itself is told as it was, its seats and what it did
    assert view["entries"][12]["text"] == "Revote: 4 — 5; 6 — 3. Seat 4 leaves."
    with translation.override("ru"):
        view = selectors.log_view(started["game1"], full=True, disclose=True, only=14)
    [entry] = view["entries"]
    assert entry["text"].startswith("Отменено (событие 13): Переголосование: 4 — 5; 6 — 3."), entry
