"""Online tables: reads (a table by code, its events, the lobby, finished tables, results
waiting)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from .models import OnlineResult, OnlineTable, TableEvent, TableStatus


def waiting_results(evening: Any) -> list[OnlineResult]:
    """The online results of ``evening`` waiting for the referee, by table."""
    return list(OnlineResult.objects.filter(game_table__evening=evening, decision="")
                .select_related("table", "game_table", "beside").order_by("game_table__number"))


def table_for_code(code: str) -> OnlineTable | None:
    """The table of a code, or None."""
    return OnlineTable.objects.filter(code=code).first()


def events_of(table: OnlineTable) -> list[TableEvent]:
    """Every event of a table in order."""
    return list(TableEvent.objects.filter(table=table).order_by("seq"))


def lobby_tables(club: Any) -> list[OnlineTable]:
    """``club``'s open and running tables, newest first (none for None)."""
    return list(OnlineTable.objects.filter(club=club).filter(
        Q(status=TableStatus.LOBBY) | Q(status=TableStatus.PLAYING) |
        Q(status=TableStatus.PAUSED)).order_by("-created")[:50])


def finished_tables_of(player_name: str) -> list[OnlineTable]:
    """Finished tables where ``player_name`` held a seat (for the player's page)."""
    return list(OnlineTable.objects.filter(
        status=TableStatus.OVER, seat_set__player__name=player_name,
    ).distinct().order_by("-finished"))
