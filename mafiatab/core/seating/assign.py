"""Mapping each round's groups to physical tables: an assignment problem per round.

Table numbers usually mean judges, so a player should not sit at the same table
in two consecutive rounds, and over the stage his visits should spread over the
tables. Each round is solved exactly (Hungarian algorithm) for a cost that puts
"same table as last round" far above "a table visited more often".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise

#: Cost of one player sitting at the table he sat at in the previous round.
REPEAT_COST = 10_000
#: A group that cannot go to a table (a player fixed to another table).
FORBIDDEN_COST = 10**9


def solve_assignment(cost: Sequence[Sequence[int]]) -> list[int]:
    """The column of each row minimising the total cost of a square matrix (Hungarian)."""
    n = len(cost)
    inf = float("inf")
    u = [0.0] * (n + 1)
    v = [0.0] * (n + 1)
    match = [0] * (n + 1)  # match[column] = row, 1-based, 0 = free
    way = [0] * (n + 1)
    for row in range(1, n + 1):
        match[0] = row
        col0 = 0
        minv = [inf] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[col0] = True
            row0 = match[col0]
            delta = inf
            col1 = 0
            for col in range(1, n + 1):
                if used[col]:
                    continue
                cur = cost[row0 - 1][col - 1] - u[row0] - v[col]
                if cur < minv[col]:
                    minv[col] = cur
                    way[col] = col0
                if minv[col] < delta:
                    delta = minv[col]
                    col1 = col
            for col in range(n + 1):
                if used[col]:
                    u[match[col]] += delta
                    v[col] -= delta
                else:
                    minv[col] -= delta
            col0 = col1
            if match[col0] == 0:
                break
        while col0:
            col1 = way[col0]
            match[col0] = match[col1]
            col0 = col1
    result = [0] * n
    for col in range(1, n + 1):
        result[match[col] - 1] = col - 1
    return result


def order_rounds(rounds: Sequence[Sequence[Sequence[int]]], n_players: int) -> list[int]:
    """An order of interchangeable rounds with few unavoidable same-table sittings.

    Two rounds that follow each other force at least d players to sit at the same
    table twice, d being the least total overlap of a one-to-one matching of their
    groups (an assignment problem). The order is a short path through the rounds for
    that distance: nearest neighbour from every start, then 2-opt reversals.
    """
    g = len(rounds)
    if g < 3:
        return list(range(g))
    group_of = []
    for groups in rounds:
        index = [0] * n_players
        for k, group in enumerate(groups):
            for p in group:
                index[p] = k
        group_of.append(index)
    players = [p for group in rounds[0] for p in group]
    dist = [[0] * g for _ in range(g)]
    for a in range(g):
        for b in range(a + 1, g):
            overlap = [[0] * len(rounds[b]) for _ in rounds[a]]
            for p in players:
                overlap[group_of[a][p]][group_of[b][p]] += 1
            columns = solve_assignment(overlap)
            dist[a][b] = dist[b][a] = sum(overlap[i][c] for i, c in enumerate(columns))
    path = min((_nearest_path(dist, start) for start in range(g)), key=lambda q: _length(dist, q))
    return _two_opt(dist, path)


def _length(dist: Sequence[Sequence[int]], path: Sequence[int]) -> int:
    return sum(dist[a][b] for a, b in pairwise(path))


def _nearest_path(dist: Sequence[Sequence[int]], start: int) -> list[int]:
    path = [start]
    left = set(range(len(dist))) - {start}
    while left:
        last = path[-1]
        nearest = min(left, key=lambda r: (dist[last][r], r))
        path.append(nearest)
        left.remove(nearest)
    return path


def _two_opt(dist: Sequence[Sequence[int]], path: list[int]) -> list[int]:
    """Reverse stretches path[i:j] of the path while that shortens it."""
    n = len(path)
    improved = True
    while improved:
        improved = False
        for i in range(n - 1):
            for j in range(i + 2, n + 1):
                first, last = path[i], path[j - 1]
                before = after = 0
                if i > 0:
                    before += dist[path[i - 1]][first]
                    after += dist[path[i - 1]][last]
                if j < n:
                    before += dist[last][path[j]]
                    after += dist[first][path[j]]
                if after < before:
                    path[i:j] = path[i:j][::-1]
                    improved = True
    return path


def assign_tables(
    rounds: Sequence[Sequence[Sequence[int]]],
    *,
    n_players: int,
    n_tables: int,
    pinned: Sequence[Mapping[int, int]],
    previous: Sequence[int] | None = None,
    visits: Sequence[Sequence[int]] | None = None,
) -> list[list[int]]:
    """For each round (a list of groups), the 0-based table of each group.

    `pinned[r]` maps a player to his 0-based table in round r; `previous` gives each player's
    table in the round before the first one (-1 when he did not play) and
    `visits[p][t]` how often he already sat at table t (rounds already played).
    A round with fewer groups than tables uses the lowest-numbered tables.
    """
    last = list(previous) if previous is not None else [-1] * n_players
    seen = [list(row) for row in visits] if visits is not None else None
    if seen is None:
        seen = [[0] * n_tables for _ in range(n_players)]
    result: list[list[int]] = []
    for groups, pins in zip(rounds, pinned, strict=True):
        size = len(groups)
        cost = [[_cost(group, t, last, seen, pins) for t in range(size)] for group in groups]
        tables = solve_assignment(cost)
        result.append(tables)
        last = [-1] * n_players
        for group, table in zip(groups, tables, strict=True):
            for p in group:
                last[p] = table
                seen[p][table] += 1
    return result


def _cost(
    group: Sequence[int],
    table: int,
    last: Sequence[int],
    seen: Sequence[Sequence[int]],
    pinned: Mapping[int, int],
) -> int:
    total = 0
    for p in group:
        fixed = pinned.get(p)
        if fixed is not None:
            if fixed != table:
                return FORBIDDEN_COST
            continue
        if last[p] == table:
            total += REPEAT_COST
        total += 2 * seen[p][table] + 1
    return total
