"""The core's score lines said in the reader's language: every topic the core gives a
line, its numbers written the language's way, the judge's note kept verbatim."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from mafiatab.core.demo import demo_tournament
from mafiatab.core.protocol import GamePenalty, JudgeExtra, Protocol, Removal, TournamentPenalty
from mafiatab.core.regulations import get_regulation
from mafiatab.core.roles import Role, Stage, Team, Winner
from mafiatab.core.scoring import ScoreLine, ScoringContext, explain, penalty_line, score_game
from mafiatab.messages.score_lines import TOPICS, line_text

ROLES = (Role.SHERIFF, Role.DON, Role.BLACK, Role.BLACK) + (Role.RED,) * 6
PLAYERS = tuple(f"P{n}" for n in range(1, 11))
ONLINE = get_regulation("fiim-online")


def _protocol(**fields: object) -> Protocol:
    base: dict[str, object] = {
        "id": "Q1-T1",
        "stage": Stage.QUALIFYING,
        "players": PLAYERS,
        "roles": ROLES,
        "winner": Winner.BLACK,
    }
    return Protocol(**(base | fields))  # type: ignore[arg-type]


def core_lines() -> list[ScoreLine]:
    """Lines of every topic and every variant of its facts, as the core scores them."""
    lost = _protocol(
        first_killed=5,
        best_move=(2, 3, 4),
        judge_extra=(JudgeExtra(2, Fraction(3, 10), "сильная «версия» & <игра>"),),
        penalties=(GamePenalty(6, "8.5.2", "ушёл из-за стола"),),
        disqualified=(
            Removal(7, "четвёртый фол"),
            Removal(8, "ALT+TAB", online=True),
            Removal(9, "тайм-аут", online=True, fined=False),
            Removal(10, "тайм-аут", fined=False),
        ),
    )
    two_blacks = _protocol(first_killed=5, best_move=(2, 3, 5), winner=Winner.RED)
    replayed = _protocol(
        replayed=True,
        disqualified=(Removal(7, "фол"), Removal(8, "фол", fined=False)),
    )
    with_k = ScoringContext(ONLINE, coefficient_k=Fraction(5, 4), heavy_side=Team.RED)
    compensated = ScoringContext(ONLINE, compensation_b=4, first_night_kills={"P5": 3})
    lines = score_game(lost, ONLINE, compensated)
    lines += score_game(two_blacks, ONLINE)
    lines += score_game(two_blacks, ONLINE, with_k)
    lines += score_game(replayed, ONLINE)
    lines.append(penalty_line(TournamentPenalty("P1", Fraction(-1, 2), "опоздание на 7 минут")))
    lines.append(penalty_line(TournamentPenalty("P2", Fraction(-1, 2))))
    return lines


def _said(lines: list[ScoreLine], language: str) -> list[str]:
    with translation.override(language):
        return [line_text(line) for line in lines]


def _latin_words(text: str) -> list[str]:
    """Latin words other than the letters of the regulation's formulas (i, B, K)."""
    return [w for w in re.findall(r"[A-Za-z]+", text) if w not in ("i", "B", "K")]


def test_every_topic_the_core_gives_a_line_has_a_rendering_and_none_is_left_unused():
    topics = {line.topic for line in core_lines()}
    assert topics == set(TOPICS)


def test_every_line_the_core_gives_is_said_in_russian_with_its_note_verbatim():
    lines = core_lines()
    for line, russian in zip(lines, _said(lines, "ru"), strict=True):
        without_note = russian.removesuffix(f": {line.note}") if line.note else russian
        assert _latin_words(without_note) == [], russian
        assert line.note in russian
        assert russian != line.label


def test_english_says_what_the_core_says():
    lines = [line for line in core_lines() if line.topic != "penalty"]
    assert _said(lines, "en") == [line.label for line in lines]


def test_the_russian_words_of_each_topic():
    said = "\n".join(_said(core_lines(), "ru"))
    assert "победа чёрной команды (дон)" in said
    assert "победа красной команды (шериф), с коэффициентом K 1,25 (8.7)" in said
    assert "победа красной команды (мирный житель)" in said
    assert "компенсация за отстрел в первую ночь, красная команда проиграла (i 3, B 4)" in said
    assert "лучший ход: названы 3 чёрных" in said
    assert "лучший ход: названы 2 чёрных" in said
    assert "дополнительные баллы от судьи: сильная «версия» & <игра>" in said
    assert "негативное игровое действие (8.5.2): ушёл из-за стола" in said
    assert "удаление: четвёртый фол" in said
    assert "удаление за нарушение правил онлайн-турнира: ALT+TAB" in said
    assert "удаление за нарушение правил онлайн-турнира, без штрафа: тайм-аут" in said
    assert "удаление, без штрафа: тайм-аут" in said
    assert "удаление, перенесённое из переигранной игры: фол" in said
    assert "удаление, перенесённое из переигранной игры, без штрафа: фол" in said
    assert "штраф: опоздание на 7 минут" in said


