import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    """Seats become correction rows (superseded, not deleted) and know their evening
    (filled by core 0002, required in 0003); results say why they were corrected."""

    dependencies = [
        ('evenings', '0002_arrival_reason'),
        ('results', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='seat',
            name='created',
            field=models.DateTimeField(auto_now_add=True, default=django.utils.timezone.now),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name='seat',
            name='evening',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name='seats', to='evenings.evening'),
        ),
        migrations.AddField(
            model_name='seat',
            name='reason',
            field=models.CharField(blank=True, max_length=300),
        ),
        migrations.AddField(
            model_name='seat',
            name='superseded',
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name='tableresult',
            name='reason',
            field=models.CharField(blank=True, max_length=300),
        ),
        migrations.AlterField(
            model_name='tableresult',
            name='entered_by',
            field=models.CharField(blank=True, max_length=150),
        ),
    ]
