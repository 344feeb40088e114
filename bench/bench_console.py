"""Benchmark: the judge console at a game's 150th event, in the engine and through
the web application.

    .venv/bin/python bench/bench_console.py [--events 150] [--runs 200] [--requests 30]

Builds a log of `--events - 1` events (a game to its third day, with the fouls and
pauses a judge logs between), then, in one run:

- the engine (`mafiatab.core.game.Game`): the time of one append of the next event,
  one check of it and one undo, each the best and the median of `--runs`. The goal:
  an append at most 5 ms. Beside them, the floor of reading the event alone
  (`parse_event`) and, for scale, a replay of the whole log (what an undo cost when
  the engine kept no stack of states);
- the console's API on SQLite (Django's test client, in a temporary data directory):
  the judge's append of the next event and the undo that takes it back, each the
  median and the 95th percentile of `--requests`, against the floor of `/healthz`
  served by the same application in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GOAL_MS = 5.0
#: Seat 3 sheriff, 7 don, 5 and 9 black.
ROLES = {"sheriff": 3, "don": 7, "black": [5, 9]}
#: A game to its third day: seat 5 voted out, seat 1 shot, seat 9 voted out, seat 3 shot.
GAME: list[dict[str, Any]] = [
    {"type": "nominate", "by": 1, "seat": 5},
    {"type": "nominate", "by": 2, "seat": 9},
    {"type": "vote", "counts": [6, 4]},
    {"type": "night"},
    {"type": "shots", "by": {"7": 1, "9": 1}},
    {"type": "don_check", "seat": 3},
    {"type": "sheriff_check", "seat": 9},
    {"type": "day"},
    {"type": "best_move", "seats": [7, 9, 2]},
    {"type": "nominate", "by": 3, "seat": 9},
    {"type": "nominate", "by": 4, "seat": 7},
    {"type": "vote", "counts": [5, 3]},
    {"type": "night"},
    {"type": "shots", "by": {"7": 3}},
    {"type": "day"},
    {"type": "nominate", "by": 2, "seat": 7},
]
#: The event appended at the end of the log.
NEXT = {"type": "nominate", "by": 4, "seat": 8}


def events_of(count: int) -> list[dict[str, Any]]:
    """`count` events: the game, a pause after each of its events, and fouls (two at
    most for a seat) and pauses to make up the count."""
    events: list[dict[str, Any]] = []
    for event in GAME:
        events.append(event)
        if event["type"] not in ("vote", "shots"):  # a pause does not split a vote's result
            events.append({"type": "pause", "seat": 2, "minutes": 1, "reason": "time-out"})
    fillers = [{"type": "foul", "seat": seat} for seat in (2, 4, 6, 8, 10) * 2]
    while len(events) < count:
        events.append(
            fillers.pop() if fillers else {"type": "pause", "seat": 4, "minutes": 2, "reason": ""}
        )
    return events[:count]


def timed(action: Callable[[], object], runs: int) -> list[float]:
    """Milliseconds of each of `runs` calls of `action`."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return times


def header() -> dict[str, Any]:
    return {
        "format": "mafiatab-game-log/1",
        "table": "fiim",
        "seats": [f"Alpha{n}" for n in range(1, 11)],
        "roles": ROLES,
    }


