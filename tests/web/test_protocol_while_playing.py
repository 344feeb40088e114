"""A protocol is not signed nor confirmed while its game is still played on the judge
console (its log begun, not closed); the console takes no more events once the
protocol is signed."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from mafiatab.console import services as console
from mafiatab.console.models import GameLog, LogEntry
from mafiatab.games.forms import raw_from_data
from mafiatab.games.models import GameStatus, Protest
from mafiatab.games.services import protest_decide, protocol_confirm, protocol_save

from . import test_games_fixtures as fx
from .test_console import GAME, ROLES
from .test_games_fixtures import complete_data

pytestmark = pytest.mark.django_db
two_tables = fx.two_tables

PLAYING = "still being played on the judge console"
PLAYING_RU = "Эта игра ещё идёт на пульте судьи"
SIGNED = "The protocol of this game is already signed: the console takes no more events."
SIGNED_RU = "Протокол этой игры уже подписан: пульт больше не принимает событий."


@pytest.fixture
def tournament(make_tournament: Any) -> Any:
    """An offline FIIM tournament (day 1 has a voting)."""
    return make_tournament(ruleset="fiim", platform="")


@pytest.fixture
def playing(two_tables: dict[str, Any]) -> dict[str, Any]:
    """Table 1's game begun on the console, two events in, not closed."""
    log = console.log_start(game=two_tables["game1"], roles=ROLES, by=two_tables["judge"])
    for event in GAME[:2]:
        _append(log, two_tables["judge"], event)
    return two_tables | {"log": log}


@pytest.fixture
def signed_while_playing(two_tables: dict[str, Any]) -> dict[str, Any]:
    """As stored before the refusal: table 1's protocol signed by hand while its console
    log is begun and not closed."""
    game, judge = two_tables["game1"], two_tables["judge"]
    protocol_save(game=game, data=complete_data(game), by=judge, base_version=1, submit=True)
    game.refresh_from_db()
    log = GameLog.objects.create(
        game=game, header=console.header_for(game, ROLES), started_by=judge
    )
    return two_tables | {"log": log}


def _protest(people: dict[str, Any]) -> Protest:
    from django.utils import timezone

    return Protest.objects.create(
        game=people["game1"],
        filed_by=people["alpha1"],
        seat=1,
        text="wrong winner",
        filed_at=timezone.now(),
    )


def _append(log: GameLog, by: Any, event: dict[str, Any]) -> console.Appended:
    return console.event_append(log=log, event=event, client_id=uuid.uuid4(), after=None, by=by)


def _post_data(game: Any, base_version: int, action: str = "submit") -> dict[str, Any]:
    raw = raw_from_data(complete_data(game))
    return {k: v for k, v in raw.items() if v not in ("", [])} | {
        "base_version": str(base_version),
        "action": action,
    }


def _url(name: str, game: Any) -> str:
    return reverse(f"games:{name}", args=[game.tournament.slug, game.pk])


# --- signing while the game is played ----------------------------------------------------


def test_signing_while_the_game_is_played_on_the_console_is_refused_and_stores_nothing(playing):
    game = playing["game1"]
    for by in (playing["judge"], playing["chief"]):
        with pytest.raises(ValidationError) as caught:
            protocol_save(game=game, data=complete_data(game), by=by, base_version=1, submit=True)
        assert PLAYING in " ".join(caught.value.messages)
        assert "close the game in the console" in " ".join(caught.value.messages)
    game.refresh_from_db()
    assert game.status == GameStatus.DRAFT and game.version == 1 and not game.winner


def test_a_draft_is_still_saved_while_the_game_is_played(playing):
    game = playing["game1"]
    protocol_save(game=game, data=complete_data(game), by=playing["judge"], base_version=1)
    game.refresh_from_db()
    assert game.status == GameStatus.DRAFT and game.version == 2


def test_once_the_console_closes_the_game_its_protocol_is_signed(playing):
    game, judge, log = playing["game1"], playing["judge"], playing["log"]
    for event in GAME[2:]:
        _append(log, judge, event)
    console.log_finish(log=log, by=judge)
    game.refresh_from_db()
    protocol_save(
        game=game, data=complete_data(game), by=judge, base_version=game.version, submit=True
    )
    game.refresh_from_db()
    assert game.status == GameStatus.SUBMITTED


def test_the_api_refuses_a_signature_while_the_game_is_played(client, playing):
    game = playing["game1"]
    data = complete_data(game)
    data.pop("id"), data.pop("stage")
    client.force_login(playing["judge"])
    response = client.put(
        f"/api/tournaments/{game.tournament.slug}/games/{game.pk}/protocol",
        json.dumps({"protocol": data, "base_version": 1, "submit": True}),
        content_type="application/json",
    )
    assert response.status_code == 422, response.content
    assert PLAYING in response.json()["detail"]
    game.refresh_from_db()
    assert game.status == GameStatus.DRAFT and game.version == 1


