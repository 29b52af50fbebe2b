"""Before the "one current row" constraints: resolve what an older version let through.

1. Fill the new columns (a seat's evening, a draw's players key).
2. Players' names in NFC, their key (NFC + case folding); twins merged into the first
   registered when their facts allow it, else listed as collisions for the committee.
3. For each fact that must have one current row (arrival per player and evening, result per
   table, appeal per penalty, carry-over per player and tournament, draw per cut, seat per
   position and per player and evening), the latest stays current, the others are
   superseded.

Every change is an audit entry (who "migration"), which the console's home page lists.
Before changing anything, on SQLite, the database file is copied beside itself
(``risiko.sqlite3.before-0002-YYYYMMDD-HHMMSS``, mode 600, SQLite's online backup). On
PostgreSQL no copy is taken (the migration cannot reach a dump tool): the whole migration is
one transaction, every row it changes keeps its old values in its audit entry, and
docs/web.md asks to run ``pg_dump`` before upgrading. What it changed is also
printed where the migration runs.
"""

import datetime
import os
import sqlite3
from pathlib import Path

from django.db import migrations, transaction


def _needs_repair(apps):
    from risiko.names import clean_name, name_key
    from risiko.web.core.repair import SHAPES

    seen = set()
    for name in apps.get_model("players", "Player").objects.values_list("name", flat=True):
        key = name_key(name)
        if clean_name(name) != name or key in seen:
            return True
        seen.add(key)
    for shape in SHAPES:
        cls = apps.get_model(shape.app, shape.model)
        if shape.model == "Draw" or "evening_id" in shape.keys:
            continue  # columns filled by this migration: checked after the fill
        rows = cls.objects.filter(superseded=False).values_list(*shape.keys)
        if len(rows) != len(set(rows)):
            return True
    seat = apps.get_model("results", "Seat")
    pairs = list(seat.objects.filter(superseded=False).values_list("table__evening_id",
                                                                    "player_id"))
    return len(pairs) != len(set(pairs)) or _draw_twins(apps)


def _draw_twins(apps):
    from risiko.web.core.repair import draw_players_key

    keys = [(d.tournament_id, d.stage, draw_players_key(d.order or ()))
            for d in apps.get_model("tournaments", "Draw").objects.filter(superseded=False)]
    return len(keys) != len(set(keys))


def _backup_sqlite(connection):
    name = str(connection.settings_dict["NAME"])
    if not name or name == ":memory:" or name.startswith("file:") or not Path(name).exists():
        return None
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    dest = Path(f"{name}.before-0002-{stamp}")
    fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.close(fd)
    connection.ensure_connection()
    target = sqlite3.connect(dest)
    try:
        connection.connection.backup(target)
    finally:
        target.close()
    return dest


def forwards(apps, schema_editor):
    from risiko.web.core import repair

    connection = schema_editor.connection

    def model(app, name):
        return apps.get_model(app, name)

    if _needs_repair(apps):
        if connection.vendor == "sqlite":
            dest = _backup_sqlite(connection)
            if dest is not None:
                print(f"\n  backup of the database before resolving duplicates: {dest}")
        else:
            print("\n  PostgreSQL: no copy taken; every change is in the audit log with the "
                  "values it replaced (take pg_dump before upgrading)")
    with transaction.atomic(using=connection.alias):
        repair.fill_new_columns(model)
        names = repair.normalise_names(model)
        duplicates = repair.resolve_duplicates(model)
    for line in names.changes + duplicates.changes:
        print(f"  {line}")
    for line in names.collisions:
        print(f"  not merged: {line}")


class Migration(migrations.Migration):

    atomic = False  # the backup is taken outside the transaction that changes the rows

    dependencies = [
        ("core", "0001_initial"),
        ("auditlog", "0001_initial"),
        ("players", "0002_player_key"),
        ("evenings", "0002_arrival_reason"),
        ("results", "0002_seat_history"),
        ("tournaments", "0002_draw_players_key"),
        ("tools", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
