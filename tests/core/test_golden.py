"""Worked examples of section 8 as golden files (see golden/README.md)."""

from __future__ import annotations

import json
from itertools import groupby
from pathlib import Path
from typing import Any

import pytest

from mafiatab.core.standings import compute_standings
from mafiatab.core.tournament_file import load_tournament

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".expected.json"))
TIE_KEYS = ("total", "extra", "wins", "wins_as_don_or_sheriff", "first_night_deaths")


def lot_free(output: dict[str, Any]) -> dict[str, Any]:
    """The output with every group ordered by the lot sorted by player, keeping its ranks.

    The spec fixes which players draw lots and the ranks they share, not the draw.
    """
    rows = output["standings"]

    def group_key(indexed: tuple[int, dict[str, Any]]) -> object:
        i, r = indexed
        if not r["decided_by_lot"]:
            return ("alone", i)
        return tuple(r[k] for k in TIE_KEYS)

    result = []
    for _, group in groupby(enumerate(rows), key=group_key):
        members = [r for _, r in group]
        ranks = sorted(r["rank"] for r in members)
        for rank, r in zip(ranks, sorted(members, key=lambda r: r["player"]), strict=True):
            result.append({**r, "rank": rank})
    return {**output, "standings": result}


def test_every_golden_case_has_its_expected_output_and_note():
    assert len(CASES) >= 10
    notes = (GOLDEN / "README.md").read_text(encoding="utf-8")
    for case in CASES:
        assert case.with_suffix(".expected.json").exists(), case.name
        assert f"## {case.stem}\n" in notes, case.name


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_golden_standings(case: Path):
    expected = json.loads(case.with_suffix(".expected.json").read_text(encoding="utf-8"))
    got = json.loads(json.dumps(compute_standings(load_tournament(case)).to_json()))
    assert lot_free(got) == lot_free(expected)
