"""Invariants of scoring and standings on random valid tournaments (hypothesis)."""

from __future__ import annotations

import copy
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mafiatab.core.scoring import explain
from mafiatab.core.standings import Standing, Standings, compute_standings
from mafiatab.core.tournament_file import (
    dumps_tournament,
    loads_tournament,
    parse_tournament,
    tournament_to_dict,
)

from .reference import reference

CARDS = ("red",) * 6 + ("sheriff", "black", "black", "don")
BLACK_TEAM = ("black", "don")
RED_TEAM = {"red", "sheriff"}
BLACK_TEAM = {"black", "don"}
POOL = tuple(f"P{i:02d}" for i in range(24))
#: Judge points as they would be typed: multiples of 0.05 up to 0.7.
JUDGE_POINTS = tuple(float(Decimal(k) / 20) for k in range(1, 15))
#: 8.5 clause -> (roles allowed, results allowed).
RULES = {
    "8.5.1": (RED_TEAM, {"black"}),
    "8.5.2": ({"red"}, {"red", "black", "draw"}),
    "8.5.3": (RED_TEAM, {"black"}),
    "8.5.4": (BLACK_TEAM, {"red"}),
}
FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def winning_team(winner: str) -> set[str]:
    return RED_TEAM if winner == "red" else BLACK_TEAM


@st.composite
def judge_extras(draw: st.DrawFn, roles: tuple[str, ...], winner: str) -> list[dict[str, Any]]:
    """8.4: at most 3 players, 1.0 in total, 0.7 a winner (above 0.5 approved), 0.4 a loser."""
    if winner == "draw":
        return []
    entries = []
    total = Decimal(0)
    for seat in draw(st.lists(st.integers(1, 10), max_size=3, unique=True)):
        won = roles[seat - 1] in winning_team(winner)
        cap = Decimal("0.7") if won else Decimal("0.4")
        points = draw(st.sampled_from([p for p in JUDGE_POINTS if Decimal(str(p)) <= cap]))
        if total + Decimal(str(points)) > 1:
            continue
        total += Decimal(str(points))
        approved = points > 0.5 or draw(st.booleans())
        entries.append({"seat": seat, "points": points, "chief_approved": approved})
    return entries


@st.composite
def game_dicts(draw: st.DrawFn, gid: str, ruleset: str, pool: tuple[str, ...]) -> dict[str, Any]:
    players = draw(st.permutations(pool))[:10]
    roles = tuple(draw(st.permutations(CARDS)))
    winner = draw(st.sampled_from(["red", "black", "draw"]))
    data: dict[str, Any] = {
        "id": gid,
        "stage": draw(st.sampled_from(["qualifying", "qualifying", "semifinal", "final"])),
        "seats": [
            {"player": p, "role": r, "fouls": draw(st.integers(0, 3))}
            for p, r in zip(players, roles, strict=True)
        ],
        "winner": winner,
    }
    killed = draw(st.none() | st.integers(1, 10))
    if killed is not None:
        data["first_killed"] = killed
        others = st.integers(1, 10).filter(lambda s: s != killed)
        data["best_move"] = draw(st.lists(others, max_size=3, unique=True))
    data["judge_extra"] = draw(judge_extras(roles, winner))
    eligible = [
        (seat, rule)
        for rule, (allowed_roles, results) in RULES.items()
        if winner in results
        for seat in range(1, 11)
        if roles[seat - 1] in allowed_roles
    ]
    if eligible:
        chosen = draw(st.lists(st.sampled_from(eligible), max_size=2, unique=True))
        data["penalties"] = [{"seat": s, "rule": r} for s, r in chosen]
    data["disqualified"] = [
        {
            "seat": seat,
            "online": ruleset == "fiim-online" and draw(st.booleans()),
            "fined": draw(st.booleans()),
        }
        for seat in draw(st.lists(st.integers(1, 10), max_size=2, unique=True))
    ]
    left = {r["seat"] for r in data["disqualified"]} | {killed}
    team = [n for n, r in enumerate(roles, 1) if (r in BLACK_TEAM) == (winner == "black")]
    if winner != "draw" and all(seat in left for seat in team):
        data["disqualified"] = []  # the protocol would contradict its winner
    for removal in data["disqualified"]:
        if draw(st.booleans()):  # a fourth foul, recorded with its removal
            data["seats"][removal["seat"] - 1]["fouls"] = 4
    data["replayed"] = draw(st.sampled_from([False, False, False, True]))
    return data


