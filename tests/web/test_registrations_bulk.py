"""Approving and checking in a selection of the registrations page in one action:
each row through its own service (its permission, its audit entry), all or none."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from mafiatab.audit.models import AuditEntry
from mafiatab.registrations.models import CheckIn, Status
from mafiatab.registrations.services import (
    checkins_record,
    registration_add,
    registration_apply,
    registration_withdraw,
    registrations_approve,
)

pytestmark = pytest.mark.django_db


def _url(name, tournament):
    return reverse(name, args=[tournament.slug])


def _applications(tournament, make_user, *nicks):
    return [registration_apply(tournament=tournament, user=make_user(nick)) for nick in nicks]


def test_the_organiser_approves_the_ticked_applications_in_one_action(
    client, tournament, staff, make_user
):
    lis, _fox, owl = _applications(tournament, make_user, "Lis", "Fox", "Owl")
    client.force_login(staff["organiser"])
    page = client.get(_url("registrations:manage", tournament)).content.decode()
    assert f'name="registrations" value="{lis.pk}" form="approve-selected"' in page
    response = client.post(
        _url("registrations:approve_selected", tournament),
        {"registrations": [lis.pk, owl.pk]},
        follow=True,
    )
    assert "2 applications are approved." in response.content.decode()
    statuses = {r.nickname: r.status for r in tournament.registrations.all()}
    assert statuses["Lis"] == statuses["Owl"] == Status.APPROVED
    assert statuses["Fox"] == Status.PENDING
    approved = AuditEntry.objects.filter(tournament=tournament, action="registration.approved")
    assert sorted(approved.values_list("target", flat=True)) == ["Lis", "Owl"]


def test_a_stale_selection_approves_nobody_and_names_what_changed(
    client, tournament, staff, make_user
):
    lis, fox = _applications(tournament, make_user, "Lis", "Fox")
    registration_withdraw(registration=fox, by=fox.user)
    client.force_login(staff["organiser"])
    response = client.post(
        _url("registrations:approve_selected", tournament),
        {"registrations": [lis.pk, fox.pk, 999999]},
        follow=True,
    )
    page = response.content.decode()
    assert "Nothing was changed: the selection is out of date. Reload the page." in page
    assert "Fox: Only an application awaiting confirmation can be approved." in page
    assert "A registration of the selection is no longer on this page." in page
    lis.refresh_from_db()
    assert lis.status == Status.PENDING
    assert not AuditEntry.objects.filter(action="registration.approved").exists()


def test_an_empty_or_forged_selection_is_refused_in_words(client, tournament, staff):
    client.force_login(staff["organiser"])
    url = _url("registrations:approve_selected", tournament)
    page = client.post(url, {}, follow=True).content.decode()
    assert "Choose at least one registration." in page
    page = client.post(url, {"registrations": ["1; drop"]}, follow=True).content.decode()
    assert "The selection is not a list of registrations." in page


def test_every_row_of_a_selection_is_checked_against_the_person(tournament, staff, make_user):
    (lis,) = _applications(tournament, make_user, "Lis")
    with pytest.raises(PermissionDenied):
        registrations_approve(tournament=tournament, registration_ids=[lis.pk], by=staff["judge"])
    lis.refresh_from_db()
    assert lis.status == Status.PENDING


def test_a_table_judge_cannot_approve_a_selection(client, tournament, staff, make_user):
    (lis,) = _applications(tournament, make_user, "Lis")
    client.force_login(staff["judge"])
    response = client.post(
        _url("registrations:approve_selected", tournament), {"registrations": [lis.pk]}
    )
    assert response.status_code == 403
    page = client.get(_url("registrations:manage", tournament)).content.decode()
    assert 'form="approve-selected"' not in page


def test_the_ticked_participants_are_checked_in_for_the_chosen_day(
    client, tournament, staff, make_user
):
    tournament.starts_on, tournament.ends_on = dt.date(2026, 5, 1), dt.date(2026, 5, 2)
    tournament.save()
    guest = registration_add(tournament=tournament, nickname="Guest", by=staff["organiser"])
    seated = tournament.registrations.get(nickname="Seated")
    client.force_login(staff["judge"])
    response = client.post(
        _url("registrations:checkin_selected", tournament),
        {"registrations": [guest.pk, seated.pk], "day": "2"},
        follow=True,
    )
    assert "2 participants are checked in for day 2." in response.content.decode()
    assert set(CheckIn.objects.filter(day=2).values_list("registration__nickname", flat=True)) == {
        "Guest",
        "Seated",
    }
    assert AuditEntry.objects.filter(action="registration.checked_in").count() == 2


def test_a_selection_with_one_participant_already_checked_in_checks_in_nobody(tournament, staff):
    guest = registration_add(tournament=tournament, nickname="Guest", by=staff["organiser"])
    seated = tournament.registrations.get(nickname="Seated")
    checkins_record(tournament=tournament, registration_ids=[seated.pk], day=1, by=staff["chief"])
    with pytest.raises(ValidationError) as refused:
        checkins_record(
            tournament=tournament,
            registration_ids=[guest.pk, seated.pk],
            day=1,
            by=staff["chief"],
        )
    assert "Seated: Seated has already checked in for day 1." in refused.value.messages
    assert not CheckIn.objects.filter(registration=guest).exists()
    with pytest.raises(ValidationError):
        checkins_record(
            tournament=tournament, registration_ids=[guest.pk], day=9, by=staff["chief"]
        )


def test_approving_past_the_limit_says_who_went_to_the_waiting_list(
    client, make_tournament, organiser, make_user
):
    tournament = make_tournament(participant_limit=2)
    a, b, c = _applications(tournament, make_user, "A1", "B2", "C3")
    client.force_login(organiser)
    response = client.post(
        _url("registrations:approve_selected", tournament),
        {"registrations": [a.pk, b.pk, c.pk]},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="ru",
    )
    assert "Подтверждены 3 заявки. Из них 1 — в листе ожидания: места заняты." in (
        response.content.decode()
    )
    d = registration_apply(tournament=tournament, user=make_user("D4"))
    response = client.post(
        reverse("registrations:approve", args=[tournament.slug, d.pk]),
        follow=True,
        HTTP_ACCEPT_LANGUAGE="ru",
    )
    assert "Все места заняты: D4 в листе ожидания." in response.content.decode()


def test_adding_a_player_to_a_full_tournament_says_he_is_on_the_waiting_list(
    client, make_tournament, organiser
):
    tournament = make_tournament(participant_limit=1)
    client.force_login(organiser)
    url = _url("registrations:add", tournament)
    first = client.post(url, {"nickname": "Lis"}, follow=True, HTTP_ACCEPT_LANGUAGE="ru")
    assert "Lis добавлен." in first.content.decode()
    second = client.post(url, {"nickname": "Fox"}, follow=True, HTTP_ACCEPT_LANGUAGE="ru")
    assert "Все места заняты: Fox в листе ожидания." in second.content.decode()
