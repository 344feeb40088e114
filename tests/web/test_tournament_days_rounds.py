"""The tournament's settings keep its rounds within its days: new days or a new time
zone that would put a round's start outside them are refused beside the field, naming
the round and its time, and nothing is stored. A new time zone keeps the rounds'
instants (the times said in the zone move)."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from mafiatab.games.models import Round
from mafiatab.games.services import RoundSchedule, round_schedule_set
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.services import info_of, tournament_update

from . import test_games_fixtures as fx

two_tables = fx.two_tables

pytestmark = pytest.mark.django_db

MOSCOW = dt.timezone(dt.timedelta(hours=3))


@pytest.fixture
def scheduled(two_tables):
    """A tournament in Moscow from 10.12 to 12.12.2026: round 1 on 10.12 at 11:00, round 5
    on 12.12 at 23:30 (Moscow time)."""
    tournament = two_tables["round"].tournament
    info = replace(
        info_of(tournament),
        starts_on=dt.date(2026, 12, 10),
        ends_on=dt.date(2026, 12, 12),
        time_zone="Europe/Moscow",
    )
    tournament = tournament_update(tournament=tournament, info=info, by=two_tables["organiser"])
    fifth = Round.objects.create(tournament=tournament, stage="qualifying", number=5)
    for round_, at in (
        (two_tables["round"], dt.datetime(2026, 12, 10, 11, 0, tzinfo=MOSCOW)),
        (fifth, dt.datetime(2026, 12, 12, 23, 30, tzinfo=MOSCOW)),
    ):
        round_schedule_set(
            round=round_, schedule=RoundSchedule(starts_at=at), by=two_tables["organiser"]
        )
    return two_tables | {"tournament": Tournament.objects.get(pk=tournament.pk), "fifth": fifth}


def _update(scheduled, **fields):
    tournament = scheduled["tournament"]
    info = replace(info_of(tournament), **fields)
    return tournament_update(tournament=tournament, info=info, by=scheduled["organiser"])


def test_a_first_day_after_a_rounds_start_is_refused_naming_the_round(scheduled):
    with pytest.raises(ValidationError) as refused:
        _update(scheduled, starts_on=dt.date(2026, 12, 11))
    assert refused.value.message_dict == {
        "starts_on": [
            "Round qualifying 1 starts at 10 Dec 2026, 11:00, before the first day "
            "11 Dec 2026: move the round first."
        ]
    }
    assert Tournament.objects.get(pk=scheduled["tournament"].pk).starts_on == dt.date(2026, 12, 10)


def test_a_last_day_before_a_rounds_start_is_refused_beside_the_last_day(scheduled):
    with pytest.raises(ValidationError) as refused:
        _update(scheduled, ends_on=dt.date(2026, 12, 11))
    assert list(refused.value.message_dict) == ["ends_on"]
    assert "Round qualifying 5 starts at 12 Dec 2026, 23:30" in refused.value.messages[0]


def test_a_time_zone_moving_a_round_past_the_last_day_is_refused(scheduled):
    with pytest.raises(ValidationError) as refused:
        _update(scheduled, time_zone="Asia/Yekaterinburg")
    assert refused.value.message_dict == {
        "time_zone": [
            "In this time zone round qualifying 5 would start at 13 Dec 2026, 01:30, after "
            "the tournament's last day 12 Dec 2026: move the round first."
        ]
    }
    tournament = Tournament.objects.get(pk=scheduled["tournament"].pk)
    assert tournament.time_zone == "Europe/Moscow"
    assert not tournament.audit_entries.filter(
        action="tournament.updated", after__time_zone="Asia/Yekaterinburg"
    ).exists()


def test_a_time_zone_keeping_the_rounds_within_the_days_keeps_their_instants(scheduled):
    before = Round.objects.get(pk=scheduled["fifth"].pk).starts_at
    _update(scheduled, time_zone="Europe/London")
    assert Tournament.objects.get(pk=scheduled["tournament"].pk).time_zone == "Europe/London"
    assert Round.objects.get(pk=scheduled["fifth"].pk).starts_at == before


def test_the_edit_page_says_in_russian_beside_the_field_and_keeps_what_was_typed(scheduled):
    tournament = scheduled["tournament"]
    client = Client()
    client.force_login(scheduled["organiser"])
    client.cookies["django_language"] = "ru"
    url = reverse("tournaments:edit", args=[tournament.slug])
    form = client.get(url).context["form"]
    data = {
        name: value
        for name, value in form.initial.items()
        if value is not None and not isinstance(value, bool)
    }
    data |= {"starts_on": "2026-12-11", "ends_on": "2026-12-12", "registration_open": "on"}
    response = client.post(url, data)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert "starts_on" in errors
    assert errors["starts_on"][0].startswith("Тур «отборочный тур 1» начинается 10.12.2026 11:00")
    assert 'value="2026-12-11"' in response.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).starts_on == dt.date(2026, 12, 10)
