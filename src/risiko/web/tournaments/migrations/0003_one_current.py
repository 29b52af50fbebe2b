from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0002_draw_players_key'),
        ('core', '0002_resolve_duplicates'),
    ]

    operations = [
        migrations.AddConstraint(
            model_name='carryover',
            constraint=models.UniqueConstraint(condition=models.Q(('superseded', False)), fields=('tournament', 'player'), name='one_current_carry_over'),
        ),
        migrations.AddConstraint(
            model_name='draw',
            constraint=models.UniqueConstraint(condition=models.Q(('superseded', False)), fields=('tournament', 'stage', 'players_key'), name='one_current_draw_per_cut'),
        ),
    ]
