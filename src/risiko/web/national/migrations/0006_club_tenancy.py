"""A club owns its tournaments and pages (issue 21 item 1): its URL name (filled from its
identifier for the clubs already registered), official status with dates, the default club."""

from django.db import migrations, models
from django.utils.text import slugify


def fill_slugs(apps, schema_editor):
    Club = apps.get_model("national", "Club")
    taken = set()
    for club in Club.objects.order_by("pk"):
        base = (slugify(club.key or club.name) or "club")[:52]
        slug, n = base, 2
        while slug in taken:
            slug = f"{base}-{n}"
            n += 1
        taken.add(slug)
        club.slug = slug
        club.save(update_fields=["slug"])


class Migration(migrations.Migration):

    dependencies = [
        ("national", "0005_publishing"),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="slug",
            field=models.SlugField(db_index=False, max_length=60, null=True,
                                   verbose_name="URL name"),
        ),
        migrations.RunPython(fill_slugs, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="club",
            name="slug",
            field=models.SlugField(max_length=60, unique=True, verbose_name="URL name"),
        ),
        migrations.AddField(
            model_name="club",
            name="official",
            field=models.BooleanField(default=False, verbose_name="official club"),
        ),
        migrations.AddField(
            model_name="club",
            name="official_from",
            field=models.DateField(blank=True, null=True, verbose_name="official from"),
        ),
        migrations.AddField(
            model_name="club",
            name="official_to",
            field=models.DateField(blank=True, null=True, verbose_name="official until"),
        ),
        migrations.AddField(
            model_name="club",
            name="is_default",
            field=models.BooleanField(default=False, verbose_name="default club"),
        ),
        migrations.AddConstraint(
            model_name="club",
            constraint=models.UniqueConstraint(condition=models.Q(("is_default", True)),
                                               fields=("is_default",), name="one_default_club"),
        ),
        migrations.AddConstraint(
            model_name="club",
            constraint=models.CheckConstraint(
                condition=models.Q(("official_from__isnull", True),
                                   ("official_to__isnull", True),
                                   ("official_from__lte", models.F("official_to")),
                                   _connector="OR"),
                name="club_official_dates_in_order"),
        ),
    ]
