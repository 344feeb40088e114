"""A protocol version's reason that the server writes (a reserve taking a seat) is
stored as a code with parameters and said in the reader's language when read.
Versions stored before keep their reason's text and show it as written."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_seats_hold_registrations"),
    ]

    operations = [
        migrations.AddField(
            model_name="protocolversion",
            name="reason_code",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AddField(
            model_name="protocolversion",
            name="reason_params",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