def bench_engine(events: list[dict[str, Any]], runs: int) -> float:
    from mafiatab.core.game import Game, parse_event, parse_log, replay

    log = parse_log({**header(), "events": events})
    game = Game(log)
    assert game.check(parse_event(NEXT, len(events) + 1)) is None
    appends, undos = [], []
    for _ in range(runs):
        start = time.perf_counter()
        game.append(NEXT)
        middle = time.perf_counter()
        game.undo()
        end = time.perf_counter()
        appends.append((middle - start) * 1000)
        undos.append((end - middle) * 1000)
    event = parse_event(NEXT, len(events) + 1)
    checks = timed(lambda: game.check(event), runs)
    floor = timed(lambda: parse_event(NEXT, len(events) + 1), runs)
    replays = timed(lambda: replay(log), max(5, runs // 10))
    n = len(events) + 1

    def row(name: str, times: list[float]) -> None:
        print(f"{name:40s} {min(times) * 1000:8.1f}   {_median(times) * 1000:8.1f}")

    print(f"engine, event {n} of a log                best us   median us")
    row("parse_event floor", floor)
    row("append (read + one step)", appends)
    row("check (one step)", checks)
    row("undo (the stack pops)", undos)
    row(f"replay of all {len(events)} events (for scale)", replays)
    append = _median(appends)
    print(
        f"append / parse_event floor               {append / _median(floor):8.1f}x  "
        f"(goal: append <= {GOAL_MS:g} ms: {'met' if append <= GOAL_MS else 'MISSED'})"
    )
    return append


def _median(values: list[float]) -> float:
    return statistics.median(values)


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def bench_console(events: list[dict[str, Any]], requests: int) -> None:
    """The judge's append and undo through the API, on SQLite in a temporary folder."""
    with tempfile.TemporaryDirectory(prefix="mafiatab-bench-console-") as data:
        os.environ["MAFIATAB_DATA_DIR"] = data
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mafiatab.settings")
        import django

        django.setup()
        from django.core.management import call_command
        from django.test import Client

        call_command("migrate", verbosity=0)
        judge, game = _table(events)
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(judge, backend="mafiatab.accounts.backends.AccountBackend")
        url = f"/api/tournaments/{game.tournament.slug}/games/{game.pk}/log"
        number = game.console_log.last_number

        def post(tail: str, body: dict[str, Any]) -> dict[str, Any]:
            answer = client.post(url + tail, data=json.dumps(body), content_type="application/json")
            if answer.status_code != 201:
                raise SystemExit(f"{tail}: {answer.status_code} {answer.content[:300]!r}")
            return answer.json()

        appends, undos, floor = [], [], []
        for _ in range(requests):
            start = time.perf_counter()
            client.get("/healthz")
            floor.append((time.perf_counter() - start) * 1000)
            body = {"id": str(uuid.uuid4()), "after": number, "event": NEXT}
            start = time.perf_counter()
            post("/events", body)
            appends.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            post("/undo", {"id": str(uuid.uuid4()), "after": number + 1})
            undos.append((time.perf_counter() - start) * 1000)
            number += 2
        print(f"console API on SQLite, event {len(events) + 1}      median ms   p95 ms")
        print(
            f"/healthz floor                           {_median(floor):7.2f}   {_p95(floor):7.2f}"
        )
        print(
            f"append (POST .../log/events)             {_median(appends):7.2f}   "
            f"{_p95(appends):7.2f}"
        )
        print(
            f"undo (POST .../log/undo)                 {_median(undos):7.2f}   {_p95(undos):7.2f}"
        )
        print(
            f"append / floor                           {_median(appends) / _median(floor):7.1f}x"
            f"   undo / floor {_median(undos) / _median(floor):.1f}x"
        )


def _table(events: list[dict[str, Any]]) -> tuple[Any, Any]:
    """A tournament with a published table whose console log holds `events`."""
    from mafiatab.accounts.models import User
    from mafiatab.console import services as console
    from mafiatab.games.services import TablePlan, round_create
    from mafiatab.registrations.services import registration_add
    from mafiatab.tournaments.models import StaffRole
    from mafiatab.tournaments.services import TournamentInfo, staff_assign, tournament_create

    organiser = User.objects.create_user(username="organiser", password=None, nickname="Org")
    judge = User.objects.create_user(username="judge", password=None, nickname="Judge")
    info = TournamentInfo(name="Bench Cup", ruleset="fiim", platform="")
    tournament = tournament_create(info=info, by=organiser)
    staff_assign(tournament=tournament, user=judge, role=StaffRole.TABLE_JUDGE, by=organiser)
    players = tuple(f"Alpha{n}" for n in range(1, 11))
    for nickname in players:
        registration_add(tournament=tournament, nickname=nickname, by=organiser)
    round_ = round_create(
        tournament=tournament,
        stage="qualifying",
        number=1,
        tables=[TablePlan(number=1, judge=judge, players=players)],
        by=organiser,
    )
    game = round_.tables.get().game
    log = console.log_start(game=game, roles=ROLES, by=judge)
    for event in events:
        console.event_append(log=log, event=event, client_id=uuid.uuid4(), after=None, by=judge)
    game.refresh_from_db()
    return judge, game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=150, help="the event appended is this one")
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--requests", type=int, default=30)
    args = parser.parse_args(argv)
    events = events_of(args.events - 1)
    bench_engine(events, args.runs)
    bench_console(events, args.requests)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
