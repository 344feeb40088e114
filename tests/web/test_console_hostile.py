"""The console's doors against hostile input, and the secrecy of the roles.

Every console door (events, the roles at the start, through the API and the start
form) and the protocol form's reasons go through the one reader and the one
validator: a lone surrogate, NUL, NaN or ±Infinity, a control or text-direction
character, a key of the roles that is not a role is refused with 422 naming the
field, and nothing is stored. Data stored before (written here directly) is shown
escaped: the game page, the board, the archive and `mafiatab export --archive`
still work. The roles become public only when the judge closes the game.

Written for both databases: PostgreSQL's JSON cannot hold NUL or a lone surrogate,
so the stored rows that hold them are written on SQLite only.
"""

from __future__ import annotations

import io
import json
import uuid
import zipfile
from typing import Any

import pytest
from django.db import connection
from django.urls import reverse

from mafiatab.audit.models import AuditEntry
from mafiatab.console import services
from mafiatab.console.models import EntryKind, GameLog, LogEntry
from mafiatab.core.names import printable
from mafiatab.games.models import GameRemoval, GameStatus, ProtocolVersion
from mafiatab.games.services import protocol_confirm, protocol_save

from . import test_console as tc
from . import test_games_fixtures as fx
from .test_console import GAME, ROLES, _append, _url
from .test_games_fixtures import complete_data

pytestmark = pytest.mark.django_db
two_tables = fx.two_tables
tournament = tc.tournament
started = tc.started

#: Hostile texts as JSON escapes (the body is sent as written: a lone surrogate
#: cannot be encoded by the test client itself).
TEXTS = {
    "lone surrogate": "\\ud800",
    "NUL": "\\u0000",
    "escape": "\\u001b",
    "right-to-left override": "\\u202e",
    "isolate": "\\u2067",
}
NUMBERS = {"NaN": "NaN", "Infinity": "Infinity", "-Infinity": "-Infinity"}


def _raw_post(client: Any, url: str, body: str) -> Any:
    return client.post(url, data=body.encode("utf-8"), content_type="application/json")


def _event_post(client: Any, game: Any, event_json: str) -> Any:
    body = f'{{"id": "{uuid.uuid4()}", "after": null, "event": {event_json}}}'
    return _raw_post(client, _url(game, "/events"), body)


def _refused(answer: Any, field: str) -> dict[str, Any]:
    assert answer.status_code == 422, answer.content
    data = answer.json()
    assert field in data["errors"], data
    return data


EVENT_DOORS = {
    "pause reason": (
        '{"type": "pause", "seat": 3, "minutes": 4, "reason": "a%sb"}',
        "event.reason",
    ),
    "removal reason": ('{"type": "remove", "seat": 3, "reason": "a%sb"}', "event.reason"),
    "defeat reason": ('{"type": "defeat", "team": "red", "reason": "a%sb"}', "event.reason"),
    "a key the rules do not read": ('{"type": "foul", "seat": 3, "note": "a%sb"}', "event.note"),
}


@pytest.mark.parametrize("door", sorted(EVENT_DOORS))
@pytest.mark.parametrize("name", sorted(TEXTS))
def test_a_hostile_text_in_an_event_is_refused_naming_the_field(client, started, door, name):
    client.force_login(started["judge"])
    template, field = EVENT_DOORS[door]
    data = _refused(_event_post(client, started["game1"], template % TEXTS[name]), field)
    assert "character" in data["detail"]
    assert LogEntry.objects.count() == 0


@pytest.mark.parametrize("name", sorted(NUMBERS))
def test_a_number_that_is_not_finite_in_an_event_is_refused(client, started, name):
    client.force_login(started["judge"])
    game = started["game1"]
    value = NUMBERS[name]
    for event, field in (
        (f'{{"type": "foul", "seat": 3, "at": {value}}}', "event.at"),
        (f'{{"type": "foul", "seat": {value}}}', "event.seat"),
        (f'{{"type": "vote", "counts": [{value}]}}', "event.counts"),
    ):
        _refused(_event_post(client, game, event), field)
    assert LogEntry.objects.count() == 0


