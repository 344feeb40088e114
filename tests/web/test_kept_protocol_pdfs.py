"""A confirmed protocol's PDF is rendered once, kept with its version, and read from
then on (its download, the archive, `mafiatab export --archive`); heavy exports are a
few at a time, one more is a 503 with Retry-After."""

from __future__ import annotations

import io
import zipfile
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from mafiatab.games.models import Game, ProtocolPdf
from mafiatab.games.services import protocol_confirm, protocol_pdf_keep, protocol_save
from mafiatab.printables.archive import write_archive
from mafiatab.printables.models import KeptPdf
from mafiatab.printables.pdf import Renderer
from mafiatab.security.heavy import heavy_exports

from . import test_games_fixtures as fx
from .test_games_fixtures import complete_data
from .test_printables import pdf_text

two_tables = fx.two_tables

pytestmark = pytest.mark.django_db


def protocol(client: Any, game: Game, **query: str) -> Any:
    url = reverse("printables:protocol", args=[game.tournament.slug, game.pk])
    return client.get(url, query)


def confirmed(people: dict[str, Any], name: str = "game1") -> Game:
    game = people[name]
    judge = people["judge" if name == "game1" else "judge2"]
    protocol_save(game=game, data=complete_data(game), by=judge, base_version=1, submit=True)
    protocol_confirm(game=game, by=people["chief"])
    game.refresh_from_db()
    return game


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The keys of the protocol sheets WeasyPrint lays out, in order."""
    laid_out: list[str] = []
    original = Renderer.each_protocol

    def counted(self: Renderer, sheets: Any) -> Any:
        laid_out.extend(sheet.key for sheet in sheets)
        return original(self, sheets)

    monkeypatch.setattr(Renderer, "each_protocol", counted)
    return laid_out


@pytest.fixture
def layouts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The HTML documents WeasyPrint lays out, in order."""
    laid_out: list[str] = []
    original = Renderer.laid_out

    def counted(self: Renderer, html: str) -> Any:
        laid_out.append(html)
        return original(self, html)

    monkeypatch.setattr(Renderer, "laid_out", counted)
    return laid_out


def protocols_of(archive: bytes) -> dict[str, bytes]:
    opened = zipfile.ZipFile(io.BytesIO(archive))
    return {n: opened.read(n) for n in opened.namelist() if n.startswith("protocols/")}


def test_a_confirmed_protocol_is_rendered_once_and_its_kept_pdf_served_after(
    client, two_tables, renders
):
    game = confirmed(two_tables)
    first = protocol(client, game, lang="en")
    assert first.status_code == 200 and first["Content-Type"] == "application/pdf"
    [kept] = ProtocolPdf.objects.all()
    assert kept.version.number == game.version and kept.language == "en"
    assert bytes(kept.pdf) == first.content
    assert len(renders) == 1
    again = protocol(client, game, lang="en")
    assert again.content == first.content
    assert len(renders) == 1  # read, not rendered
    assert ProtocolPdf.objects.count() == 1


def test_a_protocol_is_kept_in_each_language_it_was_printed_in(client, two_tables):
    game = confirmed(two_tables)
    english = protocol(client, game, lang="en").content
    russian = protocol(client, game, lang="ru").content
    assert "Winning team" in pdf_text(english) and "Победившая команда" in pdf_text(russian)
    assert sorted(ProtocolPdf.objects.values_list("language", flat=True)) == ["en", "ru"]
    assert protocol(client, game, lang="ru").content == russian


def test_a_provisional_protocol_is_never_kept(client, two_tables, renders):
    game = two_tables["game1"]
    protocol_save(
        game=game, data=complete_data(game), by=two_tables["judge"], base_version=1, submit=True
    )
    client.force_login(two_tables["chief"])
    assert "PROVISIONAL" in pdf_text(protocol(client, game, lang="en").content)
    protocol(client, game, lang="en")
    assert not ProtocolPdf.objects.exists()
    assert len(renders) == 2


def test_a_changed_confirmed_protocol_gets_a_new_pdf_and_the_old_version_keeps_its_own(
    client, two_tables
):
    game = confirmed(two_tables)
    before = protocol(client, game, lang="en").content
    old_version = game.version
    protocol_save(
        game=game,
        data=complete_data(game, winner="black", first_killed=None, best_move=[]),
        by=two_tables["chief"],
        base_version=game.version,
        reason="the judge wrote the wrong team",
    )
    game.refresh_from_db()
    after = protocol(client, game, lang="en").content
    assert after != before
    assert "black" in pdf_text(after).split("Winning team")[1].split()[0]
    kept = {row.version.number: bytes(row.pdf) for row in ProtocolPdf.objects.all()}
    assert kept == {old_version: before, game.version: after}


def test_two_first_renders_at_once_keep_one_pdf_and_both_get_it(two_tables):
    game = confirmed(two_tables)
    version = game.versions.get(number=game.version)
    first = protocol_pdf_keep(version_id=version.pk, language="en", digest="d", pdf=b"%PDF-1")
    second = protocol_pdf_keep(version_id=version.pk, language="en", digest="d", pdf=b"%PDF-2")
    assert first == second == b"%PDF-1"
    assert ProtocolPdf.objects.count() == 1


def test_the_archive_built_a_second_time_renders_no_protocol(two_tables, renders, layouts):
    confirmed(two_tables, "game1")
    tournament = confirmed(two_tables, "game2").tournament
    with translation.override("ru"):
        first, second = io.BytesIO(), io.BytesIO()
        write_archive(tournament, first)
        assert len(renders) == 2
        assert ProtocolPdf.objects.filter(language="ru").count() == 2
        renders.clear()
        layouts.clear()
        write_archive(tournament, second)
    assert renders == []
    assert len(layouts) == 1  # the standings only: the seating sheets are kept too
    assert ProtocolPdf.objects.count() == 2
    kept = protocols_of(first.getvalue())
    assert len(kept) == 2 and protocols_of(second.getvalue()) == kept


