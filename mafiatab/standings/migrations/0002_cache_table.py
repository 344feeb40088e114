"""The table of the database cache (settings.CACHES["default"]), made where every
other table is made: by `migrate`, so that tests, `mafiatab demo`/`import`/`serve`
and `manage.py migrate` all have it. Idempotent: an existing table is kept."""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [
        ("standings", "0001_standings"),
    ]

    operations = [
        migrations.RunPython(create_cache_table, migrations.RunPython.noop),
    ]
