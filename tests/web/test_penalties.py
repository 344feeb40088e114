from __future__ import annotations

from fractions import Fraction

import pytest
from django.urls import reverse

from mafiatab.core.protocol import TournamentPenalty
from mafiatab.core.standings import compute_standings
from mafiatab.core.tournament_file import loads_tournament
from mafiatab.penalties.models import Penalty
from mafiatab.registrations.models import Status
from mafiatab.standings.services import tournament_standings
from mafiatab.tournaments.models import StaffRole
from mafiatab.tournaments.services import staff_assign

pytestmark = pytest.mark.django_db


@pytest.fixture
def chief(demo_imported, make_user):
    from mafiatab.tournaments.models import StaffMember

    user = make_user("Chief")
    StaffMember.objects.create(tournament=demo_imported, user=user, role=StaffRole.CHIEF_JUDGE)
    return user


def _give(client, tournament, **fields):
    """A lateness fine by the penalties form; no round by default: every game of the
    imported demo is played, and no lateness is fined for a round played already."""
    data = {"player": "Doc", "kind": "lateness", "minutes_late": "9", "round": ""} | fields
    data.setdefault("reason", "late for round 4")
    return client.post(reverse("penalties:give", args=[tournament.slug]), data, follow=True)


def test_a_lateness_penalty_counts_in_the_standings_as_the_core_says(
    client, demo_imported, chief, demo_file_text
):
    client.force_login(chief)
    _give(client, demo_imported)
    penalty = Penalty.objects.get(reason="late for round 4")
    assert penalty.points == Fraction(-1, 2)

    core = loads_tournament(demo_file_text)
    expected = compute_standings(
        core.__class__(
            **{
                **{f: getattr(core, f) for f in core.__dataclass_fields__},
                "penalties": (
                    *core.penalties,
                    TournamentPenalty("Doc", Fraction(-1, 2), "late for round 4"),
                ),
            }
        )
    )
    assert tournament_standings(demo_imported).to_json() == expected.to_json()
    assert expected.row("Doc").penalties == Fraction(-1, 2)


def test_lateness_of_five_minutes_or_less_is_not_fined(client, demo_imported, chief):
    client.force_login(chief)
    response = _give(client, demo_imported, minutes_late="5")
    assert "more than 5 minutes late" in response.content.decode()
    assert not Penalty.objects.filter(player="Doc").exists()


def test_a_penalty_needs_a_reason_and_a_player_of_the_tournament(client, demo_imported, chief):
    client.force_login(chief)
    response = _give(client, demo_imported, reason="  ")
    assert "This field is required." in response.content.decode()
    response = _give(client, demo_imported, player="Stranger")
    assert "Stranger is not a player of this tournament." in response.content.decode()
    assert not Penalty.objects.filter(given_by=chief).exists()


def test_a_cancelled_penalty_leaves_the_standings_but_stays_visible(client, demo_imported, chief):
    before = tournament_standings(demo_imported).to_json()
    client.force_login(chief)
    _give(client, demo_imported, kind="lobby_fine", reason="insults in the lobby")
    penalty = Penalty.objects.get(reason="insults in the lobby")
    assert tournament_standings(demo_imported).row("Doc").penalties == Fraction(-1, 2)
    client.post(
        reverse("penalties:cancel", args=[demo_imported.slug, penalty.pk]),
        {"reason": "the player apologised"},
    )
    penalty.refresh_from_db()
    assert penalty.is_cancelled
    assert tournament_standings(demo_imported).to_json() == before
    page = client.get(reverse("penalties:list", args=[demo_imported.slug])).content.decode()
    assert "insults in the lobby" in page and "the player apologised" in page


def test_a_lobby_warning_costs_nothing_and_removal_takes_the_player_out(
    client, demo_imported, chief
):
    client.force_login(chief)
    _give(client, demo_imported, kind="lobby_warning", reason="swearing")
    assert tournament_standings(demo_imported).row("Doc").penalties == 0
    _give(client, demo_imported, kind="lobby_removal", reason="insulted the judge")
    registration = demo_imported.registrations.get(nickname="Doc")
    assert registration.status == Status.REMOVED


def test_a_table_judge_cannot_give_a_tournament_penalty(client, demo_imported, make_user):
    judge = make_user("Judge")
    from mafiatab.tournaments.models import StaffMember

    StaffMember.objects.create(tournament=demo_imported, user=judge, role=StaffRole.TABLE_JUDGE)
    client.force_login(judge)
    response = client.post(
        reverse("penalties:give", args=[demo_imported.slug]),
        {"player": "Doc", "kind": "lobby_fine", "reason": "x"},
    )
    assert response.status_code == 403
    assert not Penalty.objects.filter(player="Doc").exists()


def test_an_organiser_who_is_not_chief_judge_cannot_give_a_penalty(client, tournament, staff):
    client.force_login(staff["organiser"])
    response = client.post(
        reverse("penalties:give", args=[tournament.slug]),
        {"player": "Seated", "kind": "lobby_fine", "reason": "x"},
    )
    assert response.status_code == 403
    staff_assign(
        tournament=tournament, user=staff["organiser"], role=StaffRole.CHIEF_JUDGE, by=None
    )
    client.post(
        reverse("penalties:give", args=[tournament.slug]),
        {"player": "Seated", "kind": "lobby_fine", "reason": "x"},
    )
    assert Penalty.objects.filter(player="Seated").count() == 1


def test_a_lateness_in_a_round_the_tournament_does_not_have_is_refused(
    client, demo_imported, chief
):
    rounds = set(demo_imported.rounds.values_list("number", flat=True))
    assert rounds, "the demo tournament's rounds are known"
    client.force_login(chief)
    missing = max(rounds) + 87
    page = _give(client, demo_imported, round=str(missing)).content.decode()
    assert f"This tournament has no round {missing}: its rounds are 1 to {max(rounds)}." in page
    assert "Penalty recorded." not in page
    assert not Penalty.objects.filter(reason="late for round 4").exists()
    russian = client.post(
        reverse("penalties:give", args=[demo_imported.slug]),
        {"player": "Doc", "kind": "lateness", "minutes_late": "9", "round": str(missing)}
        | {"reason": "опоздал"},
        HTTP_ACCEPT_LANGUAGE="ru",
    ).content.decode()
    assert f"В турнире нет тура {missing}: его туры — с 1 по {max(rounds)}." in russian
    assert not Penalty.objects.filter(reason="опоздал").exists()
    # a round it has gets past this check (the demo's games are played: refused as such)
    page = _give(client, demo_imported, round=str(max(rounds))).content.decode()
    assert "This tournament has no round" not in page and "is no longer a draft" in page


def test_a_penalty_for_a_round_is_refused_while_the_tournament_has_no_round(tournament, organiser):
    """Before any seating is published no round exists: "round 99" is a typo, not a
    round a player was late to, and nothing is stored (nor told)."""
    from django.core.exceptions import ValidationError
    from django.utils import translation

    from mafiatab.penalties.services import penalty_give

    with translation.override("ru"), pytest.raises(ValidationError) as refused:
        penalty_give(
            tournament=tournament,
            player="Кэп",
            kind="lateness",
            minutes_late=10,
            round=99,
            reason="тест",
            by=organiser,
        )
    assert refused.value.message_dict["round"] == [
        "В турнире нет тура 99: ни один его тур ещё не создан."
    ]
    assert not Penalty.objects.filter(tournament=tournament).exists()
