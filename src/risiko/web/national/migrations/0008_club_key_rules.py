"""A club's identifier is unique whatever its case (``ROMA`` is ``roma``): a unique
constraint on its lower case.

The clubs already stored are never changed nor refused: when two or more identifiers differ
by case only (``ROMA`` and ``roma``, registered before this rule), the first one stored
keeps its place under the constraint and the later ones are marked ``key_case_twin`` and
left out of it (a new ``Roma`` is still refused: it meets the first). Identifiers stored
before that do not have the new form (``national club add`` checks it: lowercase letters,
digits, hyphens) are left as they are; only new ones are checked.
"""

from django.db import migrations, models
from django.db.models.functions import Lower


def mark_case_twins(apps, schema_editor):
    Club = apps.get_model("national", "Club")
    seen = set()
    for pk, key in Club.objects.order_by("pk").values_list("pk", "key"):
        folded = key.lower()
        if folded in seen:
            Club.objects.filter(pk=pk).update(key_case_twin=True)
        seen.add(folded)


class Migration(migrations.Migration):

    dependencies = [
        ("national", "0007_interclub_club"),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="key_case_twin",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.RunPython(mark_case_twins, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="club",
            constraint=models.UniqueConstraint(
                Lower("key"), condition=models.Q(key_case_twin=False),
                name="club_key_unique_folded"),
        ),
    ]
