"""Reads of the audit log."""

from __future__ import annotations

from .models import AuditEntry

__all__ = ["entries_of"]


def entries_of(tournament: str, limit: int) -> list[AuditEntry]:
    """The newest ``limit`` audit entries of the tournament named ``tournament``, newest
    first."""
    return list(AuditEntry.objects.filter(tournament=tournament)[:limit])
