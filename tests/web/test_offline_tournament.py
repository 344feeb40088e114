"""An offline tournament (ruleset fiim) offers nothing of the online addendum: no lobby
penalties, no replayed games; the regulation decides, for the pages and the services."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from mafiatab.games.services import TablePlan, game_mark_replayed, round_create
from mafiatab.penalties.models import Penalty
from mafiatab.penalties.services import penalty_give
from mafiatab.registrations.services import registration_add
from mafiatab.tournaments.models import StaffRole
from mafiatab.tournaments.services import staff_assign

pytestmark = pytest.mark.django_db

NICKS = [f"Offline{n}" for n in range(1, 11)]
NICKS_2 = [f"Second{n}" for n in range(1, 11)]


def _with_games(make_tournament: Any, make_user: Any, organiser: Any, ruleset: str) -> Any:
    tournament = make_tournament(name=f"Cup {ruleset}", ruleset=ruleset, platform="")
    chief = make_user(f"Chief{ruleset.replace('-', '')}")
    judge = make_user(f"Judge{ruleset.replace('-', '')}")
    staff_assign(tournament=tournament, user=chief, role=StaffRole.CHIEF_JUDGE, by=organiser)
    staff_assign(tournament=tournament, user=judge, role=StaffRole.TABLE_JUDGE, by=organiser)
    for nickname in [*NICKS, *NICKS_2]:
        registration_add(tournament=tournament, nickname=nickname, by=organiser)
    round_ = round_create(
        tournament=tournament,
        stage="qualifying",
        number=1,
        tables=[
            TablePlan(number=1, judge=judge, players=tuple(NICKS)),
            TablePlan(number=2, judge=judge, players=tuple(NICKS_2)),
        ],
        by=chief,
    )
    games = [table.game for table in round_.tables.all()]
    return tournament, chief, games


@pytest.fixture
def offline(make_tournament: Any, make_user: Any, organiser: Any) -> Any:
    return _with_games(make_tournament, make_user, organiser, "fiim")


@pytest.fixture
def online(make_tournament: Any, make_user: Any, organiser: Any) -> Any:
    return _with_games(make_tournament, make_user, organiser, "fiim-online")


def _kinds_offered(client: Any, tournament: Any) -> set[str]:
    page = client.get(reverse("penalties:list", args=[tournament.slug])).content.decode()
    return {
        kind
        for kind in ("lateness", "lobby_warning", "lobby_fine", "lobby_removal")
        if (f'value="{kind}"' in page)
    }


def test_the_penalty_form_of_an_offline_tournament_offers_no_lobby_violation(
    client, offline, online
):
    tournament, chief, _games = offline
    client.force_login(chief)
    assert _kinds_offered(client, tournament) == {"lateness"}
    tournament, chief, _games = online
    client.force_login(chief)
    assert _kinds_offered(client, tournament) == {
        "lateness",
        "lobby_warning",
        "lobby_fine",
        "lobby_removal",
    }


def test_a_lobby_penalty_is_refused_in_an_offline_tournament_saying_why(client, offline):
    tournament, chief, _games = offline
    with pytest.raises(ValidationError) as refused:
        penalty_give(
            tournament=tournament, player="Offline1", kind="lobby_fine", reason="x", by=chief
        )
    assert "online tournament" in refused.value.message_dict["kind"][0]
    client.force_login(chief)
    response = client.post(
        reverse("penalties:give", args=[tournament.slug]),
        {"player": "Offline1", "kind": "lobby_fine", "reason": "x"},
    )
    assert response.status_code == 200
    assert not Penalty.objects.filter(tournament=tournament).exists()


def test_the_game_page_of_an_offline_tournament_has_no_replay_box(client, offline, online):
    for (tournament, chief, games), shown in ((offline, False), (online, True)):
        client.force_login(chief)
        url = reverse("games:detail", args=[tournament.slug, games[0].pk])
        page = client.get(url).content.decode()
        assert (reverse("games:replay", args=[tournament.slug, games[0].pk]) in page) is shown


def test_an_offline_game_cannot_be_marked_replayed(offline):
    _tournament, chief, games = offline
    with pytest.raises(ValidationError):
        game_mark_replayed(game=games[0], by=chief, replay=games[1], reason="lost stream")
    games[0].refresh_from_db()
    assert not games[0].replayed
