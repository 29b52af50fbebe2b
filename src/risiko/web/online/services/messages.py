"""Online tables: what the table's groups are sent: the table as everybody sees it (presence
included), the log entries said in each language, the state, an event."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.conf import settings as django_settings
from django.utils import timezone

from risiko.agents.levels import level_of
from risiko.game import Game
from risiko.online import adapter
from risiko.online import log as olog

from ..models import OnlineSeat, OnlineTable, SeatKind, TableEvent, TableStatus, bot_label
from .base import LOG_LENGTH, Outbox, bot_for, public_group, seat_group, settings_of
from .cache import game_of
from .rows import _seats
from .schedule import _someone_acts


# ------------------------------------------------------------------------------ views
def _clock(table: OnlineTable, now: dt.datetime) -> dict[str, Any]:
    s = settings_of(table)
    deadline = table.turn_deadline
    remaining: int | None = None
    if table.status == TableStatus.PAUSED:
        remaining = table.paused_remaining_ms
    elif deadline is not None:
        remaining = max(0, int((deadline - now).total_seconds() * 1000))
    return {
        "seconds": int(s["clock_seconds"]),
        "warning_seconds": int(s["warning_seconds"]),
        "running": table.status == TableStatus.PLAYING and deadline is not None,
        "deadline": deadline.isoformat() if deadline is not None else None,
        "remaining_ms": remaining,
    }


def presence_stale_after() -> dt.timedelta:
    """How long a connected seat may go without a heartbeat before it counts as
    disconnected (``RISIKO_ONLINE_PRESENCE_STALE`` seconds, 30)."""
    return dt.timedelta(seconds=float(getattr(django_settings, "RISIKO_ONLINE_PRESENCE_STALE",
                                              30.0)))


def is_connected(seat: OnlineSeat, now: dt.datetime) -> bool:
    """A bot, or a seat with a connection whose worker beat within the stale limit."""
    if seat.kind == SeatKind.BOT:
        return True
    return (seat.connections > 0 and seat.heartbeat is not None
            and seat.heartbeat >= now - presence_stale_after())


def _bot_fields(seat: OnlineSeat, table: OnlineTable) -> dict[str, Any]:
    """A bot seat's ``level`` and its name in each language (``labels``), a stand-in's
    ``level`` (the bot that plays for the absent person): issue 19."""
    if seat.kind == SeatKind.BOT:
        return {"level": level_of(seat.bot),
                "labels": {lang: bot_label(seat.position, seat.bot, lang)
                           for lang in ("it", "en")}}
    if seat.stand_in:
        return {"level": level_of(bot_for(seat, table))}
    return {}


def table_view(table: OnlineTable, seats: list[OnlineSeat]) -> dict[str, Any]:
    """The table as everybody sees it (the lobby's seats, presence, the commitment); a seat
    whose heartbeat is stale shows as disconnected even before the sweep."""
    s = settings_of(table)
    now = timezone.now()
    return {
        "code": table.code,
        "name": table.name,
        "kind": table.kind,
        "ruleset": table.ruleset,
        "status": table.status,
        "seats": [
            {"seat": x.position, "player": x.name, "kind": x.kind, "bot": x.bot or None,
             "connected": is_connected(x, now), "stand_in": x.stand_in,
             "r13_requested": x.r13_requested, **_bot_fields(x, table)}
            for x in seats
        ],
        "commitment": table.commitment,
        "seed": table.seed if table.status == TableStatus.OVER else None,
        "settings": {k: s[k] for k in ("clock_seconds", "call_round", "call_at",
                                        "bot_for_absent", "grace_seconds", "stand_in_level")},
        "penalties": list(table.penalties),
    }


#: what each log entry says in each language, by (table, seq, record line): an entry never
#: changes once written, and saying one costs tens of microseconds (a state sends 200);
#: the line in the key keeps an entry of a rolled-back change from answering for another
_SAID: dict[tuple[int, int, str], dict[str, str]] = {}
_SAID_MOST = 50_000


def _said(e: TableEvent) -> dict[str, str]:
    key = (e.table_id, e.seq, e.text)
    said = _SAID.get(key)
    if said is None:
        said = olog.messages(e.value)
        if len(_SAID) >= _SAID_MOST:
            _SAID.clear()
        _SAID[key] = said
    return said


def entry_of(e: TableEvent) -> dict[str, Any]:
    """A log entry (protocol ``log`` item): the record line, and for people its value and
    what it says in each language (:mod:`risiko.online.log`)."""
    out: dict[str, Any] = {"seq": e.seq, "actor": e.actor, "kind": e.kind, "seat": e.seat,
                           "text": e.text, "undone": e.undone}
    if e.value:
        out["value"] = e.value
        out["messages"] = _said(e)
    if e.reason:
        out["reason"] = e.reason
    return out


def state_message(table: OnlineTable, role: str, seat: int | None) -> dict[str, Any]:
    """The full ``state`` for a connection: table, public game, private view of ``seat``
    (0-based; only for the role ``seat``), clock and the last events."""
    seats = _seats(table)
    game = game_of(table) if table.status != TableStatus.LOBBY else None
    events = list(TableEvent.objects.filter(table=table).order_by("-seq")[:LOG_LENGTH])
    events.reverse()
    return {
        "type": "state",
        "seq": table.seq,
        "table": table_view(table, seats),
        "game": adapter.public_view(game) if game is not None else None,
        "private": (adapter.private_view(game, seat)
                    if game is not None and role == "seat" and seat is not None else None),
        "clock": _clock(table, timezone.now()),
        "log": [entry_of(e) for e in events],
    }


def _broadcast(table: OnlineTable, game: Game | None, seats: list[OnlineSeat],
               entries: list[TableEvent], outbox: Outbox,
               private_for: Iterable[int] | None = None) -> None:
    """One ``event`` to the table's public group (every connection: seats, spectators,
    referees; ``private`` null), after a ``private`` message to each seat whose secrets
    changed (``private_for``: 0-based seats; None = every seat). Every change of a table
    ends here, inside its transaction: first the invariant that someone will act
    (:func:`_someone_acts`)."""
    now = timezone.now()
    _someone_acts(table, game, seats, now, outbox)
    if game is not None:
        wanted = range(len(seats)) if private_for is None else sorted(set(private_for))
        for s in wanted:
            if 0 <= s < len(seats):
                outbox.messages.append((seat_group(table.pk, s + 1), {
                    "type": "private", "seq": table.seq,
                    "private": adapter.private_view(game, s)}))
    log_entries = [entry_of(e) for e in entries]
    outbox.messages.append((public_group(table.pk), {
        "type": "event", "seq": table.seq,
        "entry": log_entries[-1] if log_entries else None, "entries": log_entries,
        "table": table_view(table, seats),
        "game": adapter.public_view(game) if game is not None else None,
        "private": None, "clock": _clock(table, now)}))
