"""Protests (8.9): filed by a player of the table within 10 minutes, decided with
reasons by the chief judge, final; a decision that changes the protocol is a new
version and the standings follow."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from mafiatab.games.models import ProtestStatus
from mafiatab.games.services import (
    protest_decide,
    protest_file,
    protocol_confirm,
    protocol_save,
)
from mafiatab.standings.inputs import core_tournament as core_tournament_of

from . import test_games_fixtures as fx
from .test_games_fixtures import complete_data

pytestmark = pytest.mark.django_db
two_tables = fx.two_tables

SUBMITTED = dt.datetime(2026, 3, 1, 18, 0, tzinfo=dt.UTC)


def _submitted(two_tables, now):
    """Game 1's protocol submitted at `now` (None: a moment ago), then confirmed."""
    game = two_tables["game1"]
    protocol_save(
        game=game,
        data=complete_data(game),
        by=two_tables["judge"],
        base_version=1,
        submit=True,
        now=now,
    )
    protocol_confirm(game=game, by=two_tables["chief"])
    game.refresh_from_db()
    return two_tables | {"game": game}


@pytest.fixture
def submitted(two_tables):
    """Submitted at a fixed past time: its protest window is long closed."""
    return _submitted(two_tables, SUBMITTED)


@pytest.fixture
def just_submitted(two_tables):
    """Submitted a moment ago: its protest window is open."""
    return _submitted(two_tables, None)


def test_a_protest_filed_in_time_is_decided_and_changes_the_protocol(submitted):
    game, alpha1, chief = submitted["game"], submitted["alpha1"], submitted["chief"]
    protest = protest_file(
        game=game,
        by=alpha1,
        text="Seat 3 got extra points for nothing",
        now=SUBMITTED + dt.timedelta(minutes=9, seconds=59),
    )
    assert protest.seat == 1 and protest.is_open
    before = {r.player: r for r in _rows(game)}
    assert before["Alpha3"].extra > 0
    protest_decide(
        protest=protest,
        by=chief,
        upheld=True,
        decision="The video shows no reason for extra points.",
        data=complete_data(game, judge_extra=[]),
        base_version=game.version,
    )
    protest.refresh_from_db()
    game.refresh_from_db()
    assert protest.status == ProtestStatus.UPHELD and protest.decided_by == chief
    assert protest.version.number == game.version == 4
    assert protest.version.action == "protest"
    assert protest.version.reason == "The video shows no reason for extra points."
    assert "judge_extra" in game.versions.get(number=3).data
    after = {r.player: r for r in _rows(game)}
    assert after["Alpha3"].extra == 0
    with pytest.raises(ValidationError, match="final"):
        protest_decide(protest=protest, by=chief, upheld=False, decision="changed my mind")


def _rows(game):
    from mafiatab.core.standings import compute_standings

    return compute_standings(core_tournament_of(game.tournament)).rows


def test_a_protest_filed_too_late_is_refused(submitted):
    with pytest.raises(ValidationError, match="too late"):
        protest_file(
            game=submitted["game"],
            by=submitted["alpha1"],
            text="late",
            now=SUBMITTED + dt.timedelta(minutes=10, seconds=1),
        )
    assert submitted["game"].protests.count() == 0


def test_only_a_player_of_the_table_may_protest(submitted, make_user):
    with pytest.raises(PermissionDenied):
        protest_file(game=submitted["game"], by=submitted["player"], text="x", now=SUBMITTED)
    with pytest.raises(PermissionDenied):
        protest_file(game=submitted["game"], by=submitted["judge"], text="x", now=SUBMITTED)


def test_a_rejected_protest_keeps_the_protocol_and_the_page_shows_the_decision(client, submitted):
    game, alpha1, chief = submitted["game"], submitted["alpha1"], submitted["chief"]
    protest = protest_file(game=game, by=alpha1, text="Unfair vote", now=SUBMITTED)
    client.force_login(chief)
    url = reverse("games:decide", args=[game.tournament.slug, protest.pk])
    assert "Unfair vote" in client.get(url).content.decode()
    response = client.post(url, {"upheld": "no", "decision": "The vote was counted right."})
    assert response.status_code == 302
    protest.refresh_from_db()
    game.refresh_from_db()
    assert protest.status == ProtestStatus.REJECTED and protest.version is None
    assert game.version == 3
    page = client.get(reverse("games:detail", args=[game.tournament.slug, game.pk]))
    assert "The vote was counted right." in page.content.decode()


def test_a_player_files_a_protest_on_the_game_page(client, just_submitted):
    game = just_submitted["game"]
    client.force_login(just_submitted["alpha1"])
    detail = reverse("games:detail", args=[game.tournament.slug, game.pk])
    assert "File the protest" in client.get(detail).content.decode()
    url = reverse("games:protest", args=[game.tournament.slug, game.pk])
    client.post(url, {"text": "Wrong winner"}, follow=True)
    assert [p.text for p in game.protests.all()] == ["Wrong winner"]


