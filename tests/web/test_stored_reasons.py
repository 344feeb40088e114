"""A reason the server writes itself is stored as a code with parameters and said in
the reader's language when read; a person's reason, and one stored before it had a
code, is shown as written."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from mafiatab.games.models import ProtocolVersion, Round
from mafiatab.games.services import replacement_record
from mafiatab.registrations.services import registration_add
from mafiatab.seating.services import SeatingInputs, seating_generate, seating_publish

pytestmark = pytest.mark.django_db


@pytest.fixture
def replaced(tournament: Any, organiser: Any, settings: Any) -> ProtocolVersion:
    """P03 replaced by Граф in round 1: the version the replacement made."""
    settings.MAFIATAB_SEATING_ITERATIONS = 3_000
    for n in range(1, 21):
        registration_add(tournament=tournament, nickname=f"P{n:02d}", by=organiser)
    draft = seating_generate(
        tournament=tournament,
        inputs=SeatingInputs(stage="qualifying", games=4, tables=2, seed=3),
        by=organiser,
    )
    seating_publish(draft=draft, judges={}, by=organiser)
    replacement_record(
        tournament=tournament,
        absent=tournament.registrations.get(nickname="P03"),
        reserve_nickname="Граф",
        new_player=True,
        round=1,
        minutes_late=20,
        by=organiser,
    )
    first = Round.objects.get(tournament=tournament, number=1)
    return ProtocolVersion.objects.get(game__table_slot__round=first, action="replaced")


def test_the_replacement_reason_is_stored_as_a_code_and_read_in_each_language(replaced):
    assert replaced.reason == ""
    assert replaced.reason_code == "seat.replaced"
    assert replaced.reason_params == {"reserve": "Граф", "absent": "P03"}
    with translation.override("ru"):
        assert replaced.reason_text == "Замена: Граф вместо игрока P03"
    with translation.override("en"):
        assert replaced.reason_text == "Граф replaces P03"


def test_the_versions_page_says_the_replacement_in_russian(client, replaced, organiser):
    client.force_login(organiser)
    url = reverse("games:history", args=[replaced.game.tournament.slug, replaced.game.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Замена: Граф вместо игрока P03" in page and "replaces" not in page
    assert "заменяет" not in page


def test_a_reason_stored_as_text_is_shown_as_written(replaced):
    replaced.reason_code, replaced.reason_params = "", {}
    replaced.reason = "Граф replaces P03"
    with translation.override("ru"):
        assert replaced.reason_text == "Граф replaces P03"
