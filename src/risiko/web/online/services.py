"""Online tables: every change, applied under the table's row lock with a sequence number.

The functions here are synchronous (the consumer calls them in a worker thread). Each change
runs in one transaction that locks the table's row (``select_for_update``), checks the actor,
pushes the action through the engine (:mod:`risiko.online.adapter`), writes one
:class:`TableEvent` with the next ``seq``, and schedules what follows (the turn clock, a bot's
move). It returns an :class:`Outbox`: the messages to send to the table's groups once the
transaction has committed. Refusals write nothing and carry the faults. See docs/online.md.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import random
import secrets
import threading
import unicodedata
import zoneinfo
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.conf import settings as django_settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, models, transaction
from django.db.models import Field, Q
from django.utils import timezone

from risiko.actions import Abandon, Action, CallLastRounds, EndGame, Timeout, WidenClosing
from risiko.fair import commitment, format_skipped, new_seed
from risiko.faults import Fault, IllegalActionError, RisikoError, define
from risiko.game import Game
from risiko.names import clean_name, name_faults
from risiko.online import adapter
from risiko.online import log as olog
from risiko.record import write_record
from risiko.ruleset import new_ruleset
from risiko.tournament.dates import clock_name, parse_clock
from risiko.web import services as club
from risiko.web.players.models import Player
from risiko.web.site.permissions import is_referee

from .models import (
    Deadline,
    Member,
    OnlineResult,
    OnlineSeat,
    OnlineTable,
    SchedulerBeat,
    TableEvent,
)

log = logging.getLogger(__name__)
M = TypeVar("M", bound=models.Model)
CLUB_TIME = zoneinfo.ZoneInfo("Europe/Rome")

#: settings of a new table (seconds unless said)
DEFAULTS: dict[str, Any] = {
    "clock_seconds": 180,  # R11: 3 minutes; 0 = off
    "warning_seconds": 30,
    "grace_seconds": 60,
    "absence_limit_seconds": 600,
    "bot_for_absent": True,  # casual tables only
    "call_round": None,
    "call_at": None,  # "HH:MM" club time
    "bot_delay_ms": 800,
}
SNAPSHOT_EVERY = 20
LOG_LENGTH = 200

WRONG_SEAT = define("online.wrong_seat", "", "you do not hold seat {seat} at this table")
OUT_OF_TURN = define("online.out_of_turn", "", "it is {player}'s turn, not yours")
STALE = define(
    "online.stale", "",
    "the table has moved on since your view (event {seen}, now {seq}): look again and retry",
)
NOT_PLAYING = define("online.not_playing", "", "the game is not in play ({status})")
SPECTATOR = define("online.spectator", "", "spectators watch: they do not act")
NOT_REFEREE = define("online.not_referee", "", "only a referee may do this")
NOTHING_TO_UNDO = define("online.nothing_to_undo", "", "there is no action to undo")
NEED_REASON = define("online.need_reason", "", "{what} needs a reason")
SEAT_TAKEN = define("online.seat_taken", "", "seat {seat} is taken")
TABLE_FULL = define("online.table_full", "", "no seat is free at this table")
NAME_TAKEN = define("online.name_taken", "", "{player} is already seated at this table")
NOT_MEMBER = define("online.not_member", "",
                    "only a member may take this seat: ask the committee for an invitation")
NOT_SEATED_HERE = define("online.not_seated_here", "",
                         "{player} is not seated at this tournament table")
BAD_SETTING = define("online.bad_setting", "", "{setting}: {reason}")
# the settings of a new table and a guest's name, each said by its label (R1, R2, R11)
SEATS_RANGE = define("online.seats_range", "R1", "seats: a table has 3 to 6 seats, not {value}")
UNKNOWN_RULESET = define("online.unknown_ruleset", "", "ruleset: {fault}")
UNKNOWN_SETTING = define("online.unknown_setting", "", "unknown setting {setting!r}")
CLOCK_RANGE = define("online.clock_range", "R11",
                     "turn clock: whole minutes from 0 (off) to {most}, not {value}")
CLOCK_SECONDS_RANGE = define("online.clock_seconds_range", "R11",
                             "turn clock: 0 (off) to {most} seconds, not {value}")
CALL_ROUND_RANGE = define("online.call_round_range", "R2",
                          "call of the last two rounds: a round from 1 to {most}, not {value}")
CALL_AT_BAD = define("online.call_at_bad", "R2", "call of the last two rounds at: {fault}")
UNKNOWN_BOT = define("online.unknown_bot", "",
                     "bot for seat {seat}: {bot!r} is not a bot (random, heuristic)")
NAME_TOO_LONG = define("online.name_too_long", "",
                       "{field}: at most {most} characters, not {count}")
NAME_CONTROL = define("online.name_control", "", "{field}: control characters are not allowed")
GUEST_NO_NAME = define("online.guest_no_name", "", "your name: a guest needs a name")

#: the most a table's settings may be: a turn clock of 30 minutes, a call at round 99
MOST_CLOCK_MINUTES = 30
MOST_CALL_ROUND = 99
MOST_TABLE_NAME = 80
MOST_GUEST_NAME = 40
BOTS = ("random", "heuristic")


def checked_name(text: str, field: str, most: int) -> str:
    """``text`` as a name (:func:`risiko.names.clean_name`); OnlineError when it holds a
    control character (NUL, ...), is longer than ``most`` characters (nothing is cut) or
    breaks the names rules (:func:`risiko.names.name_faults`: invisible characters only,
    a right-to-left override, HTML, look-alike letters). An empty name is the caller's."""
    name = clean_name(text)
    if any(unicodedata.category(c) == "Cc" for c in name):
        raise OnlineError(NAME_CONTROL(field=field))
    if len(name) > most:
        raise OnlineError(NAME_TOO_LONG(field=field, most=most, count=len(name)))
    faults = name_faults(name, field) if name else []
    if faults:
        raise OnlineError(*faults)
    return name


def checked_call_at(text: str) -> str:
    """A call time as referees write it (``23:15``, ``23h15``, ``11:15 pm``: the one parser,
    :func:`risiko.tournament.dates.parse_clock`) stored as ``"HH:MM"``; OnlineError naming
    the text otherwise (R2)."""
    try:
        return clock_name(parse_clock(text))
    except RisikoError as e:
        raise OnlineError(CALL_AT_BAD(fault=e.fault.to_dict())) from None
BAD_COMMAND = define("online.bad_command", "", "unknown referee command {command!r}")
BAD_TOKEN = define("online.bad_token", "", "this seat's token is not valid at this table")
TOKEN_IN_URL = define("online.token_in_url", "",
                      "a seat's token never travels in the address (servers log it): send it "
                      "in the first message, {{\"type\": \"auth\", \"token\": ...}}")
NOT_ONLINE_EVENING = define("online.not_online_evening", "R3",
                            "the evening of {evening} has no online tables: arrivals there "
                            "are recorded at the venue")
NO_ONLINE_SEAT = define("online.no_online_seat", "R3",
                        "{player} has no seat at the online tables of {evening}")
ARRIVAL_CLOSED = define("online.arrival_closed", "R3",
                        "{player}: arrivals at the evening of {evening} are taken on that "
                        "evening, from 12:00 to 06:00 club time (now {now})")
ARRIVAL_EXCLUDED = define("online.arrival_excluded", "R3", "{player} at {at}: {fault}")
RESULT_CHOICE = define("online.result_choice", "",
                       "keep the online result or the referee's, not {choice!r}")
RESULT_REASON = define("online.result_reason", "",
                       "table {table}: keeping one of the two results needs a reason")
RESULT_DECIDED = define("online.result_decided", "",
                        "table {table}: {who} has already kept one of the two results")
ALREADY_IDENTIFIED = define("online.already_identified", "",
                            "this connection already holds seat {seat}")
ALREADY_SEATED = define("online.already_seated", "", "you already hold seat {seat} here")


class OnlineError(RisikoError):
    """A request refused: ``faults`` say why (said in the viewer's language)."""


@dataclass(frozen=True)
class Actor:
    """Who sends: ``role`` seat | referee | spectator | clock; ``seat`` 0-based for a seat."""

    role: str
    seat: int | None = None
    name: str = ""
    seat_id: int | None = None  # the OnlineSeat row of a seat (its presence heartbeat)

    @property
    def key(self) -> str:
        """The actor as stored in events (``seat:2``, ``referee:anna``, ``clock``)."""
        if self.role == "seat":
            return f"seat:{(self.seat or 0) + 1}"
        if self.role == "referee":
            return f"referee:{self.name}"
        return self.role


@dataclass
class Outbox:
    """Messages for the table's groups, to send after the commit; ``wake``: a deadline is
    due soon (the scheduler should look at once)."""

    table_id: int
    messages: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    wake: float | None = None
    #: how another worker brings its cached game along (:func:`advance_cached`'s arguments:
    #: table id, seq before, seq after, the record lines between, the next chance draw);
    #: None when the change is not a plain push of lines (a referee's undo, a lobby change)
    advance: tuple[int, int, int, list[str], int] | None = None