START_DOORS = {
    "a role that is not one": ('{"sheriff": 3, "don": 7, "black": [5, 9], "maniac": 1}', "roles"),
    "NaN": ('{"sheriff": NaN, "don": 7, "black": [5, 9]}', "roles.sheriff"),
    "Infinity": ('{"sheriff": 3, "don": Infinity, "black": [5, 9]}', "roles.don"),
    "-Infinity in black": ('{"sheriff": 3, "don": 7, "black": [5, -Infinity]}', "roles.black"),
    "a lone surrogate": ('{"sheriff": 3, "don": 7, "black": [5, 9], "\\ud800": 1}', "roles"),
    "NUL": ('{"sheriff": "\\u0000", "don": 7, "black": [5, 9]}', "roles.sheriff"),
}


@pytest.mark.parametrize("case", sorted(START_DOORS))
def test_hostile_roles_at_the_start_are_refused_and_nothing_is_stored(client, two_tables, case):
    client.force_login(two_tables["judge"])
    roles, field = START_DOORS[case]
    game = two_tables["game1"]
    _refused(_raw_post(client, _url(game), f'{{"roles": {roles}}}'), field)
    assert not GameLog.objects.exists()
    assert not AuditEntry.objects.filter(action="game.console.started").exists()


def test_the_start_form_takes_only_the_roles_it_offers(client, two_tables):
    game = two_tables["game1"]
    url = reverse("console:console", args=[game.tournament.slug, game.pk])
    client.force_login(two_tables["judge"])
    roles = {f"role_{n}": r for n, r in enumerate(fx.ROLES, start=1)}
    for bad in ("maniac", "\x00", "red\u202e"):
        answer = client.post(url, roles | {"role_4": bad})
        assert answer.status_code == 422
    assert not GameLog.objects.exists()


def test_the_start_keeps_the_dealt_roles_out_of_the_history(client, started):
    entry = AuditEntry.objects.get(action="game.console.started")
    assert "roles" not in json.dumps(entry.after)
    # an entry written before the roles were kept out: the history page does not show them
    AuditEntry.objects.filter(pk=entry.pk).update(after={"table": "fiim", "roles": ROLES})
    client.force_login(started["organiser"])
    url = reverse("tournaments:history", args=[started["game1"].tournament.slug])
    answer = client.get(url, HTTP_ACCEPT_LANGUAGE="ru")
    assert answer.status_code == 200
    rows = [row for row in answer.context["rows"] if row.entry.action == "game.console.started"]
    assert rows and all(
        label != "роли" and "3" not in text for row in rows for label, text in row.after
    )


# --- the protocol form's reasons -----------------------------------------------------------


#: A form's body is UTF-8, which cannot hold a lone surrogate: that one is sent to
#: the API (below) as a JSON escape.
PROTOCOL_TEXTS = {"NUL": "a\x00b", "escape": "a\x1bb", "right-to-left override": "a\u202eb"}


@pytest.mark.parametrize("name", sorted(PROTOCOL_TEXTS))
def test_the_protocol_form_refuses_a_hostile_reason_in_its_cell(client, two_tables, name):
    from mafiatab.games.forms import raw_from_data

    game = two_tables["game1"]
    text = PROTOCOL_TEXTS[name]
    data = complete_data(game)
    data["seats"][3]["fouls"] = 0
    data["disqualified"] = [{"seat": 4, "reason": text, "online": False, "fined": True}]
    data["penalties"] = [{"seat": 2, "rule": "8.5.2", "reason": text}]
    raw = raw_from_data(data)
    post = {k: v for k, v in raw.items() if v not in ("", [])}
    post |= {"base_version": str(game.version), "action": "submit"}
    client.force_login(two_tables["chief"])
    answer = client.post(reverse("games:protocol", args=[game.tournament.slug, game.pk]), post)
    assert answer.status_code == 422
    fields = {(p.seat, p.field) for p in answer.context["problems"]}
    assert {(4, "disqualified.reason"), (2, "penalties.reason")} <= fields
    game.refresh_from_db()
    assert game.version == 1 and game.status == GameStatus.DRAFT


