"""Printables: protocols (filled and blank), seating sheets, standings as PDF and XLSX,
the tournament archive; read back with poppler's pdftotext/pdffonts and openpyxl."""

from __future__ import annotations

import datetime as dt
import html
import io
import re
import subprocess
import zipfile
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from mafiatab.games.models import Game
from mafiatab.games.services import protocol_confirm, protocol_save

from . import test_games_fixtures as fx
from .test_games_fixtures import NICKS_1, NICKS_2, complete_data

two_tables = fx.two_tables

pytestmark = pytest.mark.django_db


def pdf_text(content: bytes) -> str:
    result = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=content, capture_output=True, check=True
    )
    return result.stdout.decode("utf-8")


def pdf_pages(content: bytes) -> list[str]:
    return pdf_text(content).split("\f")[:-1]


def pdf_fonts(content: bytes) -> list[list[str]]:
    result = subprocess.run(
        ["pdffonts", "-"], input=content, capture_output=True, check=True, text=False
    )
    lines = result.stdout.decode().splitlines()[2:]
    return [line.split() for line in lines]


def assert_fonts_embedded(content: bytes) -> None:
    fonts = pdf_fonts(content)
    assert fonts
    for font in fonts:
        # name type [type] encoding emb sub uni object ID: "emb" is the 5th from the end
        assert font[-5] == "yes", font


def page_rows(page: str) -> list[tuple[str, ...]]:
    """The ten seat rows of the game page: (seat, nickname, letter, fouls, points, extra)."""
    pattern = re.compile(
        r'<tr><td>(\d+)</td><td class="strong">(.*?)</td><td>(.*?)</td>'
        r'<td class="num">(\d*)</td><td class="num">(.*?)</td><td class="num">(.*?)</td></tr>'
    )
    return [tuple(html.unescape(v) for v in m) for m in pattern.findall(page)]


def row_line(text: str, seat: str, nickname: str) -> str:
    """The line of the printed protocol that starts with the seat and nickname."""
    for line in text.splitlines():
        words = line.split()
        if words[:1] == [seat] and nickname in line:
            return line
    raise AssertionError(f"no line for seat {seat} {nickname!r} in:\n{text}")


def get(client: Any, name: str, slug: str, *args: Any, **query: str) -> Any:
    url = reverse(f"printables:{name}", args=[slug, *args])
    return client.get(url, query)


# --- the filled protocol -----------------------------------------------------------------


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_protocol_pdf_holds_what_the_game_page_shows(client, demo_imported, lang):
    game = Game.objects.filter(tournament=demo_imported).order_by("position").first()
    page = client.get(
        reverse("games:detail", args=[demo_imported.slug, game.pk]), {}, HTTP_ACCEPT_LANGUAGE=lang
    ).content.decode()
    rows = page_rows(page)
    assert len(rows) == 10
    response = get(client, "protocol", demo_imported.slug, game.pk, lang=lang)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pdf = response.content
    pages = pdf_pages(pdf)
    text = pages[0]
    for seat, nickname, letter, fouls, points, extra in rows:
        line = row_line(text, seat, nickname)
        words = line.split()
        assert letter in words, line
        assert line.count("×") == int(fouls), line
        assert points in words, line
        assert (extra in words) if extra else not words[-1].startswith("+"), line
    winner = re.search(r"<dd>(красные|чёрные|ничья|red|black|draw)</dd>", page)
    assert winner is not None
    label = {"ru": "Победившая команда", "en": "Winning team"}[lang]
    assert re.search(rf"{label}\s+{winner.group(1)}", text)
    assert any(nick and re.search("[а-яё]", nick, re.I) for _s, nick, *_ in rows)
    assert_fonts_embedded(pdf)


def test_the_reasons_of_extra_points_go_to_a_second_page(client, demo_imported):
    game = next(g for g in Game.objects.filter(tournament=demo_imported) if g.extras.exists())
    pages = pdf_pages(get(client, "protocol", demo_imported.slug, game.pk, lang="en").content)
    assert len(pages) == 2
    assert "Reasons" in pages[1]
    for extra in game.extras.all():
        assert extra.reason.split()[0] in pages[1]


