"""Measuring a schedule (spec/seating.md, "Quality, in order of importance")."""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence
from itertools import combinations

from mafiatab.core.seating.model import TABLE_SIZE, Metrics, Round


def pair_counts(players: Sequence[str], rounds: Iterable[Round]) -> dict[tuple[str, str], int]:
    """Games shared by each pair of the given players (pairs in player order, zeros included)."""
    position = {name: i for i, name in enumerate(players)}
    counts = {pair: 0 for pair in combinations(players, 2)}
    for rnd in rounds:
        for table in rnd.tables:
            known = sorted((position[n], n) for n in table.seats if n in position)
            for (_, p), (_, q) in combinations(known, 2):
                counts[(p, q)] += 1
    return counts


def seat_counts(players: Sequence[str], rounds: Iterable[Round]) -> dict[str, list[int]]:
    """How often each player sat in each seat (index 0 = seat 1)."""
    counts = {name: [0] * TABLE_SIZE for name in players}
    for rnd in rounds:
        for table in rnd.tables:
            for seat, name in enumerate(table.seats):
                if name in counts:
                    counts[name][seat] += 1
    return counts


def measure(
    players: Sequence[str],
    rounds: Sequence[Round],
    *,
    games: int,
    tables: int,
    fixed_players: Collection[str] = (),
    avoid: Iterable[frozenset[str]] = (),
    iterations: int = 0,
    stopped_by_time_limit: bool = False,
) -> Metrics:
    """All metrics of a schedule."""
    n = len(players)
    counts = pair_counts(players, rounds)
    top = max(counts.values(), default=0)
    histogram = [0] * (top + 1)
    for c in counts.values():
        histogram[c] += 1
    total_pairs = len(counts)
    mean = sum(counts.values()) / total_pairs if total_pairs else 0.0
    variance = sum((c - mean) ** 2 for c in counts.values()) / total_pairs if total_pairs else 0.0
    lam = (TABLE_SIZE - 1) * games / (n - 1) if n > 1 else 0.0
    ceiling = math.ceil(lam - 1e-9)
    seats = seat_counts(players, rounds)
    exact = all(
        sum(row) // TABLE_SIZE <= c <= -(-sum(row) // TABLE_SIZE)
        for row in seats.values()
        for c in row
    )
    avoided = 0
    for group in avoid:
        members = [name for name in players if name in group]
        avoided += sum(counts[pair] for pair in combinations(members, 2))
    consecutive, spread = _rotation(players, rounds, tables, set(fixed_players))
    return Metrics(
        players=n,
        games=games,
        tables=tables,
        rounds=len(rounds),
        mean_meetings=lam,
        max_meetings=top,
        histogram=tuple(histogram),
        repeated_pairs=sum(histogram[2:]),
        pairs_above_ceiling=sum(histogram[ceiling + 1 :]),
        variance=variance,
        seat_balance_exact=exact,
        seat_spread=max((max(r) - min(r) for r in seats.values()), default=0),
        consecutive_same_table=consecutive,
        table_spread=spread,
        avoided_meetings=avoided,
        iterations=iterations,
        stopped_by_time_limit=stopped_by_time_limit,
    )


def _rotation(
    players: Sequence[str], rounds: Sequence[Round], tables: int, fixed: set[str]
) -> tuple[int, int]:
    """(consecutive same-table sittings, worst table-visit spread), fixed players left out."""
    visits = {name: [0] * tables for name in players if name not in fixed}
    consecutive = 0
    last: dict[str, int] = {}
    for rnd in rounds:
        now: dict[str, int] = {}
        for table in rnd.tables:
            for name in table.seats:
                if name in visits:
                    now[name] = table.table
                    if 1 <= table.table <= tables:
                        visits[name][table.table - 1] += 1
        consecutive += sum(1 for name, t in now.items() if last.get(name) == t)
        last = now
    spread = max((max(v) - min(v) for v in visits.values()), default=0)
    return consecutive, spread
