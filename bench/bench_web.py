"""Benchmark: the live standings page against `/healthz`, and concurrent protocol
saves, served by gunicorn on SQLite.

    .venv/bin/python bench/bench_web.py [--players 200] [--games 2000] [--requests 300]
                                        [--concurrency 8] [--rounds 6]
                                        [--writers 20] [--save-rounds 5]

Generates a tournament file into bench/out/ (git-ignored) with
bench/make_big_tournament.py, imports it with `mafiatab import` into a temporary data
directory, adds a signed-in player and a chief judge with an API token
(bench/make_web_accounts.py), serves the application with gunicorn (2 workers,
loopback only), warms it up, then in one run:

- loads `/healthz`, the standings page as an anonymous visitor and the same page
  signed in as a player: the three take turns, `--rounds` times, each turn a
  bounded number of requests from client threads (one connection per request, as
  gunicorn's sync workers close them), each visitor sending back the cookies a
  browser keeps (the CSRF cookie; the player's session). Prints requests per
  second, the median and the 95th-percentile latency of each, and the ratio of each
  page's throughput to `/healthz`'s. The goal: both pages keep at least half of
  `/healthz`'s throughput. Beside it, the server's CPU time per request of each (read
  from /proc for the workers), which other processes on a shared machine disturb less.
- saves `--writers` protocols at once through the API (the chief judge changing
  confirmed protocols of different games), `--save-rounds` times, after the same
  saves one at a time (the floor). Prints the median and the 95th-percentile latency
  of each, their ratio, and any answer other than 200 (there must be none).

gunicorn is stopped at the end whatever happens.
"""

from __future__ import annotations

import argparse
import http.client
import json
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
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv" / "bin"
OUT = ROOT / "bench" / "out"
HOST = "127.0.0.1"
GOAL = 0.5
WORKERS = 2
#: The reason given for every change of a confirmed protocol.
SAVE_REASON = "benchmark: the date corrected"


@dataclass
class Result:
    """The requests of one endpoint over all its turns."""

    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0
    errors: int = 0
    server_cpu: float = 0.0
    """CPU seconds the server's workers spent on these requests."""

    @property
    def cpu_ms(self) -> float:
        """The server's CPU milliseconds per request (steadier than req/s on a shared
        machine: other processes' load does not count)."""
        return self.server_cpu * 1000 / len(self.latencies) if self.latencies else 0.0

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


def accounts(data_dir: Path, slug: str, writers: int) -> dict[str, Any]:
    """The signed-in player and the chief judge (bench/make_web_accounts.py)."""
    command = [str(BIN / "python"), str(ROOT / "bench" / "make_web_accounts.py"), slug]
    result = subprocess.run(
        [*command, "--games", str(writers)],
        capture_output=True,
        text=True,
        env=server_env(data_dir),
        check=False,
    )
    if result.returncode != 0:
        raise SystemExit(f"make_web_accounts.py failed:\n{result.stderr}")
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


def request(
    port: int,
    path: str,
    *,
    method: str = "GET",
    headers: dict[str, str] | None = None,
    body: bytes | None = None,
) -> tuple[int, float, bytes]:
    """One request on a new connection: (status, seconds, body)."""
    start = time.perf_counter()
    connection = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        content = response.read()
        status = response.status
    finally:
        connection.close()
    return status, time.perf_counter() - start, content


def csrf_cookie(port: int, path: str) -> str:
    """The CSRF cookie a browser keeps from its first visit of `path` (as `name=value`):
    the visitors of the benchmark send back the cookies a browser would."""
    connection = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        cookies = response.headers.get_all("Set-Cookie") or []
    finally:
        connection.close()
    for cookie in cookies:
        if cookie.startswith("csrftoken="):
            return cookie.split(";", 1)[0]
    raise SystemExit(f"{path} set no CSRF cookie")


def get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, float]:
    """One GET on a new connection: (status, seconds)."""
    status, seconds, _ = request(port, path, headers=headers)
    return status, seconds


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


