"""A game logged in the judge console keeps every voting block, the lift vote
included, field for field on its whole way: the engine's protocol, the protocol form
the judge completes, the stored version, the tournament file, the printed protocol
and the history of versions."""

from __future__ import annotations

import json
import re
import subprocess
import uuid
from html.parser import HTMLParser
from typing import Any

import pytest
from django.urls import reverse

from mafiatab.console import services as console
from mafiatab.core.game import parse_log, replay
from mafiatab.core.game import protocol as engine_protocol
from mafiatab.games import forms as pf
from mafiatab.games.models import Game
from mafiatab.games.services import protocol_confirm
from mafiatab.messages import problem_text

from . import test_games_fixtures as fx

two_tables = fx.two_tables

pytestmark = pytest.mark.django_db

#: Seat 3 sheriff, 5 and 9 black, 7 don (the fixtures' ROLES).
ROLES = {"sheriff": 3, "don": 7, "black": [5, 9]}

#: Day 1: seats 4 and 5 tie twice, and 6 of the 10 vote for both leaving; red wins on day 3.
ALL_LEAVE = [
    {"type": "nominate", "by": 1, "seat": 4},
    {"type": "nominate", "by": 2, "seat": 5},
    {"type": "vote", "counts": [5, 5]},
    {"type": "vote", "counts": [5, 5]},
    {"type": "lift", "for": 6},
    {"type": "night"},
    {"type": "shots", "by": {"7": 1, "9": 1}},
    {"type": "day"},
    {"type": "best_move", "seats": [7, 9, 2]},
    {"type": "nominate", "by": 2, "seat": 9},
    {"type": "nominate", "by": 3, "seat": 7},
    {"type": "vote", "counts": [4, 3]},
    {"type": "night"},
    {"type": "shots", "by": {"7": 3}},
    {"type": "day"},
    {"type": "nominate", "by": 2, "seat": 7},
    {"type": "night"},
]
ALL_LEAVE_VOTING = [
    {"day": 1, "nominees": [4, 5], "votes": [5, 5], "nominated_by": [1, 2], "revote": False,
     "lift": None},
    {"day": 1, "nominees": [4, 5], "votes": [5, 5], "nominated_by": [1, 2], "revote": True,
     "lift": 6},
    {"day": 2, "nominees": [9, 7], "votes": [4, 3], "nominated_by": [2, 3], "revote": False,
     "lift": None},
    {"day": 3, "nominees": [7], "votes": [], "nominated_by": [2], "revote": False, "lift": None},
]  # fmt: skip

#: Day 1: seats 4 and 5 tie twice and nobody votes for both leaving; red wins on day 4.
NOBODY_LEAVES = [
    {"type": "nominate", "by": 1, "seat": 4},
    {"type": "nominate", "by": 2, "seat": 5},
    {"type": "vote", "counts": [5, 5]},
    {"type": "vote", "counts": [5, 5]},
    {"type": "lift", "for": 0},
    {"type": "night"},
    {"type": "shots", "by": {"5": 1, "7": 1, "9": 1}},
    {"type": "day"},
    {"type": "best_move", "seats": [7, 9, 2]},
    {"type": "nominate", "by": 2, "seat": 9},
    {"type": "nominate", "by": 3, "seat": 7},
    {"type": "vote", "counts": [5, 4]},
    {"type": "night"},
    {"type": "shots", "by": {"5": 3, "7": 3}},
    {"type": "day"},
    {"type": "nominate", "by": 2, "seat": 5},
    {"type": "nominate", "by": 4, "seat": 7},
    {"type": "vote", "counts": [4, 3]},
    {"type": "night"},
    {"type": "shots", "by": {"7": 2}},
    {"type": "day"},
    {"type": "nominate", "by": 4, "seat": 7},
    {"type": "night"},
]
NOBODY_LEAVES_VOTING = [
    {"day": 1, "nominees": [4, 5], "votes": [5, 5], "nominated_by": [1, 2], "revote": False,
     "lift": None},
    {"day": 1, "nominees": [4, 5], "votes": [5, 5], "nominated_by": [1, 2], "revote": True,
     "lift": 0},
    {"day": 2, "nominees": [9, 7], "votes": [5, 4], "nominated_by": [2, 3], "revote": False,
     "lift": None},
    {"day": 3, "nominees": [5, 7], "votes": [4, 3], "nominated_by": [2, 4], "revote": False,
     "lift": None},
    {"day": 4, "nominees": [7], "votes": [], "nominated_by": [4], "revote": False, "lift": None},
]  # fmt: skip

