"""Registrations' nicknames unique by their key within a tournament; reserves.

Active registrations of one tournament whose nicknames already share a key (e.g.
"Кэп" and "кэп" registered on SQLite) keep distinct keys (suffixed with their id)
so nothing is lost; the earliest keeps the plain key and the organiser settles
the rest.
"""

import django.db.models.deletion
from django.db import migrations, models

from mafiatab.core.names import nickname_key

NAMED = ("pending", "approved", "waiting", "reserve")


def fill_keys(apps, schema_editor):
    Registration = apps.get_model("registrations", "Registration")
    seen: set[tuple[int, str]] = set()
    for reg in Registration.objects.order_by("id").only("id", "tournament_id", "nickname", "status"):
        key = nickname_key(reg.nickname)
        if reg.status in NAMED:
            if (reg.tournament_id, key) in seen:
                key = f"{key}#{reg.pk}"
            seen.add((reg.tournament_id, key))
        Registration.objects.filter(pk=reg.pk).update(nickname_key=key)


class Migration(migrations.Migration):
    dependencies = [("registrations", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="registration",
            name="nickname_key",
            field=models.CharField(
                default="",
                editable=False,
                help_text="The nickname's identity (mafiatab.core.names.nickname_key).",
                max_length=256,
            ),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="registration",
            name="status",
            field=models.CharField(
                choices=[
                    ("pending", "awaiting confirmation"),
                    ("approved", "participant"),
                    ("waiting", "waiting list"),
                    ("rejected", "rejected"),
                    ("withdrawn", "withdrawn"),
                    ("removed", "removed from the tournament"),
                    ("reserve", "reserve"),
                ],
                default="pending",
                max_length=16,
                verbose_name="status",
            ),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="registration",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status__in", ["pending", "approved", "waiting", "reserve"])),
                fields=("tournament", "nickname_key"),
                name="registrations_one_active_per_nickname",
            ),
        ),
        migrations.AddField(
            model_name="replacement",
            name="reserve",
            field=models.ForeignKey(
                blank=True,
                help_text="The reserve's registration (status reserve, or a participant's).",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="replacing",
                to="registrations.registration",
            ),
        ),
    ]
