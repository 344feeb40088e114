"""Worked examples of section 8 as golden files (see golden/README.md)."""

from __future__ import annotations

import json
from itertools import groupby
from pathlib import Path
from typing import Any

import pytest

from mafiatab.core.advancing import advance, standings_json
from mafiatab.core.standings import compute_standings
from mafiatab.core.tournament_file import load_tournament, parse_tournament

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
    got = json.loads(json.dumps(standings_json(compute_standings(load_tournament(case)))))
    assert lot_free(got) == lot_free(expected)


PLANNED = [c for c in CASES if "stages" in json.loads(c.read_text(encoding="utf-8"))]


def test_the_cases_with_a_stage_plan_cover_carry_reset_a_semifinal_and_both_cut_ties():
    assert {c.stem for c in PLANNED} >= {
        "stages_final_carry",
        "stages_final_reset",
        "stages_semifinal",
        "stages_cut_by_chain",
        "stages_cut_by_lot",
    }


@pytest.mark.parametrize("case", PLANNED, ids=[c.stem for c in PLANNED])
def test_a_planned_case_without_its_plan_gives_todays_order(case: Path):
    """The same games without `stages`: every player by the 8.8 chain alone, no stage keys."""
    data = json.loads(case.read_text(encoding="utf-8"))
    del data["stages"]
    expected_path = case.with_name(f"{case.stem}.without_plan.expected.json")
    expected = json.loads(expected_path.read_text(encoding="utf-8"))
    got = json.loads(json.dumps(standings_json(compute_standings(parse_tournament(data)))))
    assert lot_free(got) == lot_free(expected)
    assert all(set(row) == set(expected["standings"][0]) for row in got["standings"])
    assert "stage" not in expected["standings"][0]
    totals = [row["total"] for row in got["standings"]]
    assert totals == sorted(totals, reverse=True)


def _lot_free_advance(document: dict[str, Any]) -> dict[str, Any]:
    """The advance list with the players the lot decided as a set: how many of them
    advance, not which (the spec fixes the tie, not the draw)."""
    entries = document["entries"]
    lot = [e for e in entries if any(r["code"] == "advance.tie_lot" for r in e["remarks"])]
    rest = [e for e in entries if e not in lot]
    return {
        **{k: v for k, v in document.items() if k != "entries"},
        "entries": sorted((e["player"], e["advances"], str(e["remarks"])) for e in rest),
        "ranks": sorted(e["rank"] for e in entries),
        "lot": sorted(e["player"] for e in lot),
        "lot_advancing": sum(e["advances"] for e in lot),
    }


ADVANCING = [c for c in PLANNED if c.with_name(f"{c.stem}.advance.expected.json").exists()]


@pytest.mark.parametrize("case", ADVANCING, ids=[c.stem for c in ADVANCING])
def test_golden_advance_list(case: Path):
    expected_path = case.with_name(f"{case.stem}.advance.expected.json")
    expected = json.loads(expected_path.read_text(encoding="utf-8"))
    standings = compute_standings(load_tournament(case))
    from_stage = standings.rows[0].stage
    assert standings.plan is not None and from_stage is not None
    into = standings.plan.next_stage(from_stage)
    assert into is not None
    got = json.loads(json.dumps(advance(standings, into).to_json()))
    assert _lot_free_advance(got) == _lot_free_advance(expected)
