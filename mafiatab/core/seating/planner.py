"""`plan_seating`: checking the inputs and putting the four steps together."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from mafiatab.core.seating.assign import assign_tables, order_rounds
from mafiatab.core.seating.metrics import measure, pair_counts
from mafiatab.core.seating.model import (
    MAX_GAMES,
    MAX_PLAYERS,
    TABLE_SIZE,
    Metrics,
    Round,
    Schedule,
    SeatingError,
    SeatingFlag,
    StandIn,
    Table,
)
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
    stand_ins: Sequence[StandIn] = (),
) -> Schedule:
    """Plan the qualifying stage; see the package docstring. Raises SeatingError."""
    names = _check_players(players)
    n = len(names)
    n_tables = _check_sizes(n, games, tables)
    if time_limit <= 0:
        raise SeatingError("time_limit.not_positive", value=str(time_limit))
    budget = default_iterations(n, games) if iterations is None else iterations
    if budget < 0:
        raise SeatingError("budget.negative", value=str(budget))
    index = {name: i for i, name in enumerate(names)}
    pins = _check_fixed_tables(fixed_tables or {}, index, n_tables)
    groups_to_avoid = _check_avoid(avoid, index)
    instead, flags = _check_stand_ins(stand_ins, fixed_rounds)
    history = _read_history(fixed_rounds, index, n_tables, instead)
    flags += _inherit(history, replacements or {}, index, games)
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
        raise SeatingError("players.one_string")
    names = tuple(players)
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise SeatingError("players.bad_name", value=repr(name))
    twice = [name for name, k in Counter(names).items() if k > 1]
    if twice:
        raise SeatingError("players.twice", name=twice[0])
    return names


def _check_sizes(n: int, games: int, tables: int | None) -> int:
    if n < TABLE_SIZE:
        raise SeatingError("players.too_few", count=n, size=TABLE_SIZE)
    if n > MAX_PLAYERS:
        raise SeatingError("players.too_many", count=n, limit=MAX_PLAYERS)
    if games < 1:
        raise SeatingError("games.below_one", games=games)
    if games > MAX_GAMES:
        raise SeatingError("games.too_many", games=games, limit=MAX_GAMES)
    n_tables = n // TABLE_SIZE if tables is None else tables
    if n_tables < 1:
        raise SeatingError("tables.below_one", tables=n_tables)
    if TABLE_SIZE * n_tables > n:
        raise SeatingError("tables.too_many", tables=n_tables, need=TABLE_SIZE * n_tables, count=n)
    return n_tables


def _check_fixed_tables(
    fixed: Mapping[str, int], index: Mapping[str, int], n_tables: int
) -> dict[int, int]:
    pins: dict[int, int] = {}
    for name, table in fixed.items():
        if name not in index:
            raise SeatingError("fixed.not_a_player", name=name)
        if not isinstance(table, int) or not 1 <= table <= n_tables:
            raise SeatingError("fixed.bad_table", name=name, table=str(table), tables=n_tables)
        pins[index[name]] = table - 1
    for table, k in Counter(pins.values()).items():
        if k > TABLE_SIZE:
            raise SeatingError("fixed.table_full", count=k, table=table + 1, size=TABLE_SIZE)
    return pins


def _check_avoid(avoid: Sequence[frozenset[str]], index: Mapping[str, int]) -> list[list[int]]:
    groups: list[list[int]] = []
    for group in avoid:
        unknown = sorted(name for name in group if name not in index)
        if unknown:
            raise SeatingError("avoid.not_a_player", name=unknown[0])
        if len(group) < 2:
            raise SeatingError("avoid.too_small", names=sorted(group))
        groups.append(sorted(index[name] for name in group))
    return groups


def _check_stand_ins(
    stand_ins: Sequence[StandIn], fixed_rounds: Sequence[Round]
) -> tuple[dict[tuple[int, str], str], list[SeatingFlag]]:
    """Whose game each stand-in's seat is, by (round, reserve), and their flags."""
    seated = {(rnd.round, name) for rnd in fixed_rounds for name in rnd.players()}
    instead: dict[tuple[int, str], str] = {}
    flags: list[SeatingFlag] = []
    for s in stand_ins:
        if (s.round, s.reserve) not in seated:
            raise SeatingError("stand_in.not_seated", new=s.reserve, old=s.player, round=s.round)
        instead[(s.round, s.reserve)] = s.player
        flags.append(SeatingFlag("stand_in", new=s.reserve, old=s.player, round=s.round))
    return instead, flags


