"""Every interclub event belongs to its organising club (the club that hosts it: its
committee runs it, its referees record the results; the national officer runs any).

The events already there are given to the default club (made from the site's settings as
``tournaments.0006_tournament_club`` makes it, when there is none yet), the club whose
committee ran them until now.
"""

from django.db import migrations, models


def give_every_event_a_club(apps, schema_editor):
    import importlib

    InterclubEvent = apps.get_model("national", "InterclubEvent")
    if not InterclubEvent.objects.filter(club__isnull=True).exists():
        return
    made = importlib.import_module(
        "risiko.web.tournaments.migrations.0006_tournament_club")
    club = made._default_club(apps.get_model("national", "Club"))
    InterclubEvent.objects.filter(club__isnull=True).update(club=club)


class Migration(migrations.Migration):

    dependencies = [
        ("national", "0006_club_tenancy"),
        ("tournaments", "0006_tournament_club"),
    ]

    operations = [
        migrations.AddField(
            model_name="interclubevent",
            name="club",
            field=models.ForeignKey(null=True, on_delete=models.PROTECT,
                                    related_name="interclub_events", to="national.club",
                                    verbose_name="organising club"),
        ),
        migrations.RunPython(give_every_event_a_club, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="interclubevent",
            name="club",
            field=models.ForeignKey(on_delete=models.PROTECT, related_name="interclub_events",
                                    to="national.club", verbose_name="organising club"),
        ),
    ]
