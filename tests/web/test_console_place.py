"""Where the judge stands (the speaker and the timer) is kept on the server beside the
log: another device of the table's judge or of the chief judge continues at the same
speech; only they write it, bad input is told by its field, a closed log takes none."""

from __future__ import annotations

import datetime as dt
import json
import re
import uuid
from typing import Any

import pytest
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone

from mafiatab.audit.models import AuditEntry
from mafiatab.console import selectors, services
from mafiatab.console.models import GameLog

from . import test_console as tc
from . import test_games_fixtures as fx

two_tables = fx.two_tables
tournament = tc.tournament
started = tc.started

pytestmark = pytest.mark.django_db

PLACE = {
    "day": "d2",
    "speech": 3,
    "timer": {"total": 60, "left": 42, "running": True, "label": "Речь"},
}


def _put(client: Any, game: Any, body: Any) -> Any:
    return client.put(
        tc._url(game, "/place"), data=json.dumps(body), content_type="application/json"
    )


def test_the_judges_place_is_kept_and_read_back_with_its_age(client, started):
    game = started["game1"]
    client.force_login(started["judge"])
    answer = _put(client, game, PLACE)
    assert answer.status_code == 200, answer.content
    assert answer.json()["revision"] == 1 and answer.json()["speech"] == 3
    # The chief judge's other device reads it with the log and continues from it.
    client.force_login(started["chief"])
    place = client.get(tc._url(game)).json()["place"]
    assert place["day"] == "d2" and place["speech"] == 3 and place["timer"]["left"] == 42
    assert place["timer"]["running"] is True and place["age"] >= 0
    moved = PLACE | {"speech": 4}
    assert _put(client, game, moved).json()["revision"] == 2
    assert AuditEntry.objects.filter(action="game.console.place").count() == 2
    # Spectators see who speaks too (no rule and no role in it).
    client.logout()
    assert client.get(tc._url(game)).json()["place"]["speech"] == 4


def test_a_running_timer_is_read_with_the_time_it_ran_since_by_the_servers_clock(started):
    log = services.place_save(log=started["log"], place=PLACE, by=started["judge"])
    later = timezone.now() + dt.timedelta(seconds=10)
    assert selectors.place_view(log, now=later)["age"] >= 10


def test_only_the_tables_judges_keep_the_place(client, started):
    game = started["game1"]
    for person in ("judge2", "alpha1", "organiser"):
        client.force_login(started[person])
        assert _put(client, game, PLACE).status_code == 403, person
    client.logout()
    assert _put(client, game, PLACE).status_code == 401
    assert GameLog.objects.get().place == {}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"speech": 99}, "speech"),
        ({"day": "day 2"}, "day"),
        ({"day": "d2" * 500}, "day"),
        ({"timer": {"total": 60, "left": 10**9, "running": False}}, "timer"),
        ({"timer": {"total": 60, "left": 1, "running": False, "label": "x" * 81}}, "timer"),
        ({"timer": {"total": 60, "left": 1, "running": False, "label": "a\u0000b"}}, "label"),
        ({"timer": {"total": 60, "left": 1, "running": False, "label": "\u202eab"}}, "label"),
        ({"timer": {"total": 60, "left": 1, "running": False, "label": "\ud800"}}, "label"),
        ({"speech": "3"}, None),
    ],
)
def test_a_bad_place_is_refused_naming_its_field(client, started, change, field):
    client.force_login(started["judge"])
    answer = _put(client, started["game1"], PLACE | change)
    if field is None:  # a number given as text is read as the number
        assert answer.status_code == 200
        return
    assert answer.status_code == 422, answer.content
    assert field in answer.json()["detail"]
    assert GameLog.objects.get().place == {}


def test_a_closed_log_keeps_no_place(client, started):
    log, judge = started["log"], started["judge"]
    for event in tc.GAME:
        services.event_append(log=log, event=event, client_id=uuid.uuid4(), after=None, by=judge)
    services.log_finish(log=log, by=judge)
    client.force_login(judge)
    answer = _put(client, started["game1"], PLACE)
    assert answer.status_code == 409 and answer.json()["detail"]


def test_the_service_worker_keeps_the_console_page_and_its_assets(client, started):
    game = started["game1"]
    slug = game.tournament.slug
    worker = reverse("console:service_worker", args=[slug])
    # Served from the tournament's address: its scope covers the tournament's consoles.
    console = reverse("console:console", args=[slug, game.pk])
    assert console.startswith(worker.rsplit("/", 1)[0] + "/")
    answer = client.get(worker)
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("application/javascript")
    assert answer["Cache-Control"] == "no-cache"
    text = answer.content.decode()
    for asset in ("console/console.js", "console/console.css", "mafiatab/site.css"):
        assert static(asset) in text
    assert client.get(reverse("console:service_worker", args=["no-such"])).status_code == 404
    client.force_login(started["judge"])
    page = client.get(console).content.decode()
    assert f'data-worker="{worker}"' in page


def test_every_word_of_the_console_script_is_said_in_russian():
    from django.utils import translation

    from mafiatab.console.strings import console_strings

    with translation.override("en"):
        english = console_strings()
    with translation.override("ru"):
        russian = console_strings()
    same = [key for key, text in english.items() if russian[key] == text]
    assert not same, same
    # The placeholders the script fills survive the translation.
    for key, text in english.items():
        assert re.findall(r"%\(\w+\)s", text) == re.findall(r"%\(\w+\)s", russian[key]), key


def test_the_kept_place_reads_in_russian_on_the_history_page(client, started):
    services.place_save(log=started["log"], place=PLACE, by=started["judge"])
    client.force_login(started["chief"])
    tournament = started["game1"].tournament
    page = client.get(
        reverse("tournaments:history", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="ru"
    ).content.decode()
    # named, without the place's inner values: where a console stands is not data
    assert "Выступающий и таймер сохранены в консоли судьи" in page
    # what the page says, without its markup (a random token may hold "d2")
    said = re.sub(r"<[^>]*>", " ", page)
    for raw in ("game.console.place", "speech", "timer", "running", "d2", "секунд 42"):
        assert raw not in said, raw
