from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0005_time_zone")]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="checkin_day",
            field=models.PositiveSmallIntegerField(
                blank=True,
                editable=False,
                help_text="The day players check in for themselves now (empty: closed).",
                null=True,
                verbose_name="check-in open for day",
            ),
        ),
    ]