def test_after_the_window_the_page_says_until_when_protests_were_accepted(client, submitted):
    """8.9.1: the form is not offered once the window is closed (it would be refused);
    the player reads until when protests were accepted, in his language."""
    game = submitted["game"]
    client.force_login(submitted["alpha1"])
    detail = reverse("games:detail", args=[game.tournament.slug, game.pk])
    form = reverse("games:protest", args=[game.tournament.slug, game.pk])
    page = client.get(detail, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert form not in page
    closed = page.split('data-testid="protest-closed">')[1].split("</p>")[0]
    assert closed.startswith("Протесты по этой игре принимались до 18:10: в течение 10 минут")
    # the door refuses as the page says, whatever sends the form
    response = client.post(form, {"text": "Wrong winner"}, follow=True)
    assert "too late" in response.content.decode()
    assert game.protests.count() == 0
    # someone who did not play the game is told nothing of the window
    client.force_login(submitted["chief"])
    assert 'data-testid="protest-closed"' not in client.get(detail).content.decode()


def test_a_decision_that_changes_the_protocol_must_name_its_base_version(client, submitted):
    from mafiatab.games.forms import raw_from_data

    game, alpha1, chief = submitted["game"], submitted["alpha1"], submitted["chief"]
    protest = protest_file(game=game, by=alpha1, text="Unfair vote", now=SUBMITTED)
    client.force_login(chief)
    url = reverse("games:decide", args=[game.tournament.slug, protest.pk])
    raw = raw_from_data(complete_data(game, winner="black"))
    data = {k: v for k, v in raw.items() if v not in ("", [])}
    data |= {"upheld": "yes", "decision": "Recounted.", "change": "on"}
    response = client.post(url, data)
    assert response.status_code == 422
    assert "which version of the protocol" in response.content.decode()
    protest.refresh_from_db()
    game.refresh_from_db()
    assert protest.is_open and game.version == 3
    response = client.post(url, data | {"base_version": "3"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.version == 4 and game.winner == "black"


def test_the_api_refuses_a_protocol_changing_decision_without_its_base_version(client, submitted):
    import json

    game, alpha1, chief = submitted["game"], submitted["alpha1"], submitted["chief"]
    protest = protest_file(game=game, by=alpha1, text="Unfair vote", now=SUBMITTED)
    client.force_login(chief)
    data = complete_data(game, winner="black")
    data.pop("id"), data.pop("stage")
    url = f"/api/tournaments/{game.tournament.slug}/protests/{protest.pk}/decide"
    body = {"upheld": True, "decision": "Recounted.", "protocol": data}
    response = client.post(url, json.dumps(body), content_type="application/json")
    assert 400 <= response.status_code < 500
    assert "base_version" in response.content.decode()
    protest.refresh_from_db()
    assert protest.is_open
    with pytest.raises(ValidationError, match="base_version"):
        protest_decide(protest=protest, by=chief, upheld=True, decision="x", data=data)


def test_a_rejected_protest_is_masculine_in_russian_unlike_an_application(client, submitted):
    from django.utils import translation

    from mafiatab.registrations.models import Status

    game, alpha1, chief = submitted["game"], submitted["alpha1"], submitted["chief"]
    protest = protest_file(game=game, by=alpha1, text="Unfair vote", now=SUBMITTED)
    protest_decide(protest=protest, by=chief, upheld=False, decision="Counted right.")
    client.force_login(chief)
    page = client.get(
        reverse("games:detail", args=[game.tournament.slug, game.pk]), HTTP_ACCEPT_LANGUAGE="ru"
    ).content.decode()
    assert "отклонён —" in page or "отклонён</span>" in page
    with translation.override("ru"):
        assert str(Status.REJECTED.label) == "отклонена"


def test_once_filed_the_player_sees_his_protest_and_its_state_not_the_form_again(
    client, just_submitted
):
    """One protest per player and game (8.9, final once decided: 8.9.4): the game page
    shows the protester his protest and its state, and no form for another."""
    submitted = just_submitted
    game, player = submitted["game"], submitted["alpha1"]
    detail = reverse("games:detail", args=[game.tournament.slug, game.pk])
    form = reverse("games:protest", args=[game.tournament.slug, game.pk])
    client.force_login(player)
    assert form in client.get(detail).content.decode()
    protest = protest_file(game=game, by=player, text="Wrong winner")
    page = client.get(detail, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert form not in page
    mine = page.split('data-testid="my-protest"')[1].split("</div>")[0]
    assert "Ваш протест" in mine and "Wrong winner" in mine and "ждёт решения" in mine
    protest_decide(protest=protest, by=submitted["chief"], upheld=False, decision="No reason.")
    page = client.get(detail, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert form not in page
    assert "No reason." in page.split('data-testid="my-protest"')[1].split("</div>")[0]
    client.logout()
    assert 'data-testid="my-protest"' not in client.get(detail).content.decode()
