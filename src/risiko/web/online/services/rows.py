"""Online tables: the raw-SQL rows of an action (the table's locked row, its seats, its next
event).

An action's statements are raw SQL of the fields' own database values, measured
(docs/benchmarks.md, "Online tables"): Django's compilation of them cost more CPU than the
rest of the action: ``RawQuerySet``'s per-query resolution of columns and converters (0.5 ms
for one row), the ORM's ``INSERT`` and ``UPDATE`` of twenty columns (0.4 and 0.7 ms), the
locked read with its duplicate check as a ``Subquery`` (2.2 ms against 0.4 ms for the same
SQL), the seats with ``select_related`` (0.9-1.3 ms against 0.25 ms). Raw, with the
conversions resolved once, ``apply`` went from 3.8 to 1.9 ms of CPU in-process."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db import models
from django.db.models import Field

from risiko.web.players.models import Player

from ..models import OnlineSeat, OnlineTable, TableEvent
from .base import M

# ------------------------------------------------------------------------------ raw rows
# An action's statements are raw SQL of the fields' own database values: Django's compilation
# of them (the ORM's query, RawQuerySet's per-query resolution of columns and converters, the
# UPDATE of twenty columns) cost more CPU than the rest of the action (docs/benchmarks.md).
_CONVERTERS: dict[tuple[Any, ...], list[tuple[int, list[Any], Any]]] = {}


def _fetch(model: type[M], fields: Sequence[Field[Any, Any]], sql: str, params: Sequence[Any],
           extra: Sequence[str] = ()) -> list[M]:
    """The rows of ``sql`` as ``model`` instances: its first columns are ``fields`` (in the
    model's order; the others are deferred), with Django's converters from the database
    applied (what ``Model.objects.raw`` does, resolved once per process), then the columns
    ``extra``, set as attributes."""
    from django.db import connection

    key = (model, connection.vendor, *(f.attname for f in fields))
    converters = _CONVERTERS.get(key)
    if converters is None:
        converters = []
        for i, f in enumerate(fields):
            col = f.get_col(model._meta.db_table)
            found = connection.ops.get_db_converters(col) + f.get_db_converters(connection)
            if found:
                converters.append((i, found, col))
        _CONVERTERS[key] = converters
    names = [f.attname for f in fields]
    n = len(names)
    with connection.cursor() as cursor:
        cursor.execute(sql, list(params))
        rows = cursor.fetchall()
    out = []
    for row in rows:
        values = list(row[:n])
        for i, found, col in converters:
            for convert in found:
                values[i] = convert(values[i], col, connection)
        obj = model.from_db(connection.alias, names, values)
        for name, value in zip(extra, row[n:], strict=True):
            setattr(obj, name, value)
        out.append(obj)
    return out


def _insert_sql(obj: models.Model) -> tuple[str, list[Any]]:
    """An ``INSERT`` of a new row (its primary key left to the database) and its values."""
    from django.db import connection

    meta = obj._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    columns = ", ".join(f'"{f.column}"' for f in fields)
    values = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    marks = ", ".join(["%s"] * len(fields))
    return f'INSERT INTO "{meta.db_table}" ({columns}) VALUES ({marks})', values


def _update_sql(obj: models.Model, names: Iterable[str]) -> tuple[str, list[Any]]:
    """An ``UPDATE`` of the fields ``names`` of a saved row and its values."""
    from django.db import connection

    meta = obj._meta
    fields = [meta.get_field(name) for name in names]
    sets = ", ".join(f'"{f.column}" = %s' for f in fields)  # type: ignore[union-attr]
    values = [f.get_db_prep_save(f.pre_save(obj, False), connection)  # type: ignore[union-attr]
              for f in fields]
    return f'UPDATE "{meta.db_table}" SET {sets} WHERE "{meta.pk.column}" = %s', [*values, obj.pk]


_SEAT_FIELDS = list(OnlineSeat._meta.concrete_fields)


def _seats_sql() -> str:
    seats, players = OnlineSeat._meta.db_table, Player._meta.db_table
    cols = ", ".join(f's."{f.column}"' for f in _SEAT_FIELDS)
    return (f'SELECT {cols}, p."name" AS player_name FROM "{seats}" s LEFT JOIN "{players}" p '
            f'ON p."id" = s."player_id" WHERE s."table_id" = %s ORDER BY s."position"')


def _seats(table: OnlineTable) -> list[OnlineSeat]:
    """The table's seats in turn order, each with its member's name (``player_name``): one
    raw query, read at every action."""
    return _fetch(OnlineSeat, _SEAT_FIELDS, _seats_sql(), [table.pk], ("player_name",))


def _players(seats: Iterable[OnlineSeat]) -> list[str]:
    return [s.name for s in seats]


def _game_lines(table: OnlineTable, after: int) -> list[str]:
    rows = TableEvent.objects.filter(table=table, seq__gt=after, undone=False).exclude(
        text__startswith="#").order_by("seq").values_list("text", flat=True)
    return list(rows)


def _event(
    table: OnlineTable, *, actor: str, kind: str, text: str, seat: int | None = None,
    intention: Mapping[str, Any] | None = None, draws: tuple[int, int] = (0, 0),
    client_id: str = "", reason: str = "", write: bool = True,
    value: Mapping[str, Any] | None = None,
) -> TableEvent:
    """The table's next event (``table.seq`` moves on), written now, or with the table's row
    by :func:`_save` (``write=False``); ``value``: the entry for people
    (:mod:`risiko.online.log`)."""
    table.seq += 1
    event = TableEvent(
        table=table, seq=table.seq, actor=actor[:100], kind=kind, seat=seat,
        intention=dict(intention or {}), text=text[:300], draws_from=draws[0],
        draws_to=draws[1], client_id=client_id, reason=reason[:300], value=dict(value or {}),
    )
    if write:
        event.save(force_insert=True)
    if table.new_events is not None:
        table.new_events.append(event)
    return event


_ROW_FIELDS = [f.name for f in OnlineTable._meta.concrete_fields
               if f.name not in ("id", "code", "created", "snapshot")]
_ATTNAMES = {f.name: f.attname for f in OnlineTable._meta.concrete_fields}


def _kept(value: Any) -> Any:
    """A column's value as read, to tell later whether it changed: a JSON value copied (a
    list or dict changed in place is then seen as changed)."""
    return copy.deepcopy(value) if isinstance(value, (dict, list)) else value


def _save(table: OnlineTable, event: TableEvent | None = None) -> None:
    """Save the table's row, its snapshot (kilobytes) only when it changed, and first the
    new ``event`` not written yet: one statement on PostgreSQL (``WITH e AS (INSERT ...)
    UPDATE ...``), two on SQLite."""
    from django.db import connection

    if table.pk is None:
        table.save()
        table.snapshot_dirty = False
        if event is not None:
            event.save(force_insert=True)
        return
    deferred = table.get_deferred_fields()
    names = [f for f in _ROW_FIELDS if f not in deferred]
    loaded: dict[str, Any] | None = getattr(table, "loaded_row", None)
    if loaded is not None:  # read by _locked: only what changed since (and seq, always)
        names = [f for f in names if f == "seq" or f not in loaded
                 or getattr(table, _ATTNAMES[f]) != loaded[f]]
        for f in names:  # a second save in the same transaction compares with this one
            if f in loaded:
                loaded[f] = _kept(getattr(table, _ATTNAMES[f]))
    if table.snapshot_dirty:
        names.append("snapshot")
        table.snapshot_dirty = False
    update, params = _update_sql(table, names)
    with connection.cursor() as cursor:
        if event is None:
            cursor.execute(update, params)
            return
        insert, values = _insert_sql(event)
        if connection.vendor == "postgresql":
            cursor.execute(f"WITH e AS ({insert}) {update}", [*values, *params])
        else:
            cursor.execute(insert, values)
            cursor.execute(update, params)
    event._state.adding = False


_LOCK_FIELDS = [f for f in OnlineTable._meta.concrete_fields
                if f.name not in ("snapshot", "record")]
_ROW_NAMES = frozenset(_ROW_FIELDS)


def _lock_sql(for_update: bool, message: bool) -> str:
    table, events = OnlineTable._meta.db_table, TableEvent._meta.db_table
    cols = ", ".join(f'"{f.column}"' for f in _LOCK_FIELDS)
    applied = (f'(SELECT e."seq" FROM "{events}" e WHERE e."table_id" = "{table}"."id" '
               f'AND e."actor" = %s AND e."client_id" = %s LIMIT 1)' if message else "NULL")
    return (f'SELECT {cols}, {applied} AS applied_seq FROM "{table}" WHERE "id" = %s'
            + (" FOR UPDATE" if for_update else ""))


def _locked(table_id: int, actor: str = "", client_id: str = "") -> OnlineTable:
    """The table's row, locked until the transaction ends (``FOR UPDATE``; SQLite's write
    transaction locks the whole database), without its snapshot and record (read when
    needed); ``applied_seq``: the event an earlier copy of the message ``client_id`` of
    ``actor`` wrote, else None. One raw query (the ORM's compilation of it cost more than
    the rest of an action's queries). OnlineTable.DoesNotExist for no such table."""
    from django.db import connection

    sql = _lock_sql(bool(connection.features.has_select_for_update), bool(client_id))
    params: list[Any] = [actor, client_id, table_id] if client_id else [table_id]
    rows = _fetch(OnlineTable, _LOCK_FIELDS, sql, params, ("applied_seq",))
    if not rows:
        raise OnlineTable.DoesNotExist(f"no online table {table_id}")
    table = rows[0]
    # what :func:`_save` compares with: the UPDATE then sets only the columns that changed
    # (an action: seq, draws, now and then the turn's; each column's value made ready for
    # the database cost 5-15 us, twenty of them at every action)
    table.loaded_row = {f.name: _kept(getattr(table, f.attname)) for f in _LOCK_FIELDS
                        if f.name in _ROW_NAMES}
    return table


def _where(table: OnlineTable) -> dict[str, Any]:
    """An online table's audit values (issue 18 §2): its code and, at a tournament
    evening, the evening's date and stage and the table's number."""
    gt = table.game_table
    where: dict[str, Any] = {"code": table.code}
    if gt is not None:
        where |= {"date": gt.evening.date.isoformat(), "stage": gt.evening.stage,
                  "table": gt.number}
    return where


def _tournament(table: OnlineTable) -> Any:
    """The tournament of an online table's evening (a Tournament), None for a casual table."""
    return table.game_table.evening.tournament if table.game_table is not None else None
