"""`mafiatab outbox`: send what the outbox holds (the e-mail of the notifications), by
hand, or as a process of its own with --watch (which `mafiatab serve` and `mafiatab
demo` start beside gunicorn: a thread of gunicorn's master would be copied into every
worker it forks, SQLite's locks with it)."""

from __future__ import annotations

import argparse
import logging
import os
import time
from typing import Any

logger = logging.getLogger("mafiatab.notifications")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "outbox",
        help="send the queued notification e-mails",
        description=(
            "Send the due rows of the outbox (notification e-mails) once and print what "
            "was sent, retried and failed; with --watch keep draining until interrupted. "
            "`mafiatab serve` and `mafiatab demo` start a watching one themselves; two "
            "drainers at once never send a message twice."
        ),
    )
    parser.add_argument("--watch", action="store_true", help="keep draining every INTERVAL seconds")
    parser.add_argument(
        "--interval", type=float, default=15.0, help="seconds between passes (with --watch)"
    )
    parser.add_argument(
        "--data-dir", default=None, metavar="DIR", help="data directory (default ./data)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not 0.1 <= args.interval <= 3600:
        print("--interval must be between 0.1 and 3600 seconds")
        return 2
    from mafiatab.tournaments.cli import setup_django

    setup_django(args.data_dir)
    from django.db import close_old_connections

    from mafiatab.notifications.models import Delivery, DeliveryState
    from mafiatab.notifications.services import outbox_drain_all

    parent = os.getppid()
    try:
        while True:
            close_old_connections()
            try:
                done = outbox_drain_all()
                waiting = Delivery.objects.filter(state=DeliveryState.QUEUED).count()
            except Exception:
                if not args.watch:
                    raise
                logger.exception("the outbox could not be drained; trying again")
            else:
                if done.handled or not args.watch:
                    print(
                        f"sent {done.sent}, to retry {done.retried}, failed {done.failed}; "
                        f"{waiting} queued",
                        flush=True,
                    )
            if not args.watch:
                return 0
            time.sleep(args.interval)
            if os.getppid() != parent:  # the server that started it is gone
                return 0
    except KeyboardInterrupt:
        return 0
