"""Nicknames unique by their key (case folded in any script), on every database.

The old constraint compared `Lower(nickname)`, which SQLite applies to ASCII
only; the key is computed in Python by `mafiatab.core.names.nickname_key`.
Accounts whose keys clash already keep distinct keys (suffixed with their id)
so that no data is lost; the older account keeps the plain key.
"""

from django.db import migrations, models

from mafiatab.core.names import nickname_key


def fill_keys(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    seen: set[str] = set()
    for user in User.objects.order_by("id").only("id", "nickname"):
        key = nickname_key(user.nickname)
        if key in seen:
            key = f"{key}#{user.pk}"
        seen.add(key)
        User.objects.filter(pk=user.pk).update(nickname_key=key)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="user",
            name="nickname_key",
            field=models.CharField(
                default="",
                editable=False,
                help_text="The nickname's identity (mafiatab.core.names.nickname_key), kept unique.",
                max_length=256,
            ),
            preserve_default=False,
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="user", name="accounts_user_nickname_ci_unique"),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.UniqueConstraint(
                fields=("nickname_key",), name="accounts_user_nickname_key"
            ),
        ),
    ]
