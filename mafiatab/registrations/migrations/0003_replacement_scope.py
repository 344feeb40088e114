"""A replacement's scope: the round it is made for (the default from now on) or the
rest of the tournament. Replacements recorded before had the reserve take every later
round in the re-seating, so they keep that scope."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("registrations", "0002_nickname_key_reserve")]

    operations = [
        migrations.AddField(
            model_name="replacement",
            name="scope",
            field=models.CharField(
                choices=[
                    ("round", "this round only"),
                    ("rest", "for the rest of the tournament"),
                ],
                default="rest",
                max_length=8,
                verbose_name="replaced for",
            ),
        ),
        migrations.AlterField(
            model_name="replacement",
            name="scope",
            field=models.CharField(
                choices=[
                    ("round", "this round only"),
                    ("rest", "for the rest of the tournament"),
                ],
                default="round",
                max_length=8,
                verbose_name="replaced for",
            ),
        ),
    ]
