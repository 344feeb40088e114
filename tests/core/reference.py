"""An independent reading of spec/scoring.md over tournament-file dicts.

The property tests compare `compute_standings` with it on random tournaments. It
is written straight from the spec, as plainly as possible, and knows nothing of
the implementation.
"""

from __future__ import annotations

import copy
from collections import Counter
from fractions import Fraction
from typing import Any

RED_TEAM = {"red", "sheriff"}
BLACK_TEAM = {"black", "don"}
COUNTERS = ("wins", "wins_as_don_or_sheriff", "first_night_deaths", "games")
POINTS = ("main", "extra", "penalties", "compensation")
LETTERS = {"К": "red", "Ш": "sheriff", "Ч": "black", "Д": "don"}

Game = dict[str, Any]
Row = dict[str, Any]


def exact(value: float) -> Fraction:
    """A JSON number as the decimal it was written as."""
    return Fraction(str(value))


def coefficient(
    data: dict[str, Any], counted: list[Game], names: list[str]
) -> tuple[Fraction, str | None]:
    """8.7: K and the heavy side."""
    red = sum(g["winner"] == "red" for g in counted)
    black = sum(g["winner"] == "black" for g in counted)
    if data.get("participants", len(names)) > 20 or not counted or red == black:
        return Fraction(1), None
    half = Fraction(len(counted), 2)
    return 1 + (half - min(red, black)) / half, "red" if red < black else "black"


def compensation(data: dict[str, Any], counted: list[Game]) -> tuple[int, Counter[str]]:
    """8.6: B and i of every player."""
    before = [g for g in counted if g["stage"] != "final"]
    per_player = Counter(s["player"] for g in before for s in g["seats"])
    gbf = data.get("games_before_final", max(per_player.values(), default=0))
    b = int(Fraction(2, 5) * gbf + Fraction(1, 2))
    kills: Counter[str] = Counter()
    for g in before:
        killed = g.get("first_killed")
        if killed and g["seats"][killed - 1]["role"] in RED_TEAM:
            kills[g["seats"][killed - 1]["player"]] += 1
    return b, kills


def ci(i: int, b: int) -> Fraction:
    """8.6.1."""
    return Fraction(2, 5) if i > b else Fraction(2, 5) * i / b


def removals(g: Game, rows: dict[str, Row], online: bool) -> None:
    """8.2.4 and the online addendum; they count in replayed games too."""
    for removal in g.get("disqualified", []):
        if removal["fined"]:
            fine = Fraction(-4, 5) if online and removal["online"] else Fraction(-1, 2)
            rows[g["seats"][removal["seat"] - 1]["player"]]["extra"] += fine


def wins(g: Game, rows: dict[str, Row], k: Fraction, heavy: str | None) -> None:
    """8.2.1, 8.2.2 and 8.7.3."""
    winning = RED_TEAM if g["winner"] == "red" else BLACK_TEAM
    for seat in g["seats"]:
        row = rows[seat["player"]]
        row["games"] += 1
        if g["winner"] != "draw" and seat["role"] in winning:
            row["wins"] += 1
            row["main"] += k if g["winner"] == heavy else 1
            row["wins_as_don_or_sheriff"] += seat["role"] in ("sheriff", "don")


def first_night(g: Game, rows: dict[str, Row], b: int, kills: Counter[str]) -> None:
    """8.3, 8.6 and the first-night deaths of 8.8.4."""
    killed = g.get("first_killed")
    if not killed:
        return
    seats = g["seats"]
    victim = seats[killed - 1]
    row = rows[victim["player"]]
    row["first_night_deaths"] += 1
    if victim["role"] not in RED_TEAM:
        return
    named = sum(seats[s - 1]["role"] in BLACK_TEAM for s in g.get("best_move", []))
    row["extra"] += {3: Fraction(2, 5), 2: Fraction(1, 4)}.get(named, Fraction(0))
    if g["stage"] != "final" and g["winner"] == "black":
        row["compensation"] += ci(kills[victim["player"]], b)
        row["main"] += ci(kills[victim["player"]], b)


def reference(data: dict[str, Any]) -> dict[str, Any]:
    """{"k": (K, heavy side, B), "rows": {player: {field: value}}} for a valid file."""
    data = copy.deepcopy(data)
    for g in data["games"]:
        for seat in g["seats"]:
            seat["role"] = LETTERS.get(seat["role"], seat["role"])
    counted = [g for g in data["games"] if not g.get("replayed")]
    names = list(dict.fromkeys(s["player"] for g in data["games"] for s in g["seats"]))
    rows = {p: dict.fromkeys(POINTS, Fraction(0)) | dict.fromkeys(COUNTERS, 0) for p in names}
    k, heavy = coefficient(data, counted, names)
    b, kills = compensation(data, counted)
    for g in data["games"]:
        removals(g, rows, data["ruleset"] == "fiim-online")
        if g.get("replayed"):
            continue
        wins(g, rows, k, heavy)
        first_night(g, rows, b, kills)
        for entry in g.get("judge_extra", []):
            rows[g["seats"][entry["seat"] - 1]["player"]]["extra"] += exact(entry["points"])
        for entry in g.get("penalties", []):
            rows[g["seats"][entry["seat"] - 1]["player"]]["extra"] -= Fraction(2, 5)
    for fine in data.get("penalties", []):
        rows[fine["player"]]["penalties"] += exact(fine["points"])
    for row in rows.values():
        row["total"] = row["main"] + row["extra"] + row["penalties"]
    return {"k": (k, heavy, b), "rows": rows}
