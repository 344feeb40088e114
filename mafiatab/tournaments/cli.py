"""Starting Django from the `mafiatab` command line (demo, import, export)."""

from __future__ import annotations

import os
from pathlib import Path


def setup_django(data_dir: str | None) -> Path:
    """Configure Django with `data_dir` as the data directory; migrate the database.

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
    call_command("migrate", verbosity=0, interactive=False)
    return Path(settings.DATA_DIR)
