"""`mafiatab standings FILE`: the standings of a tournament file."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

HELP = "print the standings of a tournament file (mafiatab-tournament/1)"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("standings", help=HELP, description=HELP)
    parser.add_argument("file", metavar="FILE", help="the tournament file (JSON)")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print the standings as JSON")
    output.add_argument(
        "--explain", metavar="NICK", help="print every line of this player's points"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import gc

    from mafiatab.commands import read_tournament_file

    # A one-shot command over acyclic data: the cyclic collector only costs time here.
    gc.disable()

    tournament, problems = read_tournament_file(args.file)
    if tournament is None:
        for problem in problems:
            print(
                problem if problem.startswith(f"{args.file}:") else f"{args.file}: {problem}",
                file=sys.stderr,
            )
        return 2
    if args.explain is not None:
        return _explain(tournament, args.explain)
    from mafiatab.core.standings import compute_standings

    standings = compute_standings(tournament)
    if args.json:
        sys.stdout.write(render_json(standings))
    else:
        sys.stdout.write(render_table(standings))
    return 0


def render_json(standings: Any) -> str:
    """The `--json` document, one standings row a line (readable, and encoded at C speed)."""
    from mafiatab.core.advancing import standings_json

    document = standings_json(standings)
    rows = document.pop("standings")
    head = json.dumps(document, ensure_ascii=False)[:-1]
    if not rows:
        return f'{head}, "standings": []}}\n'
    body = ",\n    ".join(json.dumps(row, ensure_ascii=False) for row in rows)
    return f'{head},\n  "standings": [\n    {body}\n  ]\n}}\n'


def render_table(standings: Any) -> str:
    """The standings as a readable text table; with a stage plan, one group a stage
    (the furthest first) and the cut line of the stage players advance from."""
    from mafiatab.core.advancing import outlook
    from mafiatab.core.scoring import format_points

    heavy = standings.heavy_side.value if standings.heavy_side else "none"
    lines = [
        standings.tournament,
        f"K {format_points(standings.coefficient_k)} (heavy side: {heavy}), "
        f"compensation B {standings.compensation_b}",
        "",
    ]
    header: tuple[str, ...] = (
        "#",
        "player",
        "total",
        "main",
        "extra",
        "penalties",
        "wins",
        "don/sher",
        "1st night",
    )
    plan = standings.plan
    view = outlook(standings)
    stages = [spec.stage for spec in plan.stages] if plan is not None else []
    if len(stages) > 1:
        header = (*header, *(stage.value for stage in stages))
    if view:
        header = (*header, "to cut", "left", "mark")
    rows = []
    for r in standings.rows:
        cells: tuple[str, ...] = (
            f"{r.rank}{'*' if r.decided_by_lot else ''}",
            r.player,
            format_points(r.total),
            format_points(r.main),
            format_points(r.extra),
            format_points(r.penalties),
            str(r.wins),
            str(r.wins_as_don_or_sheriff),
            str(r.first_night_deaths),
        )
        if len(stages) > 1:
            played = dict(r.by_stage)
            cells = (
                *cells,
                *(format_points(played[st]) if st in played else "" for st in stages),
            )
        if view:
            seen = view.get(r.player)
            margin = "" if seen is None or seen.margin is None else _signed(seen.margin)
            cells = (
                *cells,
                margin,
                "" if seen is None else str(seen.games_left),
                "" if seen is None or seen.mark is None else seen.mark.value,
            )
        rows.append(cells)
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(row: tuple[str, ...]) -> str:
        cells = [
            cell.ljust(width) if i == 1 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        return "  ".join(cells).rstrip()

    header_line = len(lines)
    lines.append(line(header))
    cut = _cut(standings)
    group = None
    for index, (standing, row) in enumerate(zip(standings.rows, rows, strict=True)):
        if plan is not None and standing.stage is not group:
            group = standing.stage
            title = group.value if group is not None else "no stage"
            lines.append(f"-- {title} " + "-" * max(len(lines[header_line]) - 4 - len(title), 3))
        lines.append(line(row))
        if cut is not None and index + 1 == cut[0]:
            lines.append(f"== cut: {cut[0]} advance to the {cut[1]} ==")
    if standings.lot:
        lines.append("")
        lines.append(f"* order decided by lot (8.8.5, seed {standings.lot_seed}):")
        lines.extend("  " + " > ".join(group) for group in standings.lot)
    return "\n".join(lines) + "\n"


def _signed(value: Any) -> str:
    from mafiatab.core.scoring import format_points

    text = format_points(value)
    return text if text.startswith("-") or value == 0 else f"+{text}"


def _cut(standings: Any) -> tuple[int, str] | None:
    """(rows above the cut, the stage they advance to) while the furthest stage is one
    that players advance from and has more players than places."""
    plan = standings.plan
    if plan is None or not standings.rows or standings.rows[0].stage is None:
        return None
    top = standings.rows[0].stage
    nxt = plan.next_stage(top)
    spec = plan.spec(nxt) if nxt is not None else None
    if spec is None or spec.players is None:
        return None
    if len(standings.group(top)) <= spec.players:
        return None
    return spec.players, nxt.value


def _explain(tournament: Any, nick: str) -> int:
    from mafiatab.core.names import nickname_key
    from mafiatab.core.scoring import explain, format_points
    from mafiatab.core.standings import compute_standings

    standings = compute_standings(tournament)
    # Nicknames are one player whatever their case: "кэп" finds "Кэп".
    key = nickname_key(nick)
    found = [r.player for r in standings.rows if nickname_key(r.player) == key]
    if not found:
        print(f"no player {nick!r} in {tournament.name!r}", file=sys.stderr)
        return 2
    player = found[0]
    row = standings.row(player)
    out = [f"{player}: rank {row.rank}, total {format_points(row.total)}"]
    out.extend(f"  {line}" for line in explain(tournament, player))
    out.append(
        f"  main {format_points(row.main)} + extra {format_points(row.extra)}"
        f" + penalties {format_points(row.penalties)} = {format_points(row.total)}"
    )
    sys.stdout.write("\n".join(out) + "\n")
    return 0