def test_the_form_refuses_to_sign_while_the_game_is_played_and_says_why_in_russian(client, playing):
    game = playing["game1"]
    client.force_login(playing["judge"])
    response = client.post(_url("protocol", game), _post_data(game, 1), HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 422
    page = response.content.decode()
    assert PLAYING_RU in page and "закройте её на пульте" in page
    game.refresh_from_db()
    assert game.status == GameStatus.DRAFT and game.version == 1


def test_the_form_says_the_game_is_played_and_offers_no_signature(client, playing):
    game = playing["game1"]
    client.force_login(playing["judge"])
    page = client.get(_url("protocol", game)).content.decode()
    assert 'data-testid="playing-notice"' in page and PLAYING in page
    assert reverse("console:console", args=[game.tournament.slug, game.pk]) in page
    assert 'value="submit"' not in page and 'data-testid="sign"' not in page
    assert 'value="save"' in page  # the draft is still saved
    ru = client.get(_url("protocol", game), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert PLAYING_RU in ru and "Открыть пульт судьи" in ru


def test_the_form_offers_the_signature_again_once_the_game_is_closed(client, playing):
    game, judge, log = playing["game1"], playing["judge"], playing["log"]
    for event in GAME[2:]:
        _append(log, judge, event)
    console.log_finish(log=log, by=judge)
    client.force_login(judge)
    page = client.get(_url("protocol", game)).content.decode()
    assert 'data-testid="sign"' in page and 'data-testid="playing-notice"' not in page


# --- a protocol signed while playing (stored before the refusal) --------------------------


def test_a_protocol_signed_while_the_game_is_played_is_not_confirmed(signed_while_playing):
    game = signed_while_playing["game1"]
    with pytest.raises(ValidationError) as caught:
        protocol_confirm(game=game, by=signed_while_playing["chief"], base_version=2)
    assert PLAYING in " ".join(caught.value.messages)
    game.refresh_from_db()
    assert game.status == GameStatus.SUBMITTED and game.version == 2


def test_nor_changed_again_while_the_game_is_played(signed_while_playing):
    game = signed_while_playing["game1"]
    with pytest.raises(ValidationError):
        protocol_save(
            game=game,
            data=complete_data(game, winner="black"),
            by=signed_while_playing["judge"],
            base_version=2,
        )
    game.refresh_from_db()
    assert game.winner == "red" and game.version == 2


def test_a_protest_decision_does_not_change_it_while_the_game_is_played(signed_while_playing):
    game = signed_while_playing["game1"]
    protest = _protest(signed_while_playing)
    with pytest.raises(ValidationError) as caught:
        protest_decide(
            protest=protest,
            by=signed_while_playing["chief"],
            upheld=True,
            decision="black won",
            data=complete_data(game, winner="black"),
            base_version=2,
        )
    assert PLAYING in " ".join(caught.value.messages)
    game.refresh_from_db()
    assert game.winner == "red" and game.version == 2


def test_the_chief_judges_page_offers_no_confirmation_while_the_game_is_played(
    client, signed_while_playing
):
    game = signed_while_playing["game1"]
    client.force_login(signed_while_playing["chief"])
    page = client.get(_url("detail", game)).content.decode()
    assert 'data-testid="playing-notice"' in page and "It can be confirmed once" in page
    assert 'data-testid="confirm"' not in page
    response = client.post(_url("confirm", game), {"base_version": "2"}, follow=True)
    assert PLAYING in response.content.decode()
    game.refresh_from_db()
    assert game.status == GameStatus.SUBMITTED
    ru = client.get(_url("detail", game), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert PLAYING_RU in ru


def test_the_protest_decision_page_says_the_game_is_played(client, signed_while_playing):
    game = signed_while_playing["game1"]
    protest = _protest(signed_while_playing)
    client.force_login(signed_while_playing["chief"])
    url = reverse("games:decide", args=[game.tournament.slug, protest.pk])
    assert PLAYING in client.get(url).content.decode()


def test_the_console_takes_no_event_nor_undo_once_the_protocol_is_signed(signed_while_playing):
    log = signed_while_playing["log"]
    for by in (signed_while_playing["judge"], signed_while_playing["chief"]):
        with pytest.raises(console.LogConflict) as caught:
            _append(log, by, GAME[0])
        assert str(caught.value) == SIGNED
        with pytest.raises(console.LogConflict):
            console.event_undo(log=log, client_id=uuid.uuid4(), after=None, by=by)
    assert LogEntry.objects.count() == 0


def test_the_console_api_says_the_protocol_is_signed_with_409(client, signed_while_playing):
    game = signed_while_playing["game1"]
    url = f"/api/tournaments/{game.tournament.slug}/games/{game.pk}/log/events"
    body = {"id": str(uuid.uuid4()), "after": 0, "event": GAME[0]}
    client.force_login(signed_while_playing["judge"])
    response = client.post(
        url, json.dumps(body), content_type="application/json", HTTP_ACCEPT_LANGUAGE="ru"
    )
    assert response.status_code == 409 and response.json()["detail"] == SIGNED_RU
    page = client.get(
        reverse("console:console", args=[game.tournament.slug, game.pk]),
        HTTP_ACCEPT_LANGUAGE="ru",
    ).content.decode()
    assert 'data-testid="signed-notice"' in page and SIGNED_RU in page
    assert LogEntry.objects.count() == 0


def test_the_tables_judge_is_told_in_words_after_the_confirmation_and_strangers_stay_refused(
    client, playing
):
    from django.core.exceptions import PermissionDenied

    game, log = playing["game1"], playing["log"]
    # stored before the refusal: signed and confirmed while the console ran
    game.status = GameStatus.CONFIRMED
    game.save(update_fields=["status"])
    with pytest.raises(console.LogConflict) as caught:
        _append(log, playing["judge"], GAME[2])
    assert str(caught.value) == SIGNED
    for stranger in (playing["judge2"], playing["alpha1"]):
        with pytest.raises(PermissionDenied):
            _append(log, stranger, GAME[2])
    url = f"/api/tournaments/{game.tournament.slug}/games/{game.pk}/log/undo"
    client.force_login(playing["judge"])
    response = client.post(
        url, json.dumps({"id": str(uuid.uuid4()), "after": 2}), content_type="application/json"
    )
    assert response.status_code == 409 and response.json()["detail"] == SIGNED
    assert LogEntry.objects.count() == 2
