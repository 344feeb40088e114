"""The core's coded messages are said in Russian and English."""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from django.utils.translation import gettext

from mafiatab.core.advancing import REMARK_TEMPLATES, Mark, Remark
from mafiatab.core.game import MESSAGES as GAME_MESSAGES
from mafiatab.core.game import GameProblem
from mafiatab.core.problems import PROBLEM_TEMPLATES, Problem, problem
from mafiatab.core.regulations import FIIM
from mafiatab.core.tournament_file import TournamentFileError, protocol_from_dict
from mafiatab.messages import (
    SHELL_PROBLEMS,
    game_problem_text,
    is_core_problem,
    mark_text,
    problem_text,
    remark_text,
    say,
)
from mafiatab.messages.catalogue import CATALOGUE, SAYERS, TABLES


@pytest.mark.parametrize("code", sorted(PROBLEM_TEMPLATES))
def test_every_problem_code_has_a_russian_translation(code):
    template = PROBLEM_TEMPLATES[code]
    with translation.override("ru"):
        russian = gettext(template)
    assert russian != template, f"{code}: no Russian translation of {template!r}"
    # The same parameters fill both sentences.
    names = sorted(set(re.findall(r"%\((\w+)\)s", template)))
    assert sorted(set(re.findall(r"%\((\w+)\)s", russian))) == names


def _approval_problem() -> Problem:
    data = {
        "id": "Q3-T2",
        "stage": "qualifying",
        "seats": [
            {"player": f"P{n}", "role": role}
            for n, role in enumerate(["red"] * 6 + ["sheriff", "black", "black", "don"], 1)
        ],
        "winner": "red",
        "judge_extra": [{"seat": 4, "points": 0.6}],
    }
    with pytest.raises(TournamentFileError) as info:
        protocol_from_dict(data, ruleset=FIIM.code)
    (found,) = info.value.problems
    return found


def test_a_protocol_problem_reads_in_russian_and_english():
    found = _approval_problem()
    assert found.code == "judge_extra.needs_approval"
    assert str(found) == (
        "game Q3-T2, seat 4, field judge_extra: 0.6 needs the chief judge's approval "
        "(chief_approved, 8.4.3)"
    )
    with translation.override("ru"):
        assert problem_text(found) == "0.6 требует согласия главного судьи (chief_approved, 8.4.3)"
    with translation.override("en"):
        assert problem_text(found) == found.message


def test_a_nickname_is_quoted_in_the_language_of_the_reader():
    twice = problem("Q1", 2, "player", "player.twice", player="Кэп", other=1)
    with translation.override("ru"):
        assert problem_text(twice) == "«Кэп» уже сидит на месте 1"
    assert twice.message == "'Кэп' is already seated at seat 1"


def _russian_of(template: str) -> str:
    with translation.override("ru"):
        russian = gettext(template)
    assert russian != template, f"no Russian translation of {template!r}"
    names = sorted(set(re.findall(r"%\((\w+)\)[sd]", template)))
    assert sorted(set(re.findall(r"%\((\w+)\)[sd]", russian))) == names, template
    return russian


@pytest.mark.parametrize("code", sorted(GAME_MESSAGES))
def test_every_problem_code_of_the_engine_has_a_russian_translation(code):
    _russian_of(GAME_MESSAGES[code])


@pytest.mark.parametrize("code", sorted(SHELL_PROBLEMS))
def test_every_problem_code_of_the_shell_has_a_russian_translation(code):
    _russian_of(SHELL_PROBLEMS[code])


def test_a_problem_only_the_form_sees_is_a_code_said_in_the_readers_language():
    made = Problem("Q1", 3, "first_killed", "form.seat_number", {"text": "x"})
    with translation.override("ru"):
        assert problem_text(made) == "место — это номер 1..10, а не x"
    with translation.override("en"):
        assert problem_text(made) == "a seat is a number 1..10, not x"
    assert not is_core_problem(made)


def test_an_engine_problem_is_said_by_the_one_translator_in_both_languages():
    found = GameProblem("vote.sum", {"total": 11, "alive": 9}, event=12, event_type="vote")
    with translation.override("en"):
        assert game_problem_text(found) == (
            "Event 12 (vote): counts sum to 11, but 9 players are alive"
        )
        assert game_problem_text(found) == f"Event 12 (vote): {found.message()}"
    with translation.override("ru"):
        assert game_problem_text(found).startswith("Событие 12 (голосование): ")
        assert "11" in game_problem_text(found) and "9" in game_problem_text(found)


def test_a_log_problem_names_its_event_type_in_the_readers_language_never_by_code():
    from mafiatab.core.game.events import EventType

    for event_type in (t.value for t in EventType):
        found = GameProblem("vote.sum", {"total": 11, "alive": 9}, event=3, event_type=event_type)
        with translation.override("ru"):
            said = game_problem_text(found)
        assert said.startswith("Событие 3 (") and f"({event_type})" not in said, said


@pytest.mark.parametrize("code", sorted(REMARK_TEMPLATES))
def test_every_advance_remark_has_a_russian_translation(code):
    template = REMARK_TEMPLATES[code]
    params = {name: "8.8.2" for name in re.findall(r"%\((\w+)\)s", template)}
    with translation.override("ru"):
        russian = remark_text(Remark(code, params))
    assert russian != template % params if params else russian != template
    with translation.override("en"):
        assert remark_text({"code": code, "params": params}) == Remark(code, params).message