@st.composite
def tournament_dicts(draw: st.DrawFn) -> dict[str, Any]:
    ruleset = draw(st.sampled_from(["fiim", "fiim-online"]))
    pool = POOL[: draw(st.integers(10, len(POOL)))]
    count = draw(st.integers(0, 6))
    games = [draw(game_dicts(f"G{i}", ruleset, pool)) for i in range(1, count + 1)]
    data: dict[str, Any] = {
        "format": "mafiatab-tournament/1",
        "name": "Random Cup",
        "ruleset": ruleset,
        "games": games,
    }
    if draw(st.booleans()):
        data["participants"] = draw(st.integers(10, 30))
    if draw(st.booleans()):
        data["games_before_final"] = draw(st.integers(0, 12))
    data["lot_seed"] = draw(st.integers(0, 10_000))
    playing = sorted({s["player"] for g in games if not g["replayed"] for s in g["seats"]})
    if playing:
        fines = st.fixed_dictionaries(
            {
                "player": st.sampled_from(playing),
                "points": st.sampled_from([0, -0.1, -0.25, -0.5, -1]),
                "reason": st.just("late"),
            }
        )
        data["penalties"] = draw(st.lists(fines, max_size=2))
    return data


def tie_key(r: Standing) -> tuple[Fraction, Fraction, int, int, int]:
    return (r.total, r.extra, r.wins, r.wins_as_don_or_sheriff, r.first_night_deaths)


def signature(s: Standings) -> dict[str, Any]:
    """Everything the lot cannot change: the numbers of every player, the ranks of the rest."""
    return {
        "k": (s.coefficient_k, s.heavy_side, s.compensation_b),
        "rows": {
            r.player: (
                r.total,
                r.main,
                r.extra,
                r.penalties,
                r.compensation,
                r.wins,
                r.wins_as_don_or_sheriff,
                r.first_night_deaths,
                r.games,
                r.decided_by_lot,
                None if r.decided_by_lot else r.rank,
            )
            for r in s.rows
        },
    }


