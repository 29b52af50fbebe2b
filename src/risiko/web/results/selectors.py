"""Reads of the results app: the current result of a table, appeal of a penalty, seats."""

from __future__ import annotations

from .models import Appeal, GameTable, Penalty, Seat, TableResult


def current_result(table: GameTable) -> TableResult | None:
    """The result that counts for ``table`` (the one not superseded), or None."""
    found: TableResult | None = table.results.current().order_by("-id").first()
    return found


def current_appeal(penalty: Penalty) -> Appeal | None:
    """The appeal decision that counts for ``penalty``, or None."""
    found: Appeal | None = penalty.appeals.current().order_by("-id").first()
    return found


def seated(table: GameTable) -> list[str]:
    """The players of ``table`` in turn order (its current seats)."""
    return list(
        Seat.objects.current().filter(table=table).order_by("position")
        .values_list("player__name", flat=True)
    )
