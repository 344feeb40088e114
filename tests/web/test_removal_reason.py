"""A fourth foul's removal is told in the reader's language: the console's protocol
carries the core's reason, which the pages and the PDF translate, and the form gives
the same reason back when the judge signs."""

from __future__ import annotations

import pytest
from django.urls import reverse

from mafiatab.core.game import FOUL_REMOVAL_REASON
from mafiatab.games.forms import raw_from_data
from mafiatab.games.models import Game
from mafiatab.games.services import protocol_save

from . import test_games_fixtures as fx
from .test_games_fixtures import complete_data
from .test_printables import get, pdf_text

pytestmark = pytest.mark.django_db
two_tables = fx.two_tables


def _removed_at_seat_4(game: Game) -> dict:
    data = complete_data(game)
    data["seats"][3]["fouls"] = 4
    data["disqualified"] = [
        {"seat": 4, "reason": FOUL_REMOVAL_REASON, "online": False, "fined": True}
    ]
    return data


def _page(client, name, game):
    url = reverse(f"games:{name}", args=[game.tournament.slug, game.pk])
    return client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()


def test_a_fourth_foul_removal_reads_in_russian_on_the_game_page_and_the_pdf(client, two_tables):
    game = two_tables["game1"]
    protocol_save(game=game, data=_removed_at_seat_4(game), by=two_tables["judge"], base_version=1)
    client.force_login(two_tables["judge"])
    page = _page(client, "detail", game)
    assert "4 фола" in page and FOUL_REMOVAL_REASON not in page
    pdf = pdf_text(get(client, "protocol", game.tournament.slug, game.pk, lang="ru").content)
    assert "4 фола" in pdf and FOUL_REMOVAL_REASON not in pdf


def test_the_protocol_form_shows_the_removal_in_russian_and_signs_the_same_reason_back(
    client, two_tables
):
    game = two_tables["game1"]
    protocol_save(game=game, data=_removed_at_seat_4(game), by=two_tables["judge"], base_version=1)
    client.force_login(two_tables["judge"])
    form = _page(client, "protocol", game)
    assert 'name="rem1_reason" value="4 фола"' in form
    assert FOUL_REMOVAL_REASON not in form
    response = client.post(
        reverse("games:protocol", args=[game.tournament.slug, game.pk]),
        {"rem1_seat": "4", "rem1_reason": "4 фола", "action": "save", "base_version": "2"}
        | _signed_fields(game),
        HTTP_ACCEPT_LANGUAGE="ru",
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    game.refresh_from_db()
    stored = game.removals.get()
    assert stored.reason == FOUL_REMOVAL_REASON


def _signed_fields(game: Game) -> dict[str, str]:
    raw = raw_from_data(_removed_at_seat_4(game))
    raw.pop("rem1_reason", None)
    return {k: v for k, v in raw.items() if v not in ("", [])}