@dataclass
class Reply:
    """The answer to the sender: the event's ``seq`` or the faults; and the outbox."""

    seq: int
    duplicate: bool = False
    faults: list[Fault] = field(default_factory=list)
    outbox: Outbox | None = None


def seat_group(table_id: int, position: int) -> str:
    """The channel group of one seat's connections (its private view travels only there)."""
    return f"online-{table_id}-seat-{position}"


def public_group(table_id: int) -> str:
    """The channel group of every connection to the table (public state only)."""
    return f"online-{table_id}-public"


def token_hash(token: str) -> str:
    """What is stored of a secret token (SHA-256, hex)."""
    return hashlib.sha256(token.encode()).hexdigest()


# ------------------------------------------------------------------------------ the cache
_CACHE: dict[int, tuple[int, Game]] = {}
_CACHE_LOCK = threading.Lock()


def _cache_take(table_id: int, seq: int) -> Game | None:
    with _CACHE_LOCK:
        hit = _CACHE.pop(table_id, None)
    return hit[1] if hit is not None and hit[0] == seq else None


def _cache_put(table_id: int, seq: int, game: Game) -> None:
    with _CACHE_LOCK:
        _CACHE[table_id] = (seq, game)


def _cache_peek(table_id: int, seq: int) -> Game | None:
    with _CACHE_LOCK:
        hit = _CACHE.get(table_id)
    return hit[1] if hit is not None and hit[0] == seq else None


def advance_cached(table_id: int, seq_from: int, seq_to: int, lines: list[str],
                   draws: int) -> bool:
    """Bring this process's cached game of a table from event ``seq_from`` to ``seq_to`` by
    pushing the record ``lines`` of the events between (with their dice: nothing is drawn)
    and setting the next chance draw to ``draws``: what another worker applied, learnt from
    its broadcast (:attr:`Outbox.advance`), so that the next action at this worker finds its
    game in the cache instead of rebuilding it from the database. Nothing when the cache does
    not hold the game at ``seq_from`` (False); a line that does not apply drops the cached
    game (the next action rebuilds it). True when the cache now holds ``seq_to``."""
    with _CACHE_LOCK:
        hit = _CACHE.get(table_id)
        if hit is None or hit[0] != seq_from or seq_to <= seq_from:
            return False
        del _CACHE[table_id]  # ours alone while lines are pushed (as _cache_take)
    game = hit[1]
    try:
        adapter.replay_lines(game, lines)
    except ValueError as e:  # RisikoError, RecordError: the line does not apply here
        log.warning("table %s: cached game not advanced to %s (%s)", table_id, seq_to, e)
        return False
    adapter.set_draws(game, draws)
    with _CACHE_LOCK:
        held = _CACHE.get(table_id)
        if held is not None and held[0] >= seq_to:  # this worker has gone further meanwhile
            return False
        _CACHE[table_id] = (seq_to, game)
    return True


def clear_cache() -> None:
    """Forget every cached game (tests; a game is rebuilt from the database)."""
    with _CACHE_LOCK:
        _CACHE.clear()


# ------------------------------------------------------------------------------ helpers
def settings_of(table: OnlineTable) -> dict[str, Any]:
    """The table's settings over the defaults."""
    return {**DEFAULTS, **(table.settings or {})}


# ------------------------------------------------------------------------------ raw rows
# An action's statements are raw SQL of the fields' own database values: Django's compilation
# of them (the ORM's query, RawQuerySet's per-query resolution of columns and converters, the
# UPDATE of twenty columns) cost more CPU than the rest of the action (docs/benchmarks.md).
_CONVERTERS: dict[tuple[Any, ...], list[tuple[int, list[Any], Any]]] = {}


def _fetch(model: type[M], fields: Sequence[Field[Any, Any]], sql: str, params: Sequence[Any],
           extra: Sequence[str] = ()) -> list[M]:
    """The rows of ``sql`` as ``model`` instances: its first columns are ``fields`` (in the
    model's order; the others are deferred), with Django's converters from the database
    applied (what ``Model.objects.raw`` does, resolved once per process), then the columns
    ``extra``, set as attributes."""
    from django.db import connection

    key = (model, connection.vendor, *(f.attname for f in fields))
    converters = _CONVERTERS.get(key)
    if converters is None:
        converters = []
        for i, f in enumerate(fields):
            col = f.get_col(model._meta.db_table)
            found = connection.ops.get_db_converters(col) + f.get_db_converters(connection)
            if found:
                converters.append((i, found, col))
        _CONVERTERS[key] = converters
    names = [f.attname for f in fields]
    n = len(names)
    with connection.cursor() as cursor:
        cursor.execute(sql, list(params))
        rows = cursor.fetchall()
    out = []
    for row in rows:
        values = list(row[:n])
        for i, found, col in converters:
            for convert in found:
                values[i] = convert(values[i], col, connection)
        obj = model.from_db(connection.alias, names, values)
        for name, value in zip(extra, row[n:], strict=True):
            setattr(obj, name, value)
        out.append(obj)
    return out


def _insert_sql(obj: models.Model) -> tuple[str, list[Any]]:
    """An ``INSERT`` of a new row (its primary key left to the database) and its values."""
    from django.db import connection

    meta = obj._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    columns = ", ".join(f'"{f.column}"' for f in fields)
    values = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    marks = ", ".join(["%s"] * len(fields))
    return f'INSERT INTO "{meta.db_table}" ({columns}) VALUES ({marks})', values


def _update_sql(obj: models.Model, names: Iterable[str]) -> tuple[str, list[Any]]:
    """An ``UPDATE`` of the fields ``names`` of a saved row and its values."""
    from django.db import connection

    meta = obj._meta
    fields = [meta.get_field(name) for name in names]
    sets = ", ".join(f'"{f.column}" = %s' for f in fields)  # type: ignore[union-attr]
    values = [f.get_db_prep_save(f.pre_save(obj, False), connection)  # type: ignore[union-attr]
              for f in fields]
    return f'UPDATE "{meta.db_table}" SET {sets} WHERE "{meta.pk.column}" = %s', [*values, obj.pk]


_SEAT_FIELDS = list(OnlineSeat._meta.concrete_fields)


def _seats_sql() -> str:
    seats, players = OnlineSeat._meta.db_table, Player._meta.db_table
    cols = ", ".join(f's."{f.column}"' for f in _SEAT_FIELDS)
    return (f'SELECT {cols}, p."name" AS player_name FROM "{seats}" s LEFT JOIN "{players}" p '
            f'ON p."id" = s."player_id" WHERE s."table_id" = %s ORDER BY s."position"')


def _seats(table: OnlineTable) -> list[OnlineSeat]:
    """The table's seats in turn order, each with its member's name (``player_name``): one
    raw query, read at every action."""
    return _fetch(OnlineSeat, _SEAT_FIELDS, _seats_sql(), [table.pk], ("player_name",))


def _players(seats: Iterable[OnlineSeat]) -> list[str]:
    return [s.name for s in seats]


def _game_lines(table: OnlineTable, after: int) -> list[str]:
    rows = TableEvent.objects.filter(table=table, seq__gt=after, undone=False).exclude(
        text__startswith="#").order_by("seq").values_list("text", flat=True)
    return list(rows)


def _fresh(table: OnlineTable) -> Game:
    s = settings_of(table)
    return adapter.new_game(
        _players(_seats(table)), table.ruleset, bytes.fromhex(table.seed),
        late=s.get("late") or (), last_rounds_at=s.get("call_round"),
    )


def _rebuild(table: OnlineTable) -> Game:
    """The game at ``table.seq``: the snapshot plus the events since (or all the events)."""
    game: Game | None = None
    since = 0
    if table.snapshot_format == adapter.SNAPSHOT_FORMAT and table.snapshot is not None:
        try:
            game = adapter.restore(bytes(table.snapshot), bytes.fromhex(table.seed),
                                   table.ruleset)
            since = table.snapshot_seq
        except ValueError as e:  # a position this engine cannot read: replay the events
            log.warning("table %s: snapshot unreadable (%s), replaying the events",
                        table.code, e)
            game = None
    if game is None:
        game = _fresh(table)
        since = 0
    adapter.replay_lines(game, _game_lines(table, since))
    adapter.set_draws(game, table.draws)
    return game


def game_of(table: OnlineTable) -> Game:
    """The table's game now (from the cache when it is current); not for a lobby."""
    cached = _cache_peek(table.pk, table.seq)
    if cached is not None:
        return cached
    game = _rebuild(table)
    _cache_put(table.pk, table.seq, game)
    return game


def _take_game(table: OnlineTable) -> Game:
    cached = _cache_take(table.pk, table.seq)
    return cached if cached is not None else _rebuild(table)


