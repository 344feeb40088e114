"""Stages in the web application: the stage plan on the settings page (validated by
the core's reader, audited, B of 8.6 from it), closing the tournament."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from mafiatab.audit.models import AuditEntry
from mafiatab.standings.inputs import scoring_settings

pytestmark = pytest.mark.django_db

PLAN_FORM = {
    "form": "stages",
    "stages-qualifying_games": "10",
    "stages-semifinal_players": "20",
    "stages-semifinal_games": "2",
    "stages-final_players": "10",
    "stages-final_games": "10",
    "stages-final_points": "reset",
    "stages-final_hide_extras": "on",
}


def _edit(tournament: Any) -> str:
    return reverse("tournaments:edit", args=[tournament.slug])


def test_the_organiser_sets_the_stage_plan_and_b_follows_it(client, tournament, staff):
    client.force_login(staff["organiser"])
    assert client.post(_edit(tournament), PLAN_FORM).status_code == 302
    tournament.refresh_from_db()
    assert [s["stage"] for s in tournament.stage_plan] == ["qualifying", "semifinal", "final"]
    final = tournament.stage_plan[-1]
    assert (final["players"], final["games"], final["points"], final["hide_extras"]) == (
        10,
        10,
        "reset",
        True,
    )
    settings = scoring_settings(tournament)
    assert settings.games_before_final == 12 and settings.games_before_final_from_plan
    entry = AuditEntry.objects.get(tournament=tournament, action="tournament.stages_changed")
    assert entry.before == {"stages": None} and entry.after == {"stages": tournament.stage_plan}
    page = client.get(_edit(tournament)).content.decode()
    assert 'name="stages-semifinal_players" value="20"' in page
    standings = client.get(reverse("standings:table", args=[tournament.slug])).content.decode()
    assert "games before the final = 12 (from the stage plan)" in standings


def test_a_plan_set_by_hand_b_wins_over_the_plan(client, tournament, staff):
    client.force_login(staff["organiser"])
    client.post(_edit(tournament), PLAN_FORM)
    tournament.games_before_final = 5
    tournament.save()
    assert scoring_settings(tournament).games_before_final == 5


def test_emptying_the_qualifying_games_removes_the_plan(client, tournament, staff):
    client.force_login(staff["organiser"])
    client.post(_edit(tournament), PLAN_FORM)
    response = client.post(_edit(tournament), {"form": "stages", "stages-final_points": "carry"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.stage_plan is None


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"stages-semifinal_players": "15"}, "semifinal_players"),
        ({"stages-final_games": ""}, "final_games"),
        ({"stages-qualifying_games": "", "stages-semifinal_players": ""}, "qualifying_games"),
        ({"stages-semifinal_players": "x" * 5000}, "semifinal_players"),
    ],
)
def test_a_refused_plan_is_a_form_error_and_stores_nothing(
    client, tournament, staff, change, field
):
    client.force_login(staff["organiser"])
    response = client.post(_edit(tournament), PLAN_FORM | change)
    assert response.status_code == 422
    assert response.context["stage_form"].errors
    assert field in response.context["stage_form"].errors
    tournament.refresh_from_db()
    assert tournament.stage_plan is None
    assert not AuditEntry.objects.filter(action="tournament.stages_changed").exists()


def test_only_the_organiser_sets_the_plan(client, tournament, staff):
    client.force_login(staff["chief"])
    assert client.post(_edit(tournament), PLAN_FORM).status_code == 403
    tournament.refresh_from_db()
    assert tournament.stage_plan is None


def test_the_organiser_closes_and_reopens_the_tournament_audited(client, tournament, staff):
    client.force_login(staff["organiser"])
    url = reverse("tournaments:close", args=[tournament.slug])
    assert client.post(url, {"closed": "1"}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.is_closed
    again = client.post(url, {"closed": "1"}, follow=True).content.decode()
    assert "already closed" in again
    assert AuditEntry.objects.filter(action="tournament.closed").count() == 1
    client.post(url, {"closed": "0"})
    tournament.refresh_from_db()
    assert not tournament.is_closed
    assert AuditEntry.objects.filter(action="tournament.reopened").count() == 1
    client.force_login(staff["chief"])
    assert client.post(url, {"closed": "1"}).status_code == 403


def test_the_api_gives_the_plan_and_whether_the_tournament_is_closed(client, tournament, staff):
    body = client.get(f"/api/tournaments/{tournament.slug}").json()
    assert body["stages"] is None and body["closed"] is False
    client.force_login(staff["organiser"])
    client.post(_edit(tournament), PLAN_FORM)
    body = client.get(f"/api/tournaments/{tournament.slug}").json()
    assert body["stages"][0] == {
        "stage": "qualifying",
        "games": 10,
        "players": None,
        "points": None,
        "hide_extras": None,
    }
    assert body["stages"][2]["points"] == "reset"
    assert body["scoring"]["games_before_final"] == 12
    assert body["scoring"]["games_before_final_from_plan"] is True


def _published_seating(tournament: Any, *, participants: int, games: int) -> None:
    from mafiatab.registrations.services import registration_add
    from mafiatab.seating.models import DraftStatus, SeatingDraft

    organiser = tournament.staff_members.get(role="organiser").user
    for n in range(tournament.registrations.count() + 1, participants + 1):
        registration_add(tournament=tournament, nickname=f"P{n:02}", by=organiser)
    SeatingDraft.objects.create(
        tournament=tournament,
        stage="qualifying",
        games_per_player=games,
        tables=2,
        seed=1,
        options={},
        schedule={"rounds": []},
        metrics={},
        status=DraftStatus.PUBLISHED,
    )


def test_a_plan_contradicting_the_published_seating_and_the_participants_is_refused(
    client, tournament, staff
):
    _published_seating(tournament, participants=24, games=10)
    client.force_login(staff["organiser"])
    plan = PLAN_FORM | {"stages-qualifying_games": "3", "stages-semifinal_players": "100"}
    response = client.post(_edit(tournament), plan, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 422
    errors = response.context["stage_form"].errors
    assert errors["qualifying_games"] == [
        "The published seating of this stage gives each player 10 games, not 3: "
        "the plan's games must match it"
    ]
    assert errors["semifinal_players"] == ["100 players cannot advance from a stage of 24 players"]
    tournament.refresh_from_db()
    assert tournament.stage_plan is None
    assert scoring_settings(tournament).games_before_final == 10


def test_a_plan_that_matches_the_published_seating_is_saved(client, tournament, staff):
    _published_seating(tournament, participants=24, games=10)
    client.force_login(staff["organiser"])
    assert client.post(_edit(tournament), PLAN_FORM).status_code == 302
    tournament.refresh_from_db()
    assert tournament.stage_plan is not None


def test_before_the_seating_a_plan_cannot_advance_more_than_the_participant_limit(
    client, tournament, staff
):
    tournament.participant_limit = 16
    tournament.save()
    client.force_login(staff["organiser"])
    response = client.post(_edit(tournament), PLAN_FORM, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 422
    assert response.context["stage_form"].errors["semifinal_players"] == [
        "20 players cannot advance from a stage of 16 players"
    ]


def test_a_plan_error_in_russian_is_a_sentence_naming_what_is_wrong(client, tournament, staff):
    client.force_login(staff["organiser"])
    client.cookies["django_language"] = "ru"
    change = {"stages-semifinal_players": "15"}
    response = client.post(_edit(tournament), PLAN_FORM | change, HTTP_ACCEPT_LANGUAGE="ru")
    assert response.context["stage_form"].errors["semifinal_players"] == [
        "Игроки проходят целыми столами: число игроков должно быть кратно 10, а не 15"
    ]


def test_a_plan_without_its_semifinal_games_says_its_players_problem_at_once(
    client, tournament, staff
):
    tournament.participant_limit = 16
    tournament.save()
    client.force_login(staff["organiser"])
    plan = PLAN_FORM | {"stages-semifinal_games": ""}
    response = client.post(_edit(tournament), plan, HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 422
    errors = response.context["stage_form"].errors
    assert errors["semifinal_games"] == ["Укажите и число игр полуфинала."]
    assert errors["semifinal_players"] == ["Из этапа, в котором 16 игроков, не могут пройти 20"]
    tournament.refresh_from_db()
    assert tournament.stage_plan is None


def test_a_plan_without_its_qualifying_games_says_its_players_problem_too(
    client, tournament, staff
):
    tournament.participant_limit = 16
    tournament.save()
    client.force_login(staff["organiser"])
    plan = PLAN_FORM | {"stages-qualifying_games": "", "stages-semifinal_players": "40"}
    response = client.post(_edit(tournament), plan, HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 422
    errors = response.context["stage_form"].errors
    assert errors["qualifying_games"] == ["План начинается с игр отборочного тура."]
    assert errors["semifinal_players"] == ["Из этапа, в котором 16 игроков, не могут пройти 40"]
    tournament.refresh_from_db()
    assert tournament.stage_plan is None
