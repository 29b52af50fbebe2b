"""Reads of the results app: the current result of a table, appeal of a penalty, seats."""

from __future__ import annotations

from risiko.web.tournaments.models import Tournament

from .models import Appeal, GameTable, Penalty, Seat, TableResult


def current_result(table: GameTable) -> TableResult | None:
    """The result that counts for ``table`` (the one not superseded), or None."""
    found: TableResult | None = table.results.current().order_by("-id").first()
    return found


def current_appeal(penalty: Penalty) -> Appeal | None:
    """The appeal decision that counts for ``penalty``, or None."""
    found: Appeal | None = penalty.appeals.current().order_by("-id").first()
    return found


def penalty_of(tournament: Tournament, number: int) -> Penalty | None:
    """The penalty of ``tournament`` whose number (id) is ``number``, or None."""
    found: Penalty | None = Penalty.objects.filter(pk=number,
                                                   evening__tournament=tournament).first()
    return found


def penalty_count(tournament: Tournament) -> int:
    """How many penalties ``tournament`` has recorded (table and ranking, appealed or not)."""
    return Penalty.objects.filter(evening__tournament=tournament).count()


def seated(table: GameTable) -> list[str]:
    """The players of ``table`` in turn order (its current seats)."""
    return list(
        Seat.objects.current().filter(table=table).order_by("position")
        .values_list("player__name", flat=True)
    )
