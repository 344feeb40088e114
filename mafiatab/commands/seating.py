"""`mafiatab seating`: plan the qualifying stage (spec/seating.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

HELP = "plan the seating of the qualifying stage (tables of 10, balanced meetings and seats)"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("seating", help=HELP, description=HELP)
    parser.add_argument(
        "--players", type=int, metavar="N", help="number of players (numbered 1..N)"
    )
    parser.add_argument(
        "--games", type=int, required=True, metavar="G", help="games each player plays"
    )
    parser.add_argument(
        "--tables", type=int, metavar="T", help="tables in play at once (default N // 10)"
    )
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    parser.add_argument(
        "--time-limit",
        type=float,
        default=None,
        metavar="SECONDS",
        help="safety cap on the search (default 8); the search is governed by an iteration "
        "budget, so the same seed gives the same schedule on any machine",
    )
    parser.add_argument("--json", action="store_true", help="print the schedule file as JSON")
    parser.add_argument(
        "--final",
        action="store_true",
        help="plan the final at one table (10 players): every seat and every 'right after' "
        "spread evenly, a Williams square for 10 games",
    )
    parser.add_argument(
        "--names", metavar="FILE", help="a text file with one player nickname a line"
    )
    parser.set_defaults(func=run)


class NamesError(ValueError):
    """The players asked of the command line cannot be read (its own words, in one line:
    the command line speaks only English, and no translator reads them)."""


def run(args: argparse.Namespace) -> int:
    from mafiatab.core.seating import DEFAULT_TIME_LIMIT, SeatingError, plan_seating

    try:
        players = _players(args)
        if args.final:
            from mafiatab.core.seating import plan_final

            schedule = plan_final(players, args.games, seed=args.seed)
            return _print(schedule, args.json)
        schedule = plan_seating(
            players,
            args.games,
            tables=args.tables,
            seed=args.seed,
            time_limit=DEFAULT_TIME_LIMIT if args.time_limit is None else args.time_limit,
        )
    except (SeatingError, NamesError) as exc:
        print(f"mafiatab seating: {exc}", file=sys.stderr)
        return 2
    return _print(schedule, args.json)


def _print(schedule: Any, as_json: bool) -> int:
    if as_json:
        sys.stdout.write(json.dumps(schedule.to_json(), ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(render_schedule(schedule))
    return 0


def _players(args: argparse.Namespace) -> list[str]:
    from mafiatab.core.seating import MAX_PLAYERS, SeatingError

    if args.names is None:
        if args.players is None:
            raise NamesError("give --players N or --names FILE")
        if args.players > MAX_PLAYERS:  # refused before a list of them is made
            raise SeatingError("players.too_many", count=args.players, limit=MAX_PLAYERS)
        return [str(i) for i in range(1, args.players + 1)]
    names = read_names(args.names)
    if args.players is not None and args.players != len(names):
        raise NamesError(f"--players {args.players} but {args.names} lists {len(names)} players")
    return names


def read_names(path: str) -> list[str]:
    """One nickname a line (blank lines skipped); NamesError naming the problem."""
    try:
        with open(path, encoding="utf-8-sig") as handle:
            lines = handle.read().splitlines()
    except FileNotFoundError:
        raise NamesError(f"names file {path} does not exist") from None
    except UnicodeDecodeError:
        raise NamesError(f"names file {path} is not UTF-8 text") from None
    except OSError as exc:
        raise NamesError(f"names file {path} cannot be read: {exc.strerror}") from None
    names: list[str] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        name = line.strip()
        if not name:
            continue
        if name in seen:
            raise NamesError(
                f"names file {path}, line {number}: {name!r} already on line {seen[name]}"
            )
        seen[name] = number
        names.append(name)
    if not names:
        raise NamesError(f"names file {path} lists no players")
    return names


def render_schedule(schedule: Any) -> str:
    """The rounds, then the quality summary and the flags, as readable text."""
    m = schedule.metrics
    lines: list[str] = []
    for index, rnd in enumerate(schedule.rounds):
        lines.append(f"Round {rnd.round}")
        for table in rnd.tables:
            lines.append(f"  Table {table.table}: " + " ".join(table.seats))
        out = schedule.sitting_out(index)
        if out:
            lines.append("  Sitting out: " + " ".join(out))
    lines += [
        "",
        f"{m.players} players, {m.games} games each, {m.tables} tables, {m.rounds} rounds "
        f"(seed {schedule.seed})",
        f"Pair meetings: mean {m.mean_meetings:.2f}, max {m.max_meetings}, "
        f"variance {m.variance:.3f}, {m.repeated_pairs} pairs meet twice or more",
    ]
    width = len(str(max(m.histogram)))
    for k, pairs in enumerate(m.histogram):
        label = f"{k} game" + ("" if k == 1 else "s")
        lines.append(f"  {label:>9}: {pairs:>{width}} pairs")
    low, high = m.games // 10, -(-m.games // 10)
    each = str(low) if low == high else f"{low} or {high}"
    balance = "exact" if m.seat_balance_exact else f"not exact (spread {m.seat_spread})"
    lines += [
        f"Seat balance: {balance} (each seat {each} times a player)",
        f"Table rotation: {m.consecutive_same_table} times at the same table in consecutive "
        f"rounds; table visits differ by at most {m.table_spread} per player",
        *(
            [
                f"Right after: each ordered pair {m.after.min} to {m.after.max} times "
                f"(histogram {list(m.after.histogram)})"
            ]
            if m.after is not None
            else []
        ),
        (
            f"Search: {m.iterations} iterations"
            + (" (stopped by the time limit)" if m.stopped_by_time_limit else "")
            if m.iterations or m.stopped_by_time_limit
            else "Search: none, this seating is built without a search"
        ),
    ]
    if schedule.flags:
        lines.append("Compromises:")
        lines += [f"  - {flag}" for flag in schedule.flags]
    return "\n".join(lines) + "\n"