def renamed(data: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    data = copy.deepcopy(data)
    for g in data["games"]:
        for seat in g["seats"]:
            seat["player"] = names[seat["player"]]
    for fine in data.get("penalties", []):
        fine["player"] = names[fine["player"]]
    return data


@FAST
@given(tournament_dicts())
def test_standings_match_an_independent_reading_of_the_spec(data):
    s = compute_standings(parse_tournament(data))
    expected = reference(data)
    k, heavy, b = expected["k"]
    assert (s.coefficient_k, s.compensation_b) == (k, b)
    assert (s.heavy_side.value if s.heavy_side else None) == heavy
    got = {r.player: {key: getattr(r, key) for key in expected["rows"][r.player]} for r in s.rows}
    assert got == expected["rows"]


@FAST
@given(tournament_dicts())
def test_total_is_main_plus_extra_plus_penalties(data):
    s = compute_standings(parse_tournament(data))
    for r in s.rows:
        assert r.total == r.main + r.extra + r.penalties
        assert r.main >= r.compensation >= 0
        assert r.penalties <= 0
        assert r.games >= r.wins >= r.wins_as_don_or_sheriff


@FAST
@given(tournament_dicts())
def test_standings_follow_the_8_8_chain_and_mark_ties(data):
    s = compute_standings(parse_tournament(data))
    rows = list(s.rows)
    assert [r.rank for r in rows] == list(range(1, len(rows) + 1))
    keys = [tie_key(r) for r in rows]
    assert keys == sorted(keys, reverse=True)
    shared = Counter(keys)
    assert [r.decided_by_lot for r in rows] == [shared[k] > 1 for k in keys]
    lot_groups = {frozenset(g) for g in s.lot}
    expected_groups = {
        frozenset(r.player for r in rows if tie_key(r) == k) for k, n in shared.items() if n > 1
    }
    assert lot_groups == expected_groups
    seated = {seat["player"] for g in data["games"] for seat in g["seats"]}
    assert {r.player for r in rows} == seated
    assert len(rows) == len(seated)


@FAST
@given(tournament_dicts(), st.randoms(use_true_random=False))
def test_order_of_games_does_not_change_the_standings(data, rnd):
    shuffled = copy.deepcopy(data)
    rnd.shuffle(shuffled["games"])
    before = compute_standings(parse_tournament(data))
    after = compute_standings(parse_tournament(shuffled))
    assert signature(after) == signature(before)


@FAST
@given(tournament_dicts(), st.permutations([f"N{i:02d}" for i in range(len(POOL))]))
def test_renaming_players_permutes_the_standings(data, new_names):
    names = dict(zip(POOL, new_names, strict=True))
    before = signature(compute_standings(parse_tournament(data)))
    after = signature(compute_standings(parse_tournament(renamed(data, names))))
    assert after["k"] == before["k"]
    assert after["rows"] == {names[p]: v for p, v in before["rows"].items()}


@FAST
@given(tournament_dicts())
def test_write_then_read_is_the_identity(data):
    t = parse_tournament(data)
    assert parse_tournament(tournament_to_dict(t)) == t
    assert loads_tournament(dumps_tournament(t)) == t


@FAST
@given(tournament_dicts())
def test_explain_lines_add_up_to_the_standing(data):
    t = parse_tournament(data)
    s = compute_standings(t)
    for r in s.rows:
        lines = explain(t, r.player)
        assert all(line.player == r.player for line in lines)
        by_kind = {
            kind: sum((x.points for x in lines if x.kind == kind), Fraction(0))
            for kind in ("main", "extra", "penalty")
        }
        assert {line.kind for line in lines} <= set(by_kind)
        assert sum((x.points for x in lines), Fraction(0)) == r.total
        assert by_kind["main"] == r.main
        assert by_kind["extra"] == r.extra
        assert by_kind["penalty"] == r.penalties
        assert all(line.clause for line in lines)


@FAST
@given(tournament_dicts())
def test_json_output_rounds_the_exact_numbers(data):
    s = compute_standings(parse_tournament(data))
    out = s.to_json()
    assert [r["player"] for r in out["standings"]] == [r.player for r in s.rows]
    for shown, r in zip(out["standings"], s.rows, strict=True):
        for key in ("total", "main", "extra", "penalties", "compensation"):
            exact = getattr(r, key)
            assert abs(Fraction(str(shown[key])) - exact) <= Fraction(1, 200), key
            assert round(shown[key], 2) == shown[key]
        assert shown["rank"] == r.rank
        assert shown["decided_by_lot"] is r.decided_by_lot
    assert abs(Fraction(str(out["coefficient_k"])) - s.coefficient_k) <= Fraction(1, 200)


def test_demo_standings_match_an_independent_reading_of_the_spec():
    from mafiatab.core.demo import demo_tournament_dict

    data = demo_tournament_dict()
    s = compute_standings(parse_tournament(data))
    expected = reference(data)
    heavy = s.heavy_side.value if s.heavy_side else None
    assert (s.coefficient_k, heavy, s.compensation_b) == expected["k"]
    got = {r.player: {key: getattr(r, key) for key in expected["rows"][r.player]} for r in s.rows}
    assert got == expected["rows"]
