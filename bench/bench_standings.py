"""Benchmark: `mafiatab standings FILE --json` against the floor of decoding FILE.

    .venv/bin/python bench/bench_standings.py [--players 2000] [--games 20000] [--runs 5]

Generates the tournament file into bench/out/ (git-ignored), then times, side by
side, `mafiatab standings FILE --json` and a bare `json.load` of the same file,
each as a fresh process, and reports the best (minimum) of the runs of each and
their ratio. The goal is a ratio of 2.5 or less: reading, checking and scoring
the file should cost little more than decoding it.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv" / "bin"
OUT = ROOT / "bench" / "out"
GOAL = 2.5


def timed(command: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run of `command`; its output goes to /dev/null,
    failures stop us. CPU time (user + system of the child) is steadier than wall time
    on a shared machine, so both are reported."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False
    )
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        sys.stderr.write(result.stderr)
        raise SystemExit(f"failed with exit code {result.returncode}: {' '.join(command)}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)

    path = OUT / f"tournament_{args.players}p_{args.games}g_s{args.seed}.json"
    python = str(BIN / "python")
    generate = [python, str(ROOT / "bench" / "make_big_tournament.py")]
    generate += ["--players", str(args.players), "--games", str(args.games)]
    generate += ["--seed", str(args.seed), "-o", str(path)]
    subprocess.run(generate, check=True)

    floor_cmd = [python, "-c", f"import json; json.load(open({str(path)!r}, encoding='utf-8'))"]
    standings_cmd = [str(BIN / "mafiatab"), "standings", str(path), "--json"]
    floor, standings = [], []
    for _ in range(args.runs):
        floor.append(timed(floor_cmd))
        standings.append(timed(standings_cmd))
    wall_floor, wall_standings = min(w for w, _ in floor), min(w for w, _ in standings)
    cpu_floor, cpu_standings = min(c for _, c in floor), min(c for _, c in standings)
    size_mb = path.stat().st_size / 1e6
    print(f"standings benchmark: {args.games} games, {args.players} players, {size_mb:.1f} MB")
    print(f"best of {args.runs}              wall s    CPU s")
    print(f"json.load floor        {wall_floor:6.3f}   {cpu_floor:6.3f}")
    print(f"mafiatab standings     {wall_standings:6.3f}   {cpu_standings:6.3f}")
    print(
        f"ratio                  {wall_standings / wall_floor:6.2f}   "
        f"{cpu_standings / cpu_floor:6.2f}   (goal <= {GOAL:g})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