def test_a_protocol_is_provisional_until_confirmed_and_private_until_then(client, two_tables):
    game, judge, chief = two_tables["game1"], two_tables["judge"], two_tables["chief"]
    protocol_save(game=game, data=complete_data(game), by=judge, base_version=1, submit=True)
    slug = game.tournament.slug
    assert get(client, "protocol", slug, game.pk).status_code == 302  # to the login page
    client.force_login(two_tables["outsider"])
    assert get(client, "protocol", slug, game.pk).status_code == 403
    client.force_login(two_tables["alpha1"])  # a player of the game
    text = pdf_text(get(client, "protocol", slug, game.pk, lang="en").content)
    assert "PROVISIONAL" in text
    protocol_confirm(game=game, by=chief)
    client.logout()
    text = pdf_text(get(client, "protocol", slug, game.pk, lang="en").content)
    assert "PROVISIONAL" not in text
    assert "Alpha1" in text and "red" in text
    # the best move: seat 1 killed first, named 5, 7, 2
    assert re.search(r"Killed in the first night\s+1\s+Best move\s+5, 7, 2", text)
    # the voting block: day 1, seats 5 and 9 nominated, 6 and 4 votes
    assert re.search(r"1\s+1\s+5, 9\s+6, 4", text)


def test_a_miss_in_the_first_night_prints_a_dash_for_the_best_move(client, two_tables):
    game, judge, chief = two_tables["game1"], two_tables["judge"], two_tables["chief"]
    data = complete_data(game, first_killed=None, best_move=[])
    protocol_save(game=game, data=data, by=judge, base_version=1, submit=True)
    protocol_confirm(game=game, by=chief)
    text = pdf_text(get(client, "protocol", game.tournament.slug, game.pk, lang="en").content)
    assert re.search(r"Killed in the first night\s+—\s+Best move\s+—", text)


def test_the_protocol_of_an_unknown_game_is_not_found(client, two_tables):
    client.force_login(two_tables["chief"])
    assert get(client, "protocol", two_tables["game1"].tournament.slug, 999999).status_code == 404


# --- blank protocols ---------------------------------------------------------------------


def test_blank_protocols_of_a_round_hold_its_seating(client, two_tables):
    slug = two_tables["game1"].tournament.slug
    client.force_login(two_tables["chief"])
    response = get(client, "blank_protocols", slug, round="1", lang="ru")
    assert response.status_code == 200
    pages = pdf_pages(response.content)
    assert len(pages) == 2
    tables = ((pages[0], NICKS_1, "TableJudge"), (pages[1], NICKS_2, "SecondJudge"))
    for page, nicks, judge in tables:
        for seat, nick in enumerate(nicks, start=1):
            assert row_line(page, str(seat), nick)
        assert judge in page and "Spring Cup" in page
        assert "×" not in page  # nothing but the header and the nicknames


def test_blank_protocols_of_a_round_are_for_the_staff(client, two_tables):
    slug = two_tables["game1"].tournament.slug
    assert get(client, "blank_protocols", slug, round="1").status_code == 302
    client.force_login(two_tables["outsider"])
    assert get(client, "blank_protocols", slug, round="1").status_code == 403


def test_without_a_round_one_blank_form_for_anyone(client, tournament):
    response = get(client, "blank_protocols", tournament.slug, lang="en")
    assert response.status_code == 200
    pages = pdf_pages(response.content)
    assert len(pages) == 1 and "Game protocol" in pages[0] and "Spring Cup" in pages[0]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"round": "x"}, "round must be a whole number"),
        ({"round": "0"}, "round must be a whole number"),
        ({"round": "1", "stage": "playoff"}, "Unknown stage"),
        ({"lang": "de"}, "Unknown language"),
    ],
)
def test_bad_parameters_are_refused_with_what_is_wrong(client, two_tables, query, message):
    client.force_login(two_tables["chief"])
    response = get(client, "blank_protocols", two_tables["game1"].tournament.slug, **query)
    assert response.status_code == 400
    assert message in response.content.decode()


def test_an_unknown_round_is_not_found(client, two_tables):
    client.force_login(two_tables["chief"])
    response = get(client, "blank_protocols", two_tables["game1"].tournament.slug, round="7")
    assert response.status_code == 404


# --- seating -----------------------------------------------------------------------------


def test_the_seating_pdf_has_every_round_and_table(client, demo_imported):
    response = get(client, "seating", demo_imported.slug, lang="ru")
    assert response.status_code == 200
    text = pdf_text(response.content)
    games = Game.objects.filter(tournament=demo_imported).prefetch_related("seats")
    for game in games:
        for seat in game.seats.all():
            assert seat.player in text
    assert "Тур 1" in text and "Стол 3" in text
    assert_fonts_embedded(response.content)


def test_a_judges_copy_has_every_round_of_its_table(client, demo_imported):
    response = get(client, "judge_copies", demo_imported.slug, table="2", lang="en")
    assert response.status_code == 200
    text = pdf_text(response.content)
    assert "Table 2" in text and "Table 1" not in text
    tables = Game.objects.filter(tournament=demo_imported, table=2).prefetch_related("seats")
    for game in tables:
        assert f"Round {game.round}" in text
        for seat in game.seats.all():
            assert seat.player in text
    assert get(client, "judge_copies", demo_imported.slug, table="99").status_code == 404


