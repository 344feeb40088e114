"""Starting Django from the `mafiatab` command line (demo, import, export, createsuperuser)."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def setup_django(data_dir: str | None, *, migrate: bool = True) -> Path:
    """Configure Django with `data_dir` as the data directory; migrate the database
    (unless `migrate` is false: a command that only reads it).

    Returns the data directory in use.
    """
    if data_dir is not None:
        os.environ["MAFIATAB_DATA_DIR"] = str(Path(data_dir).expanduser().resolve())
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mafiatab.settings")
    import django
    from django.apps import apps
    from django.conf import settings

    if not apps.ready:  # set up once: a second setup would configure the logging again
        django.setup()
    if migrate:
        migrate_database()
    return Path(settings.DATA_DIR)


#: The PostgreSQL advisory lock held while migrating ("mafia" in ASCII).
MIGRATION_LOCK_KEY = 0x6D61666961


@contextmanager
def migration_lock() -> Iterator[None]:
    """Held while the database is migrated, so that two commands started together (the
    README's `mafiatab serve --migrate` and `mafiatab createsuperuser`) migrate one after
    the other: the second finds nothing left to do instead of creating a table twice.
    On PostgreSQL an advisory lock of the database; on SQLite a lock file in the data
    directory."""
    from django.conf import settings
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("select pg_advisory_lock(%s)", [MIGRATION_LOCK_KEY])
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("select pg_advisory_unlock(%s)", [MIGRATION_LOCK_KEY])
        return
    with (Path(settings.DATA_DIR) / "migrate.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def migrate_database() -> None:
    """Apply the unapplied migrations, one command at a time."""
    from django.core.management import call_command

    with migration_lock():
        call_command("migrate", verbosity=0, interactive=False)


def database_description() -> str:
    """Which database the command wrote to, for its report: an organiser whose shell
    lacks DATABASE_URL sees at once that it went to the SQLite file instead."""
    from django.db import connection

    config = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"the SQLite database {config['NAME']}"
    place = f"{config.get('HOST') or 'localhost'}:{config.get('PORT') or 'default port'}"
    return f"the {connection.display_name} database {config['NAME']!r} on {place}"
