from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = []

    operations = [
        migrations.CreateModel(
            name='FormToken',
            fields=[
                ('key', models.CharField(max_length=64, primary_key=True, serialize=False)),
                ('used', models.DateTimeField(auto_now_add=True)),
                ('who', models.CharField(blank=True, max_length=150)),
                ('path', models.CharField(blank=True, max_length=300)),
                ('status', models.PositiveSmallIntegerField(default=0)),
                ('location', models.CharField(blank=True, max_length=600)),
                ('message', models.CharField(blank=True, max_length=600)),
                ('content_type', models.CharField(blank=True, max_length=100)),
                ('body', models.TextField(blank=True)),
            ],
            options={'ordering': ['-used']},
        ),
        migrations.CreateModel(
            name='FirstAccount',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('slot', models.PositiveSmallIntegerField(default=1, unique=True)),
                ('username', models.CharField(max_length=150)),
                ('created', models.DateTimeField(auto_now_add=True)),
            ],
            options={
                'constraints': [models.CheckConstraint(condition=models.Q(('slot', 1)), name='one_first_account')],
            },
        ),
    ]