@pytest.mark.parametrize("text", ["a\u202eb", "a\ud800b", "a\x00b"])
def test_the_protocol_api_refuses_a_hostile_reason_naming_it(client, two_tables, text):
    game = two_tables["game1"]
    data = complete_data(game)
    data["disqualified"] = [{"seat": 4, "reason": text, "online": False, "fined": True}]
    data["seats"][3]["fouls"] = 0
    protocol = {k: v for k, v in data.items() if k not in ("id", "stage", "round", "table")}
    body = {"protocol": protocol, "base_version": game.version, "submit": True}
    client.force_login(two_tables["chief"])
    url = f"/api/tournaments/{game.tournament.slug}/games/{game.pk}/protocol"
    # ensure_ascii: a lone surrogate travels as its JSON escape, as an attacker sends it
    answer = client.put(url, json.dumps(body), content_type="application/json")
    assert answer.status_code == 422
    assert any("disqualified" in key for key in answer.json()["errors"]), answer.json()
    game.refresh_from_db()
    assert game.version == 1


# --- the log's limit and the write's answer ----------------------------------------------


def test_undo_entries_count_toward_the_logs_limit(client, started, monkeypatch):
    monkeypatch.setattr(services, "MAX_ENTRIES", 4)
    log, judge = started["log"], started["judge"]
    for _ in range(2):
        _append(log, judge, {"type": "foul", "seat": 4})
        services.event_undo(log=log, client_id=uuid.uuid4(), after=None, by=judge)
    client.force_login(judge)
    answer = _event_post(client, started["game1"], '{"type": "foul", "seat": 4}')
    assert answer.status_code == 422 and "4" in answer.json()["detail"]
    undo = client.post(
        _url(started["game1"], "/undo"),
        json.dumps({"id": str(uuid.uuid4())}),
        content_type="application/json",
    )
    assert undo.status_code == 422
    assert LogEntry.objects.count() == 4


def test_a_write_answers_with_its_entry_and_the_state_not_the_whole_log(client, started):
    log, judge, game = started["log"], started["judge"], started["game1"]
    for event in GAME[:2]:
        _append(log, judge, event)
    client.force_login(judge)
    answer = _event_post(client, game, json.dumps(GAME[2]))
    assert answer.status_code == 201
    data = answer.json()
    assert data["partial"] is True and data["number"] == 3
    assert [e["number"] for e in data["entries"]] == [3] and data["entry"]["number"] == 3
    assert data["entry"]["text"] == "Vote: 5 — 6; 9 — 4. Seat 5 leaves."
    assert data["state"]["phase"] == {"day": 1}
    assert len(client.get(_url(game)).json()["entries"]) == 3


# --- secrecy: a mistaken defeat, the close --------------------------------------------------


def _spectator(client: Any, game: Any) -> dict[str, Any]:
    client.logout()
    return client.get(_url(game)).json()


def test_a_mistaken_defeat_publishes_no_role_and_undo_takes_it_back(client, started):
    log, judge, game = started["log"], started["judge"], started["game1"]
    _append(log, judge, {"type": "defeat", "team": "black", "reason": "mistake"})
    public = _spectator(client, game)
    assert public["finished"] is True and public["winner"] == "red"
    assert "roles" not in public["header"] and "protocol" not in public["state"]
    assert "nights" not in public["state"]
    board = client.get(reverse("console:board", args=[game.tournament.slug, game.pk]))
    assert "board-role-" not in board.content.decode()
    services.event_undo(log=log, client_id=uuid.uuid4(), after=None, by=judge)
    public = _spectator(client, game)
    assert public["finished"] is False and public["winner"] is None


