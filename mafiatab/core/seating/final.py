"""The final at one table (stages.md): ten players, G games, seated so that each sits
in each seat floor(G/10) or ceil(G/10) times and each ordered pair (A right after B)
occurs floor(9G/90) or ceil(9G/90) times.

The plan is built from Williams squares: with s = 0, 1, 9, 2, 8, 3, 7, 4, 6, 5, game i
seats player (i + s_j) mod 10 in seat j + 1. Each player sits in each seat once over
ten games (the seats are a Latin square), and the steps between neighbouring seats,
s_{j+1} - s_j = 1, -2, 3, ..., 9 mod 10, are all different, so every ordered pair of
players sits side by side, in that order, in exactly one of the ten games. G = 10q + r
games take q whole squares and r games of one more (any r games of a square repeat no
seat and no pair), each square with its own seeded order of games and of players.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from itertools import permutations

from mafiatab.core.seating.metrics import measure
from mafiatab.core.seating.model import (
    MAX_GAMES,
    TABLE_SIZE,
    AfterMetrics,
    Round,
    Schedule,
    SeatingError,
    Table,
)

#: The first game of the Williams square of ten: 0, 1, 9, 2, 8, 3, 7, 4, 6, 5.
_STEPS = tuple(
    0 if j == 0 else (j + 1) // 2 if j % 2 else TABLE_SIZE - j // 2 for j in range(TABLE_SIZE)
)


def williams_square() -> tuple[tuple[int, ...], ...]:
    """The ten games of the square, each the player index of seats 1..10."""
    return tuple(tuple((game + step) % TABLE_SIZE for step in _STEPS) for game in range(TABLE_SIZE))


def plan_final(players: Sequence[str], games: int, *, seed: int = 0) -> Schedule:
    """The final at one table: `players` (ten, distinct), `games` games each.

    The same seed and players give the same plan. SeatingError for wrong inputs.
    """
    names = _checked(players, games)
    rng = random.Random(seed)
    rows: list[tuple[str, ...]] = []
    while len(rows) < games:
        order = list(williams_square())
        rng.shuffle(order)
        who = list(names)
        rng.shuffle(who)
        rows.extend(tuple(who[i] for i in game) for game in order[: games - len(rows)])
    rounds = tuple(Round(number, (Table(1, seats),)) for number, seats in enumerate(rows, start=1))
    # The final's table is the same every game: every player is fixed to it.
    metrics = measure(names, rounds, games=games, tables=1, fixed_players=names)
    metrics = replace(metrics, after=after_metrics(names, rounds))
    return Schedule(
        players=tuple(names),
        games=games,
        tables=1,
        seed=seed,
        rounds=rounds,
        fixed_rounds=0,
        metrics=metrics,
        flags=(),
    )


def _checked(players: Sequence[str], games: int) -> list[str]:
    if isinstance(players, str):
        raise SeatingError("players.one_string")
    names = list(players)
    for name in names:
        if not isinstance(name, str) or not name:
            raise SeatingError("players.bad_name", value=repr(name)[:40])
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise SeatingError("players.twice", name=twice)
    if len(names) < TABLE_SIZE:
        raise SeatingError("players.too_few", count=len(names), size=TABLE_SIZE)
    if len(names) > TABLE_SIZE:
        raise SeatingError("players.too_many", count=len(names), limit=TABLE_SIZE)
    if type(games) is not int or games < 1:
        raise SeatingError("games.below_one", games=games)
    if games > MAX_GAMES:
        raise SeatingError("games.too_many", games=games, limit=MAX_GAMES)
    return names


def after_counts(players: Sequence[str], rounds: Sequence[Round]) -> dict[tuple[str, str], int]:
    """How often each ordered pair (a, b) occurs with a in the seat right after b's."""
    counts = dict.fromkeys(permutations(players, 2), 0)
    for rnd in rounds:
        for table in rnd.tables:
            for before, after in zip(table.seats, table.seats[1:], strict=False):
                if (after, before) in counts:
                    counts[after, before] += 1
    return counts


def after_metrics(players: Sequence[str], rounds: Sequence[Round]) -> AfterMetrics:
    """The largest and smallest count over the 90 ordered pairs, and their histogram."""
    counts = after_counts(players, rounds).values()
    top = max(counts, default=0)
    histogram = [0] * (top + 1)
    for count in counts:
        histogram[count] += 1
    return AfterMetrics(max=top, min=min(counts, default=0), histogram=tuple(histogram))
