"""The protocol's role letters К, Ч, Ш, Д are named beside every table and form that
shows them, in the reader's language."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from django.urls import reverse

from mafiatab.games.services import protocol_save

from . import test_games_fixtures as fx
from .test_games_fixtures import complete_data

pytestmark = pytest.mark.django_db
two_tables = fx.two_tables

TEMPLATES = Path(__file__).resolve().parents[2] / "mafiatab"


def _text(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def _pages(client, two_tables):
    game = two_tables["game1"]
    protocol_save(game=game, data=complete_data(game), by=two_tables["judge"], base_version=1)
    client.force_login(two_tables["chief"])
    slug = game.tournament.slug
    return [
        reverse("games:detail", args=[slug, game.pk]),
        reverse("games:history", args=[slug, game.pk]),
        reverse("games:protocol", args=[slug, game.pk]),
    ]


def test_english_pages_name_the_role_letters(client, two_tables):
    for url in _pages(client, two_tables):
        text = _text(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
        assert "К red · Ч black · Ш sheriff · Д don" in text, url


def test_russian_pages_name_the_role_letters(client, two_tables):
    for url in _pages(client, two_tables):
        text = _text(client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode())
        assert "К мирный · Ч мафия · Ш шериф · Д дон" in text, url


def test_every_template_showing_role_letters_has_the_legend():
    bare = []
    for path in TEMPLATES.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        if re.search(r"\.letter\b|role_letters", text) and not (
            "{% role_legend %}" in text or "Roles (9.4.1)" in text
        ):
            bare.append(str(path.relative_to(TEMPLATES)))
    assert not bare, bare
