"""How every write is made: serialised, all or nothing, refused with a message.

- :func:`write` (a decorator for the services): one transaction (a savepoint when nested);
  a write the database refuses by a constraint (the last line behind every "only one" rule)
  becomes a :class:`~risiko.web.core.faults.ServiceError` naming what was changed at the
  same moment, never a 500.
- :func:`lock_tournament`: the lock every write takes on its tournament's row before it reads
  what it checks (PostgreSQL: ``SELECT ... FOR UPDATE``; SQLite: the transaction already
  holds the database's write lock from its first statement, ``transaction_mode``
  ``IMMEDIATE`` in the settings). Two referees saving at once are served one after the other,
  each seeing what the other wrote.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

from django.apps import apps
from django.db import IntegrityError, transaction

from risiko.faults import FaultKind

from . import faults as F
from .faults import ServiceError

_Fn = TypeVar("_Fn", bound=Callable[..., Any])

#: the refusal of each constraint (the database's last line behind an "only one" rule)
CONFLICTS: dict[str, FaultKind] = {
    "one_current_arrival": F.CONFLICT_ARRIVAL,
    "one_current_result": F.CONFLICT_RESULT,
    "one_current_appeal": F.CONFLICT_APPEAL,
    "one_current_carry_over": F.CONFLICT_CARRY_OVER,
    "one_current_draw_per_cut": F.CONFLICT_DRAW,
    "one_current_seat_per_player": F.CONFLICT_SEATING,
    "one_current_seat_per_position": F.CONFLICT_SEATING,
    "one_table_number": F.CONFLICT_SEATING,
    "one_evening_per_date": F.CONFLICT_EVENING,
    "one_entry_per_player": F.CONFLICT_PLAYERS,
    "players_player.key": F.CONFLICT_PLAYERS,
    "players_player.name": F.CONFLICT_PLAYERS,
    "one_first_account": F.CONFLICT_FIRST_ACCOUNT,
    "core_firstaccount.slot": F.CONFLICT_FIRST_ACCOUNT,
}


def constraint_name(err: IntegrityError) -> str | None:
    """The name of the constraint ``err`` broke, when the database says it (PostgreSQL names
    it; SQLite names the columns of a unique index, matched against the models')."""
    cause = err.__cause__
    diag = getattr(cause, "diag", None)
    name = getattr(diag, "constraint_name", None)
    if name:
        return str(name)
    text = str(err)
    if "UNIQUE constraint failed:" in text:
        columns = {c.strip() for c in text.split(":", 1)[1].split(",")}
        for model in apps.get_models():
            table = model._meta.db_table
            for c in model._meta.constraints:
                fields = getattr(c, "fields", ())
                cols = {f"{table}.{getattr(model._meta.get_field(f), 'column', f)}"
                        for f in fields}
                if cols and cols == columns:
                    return str(c.name)
            for f in model._meta.local_fields:
                if f.unique and {f"{table}.{f.column}"} == columns:
                    return f"{table}.{f.column}"
    return None


def conflict_error(err: IntegrityError) -> ServiceError:
    """The refusal of a write the database turned down."""
    name = constraint_name(err) or "?"
    return ServiceError(CONFLICTS.get(name, F.CONFLICT)(constraint=name))


def write(fn: _Fn) -> _Fn:
    """Run the service ``fn`` in one transaction; a constraint violation becomes a
    ServiceError (the transaction, or its savepoint, rolled back)."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            with transaction.atomic():
                return fn(*args, **kwargs)
        except IntegrityError as err:
            raise conflict_error(err) from None

    return cast(_Fn, run)


def lock_tournament(tournament_id: int) -> None:
    """Take the write lock of a tournament: every write of that tournament waits here for
    the one before it (call it inside :func:`write`, before reading what the write checks)."""
    from risiko.web.tournaments.models import Tournament

    list(Tournament.objects.select_for_update().filter(pk=tournament_id).values_list("pk"))
