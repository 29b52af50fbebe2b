"""Every online table belongs to a club (issue 21 item 1), nothing lost: a tournament's table
goes to its tournament's club, every other table to the default club (made from the site's
settings as :mod:`risiko.web.tournaments`' migration 0006 makes it, when there are tables and
no default club yet)."""

import importlib

from django.db import migrations, models


def give_every_table_a_club(apps, schema_editor):
    Club = apps.get_model("national", "Club")
    OnlineTable = apps.get_model("online", "OnlineTable")
    for table in OnlineTable.objects.filter(club__isnull=True, game_table__isnull=False
                                            ).select_related("game_table__evening__tournament"):
        table.club_id = table.game_table.evening.tournament.club_id
        table.save(update_fields=["club"])
    if not OnlineTable.objects.filter(club__isnull=True).exists():
        return
    tournaments = importlib.import_module("risiko.web.tournaments.migrations.0006_tournament_club")
    club = tournaments._default_club(Club)
    OnlineTable.objects.filter(club__isnull=True).update(club=club)


class Migration(migrations.Migration):
    dependencies = [
        ("online", "0007_onlinetable_fillfactor"),
        ("national", "0006_club_tenancy"),
        ("tournaments", "0006_tournament_club"),
    ]

    operations = [
        migrations.AddField(
            model_name="onlinetable",
            name="club",
            field=models.ForeignKey(null=True, on_delete=models.PROTECT,
                                    related_name="online_tables", to="national.club",
                                    verbose_name="club"),
        ),
        migrations.RunPython(give_every_table_a_club, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="onlinetable",
            name="club",
            field=models.ForeignKey(on_delete=models.PROTECT, related_name="online_tables",
                                    to="national.club", verbose_name="club"),
        ),
    ]
