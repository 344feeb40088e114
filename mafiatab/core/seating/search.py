"""Grouping players into tables round by round: conflict-directed annealing.

The state is, for every planned round, a partition of the round's players into
groups of ten. A move swaps two players of one round who sit in different groups.
The cost is a sum over pairs of players of a convex penalty of m, the number of
games the pair shares (rounds already played and "virtual" meetings for pairs
that should avoid each other included): m², which for a fixed number of games is
the variance of the pair counts up to constants; the final polish (a descent) adds
an extra per meeting above ceil(λ) and a steeper one above ceil(λ) + 1, the cap.

Pair counts are kept in one row per player and updated incrementally. The change
of cost of moving `a` from group A to group B while `b` goes the other way is
four sums of ten penalty increments (`a` leaving A, joining B, and the same for
`b`), so a move is evaluated without recounting anything.

Moves are directed at conflicts: most of the time a pair that shares more games
than the mean allows (kept in a list updated with the counts) is picked, with a
round where it sits together; one of the two leaves, for the group of that round
where he has met the fewest, swapping with the best of a few of its members. The
rest of the time the player to move is drawn at random. A move is accepted by the
Metropolis rule at a low, geometrically falling temperature.

When no round has two tables (one table a round, players sitting out), no such swap
exists and who plays which round is all there is to choose: a move then lets a player
of one round and one who sits it out trade places there and in the nearest round where
it is the other way round, provided that they play the same rounds in between and have
the same games left after both. The trade only swaps their roles over those rounds, so
players still sit out in turn (`_anneal_exchanges`).

The start is the better of a greedy construction (each player joins the group he
has met least) and the lines of an affine plane (`affine_groups`): with T tables,
T prime ≥ 11 and G ≤ T, the latter is a schedule where no pair meets twice, and
near such sizes it leaves the annealing far less to repair.

When ceil(λ) is 1 the search stops as soon as no pair meets twice: nothing is
better. Otherwise it is governed by an iteration budget, so that a seed gives the same
result on any machine; the time limit is only a safety cap, and when it cuts the
search short the caller is told.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from mafiatab.core.seating.model import TABLE_SIZE

#: The start temperature of the geometric cooling is this times λ² (cost units: steps of m²),
#: within the bounds below: with few meetings per pair, a good start melts at a lower heat.
TEMPERATURE_PER_MEAN2 = 2.4
MIN_START_TEMPERATURE = 0.5
MAX_START_TEMPERATURE = 2.0
#: The end temperature is the start temperature divided by this.
COOLING_RATIO = 6.0
#: Share of moves that start from a pair in conflict (the others start from a random player).
CONFLICT_SHARE = 0.9
#: Members of the target group tried as swap partners in one move.
CANDIDATES = 3
#: The polish gets 1/POLISH_SHARE of the budget on top of it.
POLISH_SHARE = 5
#: In the polish, a pair k meetings above the cap costs this times k² more.
CAP_PENALTY = 12
#: Extra cost, in the polish, of a meeting that takes a pair's count above the ceiling.
CEILING_PENALTY = 2
#: How often (in iterations) the temperature is updated and the clock looked at.
_CHECK_EVERY = 256


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
    mean: float = 1.0
    """λ, the mean number of games a pair of players shares."""
    ceiling: int = 1
    """A pair sharing more games than this (and more than its base count) is in conflict."""
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


def square_penalty(top: int, ceiling: int = 0, cap: int = 0) -> list[int]:
    """Cost of a pair meeting m times, m < top: m², plus CEILING_PENALTY per meeting above
    `ceiling` and CAP_PENALTY times the square of the meetings above `cap` (0: no extra)."""
    return [
        m * m
        + (CEILING_PENALTY * (m - ceiling) if ceiling and m > ceiling else 0)
        + (CAP_PENALTY * (m - cap) ** 2 if cap and m > cap else 0)
        for m in range(top)
    ]


class _State:
    """The partition of every round, its pair counts and the pairs in conflict."""

    def __init__(self, problem: SearchProblem, groups: list[list[list[int]]], ceiling: int) -> None:
        n = problem.n_players
        self.n = n
        self.groups = groups
        self.where: list[list[int]] = []
        for round_groups in groups:
            index = [-1] * n
            for g, group in enumerate(round_groups):
                for p in group:
                    index[p] = g
            self.where.append(index)
        # Who plays a round is read from its groups: the exchanges of
        # `_anneal_exchanges` move players in and out of rounds.
        self.movable = [
            sorted(p for group in round_groups for p in group if p not in pinned)
            for round_groups, pinned in zip(groups, problem.pinned, strict=True)
        ]
        self.is_movable: list[list[bool]] = []
        for pool in self.movable:
            flags = [False] * n
            for p in pool:
                flags[p] = True
            self.is_movable.append(flags)
        self.active = [
            r for r, pool in enumerate(self.movable) if len(pool) >= 2 and len(groups[r]) >= 2
        ]
        # Players pinned in some round never trade their rounds (their pins go with them).
        pinned_somewhere = set().union(*problem.pinned)
        self.free = [p not in pinned_somewhere for p in range(n)]
        self.counts = [list(row) for row in problem.base_counts]
        for round_groups in groups:
            for group in round_groups:
                _meet(self.counts, group, 1)
        # A pair is in conflict when its count exceeds limit[a][b] (its base or the ceiling).
        self.limit = [[max(ceiling, k) for k in row] for row in problem.base_counts]
        self.conflicts: list[int] = []
        self.position: dict[int, int] = {}
        for a in range(n):
            row, lim = self.counts[a], self.limit[a]
            for b in range(a + 1, n):
                if row[b] > lim[b]:
                    self._add(a * n + b)

    def _add(self, key: int) -> None:
        self.position[key] = len(self.conflicts)
        self.conflicts.append(key)

    def _remove(self, key: int) -> None:
        i = self.position.pop(key)
        last = self.conflicts.pop()
        if last != key:
            self.conflicts[i] = last
            self.position[last] = i

    def cost(self, penalty: list[int]) -> int:
        """The total penalty of the current counts."""
        return sum(
            penalty[row[b]] for a, row in enumerate(self.counts) for b in range(a + 1, self.n)
        )

    def swap(self, r: int, a: int, b: int) -> None:
        """Move `a` to the group of `b` in round r and `b` the other way."""
        where_r = self.where[r]
        ga, gb = where_r[a], where_r[b]
        members_a, members_b = self.groups[r][ga], self.groups[r][gb]
        self._shift(a, b, members_a)
        self._shift(b, a, members_b)
        members_a[members_a.index(a)] = b
        members_b[members_b.index(b)] = a
        where_r[a], where_r[b] = gb, ga

    def _shift(self, leaving: int, coming: int, members: list[int]) -> None:
        """`leaving` stops meeting the other members, `coming` starts; conflicts follow."""
        counts, n = self.counts, self.n
        row_l, row_c = counts[leaving], counts[coming]
        lim_l, lim_c = self.limit[leaving], self.limit[coming]
        for x in members:
            if x == leaving:
                continue
            row_x = counts[x]
            v = row_l[x]
            row_l[x] = row_x[leaving] = v - 1
            if v == lim_l[x] + 1:
                self._remove(leaving * n + x if leaving < x else x * n + leaving)
            v = row_c[x]
            row_c[x] = row_x[coming] = v + 1
            if v == lim_c[x]:
                self._add(coming * n + x if coming < x else x * n + coming)

    def exchange(self, r: int, a: int, s: int, b: int) -> None:
        """`b` plays round r in the seat of `a`, and `a` plays round s in the seat of `b`."""
        for rnd, leaving, coming in ((r, a, b), (s, b, a)):
            where_r = self.where[rnd]
            g = where_r[leaving]
            members = self.groups[rnd][g]
            self._shift(leaving, coming, members)
            members[members.index(leaving)] = coming
            where_r[leaving], where_r[coming] = -1, g
            pool = self.movable[rnd]
            pool[pool.index(leaving)] = coming
            self.is_movable[rnd][leaving], self.is_movable[rnd][coming] = False, True

    def partners(self, r: int, a: int, b: int) -> list[int]:
        """The rounds s where `a` (playing round r) and `b` (sitting it out) may trade places.

        `b` plays s and `a` sits it out, between r and s they play the same rounds, and
        they have the same games left after both: so the trade only swaps their roles in
        rounds r to s, and everybody still sits out in turn.
        """
        where, n_rounds = self.where, len(self.where)
        found: list[int] = []
        for step in (1, -1):
            k = r + step
            while 0 <= k < n_rounds and (where[k][a] < 0) == (where[k][b] < 0):
                k += step
            if not (0 <= k < n_rounds and where[k][a] < 0 <= where[k][b]):
                continue
            after = range(max(r, k) + 1, n_rounds)
            if sum(where[x][a] >= 0 for x in after) == sum(where[x][b] >= 0 for x in after):
                found.append(k)
        return found

    def pick_conflict(self, rng: random.Random) -> tuple[int, int]:
        """(round, player) from a random pair in conflict, or (-1, -1) when none can move."""
        uniform = rng.random  # int(uniform() * k) draws like randrange(k), faster
        key = self.conflicts[int(uniform() * len(self.conflicts))]
        a, b = divmod(key, self.n)
        where = self.where
        together = [r for r in self.active if where[r][a] == where[r][b] != -1]
        if not together:
            return -1, -1
        r = together[int(uniform() * len(together))]
        if uniform() < 0.5:
            a, b = b, a
        if self.is_movable[r][a]:
            return r, a
        if self.is_movable[r][b]:
            return r, b
        return -1, -1


def _meet(counts: list[list[int]], group: list[int], step: int) -> None:
    for i, p in enumerate(group):
        for q in group[i + 1 :]:
            counts[p][q] += step
            counts[q][p] += step


def greedy_groups(
    problem: SearchProblem, rng: random.Random, penalty: list[int]
) -> list[list[list[int]]]:
    """Round by round, each player (in a seeded order) joins the open group he has met least.

    Pinned players are placed first; the counts include the rounds built before.
    """
    counts = [list(row) for row in problem.base_counts]
    state: list[list[list[int]]] = []
    for players, n_groups, pinned in zip(
        problem.rounds, problem.groups_per_round, problem.pinned, strict=True
    ):
        groups: list[list[int]] = [[] for _ in range(n_groups)]
        for player, index in pinned.items():
            groups[index].append(player)
        free = [p for p in players if p not in pinned]
        rng.shuffle(free)
        _place(groups, free, counts, penalty)
        state.append(groups)
    return state


def _primes(low: int, high: int) -> list[int]:
    return [
        k for k in range(max(low, 2), high + 1) if all(k % d for d in range(2, math.isqrt(k) + 1))
    ]


def affine_groups(
    problem: SearchProblem, rng: random.Random, penalty: list[int], modulus: int
) -> list[list[list[int]]]:
    """A start from the lines of the affine plane over Z_q (q prime, q ≥ 11), repaired greedily.

    Players get coordinates (x, y), x in 0..9, y = 0, 1, ... in a seeded order; round k
    groups the players with y < q by the line y − k·x (mod q) they lie on. Two players
    lie on one line of exactly one slope, so these groups never repeat a meeting. Each
    round keeps its largest lines (at most ten players each, one per table); the other
    players, and every player of rounds k ≥ q, join the open group they have met least.
    """
    order = list(range(problem.n_players))
    rng.shuffle(order)
    column = [0] * problem.n_players
    row = [0] * problem.n_players
    for i, p in enumerate(order):
        column[p], row[p] = i % TABLE_SIZE, i // TABLE_SIZE
    counts = [list(r) for r in problem.base_counts]
    state: list[list[list[int]]] = []
    for k, (players, n_groups) in enumerate(
        zip(problem.rounds, problem.groups_per_round, strict=True)
    ):
        lines: dict[int, list[int]] = {}
        rest: list[int] = []
        for p in players:
            if k < modulus and row[p] < modulus:
                lines.setdefault((row[p] - k * column[p]) % modulus, []).append(p)
            else:
                rest.append(p)
        kept = sorted(lines.values(), key=len, reverse=True)
        groups = [line[:TABLE_SIZE] for line in kept[:n_groups]]
        rest += [p for line in kept[:n_groups] for p in line[TABLE_SIZE:]]
        rest += [p for line in kept[n_groups:] for p in line]
        groups += [[] for _ in range(n_groups - len(groups))]
        rng.shuffle(rest)
        _place(groups, rest, counts, penalty)
        state.append(groups)
    return state


def _place(
    groups: list[list[int]], players: list[int], counts: list[list[int]], penalty: list[int]
) -> None:
    """Each player joins the open group he has met least (the first of equals); count it."""
    inc = [penalty[k + 1] - penalty[k] for k in range(len(penalty) - 1)]
    get_inc = inc.__getitem__
    for p in players:
        row = counts[p]
        best, best_cost = groups[0], -1
        for group in groups:
            if len(group) < TABLE_SIZE:
                cost = sum(map(get_inc, map(row.__getitem__, group)))
                if best_cost < 0 or cost < best_cost:
                    best, best_cost = group, cost
        best.append(p)
    for group in groups:
        _meet(counts, group, 1)


def _start(problem: SearchProblem, rng: random.Random, penalty: list[int]) -> list[list[list[int]]]:
    """The best of the greedy start and the affine starts (for the primes around the rows).

    Starts are compared by the pairs in conflict, then by cost; pinned players rule out
    the affine starts.
    """
    starts = [greedy_groups(problem, rng, penalty)]
    if not any(problem.pinned):
        rows = -(-problem.n_players // TABLE_SIZE)
        below = _primes(11, rows)[-1:]
        above = _primes(max(11, rows), max(11, rows) * 2)[:1]
        for q in sorted(set(below + above)):
            starts.append(affine_groups(problem, rng, penalty, q))
    best, best_key = starts[0], (0, 0)
    for i, groups in enumerate(starts):
        state = _State(problem, groups, problem.ceiling)
        key = (len(state.conflicts), state.cost(penalty))
        if i == 0 or key < best_key:
            best, best_key = groups, key
    return best


def search_groups(
    problem: SearchProblem, *, seed: int, iterations: int, time_limit: float
) -> SearchResult:
    """Search the partition of every round; deterministic for a seed and a budget."""
    rng = random.Random(seed)
    top = max(max(row, default=0) for row in problem.base_counts) + len(problem.rounds) + 2
    main = square_penalty(top)
    deadline = time.monotonic() + time_limit
    state = _State(problem, _start(problem, rng, main), problem.ceiling)
    heat = TEMPERATURE_PER_MEAN2 * problem.mean**2
    heat = min(MAX_START_TEMPERATURE, max(MIN_START_TEMPERATURE, heat))
    clear = problem.ceiling == 1
    # With no swap inside a round (one table each), the search trades players' rounds.
    run = _anneal if state.active else _anneal_exchanges
    made, timed_out = run(state, rng, main, iterations, deadline, heat, clear)
    if problem.cap and not timed_out and not (clear and made < iterations):
        capped = square_penalty(top, problem.ceiling, problem.cap)
        share = iterations // POLISH_SHARE
        # The polish aims first at the pairs above the cap, then at those above the ceiling.
        for aim, budget in ((problem.cap, share // 2), (problem.ceiling, share - share // 2)):
            state = _State(problem, state.groups, aim)
            extra, timed_out = run(state, rng, capped, budget, deadline, 0.0, False)
            made += extra
            if timed_out:
                break
    return SearchResult(
        groups=tuple(tuple(tuple(g) for g in rg) for rg in state.groups),
        iterations=made,
        stopped_by_time_limit=timed_out,
    )


def _anneal(  # noqa: C901 - the hot loop is kept in one piece for speed
    state: _State,
    rng: random.Random,
    penalty: list[int],
    iterations: int,
    deadline: float,
    start_temperature: float,
    stop_when_clear: bool,
) -> tuple[int, bool]:
    """Run the search in place on `state`; return (iterations made, stopped by the clock).

    With a start temperature of 0 it is a descent (sideways moves allowed). With
    `stop_when_clear` it stops as soon as no pair is in conflict (optimal when the
    ceiling is one meeting: every planned meeting then costs the least it can).
    """
    if not state.active or iterations <= 0:
        return 0, False
    inc = [penalty[k + 1] - penalty[k] for k in range(len(penalty) - 1)]
    dec = [0] + [penalty[k - 1] - penalty[k] for k in range(1, len(penalty))]
    get_inc, get_dec = inc.__getitem__, dec.__getitem__
    linear = penalty == square_penalty(len(penalty))
    groups, where, counts, movable = state.groups, state.where, state.counts, state.movable
    is_movable, active, conflicts = state.is_movable, state.active, state.conflicts
    uniform, exp = rng.random, math.exp  # int(uniform() * k) draws like randrange(k), faster
    pick_conflict = state.pick_conflict
    cooling = -math.log(COOLING_RATIO) if start_temperature > 0 else 0.0
    temperature = start_temperature
    # Costs are relative to the start, which is kept: the search never ends worse than it began.
    cost = best_cost = 0
    best = [[g[:] for g in rg] for rg in groups]
    tail = iterations // 2
    for it in range(iterations):
        if it % _CHECK_EVERY == 0:
            if time.monotonic() > deadline:
                _restore(state, best, cost, best_cost)
                return it, True
            temperature = start_temperature * exp(cooling * it / iterations)
        r = -1
        if not conflicts and stop_when_clear:
            return it, False
        if conflicts and uniform() < CONFLICT_SHARE:
            r, a = pick_conflict(rng)
        if r < 0:
            r = active[int(uniform() * len(active))]
            pool = movable[r]
            a = pool[int(uniform() * len(pool))]
        round_groups = groups[r]
        where_r = where[r]
        ga = where_r[a]
        members_a = round_groups[ga]
        row_a = counts[a]
        # The group of the round where `a` has met the fewest.
        if linear:  # m²: the increments are 2m + 1, so plain sums of counts compare the same
            joins = [sum(map(row_a.__getitem__, g)) for g in round_groups]
        else:
            joins = [sum(map(get_inc, map(row_a.__getitem__, g))) for g in round_groups]
        joins[ga] = 1 << 60
        least = min(joins)
        target = joins.index(least)
        if joins.count(least) > 1:
            ties = [g for g, v in enumerate(joins) if v == least]
            target = ties[int(uniform() * len(ties))]
        members_b = round_groups[target]
        start = int(uniform() * TABLE_SIZE)
        best_delta, b = 1 << 60, -1
        movable_r = is_movable[r]
        for j in range(start, start + CANDIDATES):
            y = members_b[j % TABLE_SIZE]
            if not movable_r[y]:
                continue
            row_y = counts[y]
            if linear:
                delta = (
                    sum(map(row_y.__getitem__, members_a))
                    - sum(map(row_y.__getitem__, members_b))
                    - 2 * row_a[y]
                )
            else:
                delta = (
                    sum(map(get_dec, map(row_y.__getitem__, members_b)))
                    + sum(map(get_inc, map(row_y.__getitem__, members_a)))
                    - 2 * inc[row_a[y]]
                )
            if delta < best_delta:
                best_delta, b = delta, y
        if b < 0:
            continue
        if linear:
            delta = 2 * (best_delta + least - sum(map(row_a.__getitem__, members_a))) + 36
        else:
            delta = best_delta + least + sum(map(get_dec, map(row_a.__getitem__, members_a)))
        if delta > 0 and (temperature <= 0 or uniform() >= exp(-delta / temperature)):
            continue
        state.swap(r, a, b)
        cost += delta
        if cost < best_cost and it >= tail:
            best_cost = cost
            best = [[g[:] for g in rg] for rg in groups]
    _restore(state, best, cost, best_cost)
    return iterations, False


def _anneal_exchanges(
    state: _State,
    rng: random.Random,
    penalty: list[int],
    iterations: int,
    deadline: float,
    start_temperature: float,
    stop_when_clear: bool,
) -> tuple[int, bool]:
    """`_anneal` for rounds that leave no swap inside a round (one table each, players
    sitting out): a move lets a player of one round and one who sits it out trade
    places there and in a later (or earlier) round, so that who plays which round is
    what the search chooses. Without such a trade it does nothing (0 iterations).
    """
    n_rounds = len(state.groups)
    free = state.free
    rounds = [
        r
        for r in range(n_rounds)
        if any(free[p] for p in state.movable[r])
        and any(free[p] and state.where[r][p] < 0 for p in range(state.n))
    ]
    if not rounds or iterations <= 0:
        return 0, False
    inc = [penalty[k + 1] - penalty[k] for k in range(len(penalty) - 1)]
    dec = [0] + [penalty[k - 1] - penalty[k] for k in range(1, len(penalty))]
    groups, conflicts = state.groups, state.conflicts
    uniform, exp = rng.random, math.exp
    cooling = -math.log(COOLING_RATIO) if start_temperature > 0 else 0.0
    temperature = start_temperature
    cost = best_cost = 0
    best = [[g[:] for g in rg] for rg in groups]
    tail = iterations // 2
    for it in range(iterations):
        if it % _CHECK_EVERY == 0:
            if time.monotonic() > deadline:
                _restore(state, best, cost, best_cost)
                return it, True
            temperature = start_temperature * exp(cooling * it / iterations)
        if not conflicts and stop_when_clear:
            return it, False
        r, a = _pick_trader(state, rounds, rng)
        if r < 0:
            continue
        best_delta, s, b = _best_trade(state, r, a, inc, dec, rng)
        if s < 0:
            continue
        if best_delta > 0 and (temperature <= 0 or uniform() >= exp(-best_delta / temperature)):
            continue
        state.exchange(r, a, s, b)
        cost += best_delta
        if cost < best_cost and it >= tail:
            best_cost = cost
            best = [[g[:] for g in rg] for rg in groups]
    _restore(state, best, cost, best_cost)
    return iterations, False


def _pick_trader(state: _State, rounds: list[int], rng: random.Random) -> tuple[int, int]:
    """(round, player) to trade: mostly one of a pair in conflict in a round they share,
    else a random player of a random round; (-1, -1) for a player who may not trade."""
    uniform, where, free = rng.random, state.where, state.free
    if state.conflicts and uniform() < CONFLICT_SHARE:
        p, q = divmod(state.conflicts[int(uniform() * len(state.conflicts))], state.n)
        together = [k for k in rounds if where[k][p] == where[k][q] >= 0]
        if together:
            a = p if uniform() < 0.5 else q
            if free[a]:
                return together[int(uniform() * len(together))], a
    r = rounds[int(uniform() * len(rounds))]
    pool = state.movable[r]
    a = pool[int(uniform() * len(pool))]
    return (r, a) if free[a] else (-1, -1)


def _best_trade(
    state: _State, r: int, a: int, inc: list[int], dec: list[int], rng: random.Random
) -> tuple[int, int, int]:
    """(change of cost, round s, player b) of the best trade of `a` (playing round r) with
    a few players who sit it out; s is -1 when none of them can trade."""
    uniform, where, counts, groups = rng.random, state.where, state.counts, state.groups
    where_r = where[r]
    ga = where_r[a]
    row_a = counts[a]
    sitters = [p for p in range(state.n) if where_r[p] < 0 and state.free[p]]
    best: tuple[int, int, int] = (1 << 60, -1, -1)
    for _ in range(CANDIDATES):
        b = sitters[int(uniform() * len(sitters))]
        row_b = counts[b]
        leave = sum(dec[row_a[x]] + inc[row_b[x]] for x in groups[r][ga] if x != a)
        for s in state.partners(r, a, b):
            delta = leave
            for y in groups[s][where[s][b]]:
                if y != b:
                    # the counts as they stand once the trade of round r is made
                    shared = 1 if where_r[y] == ga else 0
                    delta += dec[row_b[y] + shared] + inc[row_a[y] - shared]
            if delta < best[0]:
                best = (delta, s, b)
    return best


def _restore(state: _State, best: list[list[list[int]]], cost: int, best_cost: int) -> None:
    """Put the best state seen back into `state.groups` if it beats the current one.

    Only the groups are restored; the caller rebuilds a `_State` before searching again.
    """
    if best_cost < cost:
        state.groups[:] = best
