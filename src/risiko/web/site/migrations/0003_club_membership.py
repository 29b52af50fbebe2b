"""Roles per club (issue 21 item 1): club memberships and the national officer's group."""

from django.conf import settings
from django.db import migrations, models

NATIONAL_OFFICER = "national_officer"


def create_group(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.get_or_create(name=NATIONAL_OFFICER)


def delete_group(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.filter(name=NATIONAL_OFFICER).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("site", "0002_login_throttle"),
        ("national", "0006_club_tenancy"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ClubMembership",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True,
                                           serialize=False, verbose_name="ID")),
                ("role", models.CharField(choices=[("referee", "referee"),
                                                   ("committee", "committee")],
                                          max_length=12, verbose_name="role")),
                ("club", models.ForeignKey(on_delete=models.deletion.CASCADE,
                                           related_name="memberships", to="national.club",
                                           verbose_name="club")),
                ("user", models.ForeignKey(on_delete=models.deletion.CASCADE,
                                           related_name="club_memberships",
                                           to=settings.AUTH_USER_MODEL, verbose_name="user")),
            ],
            options={
                "verbose_name": "club membership",
                "verbose_name_plural": "club memberships",
                "ordering": ["club", "role", "user"],
                "constraints": [models.UniqueConstraint(fields=("user", "club", "role"),
                                                        name="one_membership_per_role")],
            },
        ),
        migrations.RunPython(create_group, delete_group),
    ]
