"""`mafiatab outbox`: send what the outbox holds (the e-mail of the notifications), by
hand, or as a process of its own with --watch."""

from __future__ import annotations

import argparse
import time
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "outbox",
        help="send the queued notification e-mails",
        description=(
            "Send the due rows of the outbox (notification e-mails) once and print what "
            "was sent, retried and failed; with --watch keep draining until interrupted. "
            "`mafiatab serve` and `mafiatab demo` drain it themselves; two drainers at "
            "once never send a message twice."
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
    from mafiatab.tournaments.cli import setup_django

    setup_django(args.data_dir)
    from mafiatab.notifications.models import Delivery, DeliveryState
    from mafiatab.notifications.services import outbox_drain

    if not 0.1 <= args.interval <= 3600:
        print("--interval must be between 0.1 and 3600 seconds")
        return 2
    try:
        while True:
            sent = retried = failed = 0
            while (done := outbox_drain()).handled:
                sent, retried, failed = (
                    sent + done.sent,
                    retried + done.retried,
                    failed + done.failed,
                )
            waiting = Delivery.objects.filter(state=DeliveryState.QUEUED).count()
            if sent or retried or failed or not args.watch:
                print(
                    f"sent {sent}, to retry {retried}, failed {failed}; {waiting} queued",
                    flush=True,
                )
            if not args.watch:
                return 0
            time.sleep(args.interval)
    except KeyboardInterrupt:
        return 0
