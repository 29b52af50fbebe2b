from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("online", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="onlineseat",
            name="heartbeat",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