def test_the_archive_renders_only_the_protocols_not_kept_yet(client, two_tables, renders):
    game = confirmed(two_tables)
    single = protocol(client, game, lang="en").content
    renders.clear()
    client.force_login(two_tables["chief"])
    response = client.get(
        reverse("printables:archive", args=[game.tournament.slug]), {"lang": "en"}
    )
    archive = protocols_of(b"".join(response.streaming_content))
    assert archive["protocols/protocol-Q1-T1.pdf"] == single
    assert renders == [f"game-{two_tables['game2'].pk}"]  # the provisional one, not kept
    assert ProtocolPdf.objects.count() == 1


def test_export_archive_from_the_command_line_reads_the_kept_pdfs(tmp_path, two_tables, renders):
    from mafiatab.cli import main

    confirmed(two_tables, "game1")
    slug = confirmed(two_tables, "game2").tournament.slug
    for name in ("first.zip", "second.zip"):
        command = ["export", slug, "--archive", str(tmp_path / name), "--lang", "en"]
        assert main(command) == 0
    assert len(renders) == 2  # the first export only
    assert ProtocolPdf.objects.filter(language="en").count() == 2
    first = protocols_of((tmp_path / "first.zip").read_bytes())
    assert protocols_of((tmp_path / "second.zip").read_bytes()) == first


@pytest.fixture
def full_slots() -> Any:
    slots = heavy_exports()
    taken = 0
    while slots.try_take():
        taken += 1
    yield slots
    for _ in range(taken):
        slots.give_back()


def test_heavy_exports_past_their_slots_are_a_503_with_retry_after(client, two_tables, full_slots):
    client.force_login(two_tables["chief"])
    slug = two_tables["game1"].tournament.slug
    for name in ("archive", "standings_pdf", "standings_xlsx", "seating"):
        response = client.get(reverse(f"printables:{name}", args=[slug]), HTTP_ACCEPT_LANGUAGE="ru")
        assert response.status_code == 503, name
        assert int(response["Retry-After"]) > 0
        assert "Попробуйте ещё раз через несколько секунд" in response.content.decode()


def free_slots() -> int:
    slots = heavy_exports()
    free = 0
    while slots.try_take():
        free += 1
    for _ in range(free):
        slots.give_back()
    return free


def test_a_streamed_archive_holds_its_slot_until_it_is_read_or_closed(client, two_tables):
    client.force_login(two_tables["chief"])
    url = reverse("printables:archive", args=[two_tables["game1"].tournament.slug])
    size = heavy_exports().size
    read = client.get(url)
    assert free_slots() == size - 1
    b"".join(read.streaming_content)
    assert free_slots() == size
    unread = client.get(url)
    assert free_slots() == size - 1
    unread.close()
    assert free_slots() == size


# --- the seating sheets ----------------------------------------------------------------


def test_the_seating_pdf_is_read_back_while_it_prints_the_same(client, two_tables, layouts):
    url = reverse("printables:seating", args=[two_tables["game1"].tournament.slug])
    first = client.get(url, {"lang": "en"}).content
    assert client.get(url, {"lang": "en"}).content == first
    assert len(layouts) == 1
    assert KeptPdf.objects.get().name == "seating-public"
    client.force_login(two_tables["chief"])
    client.get(url, {"lang": "en"})  # the staff see every table: another document
    assert len(layouts) == 2
    assert sorted(KeptPdf.objects.values_list("name", flat=True)) == [
        "seating-public",
        "seating-staff",
    ]


def test_a_seating_pdf_that_prints_something_new_replaces_the_kept_one(client, two_tables, layouts):
    url = reverse("printables:seating", args=[two_tables["game1"].tournament.slug])
    before = client.get(url, {"lang": "en"}).content
    confirmed(two_tables)  # the public seating now shows the confirmed table
    after = client.get(url, {"lang": "en"}).content
    assert after != before and len(layouts) == 2
    [kept] = KeptPdf.objects.all()
    assert bytes(kept.pdf) == after


def test_a_sheet_digest_is_that_of_every_printed_field_so_kept_pdfs_stay_found(two_tables):
    import dataclasses
    import hashlib
    import json

    from mafiatab.printables import documents

    game = confirmed(two_tables)
    [sheet] = documents.protocol_sheets(game.tournament, [game])
    assert sheet.seats and sheet.voting
    fields = dataclasses.asdict(sheet)
    fields.pop("key")
    text = json.dumps(fields, default=str, ensure_ascii=False, sort_keys=True)
    assert documents.sheet_digest(sheet) == hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_kept_protocols_are_read_in_as_many_queries_for_two_games_as_for_one(two_tables):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from mafiatab.printables import documents

    confirmed(two_tables, "game1")
    tournament = confirmed(two_tables, "game2").tournament
    with translation.override("en"):
        games = list(documents.games_for_print(tournament))
        list(documents.protocol_pdfs(tournament, games))  # rendered and kept
        counts = []
        for chunk in (games[:1], games):
            with CaptureQueriesContext(connection) as queries:
                assert len(list(documents.protocol_pdfs(tournament, chunk))) == len(chunk)
            counts.append(len(queries))
    assert counts[0] == counts[1]


def test_the_protocols_of_many_games_are_read_as_each_games_own(two_tables):
    from mafiatab.games.conversion import game_data, games_data

    game = confirmed(two_tables)
    other = two_tables["game2"]
    assert game.version > other.version
    assert games_data([game, other]) == {game.pk: game_data(game), other.pk: game_data(other)}
