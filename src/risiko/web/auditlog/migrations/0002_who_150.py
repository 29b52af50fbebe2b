from django.db import migrations, models


class Migration(migrations.Migration):
    """``who`` holds a username: as long as Django's (150)."""

    dependencies = [
        ('auditlog', '0001_initial'),
    ]

    operations = [
        migrations.AlterField(
            model_name='auditentry',
            name='who',
            field=models.CharField(max_length=150),
        ),
    ]
