"""The messages already sent about a tournament say their times in its time zone."""

from django.db import migrations


def rezone(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Notification = apps.get_model("notifications", "Notification")
    zones = Tournament.objects.exclude(time_zone="").values_list("pk", "time_zone")
    for pk, zone in zones.iterator():
        Notification.objects.filter(tournament_id=pk).update(time_zone=zone)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0006_checkin_day"),
        ("notifications", "0002_notification_time_zone"),
    ]

    operations = [migrations.RunPython(rezone, migrations.RunPython.noop)]
