"""A table judge's protocol form kept open while the chief judge confirmed the protocol:
the judge gets the form back saying so (409), nothing saved, not the 403 page of a
stranger; a judge of another table and a player stay refused."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from mafiatab.games.forms import raw_from_data
from mafiatab.games.services import ProtocolConfirmed, protocol_confirm, protocol_save

from . import test_games_fixtures as fx
from .test_games_fixtures import complete_data

pytestmark = pytest.mark.django_db
two_tables = fx.two_tables


def _post_data(game: Any, base_version: int, action: str = "submit") -> dict[str, Any]:
    raw = raw_from_data(complete_data(game))
    return {k: v for k, v in raw.items() if v not in ("", [])} | {
        "base_version": str(base_version),
        "action": action,
    }


def _url(name: str, game: Any) -> str:
    return reverse(f"games:{name}", args=[game.tournament.slug, game.pk])


@pytest.fixture
def confirmed(two_tables: dict[str, Any]) -> dict[str, Any]:
    """Table 1's protocol signed by its judge (version 2), confirmed by the chief (3)."""
    game = two_tables["game1"]
    protocol_save(
        game=game, data=complete_data(game), by=two_tables["judge"], base_version=1, submit=True
    )
    protocol_confirm(game=game, by=two_tables["chief"], base_version=2)
    game.refresh_from_db()
    return two_tables


@pytest.mark.parametrize("action", ["submit", "save", "check"])
def test_a_form_kept_open_while_the_chief_confirmed_is_told_so_not_refused(
    client, confirmed, action
):
    game = confirmed["game1"]
    client.force_login(confirmed["judge"])
    data = _post_data(game, 2, action=action)
    data["player_2"] = "Renamed"
    response = client.post(_url("protocol", game), data)
    assert response.status_code == 409
    page = response.content.decode()
    assert "The chief judge confirmed this protocol meanwhile (version 3)" in page
    assert "only he can change it now" in page and 'value="Renamed"' in page
    assert 'data-testid="sign"' not in page and "Save the change" not in page
    game.refresh_from_db()
    assert game.version == 3 and game.seats.get(number=2).player == "Alpha2"


def test_the_confirmed_meanwhile_answer_speaks_russian(client, confirmed):
    game = confirmed["game1"]
    client.force_login(confirmed["judge"])
    response = client.post(_url("protocol", game), _post_data(game, 2), HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 409
    page = response.content.decode()
    assert "Тем временем главный судья утвердил этот протокол (версия 3)" in page
    assert "Нет доступа" not in page


def test_the_service_tells_the_tables_judge_it_was_confirmed(confirmed):
    game = confirmed["game1"]
    with pytest.raises(ProtocolConfirmed) as caught:
        protocol_save(
            game=game, data=complete_data(game), by=confirmed["judge"], base_version=2, submit=True
        )
    assert "version 3" in str(caught.value)


def test_another_tables_judge_and_a_player_still_get_403_on_a_confirmed_protocol(client, confirmed):
    game = confirmed["game1"]
    for person in (confirmed["judge2"], confirmed["alpha1"]):
        client.force_login(person)
        response = client.post(_url("protocol", game), _post_data(game, 3))
        assert response.status_code == 403
    game.refresh_from_db()
    assert game.version == 3


def test_the_tables_judge_opening_the_confirmed_form_is_still_sent_to_the_game(client, confirmed):
    game = confirmed["game1"]
    client.force_login(confirmed["judge"])
    response = client.get(_url("protocol", game))
    assert response.status_code == 302 and response["Location"] == _url("detail", game)
