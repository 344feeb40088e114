"""The fast reading of well-formed files agrees with the reading that explains.

`records.read_well_formed` only ever says yes; everything else is read again by
`tournament_file`, which names every problem. These properties hold the two
readings together on valid tournaments and on tournaments broken in one place.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mafiatab.core.records import read_well_formed, tournament_from_data
from mafiatab.core.tournament_file import (
    TournamentFileError,
    loads_tournament,
    parse_tournament,
    parse_tournament_explained,
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
def test_a_valid_file_is_read_the_same_by_both_readings(data):
    assert read_well_formed(json.dumps(data)) == parse_tournament_explained(data, quick=False)
    assert parse_tournament(data) == parse_tournament_explained(data, quick=False)


@RUNS
@given(broken_documents())
def test_the_fast_reading_takes_only_what_the_full_reading_takes(data):
    text = json.dumps(data)
    fast = read_well_formed(text)
    try:
        full = parse_tournament_explained(json.loads(text), quick=False)
    except TournamentFileError:
        assert fast is None
        assert tournament_from_data(json.loads(text)) is None
    else:
        assert fast is None or fast == full
        assert parse_tournament(json.loads(text)) == full


@RUNS
@given(broken_documents())
def test_loading_a_file_gives_what_the_full_reading_gives(data):
    text = json.dumps(data)
    try:
        expected: object = parse_tournament_explained(json.loads(text), quick=False)
    except TournamentFileError as exc:
        expected = [str(p) for p in exc.problems]
    try:
        got: object = loads_tournament(text)
    except TournamentFileError as exc:
        got = [str(p) for p in exc.problems]
    assert got == expected


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


def test_the_fast_reading_takes_a_plain_valid_file():
    expected = parse_tournament_explained(_valid(), quick=False)
    assert read_well_formed(json.dumps(_valid())) == expected
    assert tournament_from_data(_valid()) == expected


@pytest.mark.parametrize("data", _broken_settings())
def test_the_fast_reading_leaves_every_broken_setting_to_the_full_reading(data):
    assert read_well_formed(json.dumps(data)) is None
    assert tournament_from_data(data) is None
    with pytest.raises(TournamentFileError):
        loads_tournament(json.dumps(data))
