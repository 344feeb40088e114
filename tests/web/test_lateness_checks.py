"""A lateness fine only for a round the player plays and has not played yet, once:
refused by every door (the penalties form, the API, the rounds page's lateness form,
the service), in the reader's language, with nothing stored."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from mafiatab.api.services import token_create
from mafiatab.games.models import Game, GameStatus
from mafiatab.games.services import RoundSchedule, lateness_give, round_schedule_set
from mafiatab.penalties.models import Penalty
from mafiatab.penalties.services import penalty_cancel, penalty_give
from mafiatab.registrations.services import registration_add

from . import test_games_fixtures as fx

two_tables = fx.two_tables

pytestmark = pytest.mark.django_db

START = dt.datetime(2026, 12, 10, 11, 0, tzinfo=dt.UTC)  # 14:00 in Moscow


@pytest.fixture
def day(two_tables):
    """Round 1 scheduled, and «Кэп», a participant who sits round 1 out."""
    registration_add(
        tournament=two_tables["round"].tournament, nickname="Кэп", by=two_tables["organiser"]
    )
    round_schedule_set(
        round=two_tables["round"],
        schedule=RoundSchedule(starts_at=START),
        by=two_tables["organiser"],
    )
    return two_tables | {"tournament": two_tables["round"].tournament}


def _give(day, player, minutes=20):
    return penalty_give(
        tournament=day["tournament"],
        player=player,
        kind="lateness",
        minutes_late=minutes,
        round=1,
        reason="опоздал",
        by=day["chief"],
    )


def _form(client, day, player, lang="ru"):
    data = {"player": player, "kind": "lateness", "minutes_late": "20", "round": "1"}
    return client.post(
        reverse("penalties:give", args=[day["tournament"].slug]),
        data | {"reason": "опоздал"},
        HTTP_ACCEPT_LANGUAGE=lang,
    ).content.decode()


def test_a_player_who_sits_the_round_out_is_not_fined_for_lateness_to_it(day):
    with translation.override("ru"), pytest.raises(ValidationError) as refused:
        _give(day, "Кэп")
    assert refused.value.message_dict["round"] == [
        "Кэп не играет в туре 1: у него нет места в этом туре, опоздать на него нельзя."
    ]
    with translation.override("en"), pytest.raises(ValidationError) as refused:
        _give(day, "Кэп")
    assert refused.value.message_dict["round"] == [
        "Кэп does not play in round 1: he has no seat in it, so he cannot be late for it."
    ]
    assert not Penalty.objects.exists()


def test_the_penalties_form_says_the_refusal_beside_the_round(day):
    client = Client()
    client.force_login(day["chief"])
    page = _form(client, day, "Кэп")
    assert "Кэп не играет в туре 1" in page
    beside_round = page.split('name="round"')[1].split('name="reason"')[0]
    assert '<p class="error" role="alert">Кэп не играет в туре 1' in beside_round
    english = _form(client, day, "Кэп", lang="en")
    assert "Кэп does not play in round 1" in english
    assert not Penalty.objects.exists()


def test_the_api_refuses_a_lateness_to_a_round_the_player_sits_out(day):
    _token, key = token_create(user=day["chief"], name="script")
    response = Client().post(
        f"/api/tournaments/{day['tournament'].slug}/penalties",
        json.dumps(
            {
                "player": "Кэп",
                "kind": "lateness",
                "minutes_late": 20,
                "round": 1,
                "reason": "late",
            }
        ),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {key}",
    )
    assert response.status_code == 422, response.content
    assert "does not play in round 1" in response.json()["errors"]["round"][0]
    assert not Penalty.objects.exists()


def test_the_rounds_page_lateness_form_refuses_a_player_who_sits_out(day):
    client = Client()
    client.force_login(day["chief"])
    round_ = day["round"]
    page = client.post(
        reverse("games:lateness", args=[day["tournament"].slug, round_.pk]),
        {"player": "Кэп", "arrived_at": "2026-12-10T14:20", "reason": ""},
        HTTP_ACCEPT_LANGUAGE="ru",
        follow=True,
    ).content.decode()
    assert "Кэп не играет в туре 1" in page
    assert not Penalty.objects.exists()


def test_a_second_lateness_to_the_same_round_is_refused_saying_the_first(day):
    first = _give(day, "Bravo3")
    with translation.override("ru"), pytest.raises(ValidationError) as refused:
        lateness_give(
            round=day["round"],
            player="bravo3",
            arrived_at=START + dt.timedelta(minutes=21),
            reason="опоздал",
            by=day["chief"],
        )
    said = refused.value.message_dict["round"][0]
    assert said.startswith("Bravo3 уже оштрафован за опоздание в туре 1: -0.50 (опоздание 20 мин.)")
    assert "Сначала отмените тот штраф" in said
    with translation.override("en"), pytest.raises(ValidationError) as refused:
        _give(day, "Bravo3")
    said = refused.value.message_dict["round"][0]
    assert said.startswith("Bravo3 is already fined for lateness in round 1: -0.50")
    assert list(Penalty.objects.all()) == [first]
    # a cancelled fine does not count: the right one may be given instead
    penalty_cancel(penalty=first, by=day["chief"], reason="ошибка в минутах")
    assert _give(day, "Bravo3", minutes=9).minutes_late == 9


def test_the_penalties_form_refuses_a_double_click(day):
    client = Client()
    client.force_login(day["chief"])
    _form(client, day, "Bravo3")
    page = _form(client, day, "Bravo3")
    assert "Bravo3 уже оштрафован за опоздание в туре 1" in page
    assert Penalty.objects.count() == 1


@pytest.mark.parametrize("status", [GameStatus.SUBMITTED, GameStatus.CONFIRMED])
def test_no_lateness_to_a_round_whose_game_he_played(day, status):
    Game.objects.filter(pk=day["game2"].pk).update(status=status)
    with translation.override("ru"), pytest.raises(ValidationError) as refused:
        lateness_give(
            round=day["round"],
            player="Bravo3",
            arrived_at=START + dt.timedelta(days=1),
            reason="пришёл на следующий день",
            by=day["chief"],
        )
    said = refused.value.message_dict["round"][0]
    label = day["game2"].label
    assert said == (
        f"Протокол игры {label}, где Bravo3 играет в туре 1, уже не черновик: игра "
        "сыграна с ним, опоздание на неё не штрафуется."
    )
    with translation.override("en"), pytest.raises(ValidationError) as refused:
        _give(day, "Bravo3", minutes=1440)
    assert "is no longer a draft" in refused.value.message_dict["round"][0]
    assert not Penalty.objects.exists()
    # the other table is still to be played: its player may be late for it
    assert _give(day, "Alpha2").round == 1


@pytest.fixture
def final(day):
    """Round 1 of the final, played after the qualifying: table 2's players again."""
    from mafiatab.games.services import TablePlan, round_create

    final_round = round_create(
        tournament=day["tournament"],
        stage="final",
        number=1,
        tables=[TablePlan(number=1, judge=day["judge2"], players=tuple(fx.NICKS_2))],
        by=day["chief"],
    )
    round_schedule_set(
        round=final_round,
        schedule=RoundSchedule(starts_at=START + dt.timedelta(days=1)),
        by=day["organiser"],
    )
    return day | {"final_round": final_round, "final_game": final_round.tables.get().game}


