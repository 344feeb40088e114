from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0004_stage_plan_and_closing")]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="time_zone",
            field=models.CharField(
                blank=True,
                help_text="The schedule's times are said in it (empty: the site's time zone).",
                max_length=64,
                verbose_name="time zone",
            ),
        ),
    ]
