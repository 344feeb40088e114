"""The one reading: every door gives the same protocols and the same problems.

A file's text (`loads_tournament`), a decoded document (`parse_tournament`) and a
single protocol's dictionary (`protocol_from_dict`) are read by the same records of
`mafiatab.core.records`. These properties hold the doors together on valid
tournaments and on tournaments broken in one place, and check that a broken one
is always refused with coded problems, never with another exception.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mafiatab.core.problems import PROBLEM_TEMPLATES
from mafiatab.core.tournament_file import (
    TournamentFileError,
    loads_tournament,
    parse_tournament,
    protocol_from_dict,
)

from .factories import TEN, game, tournament
from .test_properties import tournament_dicts

RUNS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Values a broken file may hold where something else belongs.
ODD_VALUES = [None, "", " ", "x", "К", 0, -1, 11, 1.5, 0.75, True, False, [], {}, [1, 2, 3, 4]]


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON document: keys of objects and items of lists."""
    found = [path] if path else []
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _paths(inner, (*path, index))
    return found


@st.composite
def broken_documents(draw: st.DrawFn) -> dict[str, Any]:
    data = copy.deepcopy(draw(tournament_dicts()))
    paths = _paths(data)
    # Half the time a place outside the seats: settings, penalties, game fields.
    shallow = [p for p in paths if len(p) <= 4 and "seats" not in p]
    path = draw(st.sampled_from(shallow) | st.sampled_from(paths))
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    if isinstance(parent, dict) and draw(st.booleans()):
        del parent[path[-1]]
    else:
        parent[path[-1]] = draw(st.sampled_from(ODD_VALUES))
    return data


@RUNS
@given(tournament_dicts())
def test_a_valid_file_is_read_the_same_through_every_door(data):
    from_text = loads_tournament(json.dumps(data))
    assert from_text == parse_tournament(data)
    for position, (raw, protocol) in enumerate(zip(data["games"], from_text.games, strict=True), 1):
        assert protocol_from_dict(raw, position=position, ruleset=data["ruleset"]) == protocol


def _outcome(read: Any, data: Any) -> object:
    try:
        return read(data)
    except TournamentFileError as exc:
        assert exc.problems, "a refusal names at least one problem"
        for p in exc.problems:
            assert p.code in PROBLEM_TEMPLATES, p
            assert p.field
        return [str(p) for p in exc.problems]


@RUNS
@given(broken_documents())
def test_a_broken_file_gets_the_same_answer_through_both_doors(data):
    text = json.dumps(data)
    assert _outcome(loads_tournament, text) == _outcome(parse_tournament, json.loads(text))


def _valid() -> dict[str, Any]:
    return tournament(
        game("Q1"),
        game("Q2"),
        penalties=[{"player": TEN[0], "points": -0.5, "reason": "late"}],
    )


def _broken_settings() -> list[dict[str, Any]]:
    cases = []
    for change in (
        lambda d: d["penalties"][0].update(points=0.5),
        lambda d: d["penalties"][0].update(player="Nobody"),
        lambda d: d["penalties"][0].update(player=""),
        lambda d: d["games"][1].update(id="Q1"),
        lambda d: d["games"][1].update(id=" "),
        lambda d: d.update(participants=-1),
        lambda d: d.update(games_before_final=-2),
        lambda d: d.update(name=" "),
        lambda d: d.update(format="mafiatab-tournament/2"),
        lambda d: d.update(ruleset="fiim-2030"),
        lambda d: d["games"][0]["seats"].pop(),
    ):
        data = _valid()
        change(data)
        cases.append(data)
    return cases


@pytest.mark.parametrize("data", _broken_settings())
def test_every_broken_setting_is_refused_through_both_doors(data):
    with pytest.raises(TournamentFileError):
        loads_tournament(json.dumps(data))
    with pytest.raises(TournamentFileError):
        parse_tournament(data)