def test_the_roles_become_public_when_the_judge_closes_the_game(client, started):
    log, judge, game = started["log"], started["judge"], started["game1"]
    for event in GAME:
        _append(log, judge, event)
    assert "roles" not in _spectator(client, game)["header"]
    client.force_login(judge)
    assert (
        client.post(reverse("console:finish", args=[game.tournament.slug, game.pk])).status_code
        == 302
    )
    public = _spectator(client, game)
    assert public["closed"] is True and public["header"]["roles"] == ROLES


#: What tells a role on a Russian page: a role on the board, a check, a shot.
SECRETS = ("board-role-", "проверяет игрока", "стреляет в")


def test_an_organiser_who_is_not_the_judge_sees_no_role_of_a_running_game(client, started):
    log, judge, game = started["log"], started["judge"], started["game1"]
    for event in GAME:
        _append(log, judge, event)
    client.force_login(started["organiser"])
    data = client.get(_url(game)).json()
    assert "roles" not in data["header"]
    slug = game.tournament.slug
    for url in (
        reverse("games:detail", args=[slug, game.pk]),
        reverse("console:spectator", args=[slug, game.pk]),
        reverse("tournaments:history", args=[slug]),
    ):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
        for secret in SECRETS:
            assert secret not in page, (url, secret)


# --- data stored before: shown escaped, never a broken page --------------------------------

#: Stored texts the reader refuses; NUL and lone surrogates only where the database
#: can hold them (PostgreSQL's JSON cannot).
STORED = {
    "lone surrogate": "a\ud800b",
    "NUL": "a\x00b",
    "bell": "a\x07b",
    "right-to-left override": "a\u202eb",
}


def _stored_text(name: str) -> str:
    text = STORED[name]
    if connection.vendor == "postgresql" and name in ("lone surrogate", "NUL"):
        pytest.skip("PostgreSQL's JSON cannot store NUL or a lone surrogate")
    return text


def _confirmed_with_stored(started: dict[str, Any], text: str) -> Any:
    """A game played on the console, closed and confirmed, whose stored pause and
    removal reasons were written directly with `text` afterwards."""
    log, judge, game = started["log"], started["judge"], started["game1"]
    for event in GAME:
        _append(log, judge, event)
    services.log_finish(log=log, by=judge)
    game.refresh_from_db()
    data = complete_data(game)
    data["seats"][3]["fouls"] = 0
    data["disqualified"] = [{"seat": 4, "reason": "ok", "online": False, "fined": True}]
    protocol_save(game=game, data=data, by=judge, base_version=game.version, submit=True)
    protocol_confirm(game=game, by=started["chief"])
    game.refresh_from_db()
    # the log again, with a pause in the middle and a key the rules do not read
    events = [GAME[0] | {"note": text}, {"type": "pause", "seat": 2, "minutes": 4, "reason": text}]
    LogEntry.objects.filter(log=log).delete()
    LogEntry.objects.bulk_create(
        LogEntry(
            log=log,
            number=n,
            client_id=uuid.uuid4(),
            kind=EntryKind.EVENT,
            event=event,
            created_by=judge,
        )
        for n, event in enumerate([*events, *GAME[1:]], start=1)
    )
    version = ProtocolVersion.objects.get(game=game, number=game.version)
    stored = version.data
    stored["disqualified"][0]["reason"] = text
    ProtocolVersion.objects.filter(pk=version.pk).update(data=stored)
    if "\ud800" not in text:  # a text column cannot hold a lone surrogate at all
        GameRemoval.objects.filter(game=game).update(reason=text)
    return game


