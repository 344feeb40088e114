"""Every code the engine can produce is one of `MESSAGES`, the catalogue the shell's one
translator says (its Russian is checked by tests/web/test_messages.py)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import mafiatab.core.game
from mafiatab.core.game import MESSAGES
from mafiatab.core.game.problems import NICKNAME_CODES, TEXT_CODES
from mafiatab.core.names import nickname_problems, text_problems

GAME = Path(mafiatab.core.game.__file__).parent
PREFIXES = {code.split(".")[0] for code in MESSAGES}
CODE = re.compile(r"[a-z][a-z0-9_]*\.[a-z0-9_]+")


def _codes_in_calls() -> dict[str, list[str]]:
    """Constant texts shaped like an engine code anywhere in the engine outside the
    catalogue itself (an argument of a refusal, a voting's due refusal)."""
    found: dict[str, list[str]] = {}
    for path in GAME.glob("*.py"):
        if path.name == "problems.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and CODE.fullmatch(node.value)
                and node.value.split(".")[0] in PREFIXES
            ):
                found.setdefault(node.value, []).append(f"{path.name}:{node.lineno}")
    return found


def test_every_code_in_the_engine_has_a_catalogue_entry():
    used = _codes_in_calls()
    assert len(used) > 40
    assert {code: where for code, where in used.items() if code not in MESSAGES} == {}


def test_every_catalogue_entry_is_a_code_the_engine_produces():
    produced = set(_codes_in_calls()) | set(NICKNAME_CODES.values()) | set(TEXT_CODES.values())
    assert set(MESSAGES) - produced == set()


def test_a_wrong_nickname_and_a_wrong_text_have_an_engine_code_each():
    for text in ("", "x" * 100, "a\x00b", "a\u202eb"):
        for code in nickname_problems(text):
            assert NICKNAME_CODES[code] in MESSAGES
        for code in text_problems(text, 10):
            assert TEXT_CODES[code] in MESSAGES
