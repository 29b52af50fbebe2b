from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('evenings', '0001_initial'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='evening',
            name='closed',
        ),
        migrations.AddField(
            model_name='arrival',
            name='reason',
            field=models.CharField(blank=True, max_length=300),
        ),
        migrations.AlterField(
            model_name='arrival',
            name='recorded_by',
            field=models.CharField(blank=True, max_length=150),
        ),
    ]
