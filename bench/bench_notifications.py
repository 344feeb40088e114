"""Benchmark: publishing the seating of a 200-player, 12-round tournament queues its
messages (the inbox rows and the e-mail outbox rows), and sends no e-mail.

    .venv/bin/python bench/bench_notifications.py [--players 200] [--rounds 12]

In a temporary data directory (SQLite), with a mail server configured that nobody
answers (nothing may be sent while publishing): 200 accounts with e-mail addresses
join a tournament, a seating of 12 games each is generated and published through the
service, as the web does. Prints the publishing's wall time, the part of it spent
telling the players and judges (their messages written in bulk), the messages and
outbox rows queued, and the goal: the messages queued within 2 s.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

GOAL_S = 2.0


def setup(data_dir: Path) -> None:
    os.environ.pop("DATABASE_URL", None)
    os.environ["MAFIATAB_DATA_DIR"] = str(data_dir)
    os.environ["DJANGO_SETTINGS_MODULE"] = "mafiatab.settings"
    # a mail server nobody answers: publishing must not try it
    os.environ["MAFIATAB_EMAIL_URL"] = "smtp://127.0.0.1:9"
    from mafiatab.tournaments.cli import setup_django

    setup_django(str(data_dir))


def tournament_of(players: int) -> tuple[Any, Any, list[Any]]:
    from django.contrib.auth.hashers import make_password

    from mafiatab.accounts.models import User
    from mafiatab.registrations.services import registration_add
    from mafiatab.tournaments.models import StaffRole
    from mafiatab.tournaments.services import TournamentInfo, staff_assign, tournament_create

    password = make_password(None)
    organiser = User.objects.create(username="org", nickname="Org", password=password)
    tournament = tournament_create(
        info=TournamentInfo(name="Bench Cup", ruleset="fiim"), by=organiser
    )
    people = User.objects.bulk_create(
        [
            User(
                username=f"p{n:03d}",
                nickname=f"Player {n:03d}",
                nickname_key=f"player {n:03d}",
                email=f"p{n:03d}@example.org",
                password=password,
            )
            for n in range(1, players + 1)
        ]
    )
    for user in people:
        registration_add(tournament=tournament, nickname="", user=user, by=organiser)
    judges = User.objects.bulk_create(
        [
            User(
                username=f"j{n:02d}",
                nickname=f"Judge {n:02d}",
                nickname_key=f"judge {n:02d}",
                email=f"j{n:02d}@example.org",
                password=password,
            )
            for n in range(1, players // 10 + 1)
        ]
    )
    for judge in judges:
        staff_assign(tournament=tournament, user=judge, role=StaffRole.TABLE_JUDGE, by=organiser)
    return tournament, organiser, judges


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=12)
    args = parser.parse_args(argv)
    data_dir = Path(tempfile.mkdtemp(prefix="mafiatab-bench-notify-"))
    try:
        setup(data_dir)
        from django.conf import settings

        from mafiatab.notifications.models import Delivery, DeliveryState, Notification
        from mafiatab.seating.services import (
            SeatingInputs,
            publishing,
            seating_generate,
            seating_publish,
        )

        settings.MAFIATAB_SEATING_ITERATIONS = 2_000  # the seating's quality is not measured here
        tournament, organiser, judges = tournament_of(args.players)
        tables = args.players // 10
        inputs = SeatingInputs(stage="qualifying", games=args.rounds, tables=tables, seed=1)
        draft = seating_generate(tournament=tournament, inputs=inputs, by=organiser)
        Notification.objects.all().delete()

        telling = [0.0]
        announce = publishing.seating_announce

        def timed_announce(**kwargs: Any) -> None:
            start = time.perf_counter()
            announce(**kwargs)
            telling[0] += time.perf_counter() - start

        publishing.seating_announce = timed_announce  # type: ignore[assignment]
        start = time.perf_counter()
        seating_publish(draft=draft, judges={n + 1: j for n, j in enumerate(judges)}, by=organiser)
        wall = time.perf_counter() - start
        messages = Notification.objects.count()
        queued = Delivery.objects.filter(state=DeliveryState.QUEUED).count()
        sent = Delivery.objects.exclude(state=DeliveryState.QUEUED).count()
        print(
            f"publish the seating of {args.players} players, {args.rounds} rounds "
            f"({tables} tables a round): {wall:.2f} s in all (rounds, tables, games "
            "and the messages)"
        )
        print(
            f"  telling them: {telling[0] * 1000:.0f} ms for {messages} messages "
            f"(each player his {args.rounds} tables, each judge his) and {queued} e-mails queued"
        )
        print(f"  e-mails sent while publishing: {sent} (goal 0)")
        ok = telling[0] <= GOAL_S and sent == 0
        print(f"  goal: messages queued within {GOAL_S:.0f} s: {'met' if ok else 'MISSED'}")
        return 0 if ok else 1
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
