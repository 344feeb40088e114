"""A participant seated in rounds not yet played is told so with the round's number:
one round is "round 4" (в туре 4), several are "rounds 2, 4" (в турах 2, 4), on the
registrations page and in the refusal of his withdrawal."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from mafiatab.games.services import TablePlan, round_create
from mafiatab.registrations.services import registration_withdraw

from . import test_games_fixtures as fx

two_tables = fx.two_tables

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated(two_tables):
    """Round 1 seats everyone; round 3 seats table 1's players again."""
    round_create(
        tournament=two_tables["round"].tournament,
        stage="qualifying",
        number=3,
        tables=[TablePlan(number=1, judge=None, players=tuple(fx.NICKS_1))],
        by=two_tables["organiser"],
    )
    return two_tables


def _row(page: str, nick: str) -> str:
    return page.split(f'data-testid="participant-{nick}"')[1].split("</tr>")[0]


def test_the_registrations_page_says_one_round_in_the_singular(client, seated):
    tournament = seated["round"].tournament
    client.force_login(seated["organiser"])
    client.cookies["django_language"] = "ru"
    page = client.get(reverse("registrations:manage", args=[tournament.slug])).content.decode()
    one = _row(page, "Bravo2")
    assert "Посажен в туре 1: пока он не сыгран, снять нельзя;" in one
    assert "в турах" not in one
    assert "Посажен в турах 1, 3: пока они не сыграны, снять нельзя;" in _row(page, "Alpha2")
    client.cookies["django_language"] = "en"
    page = client.get(reverse("registrations:manage", args=[tournament.slug])).content.decode()
    assert "Seated in round 1: not withdrawn while it is to play;" in _row(page, "Bravo2")
    assert "Seated in rounds 1, 3: not withdrawn while they are to play;" in _row(page, "Alpha2")


def test_the_refused_withdrawal_says_one_round_in_the_singular(seated):
    tournament, organiser = seated["round"].tournament, seated["organiser"]
    bravo2 = tournament.registrations.get(nickname="Bravo2")
    alpha2 = tournament.registrations.get(nickname="Alpha2")
    with translation.override("ru"), pytest.raises(ValidationError) as refused:
        registration_withdraw(registration=bravo2, by=organiser)
    assert refused.value.messages[0].startswith(
        "Bravo2 посажен в ещё не сыгранном туре (1): это место осталось бы за ним"
    )
    with translation.override("en"), pytest.raises(ValidationError) as refused:
        registration_withdraw(registration=bravo2, by=organiser)
    assert refused.value.messages[0].startswith("Bravo2 is seated in a round not yet played (1)")
    with translation.override("ru"), pytest.raises(ValidationError) as refused:
        registration_withdraw(registration=alpha2, by=organiser)
    assert refused.value.messages[0].startswith("Alpha2 посажен в ещё не сыгранных турах (1, 3)")


def test_a_player_withdrawing_himself_is_told_the_round_in_the_singular(two_tables):
    """Alpha1 (an account) sits in round 1 only."""
    tournament, alpha1 = two_tables["round"].tournament, two_tables["alpha1"]
    mine = tournament.registrations.get(user=alpha1)
    with translation.override("ru"), pytest.raises(ValidationError) as refused:
        registration_withdraw(registration=mine, by=alpha1)
    assert refused.value.messages == [
        "Вы посажены в ещё не сыгранном туре (1): попросите организатора "
        "заменить вас до конца турнира."
    ]
