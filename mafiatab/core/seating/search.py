"""Grouping players into tables round by round: simulated annealing over swaps.

The state is, for every planned round, a partition of the round's players into
groups of ten. A move swaps two players of one round who sit in different groups.
The cost is the sum over pairs of players of m², where m is the number of games
the pair shares (rounds already played and "virtual" meetings for pairs that
should avoid each other included). For a fixed number of games the sum of m² is
the variance of the pair counts up to constants, and it grows with every
repeated meeting, so minimising it spreads meetings as evenly as possible.

Because m² has linear increments, the change of cost of a swap of `a` (group A)
with `b` (group B) is ``2·(S(b,A) − S(a,A) + S(a,B) − S(b,B) − 2·m(a,b)) + 36``
where ``S(p, X)`` is the sum of p's meeting counts with the members of X: four
row sums over ten players, with the counts kept up to date incrementally (only
the 36 affected pairs change when a move is accepted).

The search is governed by an iteration budget, so that a seed gives the same
result on any machine; the time limit is only a safety cap, and when it cuts the
search short the caller is told.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from mafiatab.core.seating.model import TABLE_SIZE

#: Start and end temperatures of the geometric cooling schedule (cost units are m² steps).
START_TEMPERATURE = 2.0
END_TEMPERATURE = 0.3
#: The polish gets 1/POLISH_SHARE of the budget on top of it.
POLISH_SHARE = 5
#: Extra cost of a meeting that takes a pair's count above the cap.
CAP_PENALTY = 50
#: How often (in iterations) the temperature is updated and the clock looked at.
_CHECK_EVERY = 2048


@dataclass(frozen=True)
class SearchProblem:
    """What the grouping search is given (players are numbered 0..n-1)."""

    n_players: int
    """Number of players."""
    rounds: tuple[tuple[int, ...], ...]
    """For each planned round, the players who play in it."""
    groups_per_round: tuple[int, ...]
    """For each planned round, the number of tables in play."""
    pinned: tuple[dict[int, int], ...]
    """For each planned round, players that must stay in a given group (player -> group)."""
    base_counts: tuple[tuple[int, ...], ...]
    """Meetings before the search, player by player (played rounds plus avoid weights)."""
    cap: int = 0
    """Pair counts above this are punished hard in the final polish (0: no polish)."""


@dataclass(frozen=True)
class SearchResult:
    """The groups found and how the search went."""

    groups: tuple[tuple[tuple[int, ...], ...], ...]
    """For each planned round, the groups (group index = position)."""
    iterations: int
    """Iterations made."""
    stopped_by_time_limit: bool
    """True if the clock stopped the search before the budget was spent."""


def initial_groups(problem: SearchProblem, rng: random.Random) -> list[list[list[int]]]:
    """A random partition of every round, pinned players in their groups."""
    state: list[list[list[int]]] = []
    for players, n_groups, pinned in zip(
        problem.rounds, problem.groups_per_round, problem.pinned, strict=True
    ):
        groups: list[list[int]] = [[] for _ in range(n_groups)]
        for player, index in pinned.items():
            groups[index].append(player)
        free = [p for p in players if p not in pinned]
        rng.shuffle(free)
        for group in groups:
            take = TABLE_SIZE - len(group)
            group.extend(free[:take])
            del free[:take]
        state.append(groups)
    return state


def search_groups(
    problem: SearchProblem, *, seed: int, iterations: int, time_limit: float
) -> SearchResult:
    """Anneal the partition of every round; deterministic for a seed and a budget."""
    rng = random.Random(seed)
    groups = initial_groups(problem, rng)
    counts = [list(row) for row in problem.base_counts]
    for round_groups in groups:
        for group in round_groups:
            for i, p in enumerate(group):
                for q in group[i + 1 :]:
                    counts[p][q] += 1
                    counts[q][p] += 1
    started = time.monotonic()
    made, timed_out = _anneal(problem, groups, counts, rng, iterations, time_limit)
    if problem.cap and not timed_out:
        counts = [list(row) for row in problem.base_counts]
        for round_groups in groups:
            for group in round_groups:
                for i, p in enumerate(group):
                    for q in group[i + 1 :]:
                        counts[p][q] += 1
                        counts[q][p] += 1
        left = time_limit - (time.monotonic() - started)
        extra, timed_out = _polish(problem, groups, counts, rng, iterations // POLISH_SHARE, left)
        made += extra
    return SearchResult(
        groups=tuple(tuple(tuple(g) for g in rg) for rg in groups),
        iterations=made,
        stopped_by_time_limit=timed_out,
    )


def _anneal(
    problem: SearchProblem,
    groups: list[list[list[int]]],
    counts: list[list[int]],
    rng: random.Random,
    iterations: int,
    time_limit: float,
) -> tuple[int, bool]:
    """Run the annealing in place on `groups` and `counts`; return (iterations, timed out)."""
    movable, where, active = _prepare(problem, groups)
    if not active or iterations <= 0:
        return 0, False
    best = [[g[:] for g in rg] for rg in groups]
    cost = best_cost = 0
    tail = iterations // 2
    randrange, uniform = rng.randrange, rng.random
    exp = math.exp
    log_t0, log_t1 = math.log(START_TEMPERATURE), math.log(END_TEMPERATURE)
    deadline = time.monotonic() + time_limit
    temperature = START_TEMPERATURE
    for it in range(iterations):
        if it % _CHECK_EVERY == 0:
            if time.monotonic() > deadline:
                _restore(groups, best, cost, best_cost)
                return it, True
            temperature = exp(log_t0 + (log_t1 - log_t0) * it / iterations)
        r = active[randrange(len(active))]
        pool = movable[r]
        a = pool[randrange(len(pool))]
        b = pool[randrange(len(pool))]
        where_r = where[r]
        ga, gb = where_r[a], where_r[b]
        if ga == gb:
            continue
        row_a, row_b = counts[a], counts[b]
        members_a, members_b = groups[r][ga], groups[r][gb]
        delta = 2 * (
            sum(map(row_b.__getitem__, members_a))
            - sum(map(row_a.__getitem__, members_a))
            + sum(map(row_a.__getitem__, members_b))
            - sum(map(row_b.__getitem__, members_b))
            - 2 * row_a[b]
        ) + 4 * (TABLE_SIZE - 1)
        if delta > 0 and uniform() >= exp(-delta / temperature):
            continue
        _swap(counts, members_a, members_b, a, b)
        where_r[a], where_r[b] = gb, ga
        cost += delta
        if cost < best_cost and it >= tail:
            best_cost = cost
            best = [[g[:] for g in rg] for rg in groups]
    _restore(groups, best, cost, best_cost)
    return iterations, False


def _polish(
    problem: SearchProblem,
    groups: list[list[list[int]]],
    counts: list[list[int]],
    rng: random.Random,
    iterations: int,
    time_limit: float,
) -> tuple[int, bool]:
    """Descend (sideways moves allowed) with counts above the cap punished hard.

    The cost increments are no longer linear, so each move reads its 36 counts.
    """
    movable, where, active = _prepare(problem, groups)
    if not active or iterations <= 0 or time_limit <= 0:
        return 0, time_limit <= 0
    top = max(max(row) for row in counts) + 2 * TABLE_SIZE + len(groups)
    inc = [2 * k + 1 + (CAP_PENALTY if k >= problem.cap else 0) for k in range(top)]
    dec = [0, *inc]
    get_inc, get_dec = inc.__getitem__, dec.__getitem__
    randrange = rng.randrange
    deadline = time.monotonic() + time_limit
    for it in range(iterations):
        if it % _CHECK_EVERY == 0 and time.monotonic() > deadline:
            return it, True
        r = active[randrange(len(active))]
        pool = movable[r]
        a = pool[randrange(len(pool))]
        b = pool[randrange(len(pool))]
        where_r = where[r]
        ga, gb = where_r[a], where_r[b]
        if ga == gb:
            continue
        row_a, row_b = counts[a], counts[b]
        members_a, members_b = groups[r][ga], groups[r][gb]
        delta = (
            sum(map(get_inc, map(row_b.__getitem__, members_a)))
            - sum(map(get_dec, map(row_a.__getitem__, members_a)))
            + sum(map(get_inc, map(row_a.__getitem__, members_b)))
            - sum(map(get_dec, map(row_b.__getitem__, members_b)))
            - 2 * inc[row_a[b]]
            + 2 * inc[0]
        )
        if delta > 0:
            continue
        _swap(counts, members_a, members_b, a, b)
        where_r[a], where_r[b] = gb, ga
    return iterations, False


def _prepare(
    problem: SearchProblem, groups: list[list[list[int]]]
) -> tuple[list[list[int]], list[list[int]], list[int]]:
    """(movable players per round, group of each player per round, rounds with moves)."""
    movable = [
        [p for p in players if p not in pinned]
        for players, pinned in zip(problem.rounds, problem.pinned, strict=True)
    ]
    where: list[list[int]] = []
    for round_groups in groups:
        index = [-1] * problem.n_players
        for g, group in enumerate(round_groups):
            for p in group:
                index[p] = g
        where.append(index)
    active = [r for r, pool in enumerate(movable) if len(pool) >= 2 and len(groups[r]) >= 2]
    return movable, where, active


def _swap(
    counts: list[list[int]], members_a: list[int], members_b: list[int], a: int, b: int
) -> None:
    """Move `a` from group A to group B and `b` the other way, updating the counts."""
    row_a, row_b = counts[a], counts[b]
    for x in members_a:
        if x != a:
            row_a[x] -= 1
            counts[x][a] -= 1
            row_b[x] += 1
            counts[x][b] += 1
    for y in members_b:
        if y != b:
            row_b[y] -= 1
            counts[y][b] -= 1
            row_a[y] += 1
            counts[y][a] += 1
    members_a[members_a.index(a)] = b
    members_b[members_b.index(b)] = a


def _restore(
    groups: list[list[list[int]]], best: list[list[list[int]]], cost: int, best_cost: int
) -> None:
    """Put the best state seen back into `groups` if it beats the current one."""
    if best_cost < cost:
        groups[:] = best
