"""A tournament loaded from a file has the rounds, tables and published seating of its
games, as one played in the web app has: every page and printable reads the same."""

from __future__ import annotations

import subprocess

import pytest
from django.urls import reverse

from mafiatab.cli import main
from mafiatab.core.tournament_file import loads_tournament
from mafiatab.games.models import Game, Round, Table
from mafiatab.seating.models import DraftStatus
from mafiatab.tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _pdf_text(content: bytes) -> str:
    result = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=content, capture_output=True, check=True
    )
    return result.stdout.decode("utf-8")


@pytest.fixture
def imported(tmp_path, capsys, demo_file_text, organiser):
    source = tmp_path / "demo.json"
    source.write_text(demo_file_text, encoding="utf-8")
    assert main(["import", str(source), "--organiser", organiser.username]) == 0
    slug = capsys.readouterr().out.strip().splitlines()[-1]
    return Tournament.objects.get(slug=slug)


def test_an_imported_tournament_has_a_round_and_a_table_for_each_seated_game(
    imported, demo_file_text
):
    core = loads_tournament(demo_file_text)
    rounds = {(g.stage.value, g.round) for g in core.games}
    stored = set(Round.objects.filter(tournament=imported).values_list("stage", "number"))
    assert stored == rounds
    for game in Game.objects.filter(tournament=imported).select_related("table_slot__round"):
        if game.label.endswith("-replay"):
            continue  # the replay is played at the table of the game it replays
        table = game.table_slot
        assert table is not None, game.label
        assert (table.round.stage, table.round.number, table.number) == (
            game.stage,
            game.round,
            game.table,
        )
        seated = [s.registration_id for s in table.seats.order_by("number")]
        assert seated == [s.registration_id for s in game.seats.order_by("number")]
    assert Table.objects.filter(round__tournament=imported).count() == len(core.games) - 1


def test_the_rounds_page_of_an_imported_tournament_lists_its_rounds(client, imported, organiser):
    client.force_login(organiser)
    page = client.get(reverse("games:rounds", args=[imported.slug])).content.decode()
    assert "No round yet" not in page
    assert "Q1-T1" in page and "Q10-T3" in page and "F1" in page
    assert "Мария Орлова" in page  # the judge the file names for the table


def test_the_seating_of_an_imported_tournament_is_published_as_its_games_sat(client, imported):
    drafts = imported.seating_drafts.filter(status=DraftStatus.PUBLISHED)
    assert sorted(drafts.values_list("stage", flat=True)) == ["final", "qualifying"]
    page = client.get(reverse("seating:index", args=[imported.slug])).content.decode()
    assert "not published" not in page
    game = Game.objects.get(tournament=imported, label="Q3-T2")
    row = page[page.index('data-testid="round-3-table-2"') :]
    row = row[: row.index("</tr>")]
    for seat in game.seats.all():
        assert seat.player in row
    assert "Павел Громов" in row  # the table's judge in that round


def test_blank_protocols_of_an_imported_round_are_printed(client, imported, organiser):
    client.force_login(organiser)
    url = reverse("printables:blank_protocols", args=[imported.slug])
    response = client.get(url, {"round": "1", "stage": "qualifying"})
    assert response.status_code == 200
    text = _pdf_text(response.content)
    for seat in Game.objects.get(tournament=imported, label="Q1-T3").seats.all():
        assert seat.player in text
    assert client.get(url, {"round": "1"}).status_code == 200


def test_the_seating_pdf_and_the_api_agree_for_an_imported_tournament(client, imported):
    text = _pdf_text(client.get(reverse("printables:seating", args=[imported.slug])).content)
    games = client.get(f"/api/tournaments/{imported.slug}/games").json()
    places = {(g["stage"], g["round"], g["table"]) for g in games}
    tables = Table.objects.filter(round__tournament=imported).select_related("round")
    assert places == {(t.round.stage, t.round.number, t.number) for t in tables}
    for table in tables.prefetch_related("seats__registration"):
        assert f"Тур {table.round.number}" in text or f"Round {table.round.number}" in text
        for seat in table.seats.all():
            assert seat.player in text
