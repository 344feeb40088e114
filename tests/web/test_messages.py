"""The core's coded messages are said in Russian and English."""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from django.utils.translation import gettext

from mafiatab.core.advancing import REMARK_TEMPLATES, Mark, Remark
from mafiatab.core.problems import PROBLEM_TEMPLATES, Problem, problem
from mafiatab.core.regulations import FIIM
from mafiatab.core.tournament_file import TournamentFileError, protocol_from_dict
from mafiatab.messages import mark_text, problem_text, remark_text


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


def test_a_sentence_made_by_the_shell_is_shown_as_it_is():
    made = Problem("Q1", None, "round", "write a number")
    with translation.override("ru"):
        assert problem_text(made) == "write a number"


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