@dataclass(frozen=True)
class Endpoint:
    """A page loaded by the benchmark, as one kind of visitor."""

    path: str
    headers: dict[str, str] = field(default_factory=dict)


def load(port: int, endpoint: Endpoint, requests: int, concurrency: int, result: Result) -> None:
    """`requests` GETs of `endpoint` from `concurrency` threads; adds them to `result`."""
    remaining = iter(range(requests))
    lock = threading.Lock()

    def worker() -> None:
        while True:
            with lock:
                if next(remaining, None) is None:
                    return
            try:
                status, seconds = get(port, endpoint.path, endpoint.headers)
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


def report(results: dict[str, Result], endpoints: dict[str, Endpoint]) -> None:
    width = max(len(endpoint.path) for endpoint in endpoints.values())
    print(f"{'endpoint':<10} {'path':<{width}} {'requests':>8} {'errors':>6} {'req/s':>9}", end="")
    print(f" {'median ms':>10} {'p95 ms':>8} {'server CPU ms/req':>18}")
    for name, result in results.items():
        print(
            f"{name:<10} {endpoints[name].path:<{width}} {len(result.latencies):>8}"
            f" {result.errors:>6} {result.rate:>9.1f} {result.percentile(0.5) * 1000:>10.2f}"
            f" {result.percentile(0.95) * 1000:>8.2f} {result.cpu_ms:>18.3f}"
        )
    healthz = results["healthz"]
    for name in results:
        if name == "healthz":
            continue
        ratio = results[name].rate / healthz.rate
        verdict = "met" if ratio >= GOAL else "NOT met"
        cpu = healthz.cpu_ms / results[name].cpu_ms if results[name].cpu_ms else float("nan")
        print(
            f"ratio {name}/healthz throughput: {ratio:.2f} (goal >= {GOAL}: {verdict});"
            f" server CPU per request, healthz/{name}: {cpu:.2f}"
        )


