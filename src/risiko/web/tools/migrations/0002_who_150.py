from django.db import migrations, models


class Migration(migrations.Migration):
    """``who`` holds a username: as long as Django's (150)."""

    dependencies = [
        ('tools', '0001_initial'),
    ]

    operations = [
        migrations.AlterField(
            model_name='closingevent',
            name='who',
            field=models.CharField(blank=True, max_length=150),
        ),
    ]
