"""A refused protocol names its problems where the judge looks: a list at the top of
the form, each in words (the seat and the part of the form, never a key of the
tournament file) and linking to the field, and each beside its field."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from mafiatab.games import forms as pf
from mafiatab.games.forms import raw_from_data
from mafiatab.games.models import GameStatus

from . import test_games_fixtures as fx
from .test_games_fixtures import complete_data

pytestmark = pytest.mark.django_db
two_tables = fx.two_tables

#: Keys of the tournament file and of the form's rows that a judge must never read.
INTERNAL = re.compile(
    r"chief_approved|judge_extra|disqualified|first_killed|best_move|nominated_by|"
    r"voting\[|\bseats\b|\bextra\d|\bpen\d|\brem\d|\bv\d_"
)


def _post_data(game, **changes):
    raw = raw_from_data(complete_data(game, **changes))
    return {k: v for k, v in raw.items() if v not in ("", [])} | {
        "base_version": "1",
        "action": "submit",
    }


def _summary(page: str) -> str:
    return page.split('id="protocol-summary"')[1].split("</div>")[0]


def _items(summary: str) -> list[tuple[str, str]]:
    """(the linked cell, the item's text) of each problem in the summary."""
    found = re.findall(r'<li><a href="#pb-([\w-]+)">(.*?)</li>', summary, re.S)
    return [(cell, html.unescape(re.sub(r"<[^>]+>", "", text))) for cell, text in found]


def _cell(page: str, key: str) -> str:
    return html.unescape(page.split(f'id="pb-{key}"')[1].split("</div>")[0])


def _refused(client, two_tables):
    game = two_tables["game1"]
    client.force_login(two_tables["judge"])
    data = _post_data(
        game,
        judge_extra=[{"seat": 4, "points": 0.6, "reason": "a fine speech"}],
        voting=[
            {"day": 1, "nominees": [5, 9], "votes": [6, 4]},
            {"day": 2, "nominees": [9, 7], "votes": [6, 6], "nominated_by": [2, 3]},
        ],
    )
    data["role_1"] = "don"  # a slip: a second don
    data["fouls_2"] = ["1", "2", "3", "4"]  # a fourth foul, and no removal written
    url = reverse("games:protocol", args=[game.tournament.slug, game.pk])
    response = client.post(url, data, HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 422
    game.refresh_from_db()
    assert game.version == 1 and game.status == GameStatus.DRAFT
    return response.content.decode()


def test_the_summary_names_each_problem_in_russian_words_and_links_to_its_field(client, two_tables):
    page = _refused(client, two_tables)
    summary = _summary(page)
    items = _items(summary)
    texts = [text for _cell_key, text in items]
    count = re.search(r'data-testid="summary">(\d+) ', summary)
    assert count and int(count.group(1)) == len(items) >= 4, texts
    for cell, text in items:
        assert not INTERNAL.search(text), text
        assert re.search("[а-яё]", text, re.I), text
        place, _sep, what = text.partition(": ")
        assert place and what, text
        # beside its field the same words are a sentence of their own
        assert what.lower() in _cell(page, cell).lower(), (text, _cell(page, cell))
    assert "Место 4, Доп. баллы от судьи (8.4): 0.6 требует согласия главного судьи (8.4.3)" in (
        texts
    )
    assert any(text.startswith("Место 2, Фолы: ") for text in texts), texts
    assert any(text.startswith("Игроки: ") for text in texts), texts
    assert any(text.startswith("Голосование 2, Голоса: ") for text in texts), texts
    # in the order of the page: the players first, the extra points last
    cells = [cell for cell, _text in items]
    assert cells.index("roles") < cells.index("v2") < cells.index("extra1")


def test_no_problem_beside_a_field_names_a_key_of_the_file(client, two_tables):
    page = _refused(client, two_tables)
    beside = [_cell(page, key) for key in pf.cell_keys()]
    assert any("согласия главного судьи" in text for text in beside)
    for text in beside:
        assert not INTERNAL.search(re.sub(r"<[^>]+>", "", text)), text


def test_a_refused_submit_opens_the_page_at_the_first_problem(client, two_tables):
    page = _refused(client, two_tables)
    [(first, _text), *_] = _items(_summary(page))
    marked = re.findall(r'id="pb-([\w-]+)"[^>]*data-scroll-into-view', page)
    assert marked == [first]


def test_a_problem_of_a_vote_is_shown_at_its_row_when_a_row_above_is_left_empty(client, two_tables):
    game = two_tables["game1"]
    client.force_login(two_tables["judge"])
    data = _post_data(game)
    data |= {"v3_day": "2", "v3_nominees": "9 7", "v3_votes": "6 6"}  # row 2 left empty
    url = reverse("games:protocol", args=[game.tournament.slug, game.pk])
    page = client.post(url, data, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "голосов" in _cell(page, "v3") and 'class="error"' not in _cell(page, "v2")
    items = _items(_summary(page))
    assert any(cell == "v3" and text.startswith("Голосование 3") for cell, text in items)


def test_a_best_move_naming_a_seat_twice_says_which_seat(client, two_tables):
    """Seat 1 is the first-killed player: the problem is seat 2 named twice, not seat 1."""
    game = two_tables["game1"]
    client.force_login(two_tables["judge"])
    data = _post_data(game, first_killed=1, best_move=[2, 2, 9])
    url = reverse("games:protocol", args=[game.tournament.slug, game.pk])
    page = client.post(url, data, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    texts = [text for _cell_key, text in _items(_summary(page))]
    assert "Лучший ход: место 2 названо дважды" in texts, texts
    assert not any(text.startswith("Место 1") for text in texts), texts