def _event(
    table: OnlineTable, *, actor: str, kind: str, text: str, seat: int | None = None,
    intention: Mapping[str, Any] | None = None, draws: tuple[int, int] = (0, 0),
    client_id: str = "", reason: str = "", write: bool = True,
    value: Mapping[str, Any] | None = None,
) -> TableEvent:
    """The table's next event (``table.seq`` moves on), written now, or with the table's row
    by :func:`_save` (``write=False``); ``value``: the entry for people
    (:mod:`risiko.online.log`)."""
    table.seq += 1
    event = TableEvent(
        table=table, seq=table.seq, actor=actor[:100], kind=kind, seat=seat,
        intention=dict(intention or {}), text=text[:300], draws_from=draws[0],
        draws_to=draws[1], client_id=client_id, reason=reason[:300], value=dict(value or {}),
    )
    if write:
        event.save(force_insert=True)
    if table.new_events is not None:
        table.new_events.append(event)
    return event


_ROW_FIELDS = [f.name for f in OnlineTable._meta.concrete_fields
               if f.name not in ("id", "code", "created", "snapshot")]


def _save(table: OnlineTable, event: TableEvent | None = None) -> None:
    """Save the table's row, its snapshot (kilobytes) only when it changed, and first the
    new ``event`` not written yet: one statement on PostgreSQL (``WITH e AS (INSERT ...)
    UPDATE ...``), two on SQLite."""
    from django.db import connection

    if table.pk is None:
        table.save()
        table.snapshot_dirty = False
        if event is not None:
            event.save(force_insert=True)
        return
    deferred = table.get_deferred_fields()
    names = [f for f in _ROW_FIELDS if f not in deferred]
    if table.snapshot_dirty:
        names.append("snapshot")
        table.snapshot_dirty = False
    update, params = _update_sql(table, names)
    with connection.cursor() as cursor:
        if event is None:
            cursor.execute(update, params)
            return
        insert, values = _insert_sql(event)
        if connection.vendor == "postgresql":
            cursor.execute(f"WITH e AS ({insert}) {update}", [*values, *params])
        else:
            cursor.execute(insert, values)
            cursor.execute(update, params)
    event._state.adding = False


def _deadline(table: OnlineTable, kind: str, due: dt.datetime, *, seat: int = 0,
              guard: int = 0, outbox: Outbox | None = None) -> None:
    Deadline.objects.get_or_create(
        table=table, kind=kind, seat=seat, guard=guard, defaults={"due": due}
    )
    if outbox is not None:
        wait = max(0.0, (due - timezone.now()).total_seconds())
        outbox.wake = wait if outbox.wake is None else min(outbox.wake, wait)


_LOCK_FIELDS = [f for f in OnlineTable._meta.concrete_fields
                if f.name not in ("snapshot", "record")]


def _lock_sql(for_update: bool, message: bool) -> str:
    table, events = OnlineTable._meta.db_table, TableEvent._meta.db_table
    cols = ", ".join(f'"{f.column}"' for f in _LOCK_FIELDS)
    applied = (f'(SELECT e."seq" FROM "{events}" e WHERE e."table_id" = "{table}"."id" '
               f'AND e."actor" = %s AND e."client_id" = %s LIMIT 1)' if message else "NULL")
    return (f'SELECT {cols}, {applied} AS applied_seq FROM "{table}" WHERE "id" = %s'
            + (" FOR UPDATE" if for_update else ""))


def _locked(table_id: int, actor: str = "", client_id: str = "") -> OnlineTable:
    """The table's row, locked until the transaction ends (``FOR UPDATE``; SQLite's write
    transaction locks the whole database), without its snapshot and record (read when
    needed); ``applied_seq``: the event an earlier copy of the message ``client_id`` of
    ``actor`` wrote, else None. One raw query (the ORM's compilation of it cost more than
    the rest of an action's queries). OnlineTable.DoesNotExist for no such table."""
    from django.db import connection

    sql = _lock_sql(bool(connection.features.has_select_for_update), bool(client_id))
    params: list[Any] = [actor, client_id, table_id] if client_id else [table_id]
    rows = _fetch(OnlineTable, _LOCK_FIELDS, sql, params, ("applied_seq",))
    if not rows:
        raise OnlineTable.DoesNotExist(f"no online table {table_id}")
    return rows[0]


def _is_bot_turn(seat: OnlineSeat) -> bool:
    return seat.kind == "bot" or seat.stand_in


def _after_change(
    table: OnlineTable, game: Game, now: dt.datetime, outbox: Outbox, seats: list[OnlineSeat]
) -> None:
    """Clock, snapshot, bots and the end, after the game changed (inside the transaction)."""
    s = settings_of(table)
    if game.over:
        _finish(table, game, now, seats)
        return
    turn = adapter.turn_number(game)
    new_turn = turn != table.turn
    if new_turn:
        table.turn = turn
        table.turn_deadline = None
        if table.status == "playing":
            _start_clock(table, game, now, s["clock_seconds"] * 1000, outbox)
    if new_turn or table.seq - table.snapshot_seq >= SNAPSHOT_EVERY or not table.snapshot_format:
        table.snapshot = adapter.snapshot(game)
        table.snapshot_seq = table.seq
        table.snapshot_format = adapter.SNAPSHOT_FORMAT
        table.snapshot_dirty = True
    to_act = game.to_act
    if to_act is not None and table.status == "playing" and _is_bot_turn(seats[to_act]):
        due = now + dt.timedelta(milliseconds=int(s["bot_delay_ms"]))
        _deadline(table, "bot", due, seat=to_act + 1, guard=table.seq, outbox=outbox)


def _start_clock(table: OnlineTable, game: Game, now: dt.datetime, ms: int,
                 outbox: Outbox) -> None:
    """Run the turn clock (R11) for ``ms`` from now; none during the initial placement."""
    table.clock_epoch += 1
    if ms <= 0 or game.phase == "setup" or game.over:
        table.turn_deadline = None
        return
    s = settings_of(table)
    end = now + dt.timedelta(milliseconds=ms)
    table.turn_deadline = end
    seat = (game.to_act or 0) + 1
    _deadline(table, "turn_end", end, seat=seat, guard=table.clock_epoch, outbox=outbox)
    warn = end - dt.timedelta(seconds=int(s["warning_seconds"]))
    if warn > now:
        _deadline(table, "turn_warning", warn, seat=seat, guard=table.clock_epoch,
                  outbox=outbox)


def _finish(table: OnlineTable, game: Game, now: dt.datetime, seats: list[OnlineSeat]) -> None:
    table.status = "over"
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
                       {"sheet": sheet, "abandoned": abandoned, "beside": standing.pk})
    except (club.ServiceError, ValueError) as e:
        fault = e.fault.to_dict() if isinstance(e, RisikoError) else str(e)
        _event(table, actor="system", kind="system", text=f"# result not entered: {e}",
               value=olog.value(olog.RESULT_NOT_ENTERED, fault=fault))
        return
    _event(table, actor="system", kind="system",
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
                   {"keep": keep, "reason": reason, "online_table": row.table.code})
    return row


def waiting_results(evening: Any) -> list[OnlineResult]:
    """The online results of ``evening`` waiting for the referee, by table."""
    return list(OnlineResult.objects.filter(game_table__evening=evening, decision="")
                .select_related("table", "game_table", "beside").order_by("game_table__number"))


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
    if table.status == "over":
        headers["Seed"] = table.seed
    if table.skipped_draws:
        headers["SkippedDraws"] = format_skipped(table.skipped_draws)
    bots = [s.bot if s.kind == "bot" else "" for s in _seats(table)]
    if any(bots):
        headers["Bots"] = "|".join(b or "-" for b in bots)
    return write_record(fresh, headers)


# ------------------------------------------------------------------------------ views
def _clock(table: OnlineTable, now: dt.datetime) -> dict[str, Any]:
    s = settings_of(table)
    deadline = table.turn_deadline
    remaining: int | None = None
    if table.status == "paused":
        remaining = table.paused_remaining_ms
    elif deadline is not None:
        remaining = max(0, int((deadline - now).total_seconds() * 1000))
    return {
        "seconds": int(s["clock_seconds"]),
        "warning_seconds": int(s["warning_seconds"]),
        "running": table.status == "playing" and deadline is not None,
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
    if seat.kind == "bot":
        return True
    return (seat.connections > 0 and seat.heartbeat is not None
            and seat.heartbeat >= now - presence_stale_after())


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
             "r13_requested": x.r13_requested}
            for x in seats
        ],
        "commitment": table.commitment,
        "seed": table.seed if table.status == "over" else None,
        "settings": {k: s[k] for k in ("clock_seconds", "call_round", "call_at",
                                        "bot_for_absent", "grace_seconds")},
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
    game = game_of(table) if table.status != "lobby" else None
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


# ------------------------------------------------------------------------------ lobby
def _new_code() -> str:
    return secrets.token_urlsafe(9)[:12].replace("-", "x").replace("_", "y")


