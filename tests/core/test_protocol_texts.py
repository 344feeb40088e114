"""The one protocol validator refuses free texts that no page, archive or database
can hold, whatever the door: a control character, a lone surrogate or a
text-direction character in a reason, the judge's name or the id."""

from __future__ import annotations

import pytest

from mafiatab.core.names import printable, printable_json, text_problems
from mafiatab.core.records import TournamentFileError, read_protocol
from mafiatab.core.regulations import REGULATIONS

from .factories import game

HOSTILE = ["a\ud800", "a\x00b", "a\x1bb", "a\u202eb", "a\u2067b"]


def _problems(data):
    with pytest.raises(TournamentFileError) as caught:
        read_protocol(data, 1, REGULATIONS["fiim"])
    return [(p.field, p.seat, p.code) for p in caught.value.problems]


@pytest.mark.parametrize("text", HOSTILE)
def test_a_removal_reason_that_no_page_can_hold_is_refused_naming_its_seat(text):
    data = game(fouls=[0] * 10, disqualified=[{"seat": 4, "reason": text}])
    (field, seat, code), *_ = _problems(data)
    assert (field, seat) == ("disqualified.reason", 4)
    assert code in ("text.control_character", "text.bidi_character")


@pytest.mark.parametrize("text", HOSTILE)
def test_every_reason_and_the_judge_are_checked(text):
    data = game(
        judge=text,
        penalties=[{"seat": 2, "rule": "8.2.4", "reason": text}],
        judge_extra=[{"seat": 1, "points": 0.1, "reason": text}],
    )
    fields = {field for field, _, code in _problems(data) if code.startswith("text.")}
    assert fields == {"judge", "penalties.reason", "judge_extra.reason"}


def test_a_reason_in_any_script_with_line_breaks_is_taken():
    data = game(disqualified=[{"seat": 4, "reason": "Оскорбление\nигрока"}])
    assert read_protocol(data, 1, REGULATIONS["fiim"]).disqualified[0].reason.startswith("Оск")


def test_text_problems_and_the_printable_form():
    assert text_problems("plain") == [] and text_problems("x" * 11, 10) == ["text.too_long"]
    assert printable("a\ud800b\u202ec\x00\n") == "a\\ud800b\\u202ec\\u0000\n"
    assert printable_json({"k\x00": [float("nan"), "\ud800", 1]}) == {
        "k\\u0000": ["nan", "\\ud800", 1]
    }


def test_a_tournament_file_with_a_text_direction_character_in_a_reason_is_refused():
    import json

    from mafiatab.core.tournament_file import loads_tournament

    data = game(disqualified=[{"seat": 4, "reason": "a\u202eb"}])
    document = {"format": "mafiatab-tournament/1", "name": "T", "ruleset": "fiim", "games": [data]}
    with pytest.raises(TournamentFileError) as caught:
        loads_tournament(json.dumps(document))
    assert [(p.field, p.code) for p in caught.value.problems] == [
        ("disqualified.reason", "text.bidi_character")
    ]
