"""Online tables: a game's end, its record, and a tournament table's result (the online result
waits beside the referee's until he keeps one of the two)."""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from risiko.fair import format_skipped
from risiko.faults import RisikoError
from risiko.game import Game
from risiko.online import adapter
from risiko.online import log as olog
from risiko.record import write_record
from risiko.web import services as club

from ..models import (
    Deadline,
    EventKind,
    OnlineResult,
    OnlineSeat,
    OnlineTable,
    SeatKind,
    TableStatus,
)
from .base import CLUB_TIME, RESULT_CHOICE, RESULT_DECIDED, RESULT_REASON, OnlineError
from .cache import _fresh
from .rows import _event, _game_lines, _seats, _where


def _finish(table: OnlineTable, game: Game, now: dt.datetime, seats: list[OnlineSeat]) -> None:
    table.status = TableStatus.OVER
    table.finished = now
    table.turn_deadline = None
    table.clock_epoch += 1
    table.snapshot = adapter.snapshot(game)
    table.snapshot_seq = table.seq
    table.snapshot_format = adapter.SNAPSHOT_FORMAT
    table.snapshot_dirty = True
    Deadline.objects.filter(table=table, fired=None).update(fired=now, outcome="game over")
    table.record = build_record(table, game)
    if table.game_table_id is not None:
        _enter_result(table, game, seats)


def _enter_result(table: OnlineTable, game: Game, seats: list[OnlineSeat]) -> None:
    """A tournament table's result, through the same service as a scored sheet, when its
    table has none yet. When the referee has already entered one, his stands: this one waits
    beside it as its own audited row (:class:`OnlineResult`) until he keeps one of the two
    (:func:`keep_result`). Checked and written under the tournament's write lock, which the
    referee's own entry takes too: whichever comes second sees the first."""
    from risiko.web.core.writes import lock_tournament
    from risiko.web.results.selectors import current_result

    gt = table.game_table
    assert gt is not None
    who = f"online:{table.code}"
    abandoned = [game.players[s] for s in range(game.n) if game.status[s] == "abandoned"]
    sheet = game.sheet()
    try:
        with transaction.atomic():
            lock_tournament(gt.evening.tournament_id)
            standing = current_result(gt)
            if standing is None:
                club.enter_sheet(gt, sheet, abandoned=abandoned, who=who)
                return
            row = OnlineResult.objects.create(table=table, game_table=gt, beside=standing,
                                              sheet=sheet, abandoned=abandoned)
            club.audit(who, "online result waiting", gt.evening.tournament, row,
                       f"evening {gt.evening.date} table {gt.number}: the online result "
                       f"waits beside the one entered by {standing.entered_by}",
                       {"sheet": sheet, "abandoned": abandoned, "beside": standing.pk},
                       params={**_where(table), "by": standing.entered_by})
    except (club.ServiceError, ValueError) as e:
        fault = e.fault.to_dict() if isinstance(e, RisikoError) else str(e)
        _event(table, actor="system", kind=EventKind.SYSTEM, text=f"# result not entered: {e}",
               value=olog.value(olog.RESULT_NOT_ENTERED, fault=fault))
        return
    _event(table, actor="system", kind=EventKind.SYSTEM,
           text="# result waiting: the referee's result stands until he keeps one of the two",
           value=olog.value(olog.RESULT_WAITING))


def keep_result(waiting: OnlineResult, keep: str, *, reason: str, who: str) -> OnlineResult:
    """The referee keeps one of a table's two results (issue 20 item 4): ``keep``
    ``"online"`` makes the online result the table's (the referee's superseded, audited as a
    correction with ``reason``: the public pages change now), ``"referee"`` keeps his (the
    online one stays as it was, decided). Once only, with a reason; under the tournament's
    lock. OnlineError: no reason, an unknown choice, already decided; ServiceError: the
    results' own refusals (nothing written)."""
    from risiko.web.core.writes import lock_tournament

    reason = str(reason or "").strip()
    if keep not in ("online", "referee"):
        raise OnlineError(RESULT_CHOICE(choice=str(keep)[:20]))
    if not reason:
        raise OnlineError(RESULT_REASON({"table": waiting.game_table.number}))
    gt = waiting.game_table
    with transaction.atomic():
        lock_tournament(gt.evening.tournament_id)
        claimed = OnlineResult.objects.filter(pk=waiting.pk, decision="").update(
            decision=keep, decided_by=who[:150], decided=timezone.now(), reason=reason[:300])
        if not claimed:
            row = OnlineResult.objects.get(pk=waiting.pk)
            raise OnlineError(RESULT_DECIDED({"table": gt.number}, decision=row.decision,
                                             who=row.decided_by))
        row = OnlineResult.objects.get(pk=waiting.pk)
        if keep == "online":
            club.enter_sheet(gt, row.sheet, abandoned=row.abandoned, reason=reason, who=who)
        club.audit(who, "online result kept", gt.evening.tournament, row,
                   f"evening {gt.evening.date} table {gt.number}: kept the "
                   f"{'online' if keep == 'online' else 'referee'}'s result — {reason}",
                   {"keep": keep, "reason": reason, "online_table": row.table.code},
                   params={**_where(row.table), "keep": keep, "reason": reason})
    return row


def build_record(table: OnlineTable, game: Game) -> str:
    """The game's record with its chance headers (the seed revealed once the game is over)."""
    fresh = _fresh(table)
    adapter.replay_lines(fresh, _game_lines(table, 0))
    headers = {
        "Event": table.name,
        "Date": timezone.localtime(table.started or table.created, CLUB_TIME).date().isoformat(),
        "Table": table.code,
        "Chance": "hmac-sha256-v1",
        "SeedCommitment": table.commitment,
    }
    if table.status == TableStatus.OVER:
        headers["Seed"] = table.seed
    if table.skipped_draws:
        headers["SkippedDraws"] = format_skipped(table.skipped_draws)
    bots = [s.bot if s.kind == SeatKind.BOT else "" for s in _seats(table)]
    if any(bots):
        headers["Bots"] = "|".join(b or "-" for b in bots)
    return write_record(fresh, headers)
