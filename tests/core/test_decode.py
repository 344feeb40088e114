"""Reading a file's JSON: msgspec's speed with the standard library's meaning."""

from __future__ import annotations

import json

import pytest

from mafiatab.core.tournament_file import (
    TournamentFileError,
    decode_json,
    dumps_tournament,
    loads_tournament,
)

from .factories import tournament


def test_a_file_with_a_byte_order_mark_is_read():
    text = dumps_tournament(loads_tournament(json.dumps(tournament())))
    assert loads_tournament(b"\xef\xbb\xbf" + text.encode()) == loads_tournament(text)


@pytest.mark.parametrize(
    "text",
    [b'{"a": NaN}', b'{"a": 1e400}', b'{"a": "\\ud800"}', '{"a": [1, 2.5, "Лис"]}', b"[]"],
)
def test_decoding_means_what_the_standard_library_means(text):
    assert repr(decode_json(text)) == repr(json.loads(text))


def test_broken_json_is_refused_with_a_problem_not_a_traceback():
    with pytest.raises(TournamentFileError) as refused:
        loads_tournament(b'{"format": "mafiatab-tournament/1",')
    (problem,) = refused.value.problems
    assert problem.field == "file"
    assert "not valid JSON" in problem.message
