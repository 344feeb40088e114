"""The error pages speak the visitor's language and lead back to the site."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation
from django.views.defaults import server_error

pytestmark = pytest.mark.django_db


def test_an_unknown_page_says_not_found_in_russian(client):
    with translation.override("en"):  # the request's Russian stays in the request
        response = client.get("/t/no-such-cup/", HTTP_ACCEPT_LANGUAGE="ru")
    page = response.content.decode()
    assert response.status_code == 404
    assert "Страница не найдена" in page and "К турнирам" in page
    assert "No Tournament matches" not in page


def test_a_refused_page_explains_itself_without_the_action_code(client, tournament, staff):
    client.force_login(staff["outsider"])
    response = client.get(reverse("registrations:manage", args=[tournament.slug]))
    page = response.content.decode()
    assert response.status_code == 403
    assert "Not allowed" in page and "organiser" in page
    assert "view_registrations" not in page


def test_the_server_error_page_renders_without_a_database_or_context():
    request = RequestFactory().get("/")
    response = server_error(request)
    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()