def _read_history(
    fixed_rounds: Sequence[Round],
    index: Mapping[str, int],
    n_tables: int,
    instead: Mapping[tuple[int, str], str],
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
            where = {"round": rnd.round, "table": table.table}
            if table.table < 1 or table.table in numbers:
                raise SeatingError("history.bad_tables", **where)
            numbers.add(table.table)
            if len(table.seats) != TABLE_SIZE:
                raise SeatingError(
                    "history.table_size", **where, count=len(table.seats), size=TABLE_SIZE
                )
            ids: list[int] = []
            for seat, sitter in enumerate(table.seats):
                # a stand-in's seat is the game of the player he stood in for
                name = instead.get((rnd.round, sitter), sitter)
                if name in seen:
                    raise SeatingError("history.plays_twice", **where, name=name)
                seen.add(name)
                if name not in index:
                    if name not in history.strangers:
                        history.strangers.append(name)
                    history.stranger_games[name] += 1
                    continue
                p = index[name]
                history.played[p] += 1
                history.seats[p].append(seat)
                if name != sitter:
                    continue  # he did not sit there: no meeting, no table visit
                ids.append(p)
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
) -> list[SeatingFlag]:
    """A newcomer plays only the games the player he replaces had left."""
    flags: list[SeatingFlag] = []
    for new, old in replacements.items():
        if new not in index:
            raise SeatingError("replacement.not_a_player", name=new)
        if old in index:
            raise SeatingError("replacement.still_playing", old=old, new=new)
        if old not in history.stranger_games:
            raise SeatingError("replacement.never_played", new=new, old=old)
        inherited = history.stranger_games[old]
        history.played[index[new]] += inherited
        history.strangers.remove(old)
        # every game the newcomer sits in, the kept rounds he already sits in included:
        # the games the player he replaces had left
        left = games - inherited
        flags.append(SeatingFlag("replacement", new=new, old=old, left=left))
    return flags


def _remaining_games(names: Sequence[str], games: int, played: Sequence[int]) -> list[int]:
    need = [games - k for k in played]
    for name, k in zip(names, played, strict=True):
        if k > games:
            raise SeatingError("games.played_too_many", name=name, count=k, games=games)
    total = sum(need)
    if total % TABLE_SIZE:
        if any(played):
            raise SeatingError("seats.not_multiple_remaining", seats=total, size=TABLE_SIZE)
        raise SeatingError(
            "seats.not_multiple", players=len(names), games=games, seats=total, size=TABLE_SIZE
        )
    return need


def _round_sizes(
    n_games: int, n_tables: int, most: int, names: Sequence[str], need: Sequence[int]
) -> list[int]:
    n_rounds = -(-n_games // n_tables)
    if most > n_rounds:
        name = names[list(need).index(most)]
        raise SeatingError("rounds.too_few", name=name, most=most, tables=n_tables, rounds=n_rounds)
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
            raise SeatingError("rounds.cannot_fill")
        for p in chosen:
            left[p] -= 1
        playing.append(tuple(sorted(chosen)))
    return playing


def _round_pins(
    playing: Sequence[tuple[int, ...]],
    sizes: Sequence[int],
    pins: Mapping[int, int],
    names: Sequence[str],
    flags: list[SeatingFlag],
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
                    SeatingFlag(
                        "pin.elsewhere", round=k + 1, size=size, name=names[p], table=table + 1
                    )
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
    flags: list[SeatingFlag],
) -> list[SeatingFlag]:
    """One flag per compromise the schedule makes."""
    out = list(flags)
    if metrics.stopped_by_time_limit:
        out.append(SeatingFlag("time_limit", done=metrics.iterations, budget=budget))
    ceiling = math.ceil(metrics.mean_meetings - 1e-9)
    if metrics.pairs_above_ceiling:
        out.append(
            SeatingFlag(
                "pairs.above",
                count=metrics.pairs_above_ceiling,
                ceiling=ceiling,
                mean=f"{metrics.mean_meetings:.2f}",
                max=metrics.max_meetings,
            )
        )
    if not metrics.seat_balance_exact:
        code = "seat_balance.played" if fixed_rounds else "seat_balance.colouring"
        out.append(SeatingFlag(code, spread=metrics.seat_spread))
    if metrics.consecutive_same_table:
        out.append(SeatingFlag("same_table", count=metrics.consecutive_same_table))
    if metrics.avoided_meetings:
        for group, shared in zip(groups_to_avoid, avoided, strict=True):
            if shared:
                out.append(
                    SeatingFlag(
                        "kept_apart" if shared > 1 else "kept_apart.one",
                        group=[names[p] for p in group],
                        shared=shared,
                    )
                )
    for name in history.strangers:
        out.append(SeatingFlag("stranger", name=name))
    return out


def _pinned_meetings(pins: Mapping[int, int], names: Sequence[str]) -> list[SeatingFlag]:
    by_table: dict[int, list[str]] = {}
    for p, table in sorted(pins.items()):
        by_table.setdefault(table, []).append(names[p])
    return [
        SeatingFlag("pinned_together", names=group, table=table + 1)
        for table, group in sorted(by_table.items())
        if len(group) > 1
    ]