def test_one_black_named_is_said_in_the_singular():
    line = ScoreLine(
        "P5", "Q1-T1", "8.3", "extra", Fraction(0), "", "best_move", "", (("blacks", 1),)
    )
    assert _said([line], "ru") == ["лучший ход: назван 1 чёрный"]
    assert _said([line], "en") == ["best move: 1 black named"]


def test_a_line_of_an_unknown_topic_keeps_the_cores_words():
    line = ScoreLine("P1", "Q1-T1", "9.9", "extra", Fraction(1), "something new", "new_topic")
    assert _said([line], "ru") == ["something new"]


# --- the standings player page ------------------------------------------------------------


@pytest.fixture
def demo(organiser):
    from mafiatab.standings.services.tournament_file import tournament_import

    return tournament_import(core=demo_tournament(), by=organiser)


def _player_page(client, tournament, player: str) -> str:
    url = reverse("standings:player", args=[tournament.slug, player])
    return client.get(url).content.decode()


@pytest.mark.django_db
def test_a_russian_player_page_says_every_line_in_russian(client, demo):
    client.cookies["django_language"] = "ru"
    page = _player_page(client, demo, "Кошмар")
    assert "победа красной команды (шериф)" in page
    assert "победа красной команды (мирный житель)" in page
    assert "лучший ход: названы 3 чёрных" in page
    assert "компенсация за отстрел в первую ночь, красная команда проиграла (i 3, B 4)" in page
    assert escape("дополнительные баллы от судьи: лучшая речь стола, правильная версия") in page
    assert "win of the" not in page
    assert "blacks named" not in page


@pytest.mark.django_db
def test_the_judges_notes_are_shown_verbatim_on_a_russian_page(client, demo):
    client.cookies["django_language"] = "ru"
    for player in ("Пилот", "Вишня"):
        page = _player_page(client, demo, player)
        notes = [line.note for line in explain(demo_tournament(), player) if line.note]
        assert notes
        for note in notes:
            assert escape(note) in page


@pytest.mark.django_db
def test_an_english_player_page_says_the_same_in_english(client, demo):
    page = _player_page(client, demo, "Кошмар")
    assert "win of the red team as sheriff" in page
    assert "best move: 3 blacks named" in page
    assert "compensation for the first-night kill, red team lost (i 3, B 4)" in page
    assert "judge extra points: лучшая речь стола, правильная версия" in page


def test_a_fourth_foul_removal_is_said_in_the_readers_language_not_as_stored_english():
    # the engine's reason as the log and the file store it, old texts' spacing included
    for stored in ("4 fouls", " 4  Fouls "):
        protocol = _protocol(disqualified=(Removal(7, stored),))
        (line,) = [x for x in score_game(protocol, ONLINE) if x.topic == "removal"]
        assert line.note == "" and line.fact("fouls") == 4
        with translation.override("ru"):
            assert line_text(line) == "удаление: 4 фола"
        with translation.override("en"):
            assert line_text(line) == "removal: 4 fouls"
    # a judge's own words stay his
    (line,) = [
        x
        for x in score_game(_protocol(disqualified=(Removal(7, "оскорбления"),)), ONLINE)
        if x.topic == "removal"
    ]
    with translation.override("ru"):
        assert line_text(line) == "удаление: оскорбления"


def test_the_game_history_says_a_fourth_foul_removal_in_the_readers_language():
    from mafiatab.games.selectors import version_changes

    before: dict[str, object] = {"disqualified": []}
    after = {"disqualified": [{"seat": 6, "reason": "4 fouls", "online": False, "fined": True}]}
    with translation.override("ru"):
        (change,) = version_changes(before, after)
        assert change.after == "место 6 (4 фола)"
    with translation.override("en"):
        (change,) = version_changes(before, after)
        assert change.after == "seat 6 (4 fouls)"


def test_the_command_lines_label_of_a_fourth_foul_removal_is_unchanged():
    protocol = _protocol(disqualified=(Removal(7, "4 fouls"),))
    (line,) = [x for x in score_game(protocol, ONLINE) if x.topic == "removal"]
    assert line.label == "removal: 4 fouls"