def test_the_public_seating_pdf_leaves_out_unconfirmed_tables(client, two_tables):
    slug = two_tables["game1"].tournament.slug
    assert "Alpha2" not in pdf_text(get(client, "seating", slug).content)
    client.force_login(two_tables["judge"])
    assert "Alpha2" in pdf_text(get(client, "seating", slug).content)


# --- standings ---------------------------------------------------------------------------


def read_xlsx(content: bytes) -> tuple[list[list[Any]], list[list[Any]]]:
    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(content))
    first, second = book.worksheets
    return (
        [list(row) for row in first.iter_rows(values_only=True)],
        [list(row) for row in second.iter_rows(values_only=True)],
    )


def test_the_xlsx_equals_the_standings_json_row_by_row(client, demo_imported):
    data = client.get(f"/api/tournaments/{demo_imported.slug}/standings").json()
    response = get(client, "standings_xlsx", demo_imported.slug)
    assert response.status_code == 200
    rows, lines = read_xlsx(response.content)
    fields = list(data["standings"][0])
    assert len(rows) - 1 == len(data["standings"])
    for row, expected in zip(rows[1:], data["standings"], strict=True):
        assert row == [expected[field] for field in fields]
    assert all(isinstance(row[2], float | int) for row in rows[1:])
    # the second sheet: every score line; each player's lines sum to his total
    assert lines[0][:4] == ["Player", "Game", "Clause", "Points"]
    sums: dict[str, float] = {}
    for player, _game, _clause, points, *_rest in lines[1:]:
        sums[player] = sums.get(player, 0) + points
    for expected in data["standings"]:
        assert sums[expected["player"]] == pytest.approx(expected["total"], abs=0.01)


def test_the_standings_pdf_holds_every_player_and_total(client, demo_imported):
    data = client.get(f"/api/tournaments/{demo_imported.slug}/standings").json()
    response = get(client, "standings_pdf", demo_imported.slug, lang="ru")
    text = pdf_text(response.content)
    for row in data["standings"]:
        line = next(x for x in text.splitlines() if f" {row['player']} " in f" {x} ")
        assert f"{row['total']:.2f}" in line.split()
    assert "Турнирная таблица" in text
    said = " ".join(text.split())  # the legend: the penalties of a game are in Extra
    assert "Штрафы: только штрафы самого турнира" in said and "учтены в доп. баллах" in said
    assert_fonts_embedded(response.content)


def test_formula_like_nicknames_stay_text_in_the_xlsx(client, db, demo_file_text):
    from mafiatab.core.tournament_file import loads_tournament
    from mafiatab.standings.services.tournament_file import tournament_import

    text = demo_file_text.replace('"Кэп"', '"=1+2"').replace('"Лис"', '"@SUM(A1)"')
    text = text.replace('"Сова"', '"#N/A"')
    tournament = tournament_import(core=loads_tournament(text), by=None)
    rows, lines = read_xlsx(get(client, "standings_xlsx", tournament.slug).content)
    players = [row[1] for row in rows[1:]]
    assert "=1+2" in players and "@SUM(A1)" in players and "#N/A" in players
    assert {"=1+2", "#N/A"} <= {line[0] for line in lines[1:]}
    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(get(client, "standings_xlsx", tournament.slug).content))
    for sheet in book.worksheets:
        cells = [c for row in sheet.iter_rows() for c in row if c.value in ("=1+2", "#N/A")]
        assert cells and all(c.data_type == "s" for c in cells)


def test_control_characters_are_left_out_of_the_xlsx():
    from mafiatab.printables.xlsx import clean_text

    assert clean_text("Ni\x00ck\x1b") == "Nick"


def test_hidden_standings_are_not_downloadable_by_the_public(client, demo_imported, organiser):
    from mafiatab.tournaments.models import StaffMember, StaffRole

    StaffMember.objects.create(tournament=demo_imported, user=organiser, role=StaffRole.ORGANISER)
    demo_imported.standings_hidden = True
    demo_imported.save()
    for name in ("standings_pdf", "standings_xlsx"):
        assert get(client, name, demo_imported.slug).status_code == 403
    client.force_login(organiser)
    for name in ("standings_pdf", "standings_xlsx"):
        assert get(client, name, demo_imported.slug).status_code == 200