def test_the_outlook_marks_read_in_russian():
    with translation.override("ru"):
        assert mark_text(Mark.THROUGH) == "проходит"
        assert mark_text("out") == "не проходит"
        assert mark_text(None) == ""


def test_the_catalogue_holds_every_kind_of_code_in_one_namespace():
    total = sum(len(table) for table in TABLES.values())
    assert len(CATALOGUE) == total, "two kinds of message share a code"


@pytest.mark.parametrize("code", sorted(CATALOGUE))
def test_every_code_of_the_catalogue_is_said_in_russian_and_english(code):
    if code not in SAYERS:
        _russian_of(CATALOGUE[code])
    with translation.override("en"):
        assert say("no.such_code") is None
        assert say(code, _SAMPLE) is not None, code


#: A value for every parameter any sentence names.
_SAMPLE = {
    name: ["P1", "P2"] if name in ("names", "group") else 2
    for template in CATALOGUE.values()
    for name in re.findall(r"%\((\w+)\)", template)
}


def test_a_contradicted_winner_names_the_team_and_how_each_seat_left_in_russian():
    data = {
        "id": "Q1-T1",
        "stage": "qualifying",
        "seats": [
            {"player": f"P{n}", "role": role}
            for n, role in enumerate(["red"] * 6 + ["sheriff", "black", "black", "don"], 1)
        ],
        "winner": "black",
        "first_killed": 8,
        "disqualified": [{"seat": 9, "reason": "4 fouls"}],
        "voting": [{"day": 2, "nominees": [10, 3], "votes": [6, 3]}],
    }
    with pytest.raises(TournamentFileError) as info:
        protocol_from_dict(data, ruleset=FIIM.code)
    (found,) = [p for p in info.value.problems if p.code == "winner.contradicted"]
    with translation.override("ru"):
        said = problem_text(found)
    assert said == (
        "чёрная команда не может победить: все игроки этой команды покинули игру "
        "(8 — убит в первую ночь, 9 — удалён, 10 — ушёл голосованием)"
    )
    assert "black" not in said
    with translation.override("en"):
        assert problem_text(found) == (
            "the black team cannot win: every seat of that team left the game "
            "(8 shot in the first night, 9 removed, 10 voted out)"
        )


@pytest.mark.parametrize(
    ("before", "russian"),
    [(21, "21 игрок,"), (24, "24 игрока,"), (25, "25 игроков,"), (11, "11 игроков,")],
)
def test_a_stage_plan_problem_counts_its_players_with_the_russian_plural(before, russian):
    with translation.override("ru"):
        said = say("stages.players_above_before", {"value": 30, "before": before})
    assert said == f"Из этапа, в котором {russian} не могут пройти 30"
    with translation.override("en"):
        said = say("stages.games_not_published", {"value": 3, "published": 1})
    assert said is not None and said.startswith(
        "The published seating of this stage gives each player 1 game,"
    )


#: Each code of the engine whose parameter is a word (a role, what a field must hold),
#: with the parameters the engine gives it.
_WORD_PROBLEMS = [
    ("check.twice", {"role": "don"}),
    ("check.twice", {"role": "sheriff"}),
    ("check.absent", {"role": "sheriff", "seat": 3}),
    ("check.own", {"role": "don"}),
    ("log.role_seat", {"role": "sheriff", "value": "0"}),
    ("event.field_type", {"field": "reason", "expected": "a text", "value": "5"}),
    ("event.field_type", {"field": "counts", "expected": "a list of integers", "value": "5"}),
    ("log.field_type", {"expected": "an integer 1 or more", "value": "0"}),
    ("log.field_type", {"expected": "true or false", "value": "0"}),
]


@pytest.mark.parametrize(("code", "params"), _WORD_PROBLEMS)
def test_an_engine_problem_says_its_words_in_the_readers_language(code, params):
    with translation.override("ru"):
        said = say(code, params)
    assert said is not None
    # the field is the log's own key; anything else Latin is an English word left over
    # (true and false are the values written in the log)
    rest = said.replace(str(params.get("field", "")), "").replace("true", "").replace("false", "")
    assert not re.findall(r"[A-Za-z]{2,}", rest), said
    with translation.override("en"):
        assert say(code, params) == GAME_MESSAGES[code] % params


def test_every_engine_code_naming_a_role_is_said_with_the_roles_name():
    for code, template in GAME_MESSAGES.items():
        if "%(role)s" not in template:
            continue
        for role, russian in (("don", "дон"), ("sheriff", "шериф")):
            with translation.override("ru"):
                said = say(code, {"role": role, "seat": 3, "value": "0"}) or ""
            assert russian in said and role not in said, (code, said)


def test_a_checks_refusal_reads_in_russian_with_the_role_in_russian():
    found = GameProblem("check.twice", {"role": "don"}, event=14, event_type="don_check")
    with translation.override("ru"):
        said = game_problem_text(found)
    assert said.endswith(": дон уже проверял этой ночью"), said
