"""Benchmark: the live standings page against `/healthz`, served by gunicorn.

    .venv/bin/python bench/bench_web.py [--players 200] [--games 2000] [--requests 600]
                                        [--concurrency 8] [--rounds 3]

Generates a tournament file into bench/out/ (git-ignored) with
bench/make_big_tournament.py, imports it with `mafiatab import` into a temporary data
directory, serves the application with gunicorn (2 workers, loopback only), warms it
up, then loads the standings page and `/healthz` side by side in one run: the two
endpoints take turns, `--rounds` times, each turn a bounded number of requests from
client threads (one connection per request, as gunicorn's sync workers close them).
Prints requests per second, the median and the 95th-percentile latency of each, and
the ratio of their throughputs. The goal: the standings page keeps at least half of
`/healthz`'s throughput. gunicorn is stopped at the end whatever happens.
"""

from __future__ import annotations

import argparse
import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv" / "bin"
OUT = ROOT / "bench" / "out"
HOST = "127.0.0.1"
GOAL = 0.5
WORKERS = 2


@dataclass
class Result:
    """The requests of one endpoint over all its turns."""

    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0
    errors: int = 0

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        if not ordered:
            return float("nan")
        return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def tournament_file(players: int, games: int, seed: int) -> Path:
    path = OUT / f"tournament_{players}p_{games}g_s{seed}.json"
    if not path.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        command = [str(BIN / "python"), str(ROOT / "bench" / "make_big_tournament.py")]
        command += ["--players", str(players), "--games", str(games), "--seed", str(seed)]
        subprocess.run([*command, "-o", str(path)], check=True)
    return path


def server_env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["MAFIATAB_DATA_DIR"] = str(data_dir)
    env["DJANGO_SETTINGS_MODULE"] = "mafiatab.settings"
    env.pop("MAFIATAB_DEBUG", None)
    env.pop("DJANGO_DEBUG", None)
    return env


def import_file(path: Path, data_dir: Path) -> str:
    """Store the file with `mafiatab import`; returns the tournament's slug."""
    result = subprocess.run(
        [str(BIN / "mafiatab"), "import", str(path), "--data-dir", str(data_dir)],
        capture_output=True,
        text=True,
        env=server_env(data_dir),
        check=False,
    )
    if result.returncode != 0:
        raise SystemExit(f"mafiatab import failed:\n{result.stderr}")
    return result.stdout.strip().splitlines()[-1]


def get(port: int, path: str) -> tuple[int, float]:
    """One GET on a new connection: (status, seconds)."""
    start = time.perf_counter()
    connection = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        status = response.status
    finally:
        connection.close()
    return status, time.perf_counter() - start


def wait_until_up(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"gunicorn exited early:\n{log.read_text(errors='replace')}")
        try:
            if get(port, "/healthz")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit("gunicorn did not answer /healthz within 60 s")


def load(port: int, path: str, requests: int, concurrency: int, result: Result) -> None:
    """`requests` GETs of `path` from `concurrency` threads; adds them to `result`."""
    remaining = iter(range(requests))
    lock = threading.Lock()

    def worker() -> None:
        while True:
            with lock:
                if next(remaining, None) is None:
                    return
            try:
                status, seconds = get(port, path)
            except OSError:
                status, seconds = 0, 0.0
            with lock:
                if status == 200:
                    result.latencies.append(seconds)
                else:
                    result.errors += 1

    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    result.seconds += time.perf_counter() - start


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop the gunicorn we started (its master takes its workers with it)."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def report(results: dict[str, Result], paths: dict[str, str]) -> float:
    width = max(len(path) for path in paths.values())
    print(f"{'endpoint':<10} {'path':<{width}} {'requests':>8} {'errors':>6} {'req/s':>9}", end="")
    print(f" {'median ms':>10} {'p95 ms':>8}")
    for name, result in results.items():
        print(
            f"{name:<10} {paths[name]:<{width}} {len(result.latencies):>8} {result.errors:>6}"
            f" {result.rate:>9.1f} {result.percentile(0.5) * 1000:>10.2f}"
            f" {result.percentile(0.95) * 1000:>8.2f}"
        )
    ratio = results["standings"].rate / results["healthz"].rate
    verdict = "met" if ratio >= GOAL else "NOT met"
    print(f"ratio standings/healthz throughput: {ratio:.2f} (goal >= {GOAL}: {verdict})")
    return ratio


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--requests", type=int, default=600, help="per endpoint and round")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)

    path = tournament_file(args.players, args.games, args.seed)
    data_dir = Path(tempfile.mkdtemp(prefix="mafiatab-bench-web-"))
    process: subprocess.Popen[bytes] | None = None
    try:
        started = time.perf_counter()
        slug = import_file(path, data_dir)
        print(f"imported {path.name} as {slug!r} in {time.perf_counter() - started:.1f} s")
        port = free_port()
        log = data_dir / "gunicorn.log"
        with log.open("wb") as out:
            command = [str(BIN / "gunicorn"), "mafiatab.wsgi", "-w", str(WORKERS)]
            process = subprocess.Popen(
                [*command, "-b", f"{HOST}:{port}", "--timeout", "120"],
                cwd=ROOT,
                env=server_env(data_dir),
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        wait_until_up(port, process, log)
        paths = {"healthz": "/healthz", "standings": f"/t/{slug}/standings/"}
        started = time.perf_counter()
        status, seconds = get(port, paths["standings"])
        if status != 200:
            raise SystemExit(f"the standings page answered {status}")
        print(f"first standings request (computes them): {seconds * 1000:.0f} ms")
        for name in paths:  # warm every worker
            load(port, paths[name], 50, args.concurrency, Result())
        results = {name: Result() for name in paths}
        for _ in range(args.rounds):
            for name, url in paths.items():
                load(port, url, args.requests, args.concurrency, results[name])
        print(
            f"{args.players} players, {args.games} games; gunicorn {WORKERS} workers; "
            f"{args.concurrency} client threads; {args.rounds} rounds of {args.requests} "
            f"requests per endpoint, taking turns"
        )
        report(results, paths)
        if any(r.errors for r in results.values()):
            print("some requests failed", file=sys.stderr)
            return 1
        return 0
    finally:
        if process is not None:
            stop(process)
        shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
