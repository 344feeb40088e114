"""Log filters: a refused request is one line in the log, not a traceback."""

from __future__ import annotations

import logging


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
