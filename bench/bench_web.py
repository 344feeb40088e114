"""Benchmark: the standings page of a 2,000-game tournament served by `mafiatab serve`
(2 workers, SQLite), as the users meet it: the first request after a protocol change,
the page under a steady load, and concurrent protocol saves.

    .venv/bin/python bench/bench_web.py [--players 200] [--games 2000] [--changes 7]
                                        [--rate 200] [--seconds 30]
                                        [--writers 20] [--save-rounds 5]

Generates a tournament file into bench/out/ (git-ignored) with
bench/make_big_tournament.py, imports it with `mafiatab import` into a temporary data
directory, adds a signed-in player and a chief judge with an API token
(bench/make_web_accounts.py), serves it with `mafiatab serve --workers 2` (production
settings; every request carries the `X-Forwarded-Proto: https` of the reverse proxy the
README documents), warms it up, then:

- the standings after a protocol change, `--changes` times: the chief judge changes a
  confirmed protocol through the API, then an anonymous visitor opens the standings
  page, the first request after the change (it computes them). Prints the best, the
  median and the worst; the goal: the median within 150 ms.
- the standings page under `--rate` requests per second for `--seconds` seconds, half
  of them signed in as a player (each visitor sending back the cookies a browser keeps:
  the CSRF cookie, the player's session), one connection per request as gunicorn's
  sync workers close them. Requests leave on a fixed schedule whatever the answers'
  speed, and each one's latency counts from its scheduled time, so a server that falls
  behind shows it. Prints the rate reached, the median and the 95th percentile of each
  kind and of all, and every answer other than 200; the goal: p95 within 50 ms, no
  error.
- `--writers` protocols saved at once through the API (the chief judge changing
  confirmed protocols of different games), `--save-rounds` times, after the same saves
  one at a time (the floor). Prints the median and the 95th-percentile latency of each,
  their ratio, and any answer other than 200 (there must be none).

The server is stopped at the end whatever happens.
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
WORKERS = 2
#: What the reverse proxy in front of `mafiatab serve` adds to every request.
PROXY = {"X-Forwarded-Proto": "https"}
AFTER_CHANGE_GOAL_MS = 150.0
P95_GOAL_MS = 50.0
SAVE_REASON = "benchmark: the date corrected"


@dataclass
class Result:
    """The answers of one kind of request."""

    latencies: list[float] = field(default_factory=list)
    errors: dict[int, int] = field(default_factory=dict)
    """How many answers of each status other than 200 (0: no answer)."""

    def add(self, status: int, seconds: float) -> None:
        if status == 200:
            self.latencies.append(seconds)
        else:
            self.errors[status] = self.errors.get(status, 0) + 1

    @property
    def failed(self) -> int:
        return sum(self.errors.values())

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
    env.pop("MAFIATAB_PRODUCTION", None)  # `mafiatab serve` decides: production
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
    """One request on a new connection, through the proxy: (status, seconds, body)."""
    start = time.perf_counter()
    connection = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        connection.request(method, path, body=body, headers=PROXY | (headers or {}))
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
        connection.request("GET", path, headers=PROXY)
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
    try:
        status, seconds, _ = request(port, path, headers=headers)
    except OSError:
        return 0, 0.0
    return status, seconds


def serve(port: int, data_dir: Path, log: Path) -> subprocess.Popen[bytes]:
    """`mafiatab serve` with 2 workers on `port`, its output into `log`."""
    command = [str(BIN / "mafiatab"), "serve", "--host", HOST, "--port", str(port)]
    command += ["--workers", str(WORKERS), "--data-dir", str(data_dir)]
    with log.open("wb") as out:
        return subprocess.Popen(
            command, cwd=ROOT, env=server_env(data_dir), stdout=out, stderr=subprocess.STDOUT
        )


def wait_until_up(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"mafiatab serve exited early:\n{log.read_text(errors='replace')}")
        if get(port, "/healthz")[0] == 200:
            return
        time.sleep(0.2)
    raise SystemExit("mafiatab serve did not answer /healthz within 60 s")


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop the server we started (gunicorn's master takes its workers with it)."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def change_payload(port: int, slug: str, token: str, game_id: int) -> tuple[str, bytes]:
    """One change of a game's confirmed protocol: (path, body), made from its current
    protocol and version as the API gives them."""
    headers = {"Authorization": f"Bearer {token}"}
    status, _, body = request(port, f"/api/tournaments/{slug}/games/{game_id}", headers=headers)
    if status != 200:
        raise SystemExit(f"GET game {game_id} answered {status}: {body[:200]!r}")
    game = json.loads(body)
    protocol = game["protocol"]
    protocol["date"] = "2025-12-31" if protocol.get("date") != "2025-12-31" else "2025-12-30"
    change = {"protocol": protocol, "base_version": game["version"], "reason": SAVE_REASON}
    return f"/api/tournaments/{slug}/games/{game_id}/protocol", json.dumps(change).encode()


def save(port: int, token: str, path: str, body: bytes) -> tuple[int, float]:
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    try:
        status, seconds, _ = request(port, path, method="PUT", headers=headers, body=body)
    except OSError:
        return 0, 0.0
    return status, seconds


def after_changes(port: int, slug: str, people: dict[str, Any], page: str, runs: int) -> Result:
    """`runs` times: a confirmed protocol changed, then the standings page's first
    request after it."""
    result = Result()
    for run in range(runs):
        game_id = people["games"][run % len(people["games"])]
        status, _ = save(
            port, people["token"], *change_payload(port, slug, people["token"], game_id)
        )
        if status != 200:
            raise SystemExit(f"the protocol change answered {status}")
        result.add(*get(port, page))
    return result


def paced(
    port: int, visitors: list[tuple[str, dict[str, str]]], rate: float, seconds: float
) -> tuple[dict[str, Result], float]:
    """GETs at `rate` per second for `seconds`, the visitors taking turns; each request
    leaves at its scheduled time (from a pool of client threads) and its latency counts
    from then. The results by visitor, and the rate of the answers."""
    results = {name: Result() for name, _ in visitors}
    lock = threading.Lock()
    total = int(rate * seconds)
    slots = iter(range(total))
    begin = time.perf_counter() + 0.05

    def client() -> None:
        while True:
            with lock:
                slot = next(slots, None)
            if slot is None:
                return
            due = begin + slot / rate
            delay = due - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            name, headers = visitors[slot % len(visitors)]
            status, _ = get(port, page_of[name], headers)
            answered = time.perf_counter()
            with lock:
                results[name].add(status, answered - due)

    page_of = {name: headers.pop("path") for name, headers in visitors}
    threads = [threading.Thread(target=client) for _ in range(64)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - begin
    answered = sum(len(r.latencies) + r.failed for r in results.values())
    return results, answered / elapsed


def at_once(port: int, token: str, payloads: list[tuple[str, bytes]], result: Result) -> None:
    """Every save of `payloads` from its own thread, released together."""
    barrier = threading.Barrier(len(payloads))
    lock = threading.Lock()

    def writer(path: str, body: bytes) -> None:
        barrier.wait()
        status, seconds = save(port, token, path, body)
        with lock:
            result.add(status, seconds)

    threads = [threading.Thread(target=writer, args=payload) for payload in payloads]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def saves(port: int, slug: str, people: dict[str, Any], rounds: int) -> dict[str, Result]:
    """The benchmark games' protocols saved one at a time (the floor), then all at once,
    `rounds` times each."""
    token = people["token"]
    results = {"one by one": Result(), "at once": Result()}
    for _ in range(rounds):
        for game_id in people["games"]:
            results["one by one"].add(
                *save(port, token, *change_payload(port, slug, token, game_id))
            )
    for _ in range(rounds):
        payloads = [change_payload(port, slug, token, game_id) for game_id in people["games"]]
        at_once(port, token, payloads, results["at once"])
    return results


def _errors(result: Result) -> str:
    return ", ".join(f"{n}× {status or 'no answer'}" for status, n in result.errors.items()) or "0"


def report_after_changes(result: Result) -> None:
    ordered = sorted(result.latencies) or [float("nan")]
    median = result.percentile(0.5) * 1000
    verdict = "met" if median <= AFTER_CHANGE_GOAL_MS else "NOT met"
    print(f"the standings page's first request after a protocol change ({len(ordered)} changes)")
    print(
        f"  best {ordered[0] * 1000:.0f} ms, median {median:.0f} ms,"
        f" worst {ordered[-1] * 1000:.0f} ms;"
        f" errors {_errors(result)}; goal: median <= {AFTER_CHANGE_GOAL_MS:g} ms: {verdict}"
    )


def report_paced(results: dict[str, Result], reached: float, rate: float, seconds: float) -> None:
    every = Result()
    for result in results.values():
        every.latencies += result.latencies
        for status, n in result.errors.items():
            every.errors[status] = every.errors.get(status, 0) + n
    print(f"the standings page at {rate:g} requests/s for {seconds:g} s (reached {reached:.1f}/s)")
    print(f"  {'visitor':<10} {'answers':>8} {'errors':>12} {'median ms':>10} {'p95 ms':>8}")
    for name, result in [*results.items(), ("all", every)]:
        print(
            f"  {name:<10} {len(result.latencies):>8} {_errors(result):>12}"
            f" {result.percentile(0.5) * 1000:>10.1f} {result.percentile(0.95) * 1000:>8.1f}"
        )
    p95 = every.percentile(0.95) * 1000
    verdict = "met" if p95 <= P95_GOAL_MS and not every.failed else "NOT met"
    print(f"  goal: p95 <= {P95_GOAL_MS:g} ms and no error: {verdict}")


def report_saves(results: dict[str, Result], writers: int) -> None:
    print(f"protocol saves through the API ({writers} games, chief judge, confirmed protocols)")
    print(f"  {'saves':<11} {'saves':>6} {'errors':>12} {'median ms':>10} {'p95 ms':>8}")
    for name, result in results.items():
        print(
            f"  {name:<11} {len(result.latencies):>6} {_errors(result):>12}"
            f" {result.percentile(0.5) * 1000:>10.2f} {result.percentile(0.95) * 1000:>8.2f}"
        )
    alone, together = results["one by one"], results["at once"]
    median = together.percentile(0.5) / alone.percentile(0.5)
    p95 = together.percentile(0.95) / alone.percentile(0.95)
    print(f"  ratio at once/one by one: median {median:.2f}, p95 {p95:.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--changes", type=int, default=7, help="protocol changes measured")
    parser.add_argument("--rate", type=float, default=200.0, help="requests per second")
    parser.add_argument("--seconds", type=float, default=30.0, help="of the steady load")
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
        log = data_dir / "serve.log"
        process = serve(port, data_dir, log)
        wait_until_up(port, process, log)
        page = f"/t/{slug}/standings/"
        session = f"{people['session_cookie']}={people['session']}"
        anonymous = {"Cookie": csrf_cookie(port, page)}
        signed_in = {"Cookie": f"{session}; {csrf_cookie(port, page)}"}
        status, _, body = request(port, page, headers=signed_in)
        if status != 200 or people["player"].encode() not in body or b"Log out" not in body:
            raise SystemExit(f"the player's standings page answered {status}, not signed in")
        for _ in range(20):  # warm every worker: imports, templates, the computed standings
            get(port, page, anonymous)
            get(port, page, signed_in)
        print(
            f"{args.players} players, {args.games} games; mafiatab serve, {WORKERS} workers;"
            f" the player signed in as {people['player']!r}"
        )
        report_after_changes(after_changes(port, slug, people, page, args.changes))
        visitors = [
            ("anonymous", {"path": page, **anonymous}),
            ("player", {"path": page, **signed_in}),
        ]
        results, reached = paced(port, visitors, args.rate, args.seconds)
        report_paced(results, reached, args.rate, args.seconds)
        saved = saves(port, slug, people, args.save_rounds)
        report_saves(saved, args.writers)
        failed = [name for name, r in (results | saved).items() if r.failed]
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
