from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("registrations", "0005_advancements")]

    operations = [
        migrations.AddField(
            model_name="registration",
            name="calendar_key",
            field=models.CharField(blank=True, default="", editable=False, max_length=32),
        ),
    ]
