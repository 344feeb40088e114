"""A tournament-level penalty's line names its clause in words, not by the core's code."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "words"), [("ru", "дисциплина турнира"), ("en", "tournament discipline")]
)
def test_a_player_page_names_a_tournament_penalty_in_words(client, demo_imported, language, words):
    url = f"/t/{demo_imported.slug}/standings/player/Ronin"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert words in page
    assert ">discipline<" not in page
