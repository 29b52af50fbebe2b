import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('results', '0002_seat_history'),
        ('core', '0002_resolve_duplicates'),
    ]

    operations = [
        migrations.AlterField(
            model_name='seat',
            name='evening',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='seats', to='evenings.evening'),
        ),
        migrations.AddConstraint(
            model_name='appeal',
            constraint=models.UniqueConstraint(condition=models.Q(('superseded', False)), fields=('penalty',), name='one_current_appeal'),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.UniqueConstraint(condition=models.Q(('superseded', False)), fields=('evening', 'player'), name='one_current_seat_per_player'),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.UniqueConstraint(condition=models.Q(('superseded', False)), fields=('table', 'position'), name='one_current_seat_per_position'),
        ),
        migrations.AddConstraint(
            model_name='tableresult',
            constraint=models.UniqueConstraint(condition=models.Q(('superseded', False)), fields=('table',), name='one_current_result'),
        ),
    ]
