from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='draw',
            name='players_key',
            field=models.TextField(blank=True, default=''),
        ),
    ]
