"""Before the "one current row" constraints: resolve what an older version let through.

1. Fill the new columns (a seat's evening, a draw's players key).
2. Players' names in NFC, their key (NFC + case folding); twins merged into the first
   registered when their facts allow it, else listed as collisions for the committee.
3. For each fact that must have one current row (arrival per player and evening, result per
   table, appeal per penalty, carry-over per player and tournament, draw per cut, seat per
   position and per player and evening), the latest stays current, the others are
   superseded.

Every change is an audit entry (who "migration"), which the console's home page lists.
Before changing anything, and only when there is something to change, a backup is taken and
where it is printed, every file created mode 600 before its first byte:

- SQLite: the database file is copied beside itself
  (``risiko.sqlite3.before-0002-YYYYMMDD-HHMMSS``, SQLite's online backup);
- PostgreSQL: ``pg_dump`` in its custom format, when it is on ``PATH``, into the data folder
  (``risiko-DBNAME.before-0002-YYYYMMDD-HHMMSS.dump``, for ``pg_restore``); without
  ``pg_dump``, or when it fails, a JSON copy of every row of the tables the migration may
  change (:data:`BACKED_UP`, Django's serializer, ``....json``, for ``loaddata``).

When no backup can be written the migration stops (:class:`NoBackupError`) before changing
a row. The changes themselves are one transaction; what it changed is also printed where the
migration runs.
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


#: the tables the repair may change (``risiko.web.core.repair``) and the game tables their
#: seats belong to: the JSON backup's rows
BACKED_UP = (("players", "Player"), ("tournaments", "Entry"), ("evenings", "Arrival"),
             ("results", "GameTable"), ("results", "Seat"), ("results", "TableResult"),
             ("results", "Penalty"), ("results", "Appeal"), ("results", "Discipline"),
             ("tournaments", "CarryOver"), ("tournaments", "Draw"), ("tools", "ClosingEvent"))


class NoBackupError(RuntimeError):
    """No backup could be written: the migration stops before changing a row."""


def _backup_json(apps, connection, dest):
    from django.core import serializers

    fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out, \
                transaction.atomic(using=connection.alias):
            with connection.cursor() as cursor:  # one snapshot of every table
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            rows = (row for app, name in BACKED_UP
                    for row in apps.get_model(app, name).objects.using(connection.alias)
                    .order_by("pk").iterator())
            serializers.serialize("json", rows, stream=out, indent=1)
    except BaseException:
        dest.unlink(missing_ok=True)
        raise


def _backup_postgres(apps, connection):
    """The backup's path (pg_dump's, else the JSON copy's) and the lines to print about it;
    NoBackupError when neither can be written."""
    from risiko.web.core.pgdump import pg_dump, pg_dump_path
    from risiko.web.settings import data_dir

    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    why = []
    try:
        folder = data_dir()
        base = folder / f"risiko-{connection.settings_dict['NAME']}.before-0002-{stamp}"
        if pg_dump_path() is None:
            why.append("pg_dump is not on PATH")
        else:
            dest = base.with_name(base.name + ".dump")
            try:
                pg_dump(connection.settings_dict, dest)
                return dest, []
            except (OSError, ValueError) as e:
                why.append(str(e))
        dest = base.with_name(base.name + ".json")
        _backup_json(apps, connection, dest)
        return dest, [f"({why[0]}: a JSON copy of the rows it may change instead)"]
    except Exception as e:  # noqa: BLE001 - any reason is said, nothing is changed
        why.append(f"{type(e).__name__}: {e}")
        raise NoBackupError(
            "core 0002: no backup of the database could be written before resolving "
            f"duplicates ({'; '.join(why)}); nothing was changed. Make the data folder "
            "(RISIKO_DATA_DIR) writable or install pg_dump, then migrate again.") from e


def forwards(apps, schema_editor):
    from risiko.web.core import repair

    connection = schema_editor.connection

    def model(app, name):
        return apps.get_model(app, name)

    if _needs_repair(apps):
        notes = []
        if connection.vendor == "sqlite":
            dest = _backup_sqlite(connection)
        else:
            dest, notes = _backup_postgres(apps, connection)
        if dest is not None:
            print(f"\n  backup of the database before resolving duplicates: {dest}")
        for line in notes:
            print(f"  {line}")
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
