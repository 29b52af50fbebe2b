from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('evenings', '0002_arrival_reason'),
        ('core', '0002_resolve_duplicates'),
    ]

    operations = [
        migrations.AddConstraint(
            model_name='arrival',
            constraint=models.UniqueConstraint(condition=models.Q(('superseded', False)), fields=('evening', 'player'), name='one_current_arrival'),
        ),
    ]
