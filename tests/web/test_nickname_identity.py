"""One player, one nickname: case variants in any script are the same player, on every
database (the key is computed in Python, never by the database's collation)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from mafiatab.accounts.models import User
from mafiatab.accounts.services import check_nickname, profile_update
from mafiatab.registrations.models import Registration, Status
from mafiatab.registrations.services import registration_add
from mafiatab.tournaments.forms import StaffForm

pytestmark = pytest.mark.django_db

CASE_VARIANTS = [
    ("Кэп", "кэп"),
    ("Шахматист", "ШАХМАТИСТ"),
    ("Мария Орлова", "мария орлова"),
    ("Ёжик", "ёЖИК"),
    ("Shadow", "sHADOW"),
    ("Straße", "STRASSE"),
]


@pytest.mark.parametrize(("first", "second"), CASE_VARIANTS)
def test_a_case_variant_of_a_registered_nickname_is_refused(tournament, organiser, first, second):
    registration_add(tournament=tournament, nickname=first, by=organiser)
    with pytest.raises(ValidationError, match="already registered"):
        registration_add(tournament=tournament, nickname=second, by=organiser)
    assert tournament.registrations.count() == 1


@pytest.mark.parametrize(("first", "second"), CASE_VARIANTS)
def test_the_database_itself_refuses_two_active_registrations_of_one_nickname(
    tournament, first, second
):
    Registration.objects.create(tournament=tournament, nickname=first, status=Status.APPROVED)
    with pytest.raises(IntegrityError), transaction.atomic():
        Registration.objects.create(tournament=tournament, nickname=second, status=Status.PENDING)


def test_a_withdrawn_registration_leaves_its_nickname_free(tournament, organiser):
    Registration.objects.create(tournament=tournament, nickname="Кэп", status=Status.WITHDRAWN)
    added = registration_add(tournament=tournament, nickname="кэп", by=organiser)
    assert added.status == Status.APPROVED


@pytest.mark.parametrize(("first", "second"), CASE_VARIANTS)
def test_an_account_nickname_in_another_case_is_taken(make_user, first, second):
    make_user(first, username="first")
    with pytest.raises(ValidationError, match="already taken"):
        check_nickname(second)
    with pytest.raises(IntegrityError), transaction.atomic():
        make_user(second, username="second")


@pytest.mark.parametrize(("first", "second"), CASE_VARIANTS)
def test_staff_are_found_by_their_nickname_in_any_case(tournament, make_user, first, second):
    user = make_user(first, username="staffer")
    form = StaffForm({"nickname": second, "role": "table_judge"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["nickname"] == user


def test_a_rename_onto_another_participant_of_ones_tournament_is_refused(
    tournament, organiser, make_user
):
    renamer = make_user("Renamer")
    registration_add(tournament=tournament, nickname="", user=renamer, by=organiser)
    registration_add(tournament=tournament, nickname="Граф", by=organiser)  # no account
    with pytest.raises(ValidationError, match="another participant"):
        profile_update(user=renamer, nickname="ГРАФ", city="", club="")
    renamer.refresh_from_db()
    assert renamer.nickname == "Renamer"


def test_a_rename_keeps_the_key_in_step_with_the_nickname(make_user):
    user = make_user("Old Name")
    profile_update(user=user, nickname="Новое Имя", city="", club="")
    assert User.objects.get(pk=user.pk).nickname_key == "новое имя"