def worker_cpu(master: int) -> float:
    """CPU seconds (user and system) spent so far by the gunicorn master's workers."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    children = Path(f"/proc/{master}/task/{master}/children")
    for pid in children.read_text().split() if children.exists() else []:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def save_payloads(port: int, slug: str, people: dict[str, Any]) -> list[tuple[str, bytes]]:
    """One change of each benchmark game's confirmed protocol: (path, body), made from
    its current protocol and version as the API gives them."""
    headers = {"Authorization": f"Bearer {people['token']}"}
    payloads = []
    for game_id in people["games"]:
        path = f"/api/tournaments/{slug}/games/{game_id}/protocol"
        status, _, body = request(port, f"/api/tournaments/{slug}/games/{game_id}", headers=headers)
        if status != 200:
            raise SystemExit(f"GET game {game_id} answered {status}: {body[:200]!r}")
        game = json.loads(body)
        protocol = game["protocol"]
        protocol["date"] = "2025-12-31" if protocol.get("date") != "2025-12-31" else "2025-12-30"
        change = {"protocol": protocol, "base_version": game["version"], "reason": SAVE_REASON}
        payloads.append((path, json.dumps(change).encode()))
    return payloads


def save(port: int, token: str, path: str, body: bytes) -> tuple[int, float]:
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    try:
        status, seconds, _ = request(port, path, method="PUT", headers=headers, body=body)
    except OSError:
        return 0, 0.0
    return status, seconds


def record(result: Result, status: int, seconds: float) -> None:
    if status == 200:
        result.latencies.append(seconds)
    else:
        result.errors += 1


def at_once(port: int, token: str, payloads: list[tuple[str, bytes]], result: Result) -> None:
    """Every save of `payloads` from its own thread, released together."""
    barrier = threading.Barrier(len(payloads))
    lock = threading.Lock()

    def writer(path: str, body: bytes) -> None:
        barrier.wait()
        status, seconds = save(port, token, path, body)
        with lock:
            record(result, status, seconds)

    threads = [threading.Thread(target=writer, args=payload) for payload in payloads]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def saves(port: int, slug: str, people: dict[str, Any], rounds: int) -> dict[str, Result]:
    """The benchmark games' protocols saved one at a time (the floor), then all at once,
    `rounds` times each."""
    results = {"one by one": Result(), "at once": Result()}
    for _ in range(rounds):
        for path, body in save_payloads(port, slug, people):
            record(results["one by one"], *save(port, people["token"], path, body))
    for _ in range(rounds):
        at_once(port, people["token"], save_payloads(port, slug, people), results["at once"])
    return results


def report_saves(results: dict[str, Result], writers: int) -> None:
    print(f"protocol saves through the API ({writers} games, chief judge, confirmed protocols)")
    print(f"{'saves':<11} {'saves':>6} {'errors':>6} {'median ms':>10} {'p95 ms':>8}")
    for name, result in results.items():
        print(
            f"{name:<11} {len(result.latencies):>6} {result.errors:>6}"
            f" {result.percentile(0.5) * 1000:>10.2f} {result.percentile(0.95) * 1000:>8.2f}"
        )
    alone, together = results["one by one"], results["at once"]
    print(
        f"ratio at once/one by one: median {together.percentile(0.5) / alone.percentile(0.5):.2f},"
        f" p95 {together.percentile(0.95) / alone.percentile(0.95):.2f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--requests", type=int, default=300, help="per endpoint and round")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--writers", type=int, default=20, help="protocols saved at once")
    parser.add_argument("--save-rounds", type=int, default=5)
    args = parser.parse_args(argv)

    path = tournament_file(args.players, args.games, args.seed)
    data_dir = Path(tempfile.mkdtemp(prefix="mafiatab-bench-web-"))
    process: subprocess.Popen[bytes] | None = None
    try:
        started = time.perf_counter()
        slug = import_file(path, data_dir)
        print(f"imported {path.name} as {slug!r} in {time.perf_counter() - started:.1f} s")
        people = accounts(data_dir, slug, args.writers)
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
        page = f"/t/{slug}/standings/"
        status, seconds = get(port, page)
        if status != 200:
            raise SystemExit(f"the standings page answered {status}")
        print(f"first standings request (computes them): {seconds * 1000:.0f} ms")
        session = f"{people['session_cookie']}={people['session']}"
        signed_in = {"Cookie": f"{session}; {csrf_cookie(port, page)}"}
        endpoints = {
            "healthz": Endpoint("/healthz"),
            "anonymous": Endpoint(page, {"Cookie": csrf_cookie(port, page)}),
            "player": Endpoint(page, signed_in),
        }
        status, _, body = request(port, page, headers=signed_in)
        if status != 200 or people["player"].encode() not in body or b"Log out" not in body:
            raise SystemExit(f"the player's standings page answered {status}, not signed in")
        for endpoint in endpoints.values():  # warm every worker
            load(port, endpoint, 50, args.concurrency, Result())
        results = {name: Result() for name in endpoints}
        for _ in range(args.rounds):
            for name, endpoint in endpoints.items():
                cpu = worker_cpu(process.pid)
                load(port, endpoint, args.requests, args.concurrency, results[name])
                results[name].server_cpu += worker_cpu(process.pid) - cpu
        print(
            f"{args.players} players, {args.games} games; gunicorn {WORKERS} workers; "
            f"{args.concurrency} client threads; {args.rounds} rounds of {args.requests} "
            f"requests per endpoint, taking turns; the player signed in as {people['player']!r}"
        )
        report(results, endpoints)
        saved = saves(port, slug, people, args.save_rounds)
        report_saves(saved, args.writers)
        status, seconds = get(port, page)
        print(f"standings page after the saves (computes them): {seconds * 1000:.0f} ms")
        failed = [name for name, r in (results | saved).items() if r.errors]
        if failed:
            print(f"some requests failed: {', '.join(failed)}", file=sys.stderr)
            return 1
        return 0
    finally:
        if process is not None:
            stop(process)
        shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
