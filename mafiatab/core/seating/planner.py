"""`plan_seating`: checking the inputs and putting the four steps together."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from mafiatab.core.seating.assign import assign_tables, order_rounds
from mafiatab.core.seating.metrics import measure, pair_counts
from mafiatab.core.seating.model import TABLE_SIZE, Metrics, Round, Schedule, SeatingError, Table
from mafiatab.core.seating.search import SearchProblem, search_groups
from mafiatab.core.seating.seats import assign_seats

#: Default safety cap on the search, in seconds.
DEFAULT_TIME_LIMIT = 8.0
#: Rounds are reordered for table rotation only up to this many tables (the cost grows as T³).
ORDER_MAX_TABLES = 40
#: Iterations per seat of the stage (N·G) in the default budget, and its bounds. A move
#: costs about (tables + 8) sums of ten counts, so the work cap divides by that.
ITERATIONS_PER_SEAT = 500
MIN_ITERATIONS = 50_000
MAX_WORK = 4_000_000


def default_iterations(n_players: int, games: int) -> int:
    """The search budget used when none is given: grows with N·G, its work bounded both ways."""
    most = MAX_WORK // (n_players // TABLE_SIZE + 8)
    return max(MIN_ITERATIONS, min(most, ITERATIONS_PER_SEAT * n_players * games))


@dataclass
class _History:
    """What the rounds already played leave behind, player by player (0-based ids)."""

    played: list[int]
    seats: list[list[int]]
    meetings: list[list[int]]
    visits: list[list[int]]
    last_table: list[int]
    strangers: list[str] = field(default_factory=list)
    stranger_games: Counter[str] = field(default_factory=Counter)


def plan_seating(
    players: Sequence[str],
    games: int,
    *,
    tables: int | None = None,
    seed: int = 0,
    time_limit: float = DEFAULT_TIME_LIMIT,
    iterations: int | None = None,
    avoid: Sequence[frozenset[str]] = (),
    fixed_tables: Mapping[str, int] | None = None,
    fixed_rounds: Sequence[Round] = (),
    replacements: Mapping[str, str] | None = None,
) -> Schedule:
    """Plan the qualifying stage; see the package docstring. Raises SeatingError."""
    names = _check_players(players)
    n = len(names)
    n_tables = _check_sizes(n, games, tables)
    if time_limit <= 0:
        raise SeatingError(f"the time limit must be positive, not {time_limit}")
    budget = default_iterations(n, games) if iterations is None else iterations
    if budget < 0:
        raise SeatingError(f"the iteration budget must not be negative, not {budget}")
    index = {name: i for i, name in enumerate(names)}
    pins = _check_fixed_tables(fixed_tables or {}, index, n_tables)
    groups_to_avoid = _check_avoid(avoid, index)
    history = _read_history(fixed_rounds, index, n_tables)
    flags = _inherit(history, replacements or {}, index, games)
    rng = random.Random(seed)
    need = _remaining_games(names, games, history.played)
    sizes = _round_sizes(sum(need) // TABLE_SIZE, n_tables, max(need), names, need)
    playing = _participation(need, sizes, rng)
    round_pins = _round_pins(playing, sizes, pins, names, flags)
    base = [row[:] for row in history.meetings]
    weight = math.ceil((TABLE_SIZE - 1) * games / (n - 1)) + 2
    for group in groups_to_avoid:
        for p in group:
            for q in group:
                if p != q:
                    base[p][q] += weight
    mean = (TABLE_SIZE - 1) * games / (n - 1)
    problem = SearchProblem(
        n_players=n,
        rounds=tuple(playing),
        groups_per_round=tuple(sizes),
        pinned=tuple(round_pins),
        base_counts=tuple(tuple(row) for row in base),
        mean=mean,
        ceiling=max(1, math.ceil(mean - 1e-9)),
        cap=_cap(mean),
    )
    found = search_groups(
        problem, seed=rng.randrange(2**32), iterations=budget, time_limit=time_limit
    )
    planned = [tuple(tuple(g) for g in rg) for rg in found.groups]
    if not fixed_rounds and len(set(playing)) == 1 and n_tables <= ORDER_MAX_TABLES:
        # Every round has the same players: order them for fewer same-table sittings.
        planned = [planned[k] for k in order_rounds(planned, n)]
    layout = assign_tables(
        [[list(g) for g in rg] for rg in planned],
        n_players=n,
        n_tables=n_tables,
        pinned=round_pins,
        previous=history.last_table,
        visits=history.visits,
    )
    planned_games: list[list[int]] = []
    for round_groups, table_of in zip(planned, layout, strict=True):
        by_table = sorted(zip(table_of, round_groups, strict=True))
        planned_games.extend(list(group) for _, group in by_table)
    seated, _ = assign_seats(planned_games, n_players=n, history=history.seats)
    rounds = list(fixed_rounds)
    first = max((r.round for r in fixed_rounds), default=0) + 1
    position = 0
    for k, table_of in enumerate(layout):
        numbers = sorted(table_of)
        row = seated[position : position + len(numbers)]
        position += len(numbers)
        rounds.append(
            Round(
                round=first + k,
                tables=tuple(
                    Table(table=t + 1, seats=tuple(names[p] for p in seats))
                    for t, seats in zip(numbers, row, strict=True)
                ),
            )
        )
    fixed_names = [names[p] for p in pins]
    metrics = measure(
        names,
        rounds,
        games=games,
        tables=n_tables,
        fixed_players=fixed_names,
        avoid=[frozenset(names[p] for p in g) for g in groups_to_avoid],
        iterations=found.iterations,
        stopped_by_time_limit=found.stopped_by_time_limit,
    )
    counts = pair_counts(names, rounds)
    avoided = [
        sum(counts[(names[p], names[q])] for i, p in enumerate(g) for q in g[i + 1 :])
        for g in groups_to_avoid
    ]
    flags = _explain(metrics, history, budget, fixed_rounds, groups_to_avoid, avoided, names, flags)
    flags += _pinned_meetings(pins, names)
    return Schedule(
        players=names,
        games=games,
        tables=n_tables,
        seed=seed,
        rounds=tuple(rounds),
        fixed_rounds=len(fixed_rounds),
        metrics=metrics,
        flags=tuple(flags),
    )


def _cap(mean: float) -> int:
    """The count above which the polish punishes a pair hard: ceil(λ) + 1 (at least 2)."""
    return max(1, math.ceil(mean - 1e-9)) + 1


def _check_players(players: Sequence[str]) -> tuple[str, ...]:
    if isinstance(players, str):
        raise SeatingError("players must be a list of names, not one string")
    names = tuple(players)
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise SeatingError(f"player names must be non-empty text, not {name!r}")
    twice = [name for name, k in Counter(names).items() if k > 1]
    if twice:
        raise SeatingError(f"player {twice[0]!r} is listed more than once")
    return names


def _check_sizes(n: int, games: int, tables: int | None) -> int:
    if n < TABLE_SIZE:
        raise SeatingError(f"{n} players cannot fill a table of {TABLE_SIZE}")
    if games < 1:
        raise SeatingError(f"every player must play at least one game, not {games}")
    n_tables = n // TABLE_SIZE if tables is None else tables
    if n_tables < 1:
        raise SeatingError(f"at least one table must be in play, not {n_tables}")
    if TABLE_SIZE * n_tables > n:
        raise SeatingError(
            f"{n_tables} tables need {TABLE_SIZE * n_tables} players at once, there are only {n}"
        )
    return n_tables


def _check_fixed_tables(
    fixed: Mapping[str, int], index: Mapping[str, int], n_tables: int
) -> dict[int, int]:
    pins: dict[int, int] = {}
    for name, table in fixed.items():
        if name not in index:
            raise SeatingError(f"player {name!r} is fixed to a table but is not among the players")
        if not isinstance(table, int) or not 1 <= table <= n_tables:
            raise SeatingError(
                f"player {name!r} is fixed to table {table}, not one of 1..{n_tables}"
            )
        pins[index[name]] = table - 1
    for table, k in Counter(pins.values()).items():
        if k > TABLE_SIZE:
            raise SeatingError(
                f"{k} players are fixed to table {table + 1}, which seats {TABLE_SIZE}"
            )
    return pins


def _check_avoid(avoid: Sequence[frozenset[str]], index: Mapping[str, int]) -> list[list[int]]:
    groups: list[list[int]] = []
    for group in avoid:
        unknown = sorted(name for name in group if name not in index)
        if unknown:
            raise SeatingError(
                f"player {unknown[0]!r} is in a group to keep apart but not a player"
            )
        if len(group) < 2:
            raise SeatingError(f"a group to keep apart needs two players or more: {sorted(group)}")
        groups.append(sorted(index[name] for name in group))
    return groups


def _read_history(
    fixed_rounds: Sequence[Round], index: Mapping[str, int], n_tables: int
) -> _History:
    n = len(index)
    history = _History(
        played=[0] * n,
        seats=[[] for _ in range(n)],
        meetings=[[0] * n for _ in range(n)],
        visits=[[0] * n_tables for _ in range(n)],
        last_table=[-1] * n,
    )
    for rnd in fixed_rounds:
        history.last_table = [-1] * n
        seen: set[str] = set()
        numbers: set[int] = set()
        for table in rnd.tables:
            where = f"round {rnd.round}, table {table.table}"
            if table.table < 1 or table.table in numbers:
                raise SeatingError(f"{where}: tables must be distinct positive numbers")
            numbers.add(table.table)
            if len(table.seats) != TABLE_SIZE:
                raise SeatingError(f"{where}: {len(table.seats)} players, a table seats 10")
            ids: list[int] = []
            for seat, name in enumerate(table.seats):
                if name in seen:
                    raise SeatingError(f"{where}: {name!r} plays twice in the round")
                seen.add(name)
                if name not in index:
                    if name not in history.strangers:
                        history.strangers.append(name)
                    history.stranger_games[name] += 1
                    continue
                p = index[name]
                ids.append(p)
                history.played[p] += 1
                history.seats[p].append(seat)
                if table.table <= n_tables:
                    history.visits[p][table.table - 1] += 1
                    history.last_table[p] = table.table - 1
            _meet(history.meetings, ids)
    return history


def _meet(meetings: list[list[int]], ids: Sequence[int]) -> None:
    for p in ids:
        for q in ids:
            if p != q:
                meetings[p][q] += 1


def _inherit(
    history: _History, replacements: Mapping[str, str], index: Mapping[str, int], games: int
) -> list[str]:
    """A newcomer plays only the games the player he replaces had left."""
    flags: list[str] = []
    for new, old in replacements.items():
        if new not in index:
            raise SeatingError(f"replacement {new!r} is not among the players")
        if old in index:
            raise SeatingError(f"{old!r} is replaced by {new!r} but is still among the players")
        if old not in history.stranger_games:
            raise SeatingError(f"{new!r} replaces {old!r}, who played none of the rounds given")
        history.played[index[new]] += history.stranger_games[old]
        history.strangers.remove(old)
        left = games - history.played[index[new]]
        flags.append(f"{new!r} replaces {old!r} and plays the {left} games {old!r} had left")
    return flags


def _remaining_games(names: Sequence[str], games: int, played: Sequence[int]) -> list[int]:
    need = [games - k for k in played]
    for name, k in zip(names, played, strict=True):
        if k > games:
            raise SeatingError(f"{name!r} already played {k} games, more than {games}")
    total = sum(need)
    if total % TABLE_SIZE:
        what = "the remaining games" if any(played) else f"{len(names)} players × {games} games"
        raise SeatingError(
            f"{what} make {total} seats, not a multiple of {TABLE_SIZE}: "
            "the tables cannot all be full"
        )
    return need


def _round_sizes(
    n_games: int, n_tables: int, most: int, names: Sequence[str], need: Sequence[int]
) -> list[int]:
    n_rounds = -(-n_games // n_tables)
    if most > n_rounds:
        name = names[list(need).index(most)]
        raise SeatingError(
            f"{name!r} needs {most} games but {n_tables} tables at once give only "
            f"{n_rounds} rounds; use fewer tables"
        )
    return [min(n_tables, n_games - r * n_tables) for r in range(n_rounds)]


def _participation(
    need: Sequence[int], sizes: Sequence[int], rng: random.Random
) -> list[tuple[int, ...]]:
    """Who plays in each round: those with most games left, ties in a seeded order.

    Taking the largest remaining needs first fills the rounds whenever they can be
    filled (Gale–Ryser), and with equal needs it makes players sit out in turn.
    """
    rank = list(range(len(need)))
    rng.shuffle(rank)
    left = list(need)
    playing: list[tuple[int, ...]] = []
    for size in sizes:
        ready = sorted(
            (p for p in range(len(left)) if left[p] > 0), key=lambda p: (-left[p], rank[p])
        )
        chosen = ready[: TABLE_SIZE * size]
        if len(chosen) < TABLE_SIZE * size:
            raise SeatingError(
                "the remaining games cannot fill the rounds "
                "without someone playing twice in a round"
            )
        for p in chosen:
            left[p] -= 1
        playing.append(tuple(sorted(chosen)))
    return playing


def _round_pins(
    playing: Sequence[tuple[int, ...]],
    sizes: Sequence[int],
    pins: Mapping[int, int],
    names: Sequence[str],
    flags: list[str],
) -> list[dict[int, int]]:
    result: list[dict[int, int]] = []
    for k, (players, size) in enumerate(zip(playing, sizes, strict=True)):
        here = set(players)
        round_pins: dict[int, int] = {}
        for p, table in pins.items():
            if p not in here:
                continue
            if table < size:
                round_pins[p] = table
            else:
                flags.append(
                    f"planned round {k + 1} has only tables 1..{size}, so {names[p]!r} "
                    f"(fixed to table {table + 1}) sits elsewhere"
                )
        result.append(round_pins)
    return result


def _explain(
    metrics: Metrics,
    history: _History,
    budget: int,
    fixed_rounds: Sequence[Round],
    groups_to_avoid: Sequence[Sequence[int]],
    avoided: Sequence[int],
    names: Sequence[str],
    flags: list[str],
) -> list[str]:
    """One sentence per compromise the schedule makes."""
    out = list(flags)
    if metrics.stopped_by_time_limit:
        out.append(
            f"the time limit stopped the search after {metrics.iterations} of {budget} "
            "iterations, so this schedule depends on the machine's speed"
        )
    ceiling = math.ceil(metrics.mean_meetings - 1e-9)
    if metrics.pairs_above_ceiling:
        out.append(
            f"{metrics.pairs_above_ceiling} pairs share more than {ceiling} games "
            f"(the mean is {metrics.mean_meetings:.2f}); the most any pair shares is "
            f"{metrics.max_meetings}"
        )
    if not metrics.seat_balance_exact:
        cause = (
            "the seats of the rounds already played leave no exact completion"
            if fixed_rounds
            else "the seat colouring could not be completed"
        )
        out.append(f"seat balance is not exact (spread {metrics.seat_spread}): {cause}")
    if metrics.consecutive_same_table:
        out.append(
            f"{metrics.consecutive_same_table} times a player sits at the same table "
            "in two consecutive rounds"
        )
    if metrics.avoided_meetings:
        for group, shared in zip(groups_to_avoid, avoided, strict=True):
            if shared:
                out.append(
                    f"players to keep apart ({', '.join(names[p] for p in group)}) "
                    f"still share {shared} game{'s' if shared > 1 else ''} in pairs"
                )
    for name in history.strangers:
        out.append(
            f"{name!r} played in the rounds already played but is not among the players; "
            "meetings with them are left out of the metrics"
        )
    return out


def _pinned_meetings(pins: Mapping[int, int], names: Sequence[str]) -> list[str]:
    by_table: dict[int, list[str]] = {}
    for p, table in sorted(pins.items()):
        by_table.setdefault(table, []).append(names[p])
    return [
        f"{', '.join(repr(x) for x in group)} are all fixed to table {table + 1}, "
        "so they meet in every game they all play"
        for table, group in sorted(by_table.items())
        if len(group) > 1
    ]
