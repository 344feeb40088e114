"""`row_by` builds the same instance the ORM builds, in one plain query."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from mafiatab.accounts.models import User
from mafiatab.rows import row_by
from mafiatab.tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _fields(instance):
    return {
        field.attname: getattr(instance, field.attname)
        for field in type(instance)._meta.concrete_fields
    }


def test_a_tournament_is_built_as_the_orm_builds_it(tournament):
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_on=dt.date(2026, 3, 1),
        standings_hidden=True,
        standings_frozen_at=timezone.now(),
        lot_seed=2**62,
    )
    expected = Tournament.objects.get(pk=tournament.pk)
    found = row_by(Tournament, "slug", tournament.slug)
    assert found is not None
    assert _fields(found) == _fields(expected)
    assert isinstance(found.starts_on, dt.date) and found.standings_hidden is True
    assert found.standings_frozen_at.tzinfo is not None
    assert not found._state.adding


def test_an_account_is_built_as_the_orm_builds_it_and_saves_like_one(make_user):
    user = make_user("Кэп")
    found = row_by(User, "id", user.pk)
    assert found is not None
    assert _fields(found) == _fields(User.objects.get(pk=user.pk))
    found.city = "Минск"
    found.save()
    assert User.objects.get(pk=user.pk).city == "Минск"
    assert User.objects.count() == 1


def test_nothing_found_is_none(tournament):
    assert row_by(Tournament, "slug", "no-such-tournament") is None
    assert row_by(User, "id", 10**9) is None