@pytest.mark.parametrize("name", sorted(STORED))
def test_stored_texts_the_reader_refuses_never_break_a_page(client, started, name):
    game = _confirmed_with_stored(started, _stored_text(name))
    slug = game.tournament.slug
    for person in (None, "organiser", "judge"):
        client.logout()
        if person:
            client.force_login(started[person])
        for url in (
            reverse("games:detail", args=[slug, game.pk]),
            reverse("console:spectator", args=[slug, game.pk]),
            reverse("console:board", args=[slug, game.pk]),
            _url(game),
        ):
            answer = client.get(url, HTTP_ACCEPT_LANGUAGE="ru")
            assert answer.status_code == 200, (url, person)
            answer.content.decode("utf-8")
        view = client.get(_url(game)).json()
        assert view["problems"] == [] and view["finished"] is True, person  # it still replays
        page = client.get(reverse("games:detail", args=[slug, game.pk])).content.decode()
        assert "a\\u" in page, person  # the stored reason, escaped


@pytest.mark.parametrize("name", ["lone surrogate", "right-to-left override"])
def test_stored_texts_the_reader_refuses_leave_the_archive_whole(client, started, name):
    game = _confirmed_with_stored(started, _stored_text(name))
    client.force_login(started["chief"])
    answer = client.get(reverse("printables:archive", args=[game.tournament.slug]), {"lang": "ru"})
    assert answer.status_code == 200
    archive = zipfile.ZipFile(io.BytesIO(b"".join(answer.streaming_content)))
    assert archive.testzip() is None
    logs = [n for n in archive.namelist() if n.startswith("logs/")]
    assert logs
    for name_ in logs:
        json.loads(archive.read(name_).decode("utf-8"))


@pytest.mark.parametrize("name", ["lone surrogate", "right-to-left override"])
def test_stored_texts_the_reader_refuses_leave_export_working(tmp_path, capsys, started, name):
    from mafiatab.cli import main

    game = _confirmed_with_stored(started, _stored_text(name))
    target = tmp_path / "archive.zip"
    code = main(["export", game.tournament.slug, "--archive", str(target), "--lang", "en"])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    assert code == 0, captured.err
    assert zipfile.ZipFile(target).testzip() is None
    # the tournament file holds the reason escaped, and it reads back
    from mafiatab.core.tournament_file import loads_tournament

    file = tmp_path / "t.json"
    assert main(["export", game.tournament.slug, "-o", str(file)]) == 0
    games = loads_tournament(file.read_text(encoding="utf-8")).games
    assert [r.reason for r in games[0].disqualified] == [printable(STORED[name])]


@pytest.mark.parametrize("text", ["a\x00b", "a\ud800b", "a\u202eb"])
def test_a_draft_is_not_saved_with_a_hostile_reason(two_tables, text):
    from django.core.exceptions import ValidationError

    game = two_tables["game1"]
    data = complete_data(game, winner=None)
    data["penalties"] = [{"seat": 2, "rule": "8.5.2", "reason": text}]
    with pytest.raises(ValidationError) as caught:
        protocol_save(game=game, data=data, by=two_tables["judge"], base_version=1)
    assert "penalties.0.reason" in caught.value.message_dict
    game.refresh_from_db()
    assert game.version == 1


def test_the_protocol_forms_draft_with_a_hostile_reason_is_refused_on_the_page(client, two_tables):
    from mafiatab.games.forms import raw_from_data

    game = two_tables["game1"]
    data = complete_data(game, winner=None)
    data["penalties"] = [{"seat": 2, "rule": "8.5.2", "reason": "a\x00b"}]
    post = {k: v for k, v in raw_from_data(data).items() if v not in ("", [])}
    post |= {"base_version": str(game.version), "action": "save"}
    client.force_login(two_tables["judge"])
    answer = client.post(reverse("games:protocol", args=[game.tournament.slug, game.pk]), post)
    assert answer.status_code == 422
    assert "control character" in answer.content.decode()
    game.refresh_from_db()
    assert game.version == 1
