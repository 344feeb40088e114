"""Starting Django from the `mafiatab` command line (demo, import, export, createsuperuser)."""

from __future__ import annotations

import os
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
    from django.core.management import call_command

    if not apps.ready:  # set up once: a second setup would configure the logging again
        django.setup()
    if migrate:
        call_command("migrate", verbosity=0, interactive=False)
    return Path(settings.DATA_DIR)


def database_description() -> str:
    """Which database the command wrote to, for its report: an organiser whose shell
    lacks DATABASE_URL sees at once that it went to the SQLite file instead."""
    from django.db import connection

    config = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"the SQLite database {config['NAME']}"
    place = f"{config.get('HOST') or 'localhost'}:{config.get('PORT') or 'default port'}"
    return f"the {connection.display_name} database {config['NAME']!r} on {place}"
