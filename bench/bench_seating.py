"""Seating quality, side by side: our generator, a random seating, plain hill climbing.

Run as `.venv/bin/python bench/bench_seating.py [--seed S]`. Every method gets the
same inputs (players, games, tables, seed) in the same run; the hill climber gets
as much time as the generator took. Below each case the goals are checked:
seat balance always exact; N=30 G=10: max ≤ 5 and variance ≤ 1.0; N=100 G=10:
max ≤ 3 and ≤ 650 pairs meeting twice or more (stretch: max 2 and ≤ 550);
N=200 G=12: max 2 and ≤ 350 such pairs (stretch: ≤ 150). Times are wall-clock
seconds; the default budget is meant to stay well inside the 8 s time limit.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mafiatab.core.seating import Metrics, Round, Table, plan_seating
from mafiatab.core.seating.metrics import measure

CASES = ((30, 10), (100, 10), (200, 12))

#: (name, test) pairs per case: the goals, then the stretch goals.
Check = tuple[str, Callable[[Metrics], bool]]
GOALS: dict[tuple[int, int], tuple[tuple[Check, ...], tuple[Check, ...]]] = {
    (30, 10): (
        (
            ("max ≤ 5", lambda m: m.max_meetings <= 5),
            ("variance ≤ 1.0", lambda m: m.variance <= 1.0),
        ),
        (),
    ),
    (100, 10): (
        (
            ("max ≤ 3", lambda m: m.max_meetings <= 3),
            ("2+ ≤ 650", lambda m: m.repeated_pairs <= 650),
        ),
        (
            ("max ≤ 2", lambda m: m.max_meetings <= 2),
            ("2+ ≤ 550", lambda m: m.repeated_pairs <= 550),
        ),
    ),
    (200, 12): (
        (
            ("max ≤ 2", lambda m: m.max_meetings <= 2),
            ("2+ ≤ 350", lambda m: m.repeated_pairs <= 350),
        ),
        (("2+ ≤ 150", lambda m: m.repeated_pairs <= 150),),
    ),
}


def random_seating(n: int, games: int, seed: int) -> list[list[list[int]]]:
    """Each round a fresh random split of everybody into tables of ten (N a multiple of 10)."""
    rng = random.Random(seed)
    rounds = []
    for _ in range(games):
        order = list(range(n))
        rng.shuffle(order)
        rounds.append([order[k : k + 10] for k in range(0, n, 10)])
    return rounds


def hill_climb(  # noqa: C901 - a deliberately plain, self-contained baseline
    n: int, games: int, seed: int, seconds: float
) -> list[list[list[int]]]:
    """Random swaps of two players of one round, kept when the sum of m² does not grow."""
    rng = random.Random(seed)
    rounds = random_seating(n, games, seed)
    counts = [[0] * n for _ in range(n)]
    for groups in rounds:
        for group in groups:
            for p, q in combinations(group, 2):
                counts[p][q] += 1
                counts[q][p] += 1
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for _ in range(1000):
            groups = rounds[rng.randrange(games)]
            ga, gb = rng.sample(range(len(groups)), 2)
            i, j = rng.randrange(10), rng.randrange(10)
            a, b = groups[ga][i], groups[gb][j]
            delta = 0
            for x in groups[ga]:
                if x != a:
                    delta += 2 * (counts[b][x] - counts[a][x]) + 2
            for y in groups[gb]:
                if y != b:
                    delta += 2 * (counts[a][y] - counts[b][y]) + 2
            if delta > 0:
                continue
            for x in groups[ga]:
                if x != a:
                    counts[a][x] -= 1
                    counts[x][a] -= 1
                    counts[b][x] += 1
                    counts[x][b] += 1
            for y in groups[gb]:
                if y != b:
                    counts[b][y] -= 1
                    counts[y][b] -= 1
                    counts[a][y] += 1
                    counts[y][a] += 1
            groups[ga][i], groups[gb][j] = b, a
    return rounds


def as_rounds(rounds: Sequence[Sequence[Sequence[int]]], names: Sequence[str]) -> list[Round]:
    """Plain groups as rounds, tables in order and seats in the order drawn."""
    return [
        Round(
            round=r + 1,
            tables=tuple(
                Table(table=t + 1, seats=tuple(names[p] for p in group))
                for t, group in enumerate(groups)
            ),
        )
        for r, groups in enumerate(rounds)
    ]


def measured(n: int, games: int, rounds: Sequence[Round]) -> Metrics:
    names = [str(i) for i in range(1, n + 1)]
    return measure(names, rounds, games=games, tables=n // 10)


def row(method: str, n: int, games: int, m: Metrics, seconds: float) -> str:
    histogram = " ".join(str(k) for k in m.histogram)
    return (
        f"{n:>4} {games:>3}  {method:<14} {m.max_meetings:>4} {m.repeated_pairs:>6} "
        f"{m.pairs_above_ceiling:>6} {m.variance:>8.3f}  "
        f"{'yes' if m.seat_balance_exact else 'no':<6}"
        f"{seconds:>7.2f}  {histogram}"
    )


def verdict(checks: Sequence[Check], m: Metrics) -> str:
    return ", ".join(f"{name} {'met' if test(m) else 'MISSED'}" for name, test in checks)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        "   N   G  method          max  2+    >ceil  variance  exact   time s  histogram (0 1 ...)"
    )
    all_met = True
    for n, games in CASES:
        names = [str(i) for i in range(1, n + 1)]
        start = time.perf_counter()
        schedule = plan_seating(names, games, seed=args.seed)
        ours = time.perf_counter() - start
        m = schedule.metrics
        print(row("mafiatab", n, games, m, ours))
        start = time.perf_counter()
        drawn = random_seating(n, games, args.seed)
        seconds = time.perf_counter() - start
        print(row("random", n, games, measured(n, games, as_rounds(drawn, names)), seconds))
        start = time.perf_counter()
        climbed = hill_climb(n, games, args.seed, ours)
        seconds = time.perf_counter() - start
        print(
            row("hill climbing", n, games, measured(n, games, as_rounds(climbed, names)), seconds)
        )
        goals, stretch = GOALS[(n, games)]
        exact: Check = ("seat balance exact", lambda m: m.seat_balance_exact)
        met = all(test(m) for _, test in (*goals, exact))
        all_met = all_met and met and not m.stopped_by_time_limit
        print(f"{'':>10}goals: {verdict((*goals, exact), m)}")
        if stretch:
            print(f"{'':>10}stretch: {verdict(stretch, m)}")
        cut = ", CUT BY THE TIME LIMIT" if m.stopped_by_time_limit else ""
        print(f"{'':>10}search: {m.iterations} iterations{cut}")
        for flag in schedule.flags:
            print(f"{'':>10}flag: {flag}")
    print("all goals met" if all_met else "SOME GOALS MISSED")
    return 0 if all_met else 1


if __name__ == "__main__":
    sys.exit(main())
