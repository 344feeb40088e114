"""The online addendum's details of a player (2.2, 2.5): asked on applying to an online
tournament, checked to be web addresses, and shown to the organiser while missing."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse

from mafiatab.registrations.models import Registration
from mafiatab.registrations.online import OnlineLinks, registration_online_links_set
from mafiatab.registrations.services import registration_apply

pytestmark = pytest.mark.django_db

LINKS = {
    "platform_account": "lis_online",
    "screen_link": "https://share.example.org/lis",
    "camera_link": "https://cam.example.org/lis",
}


def test_applying_to_an_online_tournament_stores_the_account_and_links(tournament, make_user):
    client = Client()
    client.force_login(make_user("Lis"))
    client.post(reverse("registrations:apply", args=[tournament.slug]), LINKS)
    registration = Registration.objects.get(nickname="Lis")
    assert registration.platform_account == "lis_online"
    assert registration.has_online_links


def test_the_application_form_refuses_a_link_that_is_no_web_address(tournament, make_user):
    client = Client()
    client.force_login(make_user("Lis"))
    response = client.post(
        reverse("registrations:apply", args=[tournament.slug]),
        LINKS | {"camera_link": "javascript:alert(1)"},
        follow=True,
    )
    assert "Side camera link" in response.content.decode()
    assert not Registration.objects.filter(nickname="Lis").exists()


def test_the_service_refuses_a_link_that_is_no_web_address(tournament, make_user):
    with pytest.raises(ValidationError) as caught:
        registration_apply(
            tournament=tournament,
            user=make_user("Lis"),
            online=OnlineLinks("lis", "ftp://share.example.org", "not a link"),
        )
    assert set(caught.value.message_dict) == {"screen_link", "camera_link"}


def test_a_player_changes_only_his_own_links(tournament, staff, make_user):
    registration = registration_apply(tournament=tournament, user=make_user("Lis"))
    registration_online_links_set(
        registration=registration, links=OnlineLinks(**LINKS), by=registration.user
    )
    registration.refresh_from_db()
    assert registration.screen_link == LINKS["screen_link"]
    assert tournament.audit_entries.filter(action="registration.online_links").exists()
    with pytest.raises(PermissionDenied):
        registration_online_links_set(
            registration=registration, links=OnlineLinks(), by=staff["outsider"]
        )


def test_the_organiser_sees_who_has_not_given_the_links(tournament, staff, make_user):
    from mafiatab.registrations.services import registration_approve

    given = registration_apply(
        tournament=tournament, user=make_user("Given"), online=OnlineLinks(**LINKS)
    )
    registration_approve(registration=given, by=staff["organiser"])
    client = Client()
    client.force_login(staff["organiser"])
    page = client.get(reverse("registrations:manage", args=[tournament.slug])).content.decode()
    assert 'data-testid="online-missing-Seated"' in page  # approved without links
    assert 'data-testid="online-missing-Given"' not in page


def test_the_api_takes_and_lists_the_online_links(tournament, staff, make_user):
    from mafiatab.api.services import token_create

    player = make_user("Scripted")
    _token, key = token_create(user=player, name="script")
    client = Client()
    response = client.post(
        f"/api/tournaments/{tournament.slug}/applications",
        json.dumps(LINKS | {"screen_link": "nope"}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {key}",
    )
    assert response.status_code == 422 and "screen_link" in response.json()["errors"]
    response = client.post(
        f"/api/tournaments/{tournament.slug}/applications",
        json.dumps(LINKS),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {key}",
    )
    assert response.status_code == 201, response.content
    _token, boss = token_create(user=staff["organiser"], name="script")
    listed = client.get(
        f"/api/tournaments/{tournament.slug}/online-links?missing=true",
        HTTP_AUTHORIZATION=f"Bearer {boss}",
    ).json()
    assert [row["nickname"] for row in listed] == ["Seated"]
    assert listed[0]["complete"] is False
