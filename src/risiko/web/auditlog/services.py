"""Writing the audit log: one entry per change made through the services."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from .models import AuditEntry

_written: ContextVar[list[int] | None] = ContextVar("risiko_audit_written", default=None)


@contextmanager
def watch() -> Iterator[list[int]]:
    """Collect the ids of the audit entries written inside the ``with`` block (the one-time
    form tokens use it to know whether a request changed anything)."""
    ids: list[int] = []
    token = _written.set(ids)
    try:
        yield ids
    finally:
        _written.reset(token)


def audit(
    who: str,
    action: str,
    tournament: Any = None,
    target: Any = None,
    summary: str = "",
    data: Mapping[str, Any] | None = None,
    params: Mapping[str, Any] | None = None,
) -> AuditEntry:
    """Record one change: ``who`` did ``action`` on ``target`` (a model instance) in
    ``tournament`` (a Tournament or None); ``summary`` one line, ``data`` the values entered
    and, for corrections, the values replaced (and the reason); ``params`` the values of the
    summary (codes and names, JSON), which the console says in the reader's language."""
    label = ""
    if target is not None:
        label = f"{target._meta.label}:{target.pk}"
    entry = AuditEntry.objects.create(
        who=(who or "?")[:150],
        action=action[:60],
        tournament=str(getattr(tournament, "name", "") or "")[:120],
        target=label[:120],
        summary=summary[:300],
        data=dict(data or {}),
        params=dict(params or {}),
    )
    ids = _written.get()
    if ids is not None:
        ids.append(entry.pk)
    return entry