def create_table(
    *, name: str, seats: int, bots: Mapping[int, str] | None = None, who: str,
    ruleset: str = "club-milano", kind: str = "casual", settings: Mapping[str, Any] | None = None,
) -> OnlineTable:
    """A new table in the lobby: ``seats`` (3-6), ``bots`` {position: "random"|"heuristic"}
    for seats the server's bots take; a fresh 256-bit seed, its commitment public at once.
    OnlineError (``online.bad_setting``) for a bad number or setting."""
    if not 3 <= seats <= 6:
        raise OnlineError(SEATS_RANGE(value=seats))
    try:
        rs = new_ruleset(ruleset)  # a bare name typed for a new table: the newest version
    except RisikoError as e:
        raise OnlineError(UNKNOWN_RULESET(fault=e.fault.to_dict())) from None
    title = checked_name(name, "table name", MOST_TABLE_NAME)
    s = dict(settings or {})
    for key in s:
        if key not in DEFAULTS and key not in ("late",):
            raise OnlineError(UNKNOWN_SETTING(setting=key))
    clock = s.get("clock_seconds", DEFAULTS["clock_seconds"])
    if (not isinstance(clock, int) or isinstance(clock, bool)
            or not 0 <= clock <= MOST_CLOCK_MINUTES * 60):
        raise OnlineError(CLOCK_SECONDS_RANGE(most=MOST_CLOCK_MINUTES * 60, value=clock))
    call_round = s.get("call_round")
    if call_round is not None and (not isinstance(call_round, int)
                                   or not 1 <= call_round <= MOST_CALL_ROUND):
        raise OnlineError(CALL_ROUND_RANGE(most=MOST_CALL_ROUND, value=call_round))
    if s.get("call_at"):
        s["call_at"] = checked_call_at(str(s["call_at"]))
    for pos, bot in (bots or {}).items():
        if not 1 <= pos <= seats:
            raise OnlineError(SEATS_RANGE(value=pos))
        if bot not in BOTS:
            raise OnlineError(UNKNOWN_BOT(seat=pos, bot=bot))
    seed = new_seed()
    with transaction.atomic():
        table = OnlineTable.objects.create(
            code=_new_code(), name=title or "Tavolo online", ruleset=rs.label,
            seats=seats, kind=kind, settings=s, seed=seed.hex(), commitment=commitment(seed),
            created_by=who,
        )
        for pos in range(1, seats + 1):
            bot = (bots or {}).get(pos, "")
            OnlineSeat.objects.create(table=table, position=pos,
                                      kind="bot" if bot else "open", bot=bot)
        club.audit(who, "online create", None, table,
                   f"online table {table.code}: {seats} seats",
                   {"settings": s, "bots": {str(k): v for k, v in (bots or {}).items()},
                    "commitment": table.commitment})
    return table


def join(
    table_id: int, *, user: AbstractBaseUser | AnonymousUser | None = None,
    guest_name: str | None = None, position: int | None = None, session_key: str | None = None,
) -> tuple[OnlineSeat, str | None, Outbox]:
    """Take a seat: a member (logged in, tied to a player) or a guest by name; returns the
    seat, the guest's secret token (None for a member) and the outbox. One seat per table
    for a logged-in user (as a member or as a guest: the seat keeps ``user``) and for a
    browser session (``session_key``: its hash is kept), each behind a constraint. The last
    open seat taken starts the game. OnlineError: seat taken, table full, name taken, not a
    member, already seated."""
    now = timezone.now()
    session = token_hash(session_key) if session_key else ""
    with transaction.atomic():
        table = OnlineTable.objects.select_for_update().get(pk=table_id)
        seats = _seats(table)
        member = None
        if user is not None and user.is_authenticated:
            member = Member.objects.filter(user_id=user.pk).select_related("player").first()
        mine = [x for x in seats if x.kind != "open" and (
            (user is not None and user.is_authenticated and x.user_id == user.pk)
            or (session and x.session_hash == session))]
        if mine:
            raise OnlineError(ALREADY_SEATED(seat=mine[0].position))
        if table.kind == "tournament":
            if member is None:
                raise OnlineError(NOT_MEMBER())
            target = next((x for x in seats if x.player_id == member.player_id), None)
            if target is None:
                raise OnlineError(NOT_SEATED_HERE({"player": member.player.name}))
        else:
            free = [x for x in seats if x.kind == "open"]
            if position is not None:
                target = next((x for x in seats if x.position == position), None)
                if target is None or target.kind != "open":
                    raise OnlineError(SEAT_TAKEN({"seat": position}))
            elif free:
                target = free[0]
            else:
                raise OnlineError(TABLE_FULL())
        token: str | None = None
        if member is not None and guest_name is None:
            name = member.player.name
            if any(x.name == name for x in seats if x.pk != target.pk and x.kind != "open"):
                raise OnlineError(NAME_TAKEN({"player": name}))
            target.kind, target.player = "member", member.player
            target.user_id = user.pk if user is not None else None
        elif (guest_name is None and user is not None and user.is_authenticated
              and table.kind == "casual"):
            # a referee or committee member (an account with no player) sits as himself: his
            # login holds the seat (no token); his referee's powers are not usable from it
            name = checked_name(getattr(user, "get_full_name", lambda: "")() or
                                user.get_username(), "your name", MOST_GUEST_NAME)
            if any(x.name.casefold() == name.casefold() for x in seats if x.kind != "open"):
                raise OnlineError(NAME_TAKEN({"player": name}))
            target.kind, target.guest_name, target.user_id = "guest", name, user.pk
        else:
            if table.kind == "tournament":
                raise OnlineError(NOT_MEMBER())
            name = checked_name(guest_name or "", "your name", MOST_GUEST_NAME)
            if not name:
                raise OnlineError(GUEST_NO_NAME())
            if any(x.name.casefold() == name.casefold() for x in seats if x.kind != "open"):
                raise OnlineError(NAME_TAKEN({"player": name}))
            token = secrets.token_urlsafe(24)
            target.kind, target.guest_name, target.token_hash = "guest", name, token_hash(token)
            target.session_hash = session
            if user is not None and user.is_authenticated:
                target.user_id = user.pk  # one seat per logged-in user, a guest's too
        target.joined = now
        try:
            with transaction.atomic():
                target.save()
        except IntegrityError:  # the constraints behind the check above
            raise OnlineError(ALREADY_SEATED(seat=target.position)) from None
        if table.kind == "tournament" and table.game_table is not None:
            _arrival(table, target)
        outbox = Outbox(table.pk)
        seats = _seats(table)
        game = None
        if table.status == "lobby" and all(x.kind != "open" for x in seats):
            game = _start(table, now, seats, outbox)
        _save(table)
        _broadcast(table, game, seats, [], outbox)
    return target, token, outbox


def _arrival(table: OnlineTable, seat: OnlineSeat) -> None:
    """R3 at an online evening: taking his online seat is the member's arrival, timed now on
    the club's clock (Europe/Rome, :func:`club_now`) as at the venue. Refused (OnlineError:
    the join writes nothing) outside that evening's times, from 12:00 of its date to 06:00
    of the next (``online.arrival_closed``: a past or future evening), or when R3 excludes
    him at this minute (``online.arrival_excluded``); an arrival already recorded (by the
    referee at the console: a phone notice) is kept as it is."""
    from risiko.tournament import model as dm
    from risiko.tournament.dates import DAY_BREAK, MINUTES_PER_DAY
    from risiko.tournament.schedule import classify
    from risiko.web.evenings.models import Arrival
    from risiko.web.selectors import schedule_of

    assert table.game_table is not None and seat.player is not None
    evening, player = table.game_table.evening, seat.player.name
    local = timezone.localtime(club_now(), CLUB_TIME)
    day, minute = local.date(), local.hour * 60 + local.minute
    if minute < DAY_BREAK:  # after midnight: still the evening before (R3's clock)
        day, minute = day - dt.timedelta(days=1), minute + MINUTES_PER_DAY
    where = {"evening": evening.date.isoformat(), "player": player}
    if day != evening.date or minute < 12 * 60:
        raise OnlineError(ARRIVAL_CLOSED(where, now=local.strftime("%Y-%m-%d %H:%M")))
    if Arrival.objects.filter(evening=evening, player=seat.player, superseded=False).exists():
        return
    t = evening.tournament
    ruling = classify(schedule_of(evening, t.ruleset),
                      dm.Arrival(player, minute, False, None))
    at = clock_name(minute)
    if not ruling.admitted:
        raise OnlineError(ARRIVAL_EXCLUDED(where, at=at, fault=ruling.note.to_dict()))
    club.record_arrival(evening, player, at, who=f"online:{table.code}")


def club_now() -> dt.datetime:
    """Now, for the arrivals (R3): one place the tests can stop."""
    return timezone.now()


def evening_table(evening: Any, player: Player) -> OnlineTable:
    """The online table of ``evening`` where ``player`` has a seat. OnlineError: the
    evening has no online tables (a venue evening), or none of them seats him."""
    tables = OnlineTable.objects.filter(game_table__evening=evening)
    where = {"evening": evening.date.isoformat(), "player": player.name}
    if not tables.exists():
        raise OnlineError(NOT_ONLINE_EVENING(where))
    table = tables.filter(seat_set__player=player).first()
    if table is None:
        raise OnlineError(NO_ONLINE_SEAT(where))
    return table