def test_lateness_to_a_final_round_whose_number_the_qualifying_played_is_fined(final):
    """Each stage numbers its rounds from 1: round 1 of the final is still to be played
    when round 1 of the qualifying is confirmed, so a late player is fined for it, and the
    fine names the final."""
    Game.objects.filter(pk=final["game2"].pk).update(status=GameStatus.CONFIRMED)
    fine = _give(final, "Bravo3")
    assert (fine.round, fine.stage) == (1, "final")
    # once the final's game is played too, round 1 is played in every stage
    Penalty.objects.all().delete()
    Game.objects.filter(pk=final["final_game"].pk).update(status=GameStatus.SUBMITTED)
    with translation.override("en"), pytest.raises(ValidationError) as refused:
        _give(final, "Bravo3")
    assert "is no longer a draft" in refused.value.message_dict["round"][0]


def test_a_qualifying_lateness_does_not_refuse_the_final_one_of_the_same_number(final):
    first = _give(final, "Bravo3")
    assert first.stage == "qualifying"
    Game.objects.filter(pk=final["game2"].pk).update(status=GameStatus.CONFIRMED)
    second = lateness_give(
        round=final["final_round"],
        player="Bravo3",
        arrived_at=START + dt.timedelta(days=1, minutes=20),
        reason="опоздал на финал",
        by=final["chief"],
    )
    assert (second.round, second.stage) == (1, "final")
    # the same round of the same stage twice is still refused
    with translation.override("ru"), pytest.raises(ValidationError) as refused:
        _give(final, "Bravo3")
    assert "уже оштрафован за опоздание в туре 1" in refused.value.message_dict["round"][0]
    # the penalties page names the final's round
    client = Client()
    client.force_login(final["chief"])
    page = client.get(
        reverse("penalties:list", kwargs={"slug": final["tournament"].slug}),
        headers={"accept-language": "ru"},
    ).content.decode()
    assert "финал, тур 1" in page


def test_the_api_gives_and_lists_the_stage_of_a_lateness(final):
    token = token_create(user=final["chief"], name="t")[1]
    url = f"/api/tournaments/{final['tournament'].slug}/penalties"
    body = {"player": "Bravo3", "kind": "lateness", "reason": "late", "minutes_late": 20}
    response = Client().post(
        url,
        json.dumps(body | {"round": 1, "stage": "final"}),
        content_type="application/json",
        headers={"authorization": f"Bearer {token}"},
    )
    assert response.status_code == 201, response.content
    assert response.json()["stage"] == "final"
    listed = Client().get(url, headers={"authorization": f"Bearer {token}"}).json()
    assert [(p["round"], p["stage"]) for p in listed] == [(1, "final")]
