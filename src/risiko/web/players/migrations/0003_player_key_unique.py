from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('players', '0002_player_key'),
        ('core', '0002_resolve_duplicates'),
    ]

    operations = [
        migrations.AlterField(
            model_name='player',
            name='key',
            field=models.CharField(editable=False, max_length=255, unique=True),
        ),
    ]
