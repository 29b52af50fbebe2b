"""How every write is made: serialised, all or nothing, refused with a message.

- :func:`write` (a decorator for the services): one transaction (a savepoint when nested);
  a write the database refuses by a constraint (the last line behind every "only one" rule)
  becomes a :class:`~risiko.web.core.faults.ServiceError` naming what was changed at the
  same moment, never a 500.
- :func:`lock_tournament`: the lock every write takes on its tournament's row before it reads
  what it checks (PostgreSQL: ``SELECT ... FOR UPDATE``; SQLite: the transaction already
  holds the database's write lock from its first statement, ``transaction_mode``
  ``IMMEDIATE`` in the settings). Two referees saving at once are served one after the other,
  each seeing what the other wrote. The tournaments a write locked are the ones it changed:
  after its commit they go to the :data:`AFTER_COMMIT` hooks (the live pages).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from django.apps import apps
from django.db import IntegrityError, transaction

from risiko.faults import FaultKind

from . import faults as F
from .faults import ServiceError

_Fn = TypeVar("_Fn", bound=Callable[..., Any])
log = logging.getLogger(__name__)


@dataclass
class Change:
    """What one write (the outermost :func:`write`, with the writes it called) changed, handed
    to the :data:`AFTER_COMMIT` hooks once its transaction committed: ``tournaments`` the ids
    of the tournaments it locked (:func:`lock_tournament`), ``who`` the account that wrote
    (the service's ``who``), ``service`` the service's name (``enter_scores``), ``national``
    the years of the national ranking it changed (:func:`touch_national`; :data:`EVERY_YEAR`
    for a change of the register that may touch any year: a merge, a suspension)."""

    service: str
    who: str = ""
    tournaments: set[int] = field(default_factory=set)
    national: set[int] = field(default_factory=set)


#: in :attr:`Change.national`: every year of the national ranking
EVERY_YEAR = 0


#: called with the :class:`Change` of every committed write that locked a tournament (or
#: changed the national ranking: :func:`touch_national`), after
#: the commit (``transaction.on_commit``), in the writing thread; a hook must be quick (the
#: live pages' only queues the change: :mod:`risiko.web.live`) and what it raises is logged,
#: never the write's answer: the write is saved.
AFTER_COMMIT: list[Callable[[Change], None]] = []
_current: ContextVar[Change | None] = ContextVar("risiko_write_change", default=None)


def _after_commit(change: Change) -> None:
    for hook in list(AFTER_COMMIT):
        try:
            hook(change)
        except Exception:  # a hook never breaks a saved write
            log.exception("after-commit hook %r failed for %s", hook, change.service)

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
    ServiceError (the transaction, or its savepoint, rolled back). The outermost write
    collects the tournaments it locks and, when its transaction commits (not before, never
    on a rollback), hands its :class:`Change` to the :data:`AFTER_COMMIT` hooks."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        outer = _current.get() is None
        change = Change(fn.__name__, str(kwargs.get("who") or "")) if outer else None
        token = _current.set(change) if outer else None
        try:
            with transaction.atomic():
                result = fn(*args, **kwargs)
                if change is not None and (change.tournaments or change.national):
                    transaction.on_commit(functools.partial(_after_commit, change))
                return result
        except IntegrityError as err:
            raise conflict_error(err) from None
        finally:
            if token is not None:
                _current.reset(token)

    return cast(_Fn, run)


def lock_tournament(tournament_id: int) -> None:
    """Take the write lock of a tournament: every write of that tournament waits here for
    the one before it (call it inside :func:`write`, before reading what the write checks)."""
    from risiko.web.tournaments.models import Tournament

    change = _current.get()
    if change is not None:
        change.tournaments.add(tournament_id)
    # every club's: a lock is about the row, not what the request's club may read
    list(Tournament.all_clubs.select_for_update().filter(pk=tournament_id).values_list("pk"))


def touch_national(years: set[int], *, service: str, who: str = "") -> None:
    """Note that the current transaction changes the national ranking of ``years``
    (:data:`EVERY_YEAR` among them: any year): inside :func:`write`, in its
    :class:`Change`; else (the national officer's decision, a club's publication, each its
    own ``transaction.atomic``) a :class:`Change` of ``service`` by ``who`` handed to the
    :data:`AFTER_COMMIT` hooks when the transaction commits (at once outside one; never on a
    rollback)."""
    change = _current.get()
    if change is not None:
        change.national |= years
        return
    transaction.on_commit(functools.partial(
        _after_commit, Change(service, who, national=set(years))))