def _late_seats(table: OnlineTable, seats: list[OnlineSeat]) -> list[int]:
    """R3 at a tournament table: the seats (0-based) whose arrival was late."""
    from risiko.tournament import model as dm
    from risiko.tournament.schedule import classify
    from risiko.web.evenings.models import Arrival
    from risiko.web.selectors import schedule_of

    assert table.game_table is not None
    evening = table.game_table.evening
    t = evening.tournament
    schedule = schedule_of(evening, t.ruleset)
    late = []
    for x in seats:
        if x.player is None:
            continue
        a = Arrival.objects.filter(evening=evening, player=x.player,
                                   superseded=False).order_by("-id").first()
        if a is None:
            continue
        ruling = classify(schedule, dm.Arrival(
            x.player.name, parse_clock(a.at), a.phoned,
            parse_clock(a.phoned_at) if a.phoned_at else None))
        if ruling.penalty_turns:
            late.append(x.position - 1)
    return late


def _start(table: OnlineTable, now: dt.datetime, seats: list[OnlineSeat],
           outbox: Outbox) -> Game:
    if table.game_table is not None and "late" not in (table.settings or {}):
        table.settings = {**(table.settings or {}), "late": _late_seats(table, seats)}
    s = settings_of(table)
    game = adapter.new_game(
        _players(seats), table.ruleset, bytes.fromhex(table.seed), late=s.get("late") or (),
        last_rounds_at=s.get("call_round"),
    )
    table.status = "playing"
    table.started = now
    table.draws = adapter.draws(game)
    _event(table, actor="system", kind="system",
           text=f"# start: commitment {table.commitment}",
           value=olog.value(olog.START, commitment=table.commitment))
    if s.get("call_at"):
        at = dt.time.fromisoformat(str(s["call_at"]))
        local = timezone.localtime(now, CLUB_TIME)
        due = dt.datetime.combine(local.date(), at, tzinfo=CLUB_TIME)
        if due < local:
            due += dt.timedelta(days=1)
        _deadline(table, "call", due, outbox=outbox)
    _after_change(table, game, now, outbox, seats)
    transaction.on_commit(lambda: _cache_put(table.pk, table.seq, game))
    return game


def start_now(table_id: int, *, who: str) -> Outbox:
    """Start a table whose open seats bots take (the creator's button)."""
    now = timezone.now()
    with transaction.atomic():
        table = OnlineTable.objects.select_for_update().get(pk=table_id)
        if table.status != "lobby":
            raise OnlineError(NOT_PLAYING(status=table.status))
        for x in _seats(table):
            if x.kind == "open" and table.kind == "tournament":
                # never a bot for a member: his turns time out until he comes (R11)
                x.kind, x.absent_since = "member", now
                x.save()
            elif x.kind == "open":
                x.kind, x.bot = "bot", "heuristic"
                x.save()
        seats = _seats(table)
        outbox = Outbox(table.pk)
        game = _start(table, now, seats, outbox)
        _save(table)
        club.audit(who, "online start", None, table, f"online table {table.code} started")
        _broadcast(table, game, seats, [], outbox)
    return outbox


def identify(code: str, user: Any, token: str | None) -> tuple[OnlineTable, Actor] | None:
    """The table of ``code`` and who connects: a guest's or bot's token, a member's seat, a
    referee, else a spectator. None when there is no such table."""
    table = OnlineTable.objects.filter(code=code).first()
    if table is None:
        return None
    if token:
        seat = OnlineSeat.objects.filter(table=table, token_hash=token_hash(token)).first()
        if seat is not None:
            return table, Actor("seat", seat.position - 1, seat.name, seat.pk)
    if user is not None and getattr(user, "is_authenticated", False):
        seat = OnlineSeat.objects.filter(table=table, user_id=user.pk).select_related(
            "player").first()
        if seat is not None:
            return table, Actor("seat", seat.position - 1, seat.name, seat.pk)
        if is_referee(user):
            return table, Actor("referee", None, user.get_username())
    return table, Actor("spectator")


def seat_of_token(table_id: int, token: str) -> Actor | None:
    """The seat a guest's or remote bot's secret ``token`` holds at table ``table_id`` (the
    socket's ``auth`` message), or None."""
    seat = OnlineSeat.objects.filter(table_id=table_id, token_hash=token_hash(token)).first()
    return None if seat is None else Actor("seat", seat.position - 1, seat.name, seat.pk)


# ------------------------------------------------------------------------------ actions
def _refuse(table: OnlineTable, *faults: Fault) -> Reply:
    return Reply(seq=table.seq, faults=list(faults))


def _stale(table: OnlineTable, expect_seq: int | None) -> bool:
    if expect_seq is None or expect_seq == table.seq:
        return False
    return TableEvent.objects.filter(table=table, seq__gt=expect_seq).exclude(
        text__startswith="#").exists() or expect_seq > table.seq


def apply(table_id: int, actor: Actor, intention: Mapping[str, Any], *, client_id: str = "",
          expect_seq: int | None = None) -> Reply:
    """Apply a seat's intention exactly once (docs/online.md): under the row lock, refused
    with faults (wrong seat, out of turn, stale view, the engine's refusal) or written as
    the next event. A ``client_id`` already applied returns that event (``duplicate``)."""
    now = timezone.now()
    try:
        with transaction.atomic():
            table = _locked(table_id, actor.key, client_id)
            if actor.role != "seat" or actor.seat is None:
                return _refuse(table, SPECTATOR())
            applied = getattr(table, "applied_seq", None)
            if applied is not None:
                return Reply(seq=applied, duplicate=True)
            if table.status != "playing":
                return _refuse(table, NOT_PLAYING(status=table.status))
            if _stale(table, expect_seq):
                return _refuse(table, STALE(seen=expect_seq, seq=table.seq))
            seats = _seats(table)
            game = _take_game(table)
            if game.to_act != actor.seat:
                _cache_put(table.pk, table.seq, game)
                who = game.players[game.to_act] if game.to_act is not None else "-"
                return _refuse(table, OUT_OF_TURN({"player": who}))
            try:
                action = adapter.to_action(intention)
                before = adapter.draws(game)
                recorded = adapter.push(game, action)
            except RisikoError as e:
                # the engine's push leaves the game as it was; the cache is rebuilt anyway
                return _refuse(table, *e.faults)
            outbox = _record(table, game, seats, now, recorded, actor=actor.key, kind="action",
                             seat=actor.seat, intention=intention, before=before,
                             client_id=client_id, prev=actor.seat)
    except IntegrityError:
        table = OnlineTable.objects.get(pk=table_id)
        return _refuse(table, STALE(seen=expect_seq, seq=table.seq))
    return Reply(seq=outbox_seq(outbox), outbox=outbox)


def outbox_seq(outbox: Outbox) -> int:
    """The seq the outbox's messages carry."""
    for _, message in outbox.messages:
        return int(message["seq"])
    return 0


def _record(table: OnlineTable, game: Game, seats: list[OnlineSeat], now: dt.datetime,
            recorded: Action, *, actor: str, kind: str, seat: int | None,
            intention: Mapping[str, Any] | None = None, before: int = 0,
            client_id: str = "", reason: str = "", prev: int | None = None) -> Outbox:
    """Write the event of an applied action, then clock, bots, snapshot, end; broadcast
    (private views to ``prev``, the seat that acted, the seat to act now and seats out of
    play; to every seat when the game is over or ``prev`` is None)."""
    after = adapter.draws(game)
    seq_from = table.seq
    table.new_events = []
    ev = _event(table, actor=actor, kind=kind, seat=None if seat is None else seat + 1,
                intention=intention, text=adapter.line_of(seat, recorded),
                draws=(before, after), client_id=client_id, reason=reason,
                write=game.over,  # the game's record, written at its end, reads it
                value=olog.action_value(seat if seat is not None else prev, recorded,
                                        _players(seats)))
    table.draws = after
    outbox = Outbox(table.pk)
    _after_change(table, game, now, outbox, seats)
    _save(table, None if game.over else ev)  # the event and the row in one statement
    entries, table.new_events = table.new_events or [ev], None
    private: list[int] | None = None
    if prev is not None and not game.over:
        private = [prev, *([] if game.to_act is None else [game.to_act]),
                   *(s for s in range(game.n) if game.status[s] != "in_play")]
    _broadcast(table, game, seats, entries, outbox, private)
    final_seq = table.seq
    outbox.advance = (table.pk, seq_from, final_seq,
                      [e.text for e in entries if not e.undone and not e.text.startswith("#")],
                      table.draws)
    transaction.on_commit(lambda: _cache_put(table.pk, final_seq, game))
    return outbox


