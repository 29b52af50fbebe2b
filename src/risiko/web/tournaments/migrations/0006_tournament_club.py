"""Every tournament belongs to a club (issue 21 item 1); names and slugs unique per club.

An existing one-club database becomes one club, nothing lost: when it has tournaments, the
default club is made from the site's settings (``RISIKO_CLUB_ID``, ``RISIKO_CLUB_NAME``;
the registered club of that identifier when the national ranking already knows it) and every
tournament is given to it. A database without tournaments gets its club when it first needs
one (:func:`risiko.web.clubs.default_club`).
"""

import django.db.models.manager
from django.conf import settings
from django.db import migrations, models
from django.utils.text import slugify


def _default_club(Club):
    club = Club.objects.filter(is_default=True).first()
    if club is not None:
        return club
    name = (str(getattr(settings, "RISIKO_CLUB_NAME", "") or "Risiko! Club Milano"))[:120]
    key = (str(getattr(settings, "RISIKO_CLUB_ID", "") or "") or slugify(name) or "club")[:60]
    club = Club.objects.filter(key=key).first()
    if club is None:
        base = (slugify(key) or "club")[:52]
        slug, n = base, 2
        while Club.objects.filter(slug=slug).exists():
            slug = f"{base}-{n}"
            n += 1
        club = Club.objects.create(key=key, name=name, slug=slug, is_default=True)
    else:
        club.is_default = True
        club.save(update_fields=["is_default"])
    return club


def give_every_tournament_a_club(apps, schema_editor):
    Club = apps.get_model("national", "Club")
    Tournament = apps.get_model("tournaments", "Tournament")
    if not Tournament.objects.filter(club__isnull=True).exists():
        return
    club = _default_club(Club)
    Tournament.objects.filter(club__isnull=True).update(club=club)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0005_format_cap_players"),
        ("national", "0006_club_tenancy"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="club",
            field=models.ForeignKey(null=True, on_delete=models.PROTECT,
                                    related_name="club_tournaments", to="national.club",
                                    verbose_name="club"),
        ),
        migrations.RunPython(give_every_tournament_a_club, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="tournament",
            name="club",
            field=models.ForeignKey(on_delete=models.PROTECT, related_name="club_tournaments",
                                    to="national.club", verbose_name="club"),
        ),
        migrations.AlterField(
            model_name="tournament",
            name="name",
            field=models.CharField(max_length=120),
        ),
        migrations.AlterField(
            model_name="tournament",
            name="slug",
            field=models.SlugField(max_length=120),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.UniqueConstraint(fields=("club", "name"),
                                               name="tournament_name_per_club"),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.UniqueConstraint(fields=("club", "slug"),
                                               name="tournament_slug_per_club"),
        ),
        migrations.AlterModelOptions(
            name="tournament",
            options={"base_manager_name": "all_clubs", "ordering": ["-created"],
                     "verbose_name": "tournament", "verbose_name_plural": "tournaments"},
        ),
        migrations.AlterModelManagers(
            name="tournament",
            managers=[
                ("objects", django.db.models.manager.Manager()),
                ("all_clubs", django.db.models.manager.Manager()),
            ],
        ),
    ]
