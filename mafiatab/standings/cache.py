"""What the standings keep in Django's cache framework, and how it is named.

Every key names the state of the database its value was computed from, as read in
the same request (a tournament's id and creation time, its `standings_version` and
scoring settings; see `services.live_state`) and the release of the code that
rendered it (`release`). A value is therefore never stale: a change of the data, or
a new release of the site (other templates, translations or code), makes new keys,
and the old ones age out. The cache is settings.CACHES'
`default`, in the database: shared by every worker and every server on the same
database, so what one process computed, every other one reuses.

Why it is kept (`make bench`, bench/bench_web.py, 2,000 games on `mafiatab serve`
with 2 workers): computing the standings takes 126-132 ms a request, so without the
cache two workers would answer at most about 15 standings pages a second; with it the
page holds 200 requests a second at a p95 of 11 ms, and only the first request after
a change computes.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from django.core.cache import cache
from django.db import transaction

T = TypeVar("T")

_PLAIN = re.compile(r"[A-Za-z0-9_.-]{1,80}")

#: The layout of what is kept; a new layout (a page kept as bytes, not text) takes
#: new keys, so that no process reads what an older one kept in another form.
LAYOUT = 2


#: What a release of the site renders pages with.
_RELEASE_FILES = ("*.py", "*.html", "*.mo")


def fingerprint(root: Path) -> str:
    """A fingerprint of what renders pages under `root`: the names and contents of
    its code, templates and translations."""
    digest = hashlib.blake2b(digest_size=8)
    for pattern in _RELEASE_FILES:
        for path in sorted(root.rglob(pattern)):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


@functools.cache
def release() -> str:
    """This release of the package (`fingerprint` of its folder). Kept pages are keyed
    on it, so that after an upgrade no server serves a page an older release rendered
    (the cache lives in the database and outlives the servers). Read once per process;
    a served worker reads it while it starts (`mafiatab.wsgi`)."""
    return fingerprint(Path(__file__).resolve().parent.parent)


def key(*parts: object) -> str:
    """A cache key from its parts, for this release; a part that is not a short
    plain word (a nickname, a path) is hashed, so that keys stay short and valid for
    every cache backend."""
    words = [release()]
    for part in parts:
        text = str(part)
        if not _PLAIN.fullmatch(text):
            text = "h" + hashlib.blake2b(text.encode(), digest_size=12).hexdigest()
        words.append(text)
    return f"standings{LAYOUT}:" + ":".join(words)


def get(name: str) -> Any:
    """The value kept under `name` (None when there is none)."""
    return cache.get(name)


def put(name: str, value: Any) -> Any:
    """Keep `value` under `name`; returns it."""
    cache.set(name, value)
    return value


def put_many(values: Mapping[str, Any]) -> None:
    """Keep many values at once: one transaction, however many values."""
    with transaction.atomic():
        cache.set_many(dict(values))


def get_or_compute(name: str, compute: Callable[[], T]) -> T:
    """The value kept under `name`, computed and kept first if there is none."""
    value = get(name)
    if value is None:
        value = put(name, compute())
    return value  # type: ignore[no-any-return]