# ------------------------------------------------------------------------------ referee
def referee(table_id: int, actor: Actor, command: Mapping[str, Any], *, client_id: str = "",
            expect_seq: int | None = None) -> Reply:
    """A referee's command (pause, resume, call, widen, end_game, penalty, expel, abandon,
    undo), each an event and an audit entry. Refused for anyone but a referee."""
    now = timezone.now()
    kind = str(command.get("kind", ""))
    reason = str(command.get("reason", "") or "").strip()
    with transaction.atomic():
        table = OnlineTable.objects.select_for_update().get(pk=table_id)
        if actor.role != "referee":
            return _refuse(table, NOT_REFEREE())
        if client_id:
            old = TableEvent.objects.filter(table=table, actor=actor.key,
                                            client_id=client_id).first()
            if old is not None:
                return Reply(seq=old.seq, duplicate=True)
        if table.status not in ("playing", "paused"):
            return _refuse(table, NOT_PLAYING(status=table.status))
        seats = _seats(table)
        game = _take_game(table)
        outbox = Outbox(table.pk)
        table.new_events = []
        s = settings_of(table)
        tournament = (table.game_table.evening.tournament
                      if table.game_table is not None else None)
        seat_no = command.get("seat")
        target = next((x for x in seats if x.position == seat_no), None)
        if kind in ("penalty", "expel", "abandon") and target is None:
            _cache_put(table.pk, table.seq, game)
            return _refuse(table, WRONG_SEAT(seat=seat_no))
        if kind in ("widen", "end_game", "penalty", "expel", "undo") and not reason:
            _cache_put(table.pk, table.seq, game)
            return _refuse(table, NEED_REASON(what=kind))
        action: Action | None = None
        if kind == "pause":
            if table.status != "playing":
                _cache_put(table.pk, table.seq, game)
                return _refuse(table, NOT_PLAYING(status=table.status))
            if table.turn_deadline is not None:
                table.paused_remaining_ms = max(
                    0, int((table.turn_deadline - now).total_seconds() * 1000))
            table.status = "paused"
            table.turn_deadline = None
            table.clock_epoch += 1
            _event(table, actor=actor.key, kind="referee", text="# pause", reason=reason,
                   value=olog.value(olog.PAUSE))
        elif kind == "resume":
            if table.status != "paused":
                _cache_put(table.pk, table.seq, game)
                return _refuse(table, NOT_PLAYING(status=table.status))
            table.status = "playing"
            remaining = table.paused_remaining_ms
            table.paused_remaining_ms = None
            _event(table, actor=actor.key, kind="referee", text="# resume", reason=reason,
                   value=olog.value(olog.RESUME))
            ms = remaining if remaining is not None else int(s["clock_seconds"]) * 1000
            if int(s["clock_seconds"]):
                _start_clock(table, game, now, ms, outbox)
            if game.to_act is not None and _is_bot_turn(seats[game.to_act]):
                _deadline(table, "bot", now, seat=game.to_act + 1, guard=table.seq,
                          outbox=outbox)
        elif kind == "call":
            action = CallLastRounds()
        elif kind == "widen":
            action = WidenClosing(reason)
        elif kind == "end_game":
            action = EndGame(reason)
        elif kind in ("abandon", "expel"):
            assert target is not None
            action = Abandon(target.position - 1)
        elif kind == "penalty":
            assert target is not None
            points = command.get("points")
            if not isinstance(points, int) or points >= 0:
                _cache_put(table.pk, table.seq, game)
                return _refuse(table, BAD_SETTING(setting="points", reason="negative points"))
            table.penalties = [*table.penalties, {
                "seat": target.position, "player": target.name, "points": points,
                "reason": reason, "referee": actor.name}]
            _event(table, actor=actor.key, kind="referee", seat=target.position,
                   text=f"# penalty {target.name} {points}", reason=reason,
                   value=olog.value(olog.PENALTY, player=target.name, points=points))
            if tournament is not None and table.game_table is not None:
                club.add_penalty(table.game_table.evening, target.name, points, unit="table",
                                 reason=reason, referee=actor.name, table=table.game_table,
                                 who=actor.name)
        elif kind == "undo":
            undone = _undo(table, reason, actor)
            if undone is None:
                _cache_put(table.pk, table.seq, game)
                return _refuse(table, NOTHING_TO_UNDO())
            game = undone
        else:
            _cache_put(table.pk, table.seq, game)
            return _refuse(table, BAD_COMMAND(command=kind))
        if action is not None:
            before = adapter.draws(game)
            try:
                recorded = adapter.push(game, action)
            except RisikoError as e:
                return _refuse(table, *e.faults)
            after = adapter.draws(game)
            _event(table, actor=actor.key, kind="referee", seat=seat_no,
                   intention=dict(command), text=adapter.line_of(None, recorded),
                   draws=(before, after), client_id=client_id, reason=reason,
                   value=olog.action_value(None, recorded, _players(seats)))
            table.draws = after
            if kind == "expel" and tournament is not None and table.game_table is not None:
                assert target is not None
                club.add_discipline(table.game_table.evening, target.name, "table",
                                    reason=reason, referee=actor.name,
                                    table_number=table.game_table.number, who=actor.name)
            if target is not None:
                target.r13_requested = False
                target.save()
        _after_change(table, game, now, outbox, seats)
        _save(table)
        club.audit(actor.name, f"online {kind}", tournament, table,
                   f"online table {table.code}: {kind}" + (f" ({reason})" if reason else ""),
                   {"command": dict(command), "seq": table.seq})
        entries, table.new_events = table.new_events or [], None
        _broadcast(table, game, _seats(table), entries, outbox)
        final = table.seq
        transaction.on_commit(lambda: _cache_put(table.pk, final, game))
    return Reply(seq=table.seq, outbox=outbox)


def _undo(table: OnlineTable, reason: str, actor: Actor) -> Game | None:
    """Undo the last game action: mark it undone, rebuild the game without it; its draws are
    burnt (SkippedDraws). None when there is nothing to undo."""
    last = TableEvent.objects.filter(table=table, undone=False).exclude(
        text__startswith="#").order_by("-seq").first()
    if last is None:
        return None
    last.undone = True
    last.save(update_fields=["undone"])
    if last.draws_to > last.draws_from:
        table.skipped_draws = sorted({*table.skipped_draws,
                                      *range(last.draws_from, last.draws_to)})
    table.snapshot = None
    table.snapshot_format = ""
    table.snapshot_dirty = True
    _event(table, actor=actor.key, kind="referee", text=f"# undo {last.seq}: {last.text}",
           reason=reason, value=olog.value(olog.UNDO, seq=last.seq))
    game = _fresh(table)
    adapter.replay_lines(game, _game_lines(table, 0))
    adapter.set_draws(game, table.draws)
    table.turn = -1 if adapter.turn_number(game) == table.turn else table.turn
    return game


# ------------------------------------------------------------------------------ presence
def connected(table_id: int, position: int, now: dt.datetime | None = None) -> Outbox | None:
    """A connection of seat ``position`` opened; a seat coming back is no longer absent.
    Connections counted by a worker that stopped beating (it died) are forgotten."""
    now = now or timezone.now()
    with transaction.atomic():
        table = OnlineTable.objects.select_for_update().get(pk=table_id)
        seat = OnlineSeat.objects.get(table=table, position=position)
        if not is_connected(seat, now):
            seat.connections = 0  # the count of a dead worker's connections
        seat.connections = max(0, seat.connections) + 1
        seat.heartbeat = now
        back = seat.absent_since is not None
        if back:
            seat.absent_since = None
            seat.absence_epoch += 1
            seat.stand_in = False
            seat.r13_requested = False
        seat.save()
        if not back or table.status not in ("playing", "paused"):
            return None
        ev = _event(table, actor="system", kind="system", seat=position,
                    text=f"# {seat.name} is back", value=olog.value(olog.BACK, player=seat.name))
        _save(table)
        outbox = Outbox(table.pk)
        _broadcast(table, game_of(table), _seats(table), [ev], outbox)
        return outbox


def disconnected(table_id: int, position: int) -> Outbox | None:
    """A connection of seat ``position`` closed; the last one makes the seat absent and
    starts its grace period (R13 design: docs/online.md)."""
    with transaction.atomic():
        table = OnlineTable.objects.select_for_update().get(pk=table_id)
        seat = OnlineSeat.objects.get(table=table, position=position)
        seat.connections = max(0, seat.connections - 1)
        if seat.connections:
            seat.save()
            return None
        return _absent(table, seat, timezone.now(), f"# {seat.name} disconnected",
                       olog.value(olog.DISCONNECTED, player=seat.name))