def test_frozen_standings_are_downloaded_as_frozen_by_the_public(client, two_tables):
    from mafiatab.standings.services import standings_freeze

    game1, game2 = two_tables["game1"], two_tables["game2"]
    for game, judge in ((game1, two_tables["judge"]), (game2, two_tables["judge2"])):
        protocol_save(game=game, data=complete_data(game), by=judge, base_version=1, submit=True)
    protocol_confirm(game=game1, by=two_tables["chief"])
    tournament = game1.tournament
    tournament.refresh_from_db()
    standings_freeze(tournament=tournament, by=two_tables["organiser"])
    protocol_confirm(game=game2, by=two_tables["chief"])
    public, _lines = read_xlsx(get(client, "standings_xlsx", tournament.slug).content)
    assert {row[1] for row in public[1:]} == set(NICKS_1)
    assert "Frozen" in pdf_text(get(client, "standings_pdf", tournament.slug, lang="en").content)
    client.force_login(two_tables["judge"])
    live, _lines = read_xlsx(get(client, "standings_xlsx", tournament.slug).content)
    assert {row[1] for row in live[1:]} == set(NICKS_1) | set(NICKS_2)


def test_the_csv_still_works(client, demo_imported):
    response = client.get(reverse("standings:table", args=[demo_imported.slug]), {"format": "csv"})
    assert response.status_code == 200 and response.content.startswith(b"rank,player,total")


# --- the archive -------------------------------------------------------------------------


def test_the_archive_holds_every_document_for_the_staff(client, two_tables, monkeypatch):
    logs = [
        ("Q1-T1.json", {"format": "mafiatab-game-log/1"}),
        ("../../etc/x.json", "a name that tries to leave logs/"),
    ]
    monkeypatch.setattr("mafiatab.printables.archive.logs_for_tournament", lambda t: logs)
    game = two_tables["game1"]
    protocol_save(
        game=game, data=complete_data(game), by=two_tables["judge"], base_version=1, submit=True
    )
    protocol_confirm(game=game, by=two_tables["chief"])
    slug = game.tournament.slug
    assert get(client, "archive", slug).status_code == 302
    client.force_login(two_tables["chief"])
    response = get(client, "archive", slug, lang="en")
    assert response.status_code == 200
    archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
    names = set(archive.namelist())
    assert names == {
        f"{slug}.json",
        "standings.pdf",
        "standings.xlsx",
        "seating.pdf",
        "seating-judges.pdf",
        "protocols/protocol-Q1-T1.pdf",
        "protocols/protocol-Q1-T2.pdf",
        "logs/Q1-T1.json",
        "logs/etc_x.json",
    }
    first = pdf_text(archive.read("protocols/protocol-Q1-T1.pdf"))
    assert "Alpha1" in first and "PROVISIONAL" not in first
    assert "PROVISIONAL" in pdf_text(archive.read("protocols/protocol-Q1-T2.pdf"))
    assert b"mafiatab-game-log/1" in archive.read("logs/Q1-T1.json")


def test_export_writes_the_archive_from_the_command_line(tmp_path, capsys, demo_imported):
    from mafiatab.cli import main

    target = tmp_path / "cup.zip"
    assert main(["export", demo_imported.slug, "--archive", str(target), "--lang", "ru"]) == 0
    archive = zipfile.ZipFile(target)
    names = archive.namelist()
    games = Game.objects.filter(tournament=demo_imported).count()
    assert len([n for n in names if n.startswith("protocols/")]) == games
    assert f"{demo_imported.slug}.json" in names and "standings.xlsx" in names
    assert "Турнирная таблица" in pdf_text(archive.read("standings.pdf"))
    assert not list(tmp_path.glob("*.partial"))
    assert main(["export", demo_imported.slug, "--archive", str(tmp_path / "no" / "a.zip")]) == 2
    assert "cannot write the archive" in capsys.readouterr().err


# --- links -------------------------------------------------------------------------------


def test_the_pages_link_to_their_printables(client, two_tables):
    game = two_tables["game1"]
    slug = game.tournament.slug
    client.force_login(two_tables["chief"])
    pages = {
        "game": client.get(reverse("games:detail", args=[slug, game.pk])).content.decode(),
        "standings": client.get(reverse("standings:table", args=[slug])).content.decode(),
        "seating": client.get(reverse("seating:index", args=[slug])).content.decode(),
        "rounds": client.get(reverse("games:rounds", args=[slug])).content.decode(),
        "tournament": client.get(reverse("tournaments:detail", args=[slug])).content.decode(),
    }
    assert reverse("printables:protocol", args=[slug, game.pk]) in pages["game"]
    assert reverse("printables:standings_pdf", args=[slug]) in pages["standings"]
    assert reverse("printables:standings_xlsx", args=[slug]) in pages["standings"]
    assert reverse("printables:seating", args=[slug]) in pages["seating"]
    assert reverse("printables:judge_copies", args=[slug]) in pages["seating"]
    assert reverse("printables:blank_protocols", args=[slug]) + "?round=1" in pages["rounds"]
    assert reverse("printables:archive", args=[slug]) in pages["tournament"]
    client.logout()
    public = client.get(reverse("tournaments:detail", args=[slug])).content.decode()
    assert reverse("printables:archive", args=[slug]) not in public


