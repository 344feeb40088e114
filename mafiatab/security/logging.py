"""Log filters: a refused request is one line in the log, not a traceback."""

from __future__ import annotations

import logging
import sys
from typing import Any


class OneLineRefusals(logging.Filter):
    """Drop the traceback Django attaches to the log record of a refused request (a
    4xx: permission denied, a suspicious operation, a disallowed host). The line
    itself (`Forbidden (Permission denied): /t/cup/games/3/protocol`) stays; server
    errors (5xx) keep their tracebacks."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and 400 <= status < 500:
            record.exc_info = None
            record.exc_text = None
            record.stack_info = None
        return True


class StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """The console handler: writes to the standard error of the moment of each record,
    not to the one there was when logging was configured (a command run inside a
    program that swapped its standard error, as a test runner does, would otherwise
    leave the handler writing to a closed file). `setStream` still redirects it;
    `setStream(None)` makes it follow the standard error again."""

    def __init__(self) -> None:
        logging.Handler.__init__(self)
        self._stream: Any = None

    @property  # type: ignore[override]
    def stream(self) -> Any:
        return sys.stderr if self._stream is None else self._stream

    @stream.setter
    def stream(self, value: Any) -> None:
        self._stream = value
