"""Writes of the tools: the closing dice events (R2) and the table's turn clock (R11).

Each write is one transaction and one audit entry (:func:`risiko.web.services.audit`);
refusals raise :class:`~risiko.closing.ClosingError` (closing dice) with a
``code`` the views translate.
"""

from __future__ import annotations

from typing import Any

from risiko.closing import ClosingError, ClosingState, Event, SeatInfo, replay
from risiko.ruleset import Ruleset
from risiko.web.auditlog.services import audit
from risiko.web.core.limits import RANGES
from risiko.web.core.writes import lock_tournament, write
from risiko.web.results.models import GameTable, Penalty

from .models import ClosingEvent


def table_ruleset(table: GameTable) -> Ruleset:
    """The ruleset of the table's tournament."""
    return table.evening.tournament.ruleset


def table_seats(table: GameTable) -> list[SeatInfo]:
    """The table's seats in turn order, each marked penalised when the player has a penalty
    (not voided) this evening (R12)."""
    seats = list(table.seats.current().order_by("position").select_related("player"))
    penalised = set(
        Penalty.objects.current().filter(evening=table.evening,
                                         player__in=[s.player for s in seats])
        .values_list("player_id", flat=True)
    )
    return [SeatInfo(s.position, s.player.name, s.player_id in penalised) for s in seats]


def _event(row: ClosingEvent) -> Event:
    return Event(row.kind, row.position, row.total, row.conquests, row.reason)


def closing_state(table: GameTable) -> ClosingState:
    """The table's closing dice now (the events not voided, replayed)."""
    rows = ClosingEvent.objects.current().filter(table=table).order_by("id")
    return replay(table_seats(table), table_ruleset(table), [_event(r) for r in rows])


def _number(kind: str, value: Any) -> None:
    if value is not None and not RANGES[kind].contains(value):
        raise ClosingError("number", f"{kind}: {value!r} is outside "
                           f"{RANGES[kind].low}..{RANGES[kind].high}")


@write
def record_closing(
    table: GameTable,
    kind: str,
    *,
    position: int | None = None,
    total: int | None = None,
    conquests: int = 0,
    reason: str = "",
    who: str,
) -> ClosingEvent:
    """Record one closing dice event (see :class:`risiko.closing.ClosingState`).

    ClosingError (nothing written) when the state refuses it; widening the band and ending
    the game need a reason (R2: the referee's decision is recorded with its reason).
    """
    lock_tournament(table.evening.tournament_id)  # one writer a tournament
    _number("seat", position)
    _number("dice total", total)
    _number("conquests", conquests)
    if not isinstance(reason, str) or "\x00" in reason or len(reason) > 300:
        raise ClosingError("reason", "a reason is text of at most 300 characters")
    reason = reason.strip()
    if kind in ("widen", "end") and not reason:
        raise ClosingError("reason", "a reason is needed")
    state = closing_state(table)
    event = Event(kind, position, total, conquests, reason)
    turn = state.apply(event)
    row = ClosingEvent.objects.create(
        table=table,
        kind=kind,
        position=turn.position,
        player=turn.player,
        total=total if kind == "roll" else None,
        conquests=conquests,
        closing_round=turn.closing_round,
        band_low=turn.band[0],
        band_high=turn.band[1],
        closed=turn.closed,
        reason=reason,
        who=who,
    )
    evening = table.evening
    what = {
        "roll": f"{turn.player} rolled {total} ({conquests} conquests)"
                + (": game closed" if turn.closed else ""),
        "skip": f"{turn.player}: no roll ({conquests} conquests){': ' + reason if reason else ''}",
        "widen": f"band widened: {reason}",
        "end": f"game ended: {reason}",
        "out": f"{turn.player} out of play",
        "back": f"{turn.player} back in play",
    }[kind]
    audit(who, "closing dice", evening.tournament, row,
          f"evening {evening.date} table {table.number}, closing round {turn.closing_round} "
          f"(band {turn.band[0]}-{turn.band[1]}): {what}",
          {"kind": kind, "position": row.position, "total": row.total,
           "conquests": conquests, "closed": turn.closed, "reason": reason},
          params={"date": evening.date.isoformat(), "stage": evening.stage,
                  "table": table.number, "round": turn.closing_round, "low": turn.band[0],
                  "high": turn.band[1], "kind": kind, "player": turn.player,
                  "total": row.total, "conquests": conquests, "closed": turn.closed,
                  "reason": reason})
    return row


@write
def undo_closing(table: GameTable, *, who: str) -> ClosingEvent | None:
    """Void the latest event (kept, not counted); None when there is nothing to undo."""
    lock_tournament(table.evening.tournament_id)
    row = ClosingEvent.objects.current().filter(table=table).order_by("-id").first()
    if row is None or not ClosingEvent.objects.filter(pk=row.pk, voided=False).update(
        voided=True
    ):
        return None
    row.voided = True
    evening = table.evening
    audit(who, "closing dice undo", evening.tournament, row,
          f"evening {evening.date} table {table.number}: {row.kind} {row.player} voided",
          params={"date": evening.date.isoformat(), "stage": evening.stage,
                  "table": table.number, "player": row.player})
    return row


@write
def set_turn_clock(table: GameTable, on: bool, *, who: str) -> GameTable:
    """Switch the table's 3-minute turn limit (R11) on or off."""
    lock_tournament(table.evening.tournament_id)
    table.refresh_from_db(fields=["turn_clock"])
    if table.turn_clock != on:
        table.turn_clock = on
        table.save(update_fields=["turn_clock"])
        evening = table.evening
        audit(who, "turn clock", evening.tournament, table,
              f"evening {evening.date} table {table.number}: turn clock "
              f"{'on' if on else 'off'} (R11)", {"on": on},
              params={"date": evening.date.isoformat(), "stage": evening.stage,
                      "table": table.number, "on": on})
    return table
