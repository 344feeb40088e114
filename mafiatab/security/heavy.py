"""Heavy exports never starve the pages.

The archive, the big PDFs (standings, seating, judges' copies, a round's blank
protocols) and the XLSX take seconds of a worker each; many at once used to hold
every thread and stall unrelated pages. At most `MAFIATAB_HEAVY_EXPORTS` (default 2)
of them run at once in a process; one more is answered at once with 503 and
`Retry-After` in the reader's language (`retry_response`), never queued.

The slots live on the security app's config (`heavy_exports()`), made from the
setting when the process starts. A streamed download (the archive) holds its slot
until its last byte is sent or the download is closed.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from django.apps import apps
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse

from mafiatab.security.busy import HeavyExportsFull, retry_response


class HeavyExports:
    """A fixed number of slots for heavy exports, taken without waiting."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._slots = threading.BoundedSemaphore(size)

    def try_take(self) -> bool:
        """Take a slot if one is free (never waits)."""
        return self._slots.acquire(blocking=False)

    def give_back(self) -> None:
        self._slots.release()


def heavy_exports() -> HeavyExports:
    """This process's slots for heavy exports."""
    config: Any = apps.get_app_config("security")
    slots: HeavyExports = config.heavy_exports
    return slots


class _Holding:
    """A streamed response's content that gives its slot back once: at its end, or when
    the server closes it (a download cut short, or never started)."""

    def __init__(self, content: Iterable[bytes], give_back: Callable[[], None]) -> None:
        self._content = iter(content)
        self._give_back: Callable[[], None] | None = give_back

    def __iter__(self) -> Iterator[bytes]:
        return self

    def __next__(self) -> bytes:
        try:
            return next(self._content)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        give_back, self._give_back = self._give_back, None
        if give_back is not None:
            give_back()


def heavy_export(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Run `view` in one of the heavy exports' slots; none free is a 503 "try again"."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        slots = heavy_exports()
        if not slots.try_take():
            return retry_response(request, HeavyExportsFull(slots.size))
        try:
            response = view(request, *args, **kwargs)
        except BaseException:
            slots.give_back()
            raise
        if isinstance(response, StreamingHttpResponse):
            response.streaming_content = _Holding(response.streaming_content, slots.give_back)
        else:
            slots.give_back()
        return response

    return wrapper
