"""Benchmark: `mafiatab export SLUG --archive FILE` against exporting the tournament file.

    .venv/bin/python bench/bench_archive.py [--players 200] [--games 2000] [--sample 40]

Generates a tournament file into bench/out/ (git-ignored) with
bench/make_big_tournament.py, imports it with `mafiatab import` into a temporary data
directory, then in one run times, each as a fresh process, `mafiatab export SLUG -o
FILE` (the tournament file alone: the floor) and `mafiatab export SLUG --archive FILE`
twice (the file, standings PDF and XLSX, seating PDFs and every protocol as its own
PDF): the first build renders every confirmed protocol and keeps it with its version,
the second reads them back. It prints each with its ratio to the floor (the goal: the
second build within 10 times the tournament file's export), the archive's size and
the first build's cost per protocol.

Then it measures, on `--sample` protocols, the two ways of rendering many protocols
with WeasyPrint: laid out together in one document and written protocol by protocol
from its pages (what the archive does), against one document per protocol.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv" / "bin"
OUT = ROOT / "bench" / "out"

#: Run inside the data directory's Django: CPU seconds of the two ways of rendering.
STRATEGIES = """
import sys, time
from mafiatab.tournaments.cli import setup_django
setup_django(None)
from django.utils import translation
from mafiatab.printables.documents import games_for_print, protocol_sheets
from mafiatab.printables.pdf import Renderer
from mafiatab.tournaments.models import Tournament
translation.activate("ru")
tournament = Tournament.objects.get(slug=sys.argv[1])
games = list(games_for_print(tournament)[: int(sys.argv[2])])
sheets = protocol_sheets(tournament, games)
renderer = Renderer()
renderer.protocols(sheets[:1])  # fonts and stylesheet warm
start = time.process_time()
together = [pdf for _name, pdf in renderer.each_protocol(sheets)]
one = time.process_time() - start
start = time.process_time()
apart = [renderer.protocols([sheet]) for sheet in sheets]
each = time.process_time() - start
print(len(sheets), one, each, sum(map(len, together)), sum(map(len, apart)))
"""


def env_for(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["MAFIATAB_DATA_DIR"] = str(data_dir)
    env["DJANGO_SETTINGS_MODULE"] = "mafiatab.settings"
    return env


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float, float, str]:
    """(wall seconds, CPU seconds, peak memory in MB, stdout) of one run of `command`,
    measured for that process alone; failures stop us."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=err, env=env)
        _pid, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if process.returncode != 0:
            sys.stderr.write(err.read().decode(errors="replace"))
            raise SystemExit(f"failed with exit code {process.returncode}: {' '.join(command)}")
        # ru_maxrss is in KiB on Linux
        cpu = usage.ru_utime + usage.ru_stime
        return elapsed, cpu, usage.ru_maxrss / 1024, out.read().decode()


def tournament_file(players: int, games: int, seed: int) -> Path:
    path = OUT / f"tournament_{players}p_{games}g_s{seed}.json"
    if not path.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        command = [str(BIN / "python"), str(ROOT / "bench" / "make_big_tournament.py")]
        command += ["--players", str(players), "--games", str(games), "--seed", str(seed)]
        subprocess.run([*command, "-o", str(path)], check=True)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sample", type=int, default=40)
    parser.add_argument("--lang", choices=("en", "ru"), default="ru")
    args = parser.parse_args(argv)

    path = tournament_file(args.players, args.games, args.seed)
    work = Path(tempfile.mkdtemp(prefix="mafiatab-bench-archive-"))
    try:
        env = env_for(work / "data")
        mafiatab = str(BIN / "mafiatab")
        _w, _c, _m, out = timed(
            [mafiatab, "import", str(path), "--data-dir", str(work / "data")], env
        )
        slug = out.strip().splitlines()[-1]
        export = [mafiatab, "export", slug, "--data-dir", str(work / "data")]
        file_wall, file_cpu, _m, _out = timed([*export, "-o", str(work / "t.json")], env)
        archive = work / "archive.zip"
        command = [*export, "--archive", str(archive), "--lang", args.lang]
        zip_wall, zip_cpu, peak_mb, _out = timed(command, env)
        again = work / "again.zip"
        command = [*export, "--archive", str(again), "--lang", args.lang]
        again_wall, again_cpu, again_mb, _out = timed(command, env)
        with zipfile.ZipFile(archive) as opened:
            names = opened.namelist()
        protocols = sum(1 for name in names if name.startswith("protocols/"))
        size_mb = archive.stat().st_size / 1e6
        python = str(BIN / "python")
        _w, _c, _m, out = timed([python, "-c", STRATEGIES, slug, str(args.sample)], env)
        count, together, apart, together_bytes, apart_bytes = out.split()
        sample = int(count)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"archive benchmark: {args.games} games, {args.players} players, language {args.lang}")
    print("                             wall s     CPU s")
    print(f"export the tournament file {file_wall:8.2f}  {file_cpu:8.2f}")
    print(f"export --archive, first    {zip_wall:8.2f}  {zip_cpu:8.2f}")
    print(f"  ratio to the file        {zip_wall / file_wall:8.1f}  {zip_cpu / file_cpu:8.1f}")
    print(f"export --archive, second   {again_wall:8.2f}  {again_cpu:8.2f}")
    print(
        f"  ratio to the file        {again_wall / file_wall:8.1f}  {again_cpu / file_cpu:8.1f}"
        f"   (goal: at most 10; peak memory {again_mb:.0f} MB)"
    )
    print(
        f"archive: {len(names)} files, {protocols} protocol PDFs, {size_mb:.1f} MB, "
        f"peak memory {peak_mb:.0f} MB; "
        f"{(zip_cpu - file_cpu) / max(protocols, 1) * 1000:.0f} ms CPU per protocol "
        "(everything but the file, spread over the protocols)"
    )
    print(f"rendering {sample} protocols (CPU s)  together, then split   one document each")
    print(
        f"                                  {float(together):8.2f} "
        f"({int(together_bytes) / 1e6:.1f} MB)  {float(apart):8.2f} "
        f"({int(apart_bytes) / 1e6:.1f} MB)   ratio {float(apart) / float(together):.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
