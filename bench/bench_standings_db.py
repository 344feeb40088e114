"""Benchmark: the standings of a tournament in the database after a protocol change,
next to the same standings from its tournament file.

    .venv/bin/python bench/bench_standings_db.py [--players 200] [--games 2000] [--runs 7]

Generates the tournament file into bench/out/ (git-ignored) with
bench/make_big_tournament.py, imports it with `mafiatab import` into a temporary data
directory (SQLite), then in this one process, `--runs` times:

- the chief judge changes one confirmed protocol through the service, as the web and
  the API do (a new version; the standings version is raised);
- the standings are read as every page reads them (`standings_snapshot`): the current
  versions' JSON read by the core's file reader, the core's computation, the cache;
- the same standings are computed from the file (`load_tournament`, then
  `compute_standings`): the floor.

Prints the best (minimum) wall and CPU time of each, their ratio and the goal (the
database's standings within 150 ms), then where the database's time goes: the query of
the versions' JSON, reading it, the tournament's settings and penalties, the core's
computation, and what is left (keeping them in the cache).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_web import import_file, server_env, tournament_file

GOAL_MS = 150.0


def timed(work: Callable[[], Any]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) of one call of `work`."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def best(samples: list[tuple[float, float]]) -> tuple[float, float]:
    return min(w for w, _ in samples) * 1000, min(c for _, c in samples) * 1000


def setup(data_dir: Path) -> None:
    os.environ.update(server_env(data_dir))
    import django

    django.setup()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)

    path = tournament_file(args.players, args.games, args.seed)
    data_dir = Path(tempfile.mkdtemp(prefix="mafiatab-bench-standings-db-"))
    try:
        slug = import_file(path, data_dir)
        setup(data_dir)
        return run(path, slug, args.runs, args.games, args.players)
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)


def run(path: Path, slug: str, runs: int, games: int, players: int) -> int:
    from mafiatab.accounts.models import User
    from mafiatab.core.standings import compute_standings
    from mafiatab.core.tournament_file import load_tournament
    from mafiatab.games.conversion import game_data, stored_protocol_data, stored_protocols
    from mafiatab.games.models import Game, GameStatus
    from mafiatab.games.services import protocol_save
    from mafiatab.standings.inputs import core_tournament
    from mafiatab.standings.services import standings_snapshot
    from mafiatab.tournaments.models import StaffRole, Tournament
    from mafiatab.tournaments.services import staff_assign

    tournament = Tournament.objects.get(slug=slug)
    chief = User.objects.create_user(username="bench-chief", password=None, nickname="Chief")
    staff_assign(tournament=tournament, user=chief, role=StaffRole.CHIEF_JUDGE, by=None)
    confirmed = Game.objects.filter(tournament=tournament, status=GameStatus.CONFIRMED)
    changed = list(confirmed.filter(replayed=False).order_by("position")[:runs])

    def change(game: Game) -> None:
        game.refresh_from_db()
        data = game_data(game)
        data["date"] = "2025-12-30" if data.get("date") != "2025-12-30" else "2025-12-31"
        protocol_save(
            game=game, data=data, by=chief, base_version=game.version, reason="date corrected"
        )

    samples: dict[str, list[tuple[float, float]]] = {
        "change": [],
        "database": [],
        "file": [],
        "query": [],
        "query+read": [],
        "core input": [],
        "compute": [],
    }
    standings_snapshot(tournament=tournament)  # warm: templates, imports, connections
    compute_standings(load_tournament(path))
    ruleset = tournament.ruleset
    for game in changed:
        samples["change"].append(timed(lambda game=game: change(game)))
        samples["database"].append(timed(lambda: standings_snapshot(tournament=tournament)))
        samples["file"].append(timed(lambda: compute_standings(load_tournament(path))))
        samples["query"].append(timed(lambda: stored_protocol_data(tournament.pk)))
        samples["query+read"].append(
            timed(lambda: stored_protocols(tournament.pk, ruleset=ruleset))
        )
        samples["core input"].append(timed(lambda: core_tournament(tournament)))
        core = core_tournament(tournament)
        samples["compute"].append(timed(lambda core=core: compute_standings(core)))

    db_wall, db_cpu = best(samples["database"])
    file_wall, file_cpu = best(samples["file"])
    size_mb = path.stat().st_size / 1e6
    print(f"standings after a protocol change: {games} games, {players} players, {size_mb:.1f} MB")
    print(f"best of {runs}                                   wall ms    CPU ms")
    print(f"a protocol changed (the service)            {_row(best(samples['change']))}")
    print(f"standings from the database after it        {db_wall:7.1f}   {db_cpu:7.1f}")
    print(f"standings from the file (the floor)         {file_wall:7.1f}   {file_cpu:7.1f}")
    print(
        f"ratio database/file                         {db_wall / file_wall:7.2f}   "
        f"{db_cpu / file_cpu:7.2f}"
    )
    verdict = "met" if db_wall <= GOAL_MS else "NOT met"
    print(f"goal: the database's standings <= {GOAL_MS:g} ms wall: {verdict}")
    query, read = best(samples["query"]), best(samples["query+read"])
    inputs, compute = best(samples["core input"]), best(samples["compute"])
    print("where the database's time goes (best of each part)")
    print(f"  the versions' JSON (one query)            {_row(query)}")
    print(f"  read by the core's file reader            {_row(_minus(read, query))}")
    print(f"  settings and penalties                    {_row(_minus(inputs, read))}")
    print(f"  the core's computation                    {_row(compute)}")
    rest = _minus((db_wall, db_cpu), (inputs[0] + compute[0], inputs[1] + compute[1]))
    print(f"  the rest (keeping them in the cache)      {_row(rest)}")
    return 0


def _minus(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    return max(0.0, a[0] - b[0]), max(0.0, a[1] - b[1])


def _row(times: tuple[float, float]) -> str:
    return f"{times[0]:7.1f}   {times[1]:7.1f}"


if __name__ == "__main__":
    sys.exit(main())