def leave(table_id: int, position: int, now: dt.datetime | None = None) -> Outbox | None:
    """Seat ``position`` leaves the table (the protocol's ``leave``). In the lobby of a
    casual table the seat is free again (its guest's token, its member forgotten). In play
    it is absent now and its grace period is over at once: a bot stands in at a casual
    table that has them, otherwise the referee is asked to declare R13 (R13: leaving the
    table is abandoning it; a member coming back is the referee's to judge). None when
    nothing changes (a tournament's lobby, a bot's seat, a game over)."""
    now = now or timezone.now()
    with transaction.atomic():
        table = OnlineTable.objects.select_for_update().get(pk=table_id)
        seat = OnlineSeat.objects.get(table=table, position=position)
        outbox = Outbox(table.pk)
        if table.status == "lobby":
            if table.kind != "casual" or seat.kind not in ("guest", "member"):
                return None
            seat.kind, seat.guest_name, seat.token_hash, seat.session_hash = "open", "", "", ""
            seat.user, seat.player, seat.joined = None, None, None
            seat.save()
            _broadcast(table, None, _seats(table), [], outbox)
            return outbox
        if table.status not in ("playing", "paused") or seat.kind == "bot":
            return None
        if seat.absent_since is None:
            seat.absent_since = now
            seat.absence_epoch += 1
        s = settings_of(table)
        if table.kind == "casual" and s["bot_for_absent"]:
            seat.stand_in = True
            text = f"# {seat.name} left the table: a bot plays for him until back"
            said = olog.value(olog.LEFT_STAND_IN, player=seat.name)
        else:
            seat.r13_requested = True
            text = f"# {seat.name} left the table: the referee is asked to declare R13"
            said = olog.value(olog.LEFT_R13, player=seat.name)
        seat.save()
        ev = _event(table, actor=f"seat:{position}", kind="system", seat=position, text=text,
                    value=said)
        _save(table)
        _broadcast(table, game_of(table), _seats(table), [ev], outbox)
        return outbox


def _absent(table: OnlineTable, seat: OnlineSeat, now: dt.datetime, text: str,
            value: Mapping[str, Any] | None = None) -> Outbox | None:
    """Seat ``seat`` has no connection left (its row is saved): at a table in play it is
    absent from ``now`` and its grace period starts (R11, R13: docs/online.md)."""
    if table.status not in ("playing", "paused") or seat.kind == "bot" or (
            seat.absent_since is not None):
        seat.save()
        return None
    seat.absent_since = now
    seat.absence_epoch += 1
    seat.save()
    s = settings_of(table)
    ev = _event(table, actor="system", kind="system", seat=seat.position, text=text,
                value=value)
    outbox = Outbox(table.pk)
    _deadline(table, "grace_end", now + dt.timedelta(seconds=int(s["grace_seconds"])),
              seat=seat.position, guard=seat.absence_epoch, outbox=outbox)
    _save(table)
    _broadcast(table, game_of(table), _seats(table), [ev], outbox)
    return outbox


def _someone_acts(table: OnlineTable, game: Game | None, seats: list[OnlineSeat],
                  now: dt.datetime, outbox: Outbox | None = None,
                  verify_clock: bool = False) -> str:
    """The invariant of a table in play: someone will act. Checked inside the
    transaction of every change (:func:`_broadcast`) and by the scheduler at start-up and
    every heartbeat (:func:`keep_tables_alive`); what is missing is scheduled, never acted
    here. Returns who will act:

    - ``"none"``: not in play (lobby, paused, over) or nobody to act;
    - ``"bot"``: the seat to act is a bot or a stand-in: a bot deadline guarded by the
      table's current seq (one written before a later event is stale: made again);
    - ``"clock"``: the turn clock runs (R11): its ``turn_end`` deadline (``verify_clock``:
      looked up, and made again at ``turn_deadline`` when missing);
    - ``"human"``: the seat to act is present (a seat that never connects or whose worker
      died is made absent by :func:`sweep_presence`);
    - ``"absence"``: the seat to act is absent: its grace period or absence limit is
      pending (made due now when missing), or the referee is asked for R13 (R11, R13)."""
    if table.status != "playing" or game is None or game.over or game.to_act is None:
        return "none"
    seat = next((x for x in seats if x.position == game.to_act + 1), None)
    if seat is None:
        return "none"
    pending = Deadline.objects.filter(table=table, fired=None, seat=seat.position)
    if _is_bot_turn(seat):
        if not pending.filter(kind="bot", guard=table.seq).exists():
            delay = int(settings_of(table)["bot_delay_ms"])
            _deadline(table, "bot", now + dt.timedelta(milliseconds=delay),
                      seat=seat.position, guard=table.seq, outbox=outbox)
        return "bot"
    if table.turn_deadline is not None:
        if verify_clock and not Deadline.objects.filter(
                table=table, fired=None, kind="turn_end", guard=table.clock_epoch).exists():
            _deadline(table, "turn_end", max(now, table.turn_deadline), seat=seat.position,
                      guard=table.clock_epoch, outbox=outbox)
        return "clock"
    if seat.absent_since is None:
        return "human"
    if seat.r13_requested or pending.filter(
            kind__in=("grace_end", "absence_limit"), guard=seat.absence_epoch).exists():
        return "absence"
    grace_fired = Deadline.objects.filter(table=table, kind="grace_end", seat=seat.position,
                                          guard=seat.absence_epoch).exists()
    _deadline(table, "absence_limit" if grace_fired else "grace_end", now,
              seat=seat.position, guard=seat.absence_epoch, outbox=outbox)
    return "absence"


def keep_tables_alive(now: dt.datetime | None = None) -> list[Outbox]:
    """The scheduler's check of :func:`_someone_acts` over every table in play (at start-up
    and every heartbeat): a table whose bot, clock or absent seat has no pending deadline
    (a database left so by an older server, a deadline lost) gets it. Only the tables where
    it can be missing are read (no running clock deadline, and a bot, a stand-in or an
    absent seat); each is checked again under its row lock. Returns the outboxes (a
    deadline to wake for)."""
    now = now or timezone.now()
    clock = Deadline.objects.filter(table=models.OuterRef("pk"), fired=None, kind="turn_end",
                                    guard=models.OuterRef("clock_epoch"))
    special = OnlineSeat.objects.filter(table=models.OuterRef("pk")).filter(
        Q(kind="bot") | Q(stand_in=True) | Q(absent_since__isnull=False))
    ids = list(OnlineTable.objects.filter(status="playing").filter(
        ~models.Exists(clock), models.Exists(special)).values_list("pk", flat=True))
    out = []
    for table_id in ids:
        with transaction.atomic():
            table = _locked(table_id)
            if table.status != "playing":
                continue
            outbox = Outbox(table.pk)
            before = Deadline.objects.filter(table=table).count()
            who = _someone_acts(table, game_of(table), _seats(table), now, outbox,
                                verify_clock=True)
            if Deadline.objects.filter(table=table).count() != before:
                log.warning("online table %s: nobody was going to act; %s scheduled",
                            table.code, who)
                out.append(outbox)
    return out


def heartbeat(seat_ids: Iterable[int], now: dt.datetime | None = None) -> int:
    """A worker is alive and holds connections of these seats (OnlineSeat ids): their
    heartbeat is ``now``. One query; returns the rows updated."""
    ids = sorted(set(seat_ids))
    if not ids:
        return 0
    return OnlineSeat.objects.filter(pk__in=ids, connections__gt=0).update(
        heartbeat=now or timezone.now())


def sweep_presence(now: dt.datetime | None = None) -> list[Outbox]:
    """Seats counted as connected whose heartbeat is stale (every worker holding their
    connections died, or the server was stopped) lose those connections: at a table in play
    they become absent now and their grace period starts, as if they had disconnected (R11,
    R13). So are the seats of a table in play that have no connection and were never
    made absent (a player who sat down and never opened the table, or left it in the
    lobby) once the table has played the stale limit without them. Each seat is checked
    again under its table's row lock. Returns the outboxes."""
    now = now or timezone.now()
    limit = now - presence_stale_after()
    stale = set(OnlineSeat.objects.filter(connections__gt=0).filter(
        Q(heartbeat__isnull=True) | Q(heartbeat__lt=limit)).values_list("table_id", "position"))
    stale |= set(OnlineSeat.objects.filter(
        connections__lte=0, absent_since__isnull=True, kind__in=("member", "guest"),
        table__status__in=("playing", "paused"), table__started__lt=limit).filter(
        Q(heartbeat__isnull=True) | Q(heartbeat__lt=limit)).values_list("table_id", "position"))
    out = []
    for table_id, position in sorted(stale):
        with transaction.atomic():
            table = OnlineTable.objects.select_for_update().get(pk=table_id)
            seat = OnlineSeat.objects.get(table=table, position=position)
            if is_connected(seat, now) or (seat.connections <= 0
                                           and seat.absent_since is not None):
                continue  # it came back meanwhile, or is absent already
            if seat.heartbeat is not None and seat.heartbeat >= limit:
                continue  # a connection closed within the limit: its own grace period
            seat.connections = 0
            outbox = _absent(table, seat, now, f"# {seat.name}: connection lost",
                             olog.value(olog.CONNECTION_LOST, player=seat.name))
        if outbox is not None:
            out.append(outbox)
    return out


# ------------------------------------------------------------------------------ deadlines
def due_deadlines(now: dt.datetime | None = None) -> list[int]:
    """Ids of the unfired deadlines due by ``now``."""
    now = now or timezone.now()
    return list(Deadline.objects.filter(fired=None, due__lte=now).order_by("due", "id")
                .values_list("id", flat=True)[:200])