def test_hidden_standings_show_no_download_links_to_the_public(client, demo_imported):
    demo_imported.standings_hidden = True
    demo_imported.save()
    page = client.get(reverse("standings:table", args=[demo_imported.slug])).content.decode()
    assert reverse("printables:standings_pdf", args=[demo_imported.slug]) not in page


def test_a_published_seating_is_printed_for_everyone_round_by_round(
    client, tournament, organiser, make_user, settings
):
    from mafiatab.registrations.services import registration_add
    from mafiatab.seating.conversion import grid
    from mafiatab.seating.services import SeatingInputs, seating_generate, seating_publish

    settings.MAFIATAB_SEATING_ITERATIONS = 3_000
    for i in range(1, 31):
        registration_add(tournament=tournament, nickname=f"Ace{i:02d}", by=organiser)
    inputs = SeatingInputs(stage="qualifying", games=10, tables=3, seed=5)
    draft = seating_generate(tournament=tournament, inputs=inputs, by=organiser)
    seating_publish(draft=draft, judges={}, by=organiser)
    draft.refresh_from_db()
    pages = pdf_pages(get(client, "seating", tournament.slug, lang="en").content)
    rounds = grid(draft)
    assert len(pages) == len(rounds) == 10
    for page, r in zip(pages, rounds, strict=True):
        assert f"Round {r['round']}" in page
        for t in r["tables"]:
            for seat, name in t["seats"]:
                assert row_line(page, str(seat), name)
    client.force_login(organiser)
    blank = pdf_pages(get(client, "blank_protocols", tournament.slug, round="2").content)
    assert len(blank) == len(rounds[1]["tables"])
    for page, t in zip(blank, rounds[1]["tables"], strict=True):
        for seat, name in t["seats"]:
            assert row_line(page, str(seat), name)


def test_a_seating_block_prints_a_line_per_seat_with_its_nickname_escaped():
    from django.template.loader import render_to_string

    from mafiatab.printables.seating_sheets import SeatingRound, SeatingTable, judge_copies

    table = SeatingTable(3, "Judge", ((1, "Кэп"), (10, "<b>&Co</b>")))
    rounds = [SeatingRound("Отбор", 1, (table,))]
    lines = " 1  Кэп\n10  &lt;b&gt;&amp;Co&lt;/b&gt;\n"
    seating = render_to_string(
        "printables/seating.html", {"tournament": {"name": "T"}, "rounds": rounds}
    )
    assert f'<p class="seats">{lines}</p>' in seating
    judges = render_to_string(
        "printables/judges.html", {"tournament": {"name": "T"}, "copies": judge_copies(rounds)}
    )
    assert f'<p class="seats">{lines}</p>' in judges


# --- the time printed --------------------------------------------------------------------

PRINTED = dt.datetime(2026, 12, 3, 14, 44, tzinfo=dt.UTC)  # 17:44 in Moscow


def _printed_line(text: str) -> str:
    said = " ".join(text.split())
    return said[said.index("Напечатано") :][:40]


def test_the_standings_pdf_is_printed_at_the_tournaments_time(client, demo_imported, monkeypatch):
    """The site says a tournament's times in its zone: so does the printed-at footer,
    whatever zone the request or the site is in (the archive is made with none)."""
    from mafiatab.printables.archive import archive_entries
    from mafiatab.printables.pdf import Renderer

    demo_imported.time_zone = "Europe/Moscow"
    demo_imported.save(update_fields=["time_zone"])
    monkeypatch.setattr("django.utils.timezone.now", lambda: PRINTED)
    response = get(client, "standings_pdf", demo_imported.slug, lang="ru")
    assert _printed_line(pdf_text(response.content)).startswith("Напечатано 03.12.2026 17:44")
    with translation.override("ru"):
        entries = archive_entries(demo_imported, Renderer())
        _name, pdf, _stored = next(e for e in entries if e[0] == "standings.pdf")
    assert isinstance(pdf, bytes)
    assert _printed_line(pdf_text(pdf)).startswith("Напечатано 03.12.2026 17:44")
