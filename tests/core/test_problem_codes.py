"""Every code the core can emit has its English sentence, and every sentence is used.

The codes are found in the core's source: the fourth argument of each `problem(...)`
call, and the first of each `SeatingFlag(...)` / `SeatingError(...)`. (The Russian
side is checked by tests/web/test_messages.py, test_seating_flags.py and
test_seating_errors.py.)
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import mafiatab.core
from mafiatab.core.problems import PROBLEM_TEMPLATES, Problem, problem
from mafiatab.core.seating import ERROR_TEMPLATES, FLAG_TEMPLATES, SeatingFlag

CORE = Path(mafiatab.core.__file__).parent


def _codes(function: str, position: int) -> dict[str, list[str]]:
    """Constant codes passed to `function` in the core, with where they are."""
    found: dict[str, list[str]] = {}
    for path in CORE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            if name != function or len(node.args) <= position:
                continue
            arg = node.args[position]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.setdefault(arg.value, []).append(f"{path.name}:{node.lineno}")
            elif isinstance(arg, ast.IfExp):
                for branch in (arg.body, arg.orelse):
                    if isinstance(branch, ast.Constant):
                        found.setdefault(branch.value, []).append(f"{path.name}:{node.lineno}")
    return found


def test_every_problem_code_in_the_core_has_a_sentence():
    used = _codes("problem", 3)
    assert len(used) > 40
    unknown = {code: where for code, where in used.items() if code not in PROBLEM_TEMPLATES}
    assert not unknown


def test_every_seating_code_in_the_core_has_a_sentence():
    flags = _codes("SeatingFlag", 0)
    errors = _codes("SeatingError", 0)
    assert set(flags) <= set(FLAG_TEMPLATES), set(flags) - set(FLAG_TEMPLATES)
    assert set(errors) <= set(ERROR_TEMPLATES), set(errors) - set(ERROR_TEMPLATES)


def test_an_unknown_code_is_refused_when_the_problem_is_made():
    with pytest.raises(KeyError):
        problem("Q1", None, "seats", "seats.counted_wrong")


def test_a_problem_reads_its_sentence_from_its_code_and_parameters():
    made = problem("Q3-T2", 4, "judge_extra", "judge_extra.needs_approval", points="0.6")
    assert made == Problem(
        "Q3-T2", 4, "judge_extra", "judge_extra.needs_approval", {"points": "0.6"}
    )
    assert str(made) == (
        "game Q3-T2, seat 4, field judge_extra: 0.6 needs the chief judge's approval "
        "(chief_approved, 8.4.3)"
    )


def test_problems_are_values_that_can_be_collected_in_a_set():
    one = problem("Q1", 2, "player", "player.twice", player="Кэп", other=1)
    same = problem("Q1", 2, "player", "player.twice", player="Кэп", other=1)
    other = problem("Q1", 3, "player", "player.twice", player="Кэп", other=1)
    assert len({one, same, other}) == 2


def test_a_seating_flag_is_a_code_with_parameters_not_a_text():
    flag = SeatingFlag("stand_in", new="Anna", old="Old", round=1)
    assert not isinstance(flag, str)
    assert flag.to_json() == {
        "code": "stand_in",
        "params": {"new": "Anna", "old": "Old", "round": 1},
    }
    assert flag == SeatingFlag("stand_in", new="Anna", old="Old", round=1)
    assert str(flag) == "'Anna' stood in for 'Old' in round 1; 'Old' keeps his other games"
    with pytest.raises(KeyError):
        SeatingFlag("the planner gave up")