GAMES = {
    "lift_all_leave": (ALL_LEAVE, ALL_LEAVE_VOTING),
    "lift_nobody_leaves": (NOBODY_LEAVES, NOBODY_LEAVES_VOTING),
}

FIELDS = {"day": None, "nominees": [], "votes": [], "nominated_by": [], "revote": False}


def blocks(voting: Any) -> list[dict[str, Any]]:
    """Every field of each block, a field left out of the JSON as its default."""
    return [
        {key: block.get(key, default) for key, default in FIELDS.items()}
        | {"lift": block.get("lift")}
        for block in voting or []
    ]


class _FormFields(HTMLParser):
    """What a browser sends for the protocol form as it is shown: every named input,
    checked box and selected option (the submit buttons left out)."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: list[tuple[str, str]] = []
        self._select: str | None = None
        self._first: str | None = None
        self._chosen = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        name = a.get("name")
        if tag == "input" and name and "disabled" not in a:
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.fields.append((name, a.get("value") or "on"))
            elif kind != "submit":
                self.fields.append((name, a.get("value") or ""))
        elif tag == "textarea" and name:
            self.fields.append((name, ""))
        elif tag == "select" and name:
            self._select, self._first, self._chosen = name, None, False
        elif tag == "option" and self._select:
            value = a.get("value") or ""
            if self._first is None:
                self._first = value
            if "selected" in a and not self._chosen:
                self.fields.append((self._select, value))
                self._chosen = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._select:
            if not self._chosen:
                self.fields.append((self._select, self._first or ""))
            self._select = None


def form_fields(page: str) -> list[tuple[str, str]]:
    parser = _FormFields()
    parser.feed(page)
    return parser.fields


def shown_blocks(fields: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """The voting blocks as the form shows them, read back cell by cell."""
    values = dict(fields)

    def numbers(text: str) -> list[int]:
        return [int(part) for part in text.split()]

    shown = []
    for b in range(1, 30):
        if not values.get(f"v{b}_nominees"):
            continue
        lift = values.get(f"v{b}_lift", "")
        shown.append(
            {
                "day": int(values[f"v{b}_day"]),
                "nominees": numbers(values[f"v{b}_nominees"]),
                "votes": numbers(values.get(f"v{b}_votes", "")),
                "nominated_by": numbers(values.get(f"v{b}_by", "")),
                "revote": f"v{b}_revote" in values,
                "lift": int(lift) if lift else None,
            }
        )
    return shown


def pdf_text(content: bytes) -> str:
    result = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=content, capture_output=True, check=True
    )
    return result.stdout.decode("utf-8")


def printed_row(number: int, block: dict[str, Any]) -> re.Pattern[str]:
    """The line of the printed voting table for `block` (number, day, nominated seats,
    nominated by, votes, the revote mark and the lift), and nothing else on it."""
    cells = [str(number), str(block["day"]), ", ".join(map(str, block["nominees"]))]
    for key in ("nominated_by", "votes"):
        if block[key]:
            cells.append(", ".join(map(str, block[key])))
    if block["revote"]:
        cells.append("yes")
    if block["lift"] is not None:
        cells.append(str(block["lift"]))
    return re.compile(r"^\s*" + r"\s+".join(map(re.escape, cells)) + r"\s*$", re.M)


def history_words(block: dict[str, Any]) -> str:
    """A block as the history of versions writes it."""
    text = f"day {block['day']}: " + ", ".join(map(str, block["nominees"]))
    if block["nominated_by"]:
        text += " (nominated by " + ", ".join(map(str, block["nominated_by"])) + ")"
    if block["votes"]:
        text += ", votes " + ", ".join(map(str, block["votes"]))
    if block["revote"]:
        text += ", revote"
    if block["lift"] is not None:
        text += f", {block['lift']} for all of them leaving"
    return text


def _finished_in_the_console(two_tables: dict[str, Any], events: list[dict[str, Any]]) -> Game:
    game, judge = two_tables["game1"], two_tables["judge"]
    log = console.log_start(game=game, roles=ROLES, by=judge)
    for event in events:
        console.event_append(log=log, event=event, client_id=uuid.uuid4(), after=None, by=judge)
    console.log_finish(log=log, by=judge)
    game.refresh_from_db()
    return game


@pytest.fixture
def tournament(make_tournament: Any) -> Any:
    """An offline FIIM tournament (day 1 has a voting)."""
    return make_tournament(ruleset="fiim", platform="")


@pytest.mark.parametrize("name", GAMES)
def test_every_voting_block_of_a_console_game_survives_to_the_pdf_and_the_history(
    client, two_tables, name
):
    events, golden = GAMES[name]
    game = two_tables["game1"]
    document = {
        "format": "mafiatab-game-log/1",
        "table": "fiim",
        "seats": fx.NICKS_1,
        "roles": ROLES,
        "events": events,
    }
    state = replay(parse_log(document))
    assert blocks(engine_protocol(state)["voting"]) == golden, "the engine's protocol"

    game = _finished_in_the_console(two_tables, events)
    assert blocks(game.versions.last().data["voting"]) == golden, "the console's version"

    client.force_login(two_tables["judge"])
    url = reverse("games:protocol", args=[game.tournament.slug, game.pk])
    page = client.get(url).content.decode()
    fields = form_fields(page)
    assert shown_blocks(fields) == golden, "the prefilled protocol form"

    fields = [(k, v) for k, v in fields if k != "date"] + [("date", "2026-03-01")]
    answer = client.post(url, dict(fields) | {"action": "submit"}, follow=False)
    assert answer.status_code == 302, answer.content.decode()
    game.refresh_from_db()
    assert game.versions.last().action == "submitted"
    assert blocks(game.versions.last().data["voting"]) == golden, "the version the form saved"
    protocol_confirm(game=game, by=two_tables["chief"])

    exported = json.loads(
        client.get(reverse("tournaments:export", args=[game.tournament.slug])).content
    )
    [stored] = [g for g in exported["games"] if g["id"] == game.label]
    assert blocks(stored["voting"]) == golden, "the tournament file"

    pdf = client.get(
        reverse("printables:protocol", args=[game.tournament.slug, game.pk]), {"lang": "en"}
    )
    text = pdf_text(pdf.content)
    for number, block in enumerate(golden, start=1):
        assert printed_row(number, block).search(text), (number, block, text)

    history = client.get(reverse("games:history", args=[game.tournament.slug, game.pk]))
    page = history.content.decode()
    first = page[page.index('data-testid="version-2"') :]
    for block in golden:
        assert history_words(block) in first, (history_words(block), first)


def test_a_lift_typed_into_the_form_is_read_and_shown_again():
    raw = pf.raw_from_data({"voting": ALL_LEAVE_VOTING})
    assert raw["v2_lift"] == "6" and raw["v1_lift"] == ""
    parsed = pf.data_from_raw(raw, base={"id": "Q1-T1"}, online=False)
    assert not parsed.problems
    assert blocks(parsed.data["voting"]) == ALL_LEAVE_VOTING


def test_a_lift_that_is_no_number_is_named_at_its_block():
    raw = pf.raw_from_data({"voting": ALL_LEAVE_VOTING}) | {"v2_lift": "six"}
    parsed = pf.data_from_raw(raw, base={"id": "Q1-T1"}, online=False)
    assert [(p.field, problem_text(p)) for p in parsed.problems] == [
        ("voting[2].lift", "six is not a number")
    ]


def test_a_game_of_more_blocks_than_the_paper_form_keeps_them_all():
    many = [
        {"day": day, "nominees": [4, 5], "votes": [5, 5], "nominated_by": [1, 2],
         "revote": False, "lift": None}
        for day in range(1, pf.MAX_VOTING_ROUNDS + 3)
    ]  # fmt: skip
    raw = pf.raw_from_data({"voting": many})
    parsed = pf.data_from_raw(raw, base={"id": "Q1-T1"}, online=False)
    assert blocks(parsed.data["voting"]) == many


@pytest.mark.parametrize("name", GAMES)
def test_the_api_gives_and_takes_the_lift_of_a_console_game(client, two_tables, name):
    events, golden = GAMES[name]
    game = _finished_in_the_console(two_tables, events)
    client.force_login(two_tables["judge"])
    url = f"/api/tournaments/{game.tournament.slug}/games/{game.pk}"
    protocol = client.get(url).json()["protocol"]
    assert blocks(protocol["voting"]) == golden
    for key in ("id", "stage", "round", "table"):
        protocol.pop(key, None)
    answer = client.put(
        f"{url}/protocol",
        json.dumps({"protocol": protocol | {"date": "2026-03-01"}, "base_version": game.version}),
        content_type="application/json",
    )
    assert answer.status_code == 200, answer.content
    game.refresh_from_db()
    assert blocks(game.versions.last().data["voting"]) == golden


def test_a_vote_row_written_without_its_nominees_is_named_not_dropped():
    raw = {"v3_votes": "5 5", "v3_lift": "6"}
    parsed = pf.data_from_raw(raw, base={"id": "Q1-T1"}, online=False)
    assert parsed.data["voting"] == []
    assert [(p.field, problem_text(p)) for p in parsed.problems] == [
        ("voting[3].nominees", "write the nominated seats")
    ]
