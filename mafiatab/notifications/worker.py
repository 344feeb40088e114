"""The outbox worker: a thread that drains the outbox while the server runs.

`mafiatab serve` starts one in gunicorn's master process (one per server, whatever
the number of workers), `mafiatab demo` likewise. It drains every `interval`
seconds, and at once when this process commits new messages. A row it claimed and
could not finish (the process stopped) is taken up again once its claim lapses.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from django.apps import apps
from django.db import close_old_connections, connections

from mafiatab.notifications.services import outbox_drain

logger = logging.getLogger("mafiatab.notifications")


class OutboxWorker(threading.Thread):
    """Drains the outbox until `stop()`."""

    def __init__(self, *, interval: float = 15.0) -> None:
        super().__init__(name="mafiatab-outbox", daemon=True)
        self.interval = interval
        self._stopping = threading.Event()
        config: Any = apps.get_app_config("notifications")
        self._wake: threading.Event = config.outbox_wake

    def stop(self) -> None:
        self._stopping.set()
        self._wake.set()

    def drain_once(self) -> int:
        """One pass until nothing is due; the number of rows handled."""
        handled = 0
        close_old_connections()
        try:
            while not self._stopping.is_set():
                done = outbox_drain()
                handled += done.handled
                if done.handled == 0:
                    break
        except Exception:  # the database away: the next pass tries again
            logger.exception("the outbox could not be drained")
        finally:
            connections.close_all()
        return handled

    def run(self) -> None:
        while not self._stopping.is_set():
            self._wake.clear()
            self.drain_once()
            self._wake.wait(self.interval)


def start_worker(*, interval: float = 15.0) -> OutboxWorker:
    worker = OutboxWorker(interval=interval)
    worker.start()
    return worker
