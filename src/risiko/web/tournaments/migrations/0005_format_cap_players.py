"""Formats stored before ``cap_players`` keep their standings.

The ``win_bonus`` formula's ``cap`` limited every seat's points; GestioneTorneo's
``ScorePlayerOpen`` (the format it copies) caps only the table's winner, which is now the
default (``cap_players`` ``winners``). A stored format whose ``win_bonus`` has a ``cap`` and
no ``cap_players`` gets ``cap_players`` ``all`` written into it (its ``by_entrants`` do not
carry ranking points), so its standings do not change. Reversing removes it again.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations


def _pinned(fmt: Any) -> bool:
    rp = fmt.get("ranking_points") if isinstance(fmt, dict) else None
    return (isinstance(rp, dict) and rp.get("formula") == "win_bonus"
            and rp.get("cap") is not None and "cap_players" not in rp)


def pin(apps: Any, schema_editor: Any) -> None:
    Tournament = apps.get_model("tournaments", "Tournament")
    for t in Tournament.objects.only("id", "format").iterator():
        if _pinned(t.format):
            t.format["ranking_points"]["cap_players"] = "all"
            t.save(update_fields=["format"])


def unpin(apps: Any, schema_editor: Any) -> None:
    Tournament = apps.get_model("tournaments", "Tournament")
    for t in Tournament.objects.only("id", "format").iterator():
        rp = t.format.get("ranking_points") if isinstance(t.format, dict) else None
        if isinstance(rp, dict) and rp.get("formula") == "win_bonus" \
                and rp.get("cap_players") == "all":
            del rp["cap_players"]
            t.save(update_fields=["format"])


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0004_model_names'),
    ]

    operations = [
        migrations.RunPython(pin, unpin),
    ]
