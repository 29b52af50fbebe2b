from django.db import migrations, models


class Migration(migrations.Migration):
    """The name key column, filled (and twins merged) by core 0002, unique in 0003."""

    dependencies = [
        ('players', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='player',
            name='key',
            field=models.CharField(default='', editable=False, max_length=255),
            preserve_default=False,
        ),
    ]
