from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("notifications", "0001_inbox_outbox_preferences")]

    operations = [
        migrations.AddField(
            model_name="notification",
            name="time_zone",
            field=models.CharField(blank=True, max_length=64, verbose_name="time zone"),
        ),
    ]