def next_due() -> dt.datetime | None:
    """When the next unfired deadline is due."""
    row = Deadline.objects.filter(fired=None).order_by("due").values_list("due", flat=True)
    return row.first()


def fire(deadline_id: int) -> Outbox | None:
    """Fire one deadline exactly once: claim it (a conditional update) and apply its effect
    in the same transaction, under the table's row lock. None when another worker fired it
    or it was stale."""
    now = timezone.now()
    with transaction.atomic():
        d = Deadline.objects.filter(pk=deadline_id).first()
        if d is None or d.fired is not None:
            return None
        table = _locked(d.table_id)
        claimed = Deadline.objects.filter(pk=d.pk, fired=None).update(fired=now)
        if claimed == 0:
            return None
        outcome, outbox = _effect(table, d, now)
        Deadline.objects.filter(pk=d.pk).update(outcome=outcome)
        return outbox


def _effect(table: OnlineTable, d: Deadline, now: dt.datetime) -> tuple[str, Outbox | None]:
    if table.status not in ("playing", "paused"):
        return "not in play", None
    seats = _seats(table)
    seat = next((x for x in seats if x.position == d.seat), None)
    if d.kind in ("turn_end", "turn_warning"):
        if d.guard != table.clock_epoch or table.status != "playing":
            return "stale", None
        game = _take_game(table)
        if d.kind == "turn_warning":
            _cache_put(table.pk, table.seq, game)
            s = settings_of(table)
            ev = _event(table, actor="clock", kind="clock", seat=d.seat,
                        text=f"# clock: {s['warning_seconds']} s left for "
                             f"{seat.name if seat else '?'} (R11)",
                        value=olog.value(olog.CLOCK_WARNING, seconds=s["warning_seconds"],
                                         player=seat.name if seat else "?"))
            _save(table)
            outbox = Outbox(table.pk)
            _broadcast(table, game, seats, [ev], outbox)
            return "warned", outbox
        prev = game.to_act
        try:
            recorded = adapter.push(game, Timeout())
        except RisikoError:
            return "refused", None
        return "timeout", _record(table, game, seats, now, recorded, actor="clock",
                                  kind="clock", seat=None, before=table.draws, prev=prev)
    if d.kind == "bot":
        if d.guard != table.seq or table.status != "playing":
            return "stale", None
        game = _take_game(table)
        if seat is None or game.to_act != seat.position - 1 or not _is_bot_turn(seat):
            _cache_put(table.pk, table.seq, game)
            return "stale", None
        rng = int.from_bytes(hashlib.sha256(f"{table.seed}:{table.seq}".encode()).digest()[:8])
        before = adapter.draws(game)
        try:
            action = adapter.bot_action(game, seat.position - 1, seat.bot or "heuristic", rng)
            recorded = adapter.push(game, action)
        except RisikoError as e:
            log.error("table %s: bot at seat %s refused: %s", table.code, d.seat, e)
            return "bot refused", None
        return "bot", _record(table, game, seats, now, recorded, actor=f"bot:{d.seat}",
                              kind="action", seat=seat.position - 1, before=before,
                              prev=seat.position - 1)
    if d.kind == "call":
        game = _take_game(table)
        if game.last_round is not None:
            _cache_put(table.pk, table.seq, game)
            return "already called", None
        if game.phase == "setup":
            _cache_put(table.pk, table.seq, game)
            _deadline(table, "call", now + dt.timedelta(seconds=30), guard=table.seq)
            return "after the placement", None
        recorded = adapter.push(game, CallLastRounds())
        return "called", _record(table, game, seats, now, recorded, actor="clock",
                                 kind="clock", seat=None)
    if d.kind in ("grace_end", "absence_limit"):
        if seat is None or seat.absence_epoch != d.guard or seat.absent_since is None:
            return "stale", None
        s = settings_of(table)
        outbox = Outbox(table.pk)
        game = game_of(table)
        if d.kind == "grace_end":
            if table.kind == "casual" and s["bot_for_absent"]:
                seat.stand_in = True
                seat.save()
                text = f"# a bot plays for {seat.name} until back"
                said = olog.value(olog.STAND_IN, player=seat.name)
                if game.to_act == seat.position - 1 and table.status == "playing":
                    _deadline(table, "bot", now, seat=seat.position, guard=table.seq + 1,
                              outbox=outbox)
            else:
                text = f"# {seat.name} is absent: his turns time out (R11)"
                said = olog.value(olog.ABSENT, player=seat.name)
                _deadline(table, "absence_limit",
                          now + dt.timedelta(seconds=int(s["absence_limit_seconds"])),
                          seat=seat.position, guard=seat.absence_epoch, outbox=outbox)
        else:
            seat.r13_requested = True
            seat.save()
            text = f"# the referee is asked to declare R13 for {seat.name}"
            said = olog.value(olog.R13_ASKED, player=seat.name)
        ev = _event(table, actor="clock", kind="system", seat=seat.position, text=text,
                    value=said)
        _save(table)
        _broadcast(table, game, _seats(table), [ev], outbox)
        return d.kind, outbox
    return "unknown", None


def beat(now: dt.datetime | None = None, *, stop_after: float = 10.0) -> float:
    """The schedulers' heartbeat, written while deadlines are pending. After a stop longer
    than ``stop_after`` seconds, every unfired deadline that existed during the stop is moved
    by the stop's length (the clock did not run while no server was there). Returns the stop
    in seconds (0 when none). One compare-and-set update: one worker moves them."""
    now = now or timezone.now()
    if not Deadline.objects.filter(fired=None).exists():
        return 0.0
    prev = SchedulerBeat.objects.filter(pk=1).values_list("beat", flat=True).first()
    if prev is None:
        try:
            with transaction.atomic():
                SchedulerBeat.objects.create(pk=1, beat=now)
        except IntegrityError:  # another worker's scheduler wrote it first
            pass
        return 0.0
    if not SchedulerBeat.objects.filter(pk=1, beat=prev).update(beat=now):
        return 0.0  # another worker beat meanwhile
    gap = (now - prev).total_seconds()
    if gap <= stop_after:
        return 0.0
    shift = dt.timedelta(seconds=gap)
    with transaction.atomic():
        for d in Deadline.objects.filter(fired=None, created__lt=prev):
            d.due = d.due + shift
            d.save(update_fields=["due"])
        for t in OnlineTable.objects.filter(status="playing", turn_deadline__isnull=False,
                                            started__lt=prev):
            assert t.turn_deadline is not None
            t.turn_deadline = t.turn_deadline + shift
            t.save(update_fields=["turn_deadline"])
    return gap


def table_for_code(code: str) -> OnlineTable | None:
    """The table of a code, or None."""
    return OnlineTable.objects.filter(code=code).first()


def events_of(table: OnlineTable) -> list[TableEvent]:
    """Every event of a table in order."""
    return list(TableEvent.objects.filter(table=table).order_by("seq"))


def random_rng(seed: str) -> random.Random:
    """A deterministic generator for a table's bots."""
    return random.Random(seed)


def lobby_tables() -> list[OnlineTable]:
    """Open and running tables, newest first."""
    return list(OnlineTable.objects.filter(Q(status="lobby") | Q(status="playing") |
                                           Q(status="paused")).order_by("-created")[:50])


def finished_tables_of(player_name: str) -> list[OnlineTable]:
    """Finished tables where ``player_name`` held a seat (for the player's page)."""
    return list(OnlineTable.objects.filter(
        status="over", seat_set__player__name=player_name).distinct().order_by("-finished"))


def fault_dicts(faults: Iterable[Fault], lang: str) -> list[dict[str, Any]]:
    """Faults as the protocol sends them: the message in the viewer's language."""
    return [f.to_dict(lang) for f in faults]


__all__ = ["Actor", "IllegalActionError", "OnlineError", "Outbox", "Reply"]


def open_evening(evening: Any, *, who: str,
                 settings: Mapping[str, Any] | None = None) -> list[OnlineTable]:
    """An online evening: one tournament table per seated table of ``evening`` (3-6 seats),
    each seat reserved for the seated player; tables already opened are kept."""
    t = evening.tournament
    out: list[OnlineTable] = []
    with transaction.atomic():
        for gt in evening.tables.order_by("number"):
            existing = OnlineTable.objects.filter(game_table=gt).first()
            if existing is not None:
                out.append(existing)
                continue
            seated = list(gt.seats.select_related("player").order_by("position"))
            if not 3 <= len(seated) <= 6:
                continue
            table = create_table(
                name=f"{t.name} {evening.date} — {gt.number}", seats=len(seated), who=who,
                ruleset=t.ruleset_label, kind="tournament",
                settings=settings)
            table.game_table = gt
            _save(table)
            for row, s in zip(table.seat_set.order_by("position"), seated, strict=True):
                row.player = s.player
                row.save()
            out.append(table)
        club.audit(who, "online evening", t, evening,
                   f"online tables for {evening.date}: {len(out)}")
    return out
