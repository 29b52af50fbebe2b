"""Online tables: a table made, joined and started; who a connection is (seat, spectator,
referee)."""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from risiko.actions import Late
from risiko.agents.levels import LEVELS
from risiko.fair import commitment, new_seed
from risiko.faults import RisikoError
from risiko.game import Game
from risiko.online import adapter
from risiko.online import log as olog
from risiko.ruleset import new_ruleset
from risiko.web import services as club
from risiko.web import services as web_services
from risiko.web.clubs import club_for_new_row
from risiko.web.site.permissions import is_referee

from ..models import (
    DeadlineKind,
    EventKind,
    Member,
    OnlineSeat,
    OnlineTable,
    SeatKind,
    TableEvent,
    TableKind,
    TableStatus,
)
from .base import (
    ALREADY_SEATED,
    CALL_ROUND_RANGE,
    CLOCK_SECONDS_RANGE,
    CLUB_TIME,
    DEFAULTS,
    GUEST_NO_NAME,
    MOST_CALL_ROUND,
    MOST_CLOCK_MINUTES,
    MOST_GUEST_NAME,
    MOST_TABLE_NAME,
    NAME_TAKEN,
    NOT_MEMBER,
    NOT_PLAYING,
    NOT_SEATED_HERE,
    SEAT_TAKEN,
    SEATS_RANGE,
    STAND_IN_LEVEL,
    TABLE_FULL,
    UNKNOWN_RULESET,
    UNKNOWN_SETTING,
    Actor,
    OnlineError,
    Outbox,
    bot_of,
    checked_call_at,
    checked_name,
    levels_text,
    settings_of,
    token_hash,
)
from .cache import _cache_put, _take_game
from .evenings import _arrival, _late_seats
from .messages import _broadcast
from .rows import _event, _players, _save, _seats, _tournament, _where
from .schedule import _after_change, _deadline


# ------------------------------------------------------------------------------ lobby
def _new_code() -> str:
    return secrets.token_urlsafe(9)[:12].replace("-", "x").replace("_", "y")


def create_table(
    *, name: str, seats: int, bots: Mapping[int, str] | None = None, who: str,
    ruleset: str = "club-milano", kind: str = "casual", settings: Mapping[str, Any] | None = None,
    tournament: Any = None, club: Any = None,
) -> OnlineTable:
    """A new table in the lobby: ``seats`` (3-6), ``bots`` {position: a level (``3``) or a
    bot's name of :data:`~risiko.agents.levels.LEVELS`} for seats the server's bots take
    (stored by the bot's name); the setting ``stand_in_level``: the level of the bot that
    plays for an absent person (a casual table, R13); a fresh 256-bit seed, its commitment
    public at once; audited in ``tournament``'s log when it is one of its evening's tables.
    The table belongs to ``tournament``'s club, else to ``club`` (the lobby's), else to the
    request scope's club or the default club (:func:`risiko.web.clubs.club_for_new_row`).
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
    level = s.get("stand_in_level", DEFAULTS["stand_in_level"])
    if not isinstance(level, int) or isinstance(level, bool) or level not in LEVELS:
        raise OnlineError(STAND_IN_LEVEL(value=str(level), levels=levels_text()))
    chosen: dict[int, str] = {}
    for pos, bot in (bots or {}).items():
        if not 1 <= pos <= seats:
            raise OnlineError(SEATS_RANGE(value=pos))
        chosen[pos] = bot_of(bot, pos)
    bots = chosen
    seed = new_seed()
    with transaction.atomic():
        owner = (tournament.club if tournament is not None
                 else club if club is not None else club_for_new_row())
        table = OnlineTable.objects.create(
            code=_new_code(), club=owner, name=title or "Tavolo online", ruleset=rs.label,
            seats=seats, kind=kind, settings=s, seed=seed.hex(), commitment=commitment(seed),
            created_by=who,
        )
        for pos in range(1, seats + 1):
            bot = (bots or {}).get(pos, "")
            OnlineSeat.objects.create(table=table, position=pos,
                                      kind=SeatKind.BOT if bot else SeatKind.OPEN, bot=bot)
        web_services.audit(who, "online create", tournament, table,
                           f"online table {table.code}: {seats} seats",
                           {"settings": s, "bots": {str(k): v for k, v in (bots or {}).items()},
                            "commitment": table.commitment},
                           params={"code": table.code, "seats": seats})
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
        mine = [x for x in seats if x.kind != SeatKind.OPEN and (
            (user is not None and user.is_authenticated and x.user_id == user.pk)
            or (session and x.session_hash == session))]
        if mine:
            raise OnlineError(ALREADY_SEATED(seat=mine[0].position))
        if table.kind == TableKind.TOURNAMENT:
            if member is None:
                raise OnlineError(NOT_MEMBER())
            target = next((x for x in seats if x.player_id == member.player_id), None)
            if target is None:
                raise OnlineError(NOT_SEATED_HERE({"player": member.player.name}))
        else:
            free = [x for x in seats if x.kind == SeatKind.OPEN]
            if position is not None:
                target = next((x for x in seats if x.position == position), None)
                if target is None or target.kind != SeatKind.OPEN:
                    raise OnlineError(SEAT_TAKEN({"seat": position}))
            elif free:
                target = free[0]
            else:
                raise OnlineError(TABLE_FULL())
        token: str | None = None
        if member is not None and guest_name is None:
            name = member.player.name
            if any(x.name == name for x in seats if x.pk != target.pk and x.kind != SeatKind.OPEN):
                raise OnlineError(NAME_TAKEN({"player": name}))
            target.kind, target.player = SeatKind.MEMBER, member.player
            target.user_id = user.pk if user is not None else None
        elif (guest_name is None and user is not None and user.is_authenticated
              and table.kind == TableKind.CASUAL):
            # a referee or committee member (an account with no player) sits as himself: his
            # login holds the seat (no token); his referee's powers are not usable from it
            name = checked_name(getattr(user, "get_full_name", lambda: "")() or
                                user.get_username(), "your name", MOST_GUEST_NAME)
            if any(x.name.casefold() == name.casefold() for x in seats if x.kind != SeatKind.OPEN):
                raise OnlineError(NAME_TAKEN({"player": name}))
            target.kind, target.guest_name, target.user_id = SeatKind.GUEST, name, user.pk
        else:
            if table.kind == TableKind.TOURNAMENT:
                raise OnlineError(NOT_MEMBER())
            name = checked_name(guest_name or "", "your name", MOST_GUEST_NAME)
            if not name:
                raise OnlineError(GUEST_NO_NAME())
            if any(x.name.casefold() == name.casefold() for x in seats if x.kind != SeatKind.OPEN):
                raise OnlineError(NAME_TAKEN({"player": name}))
            token = secrets.token_urlsafe(24)
            target.kind, target.guest_name = SeatKind.GUEST, name
            target.token_hash = token_hash(token)
            target.session_hash = session
            if user is not None and user.is_authenticated:
                target.user_id = user.pk  # one seat per logged-in user, a guest's too
        target.joined = now
        try:
            with transaction.atomic():
                target.save()
        except IntegrityError:  # the constraints behind the check above
            raise OnlineError(ALREADY_SEATED(seat=target.position)) from None
        if table.kind == TableKind.TOURNAMENT and table.game_table is not None:
            _arrival(table, target)
        outbox = Outbox(table.pk)
        seats = _seats(table)
        game = None
        entries: list[TableEvent] = []
        if table.status == TableStatus.LOBBY and all(x.kind != SeatKind.OPEN for x in seats):
            game = _start(table, now, seats, outbox)
        elif (table.game_table is not None
              and table.status in (TableStatus.PLAYING, TableStatus.PAUSED)):
            game, entries = _late_arrival(table, target, seats, now, outbox)
        _save(table)
        _broadcast(table, game, seats, entries, outbox)
        if entries and game is not None:
            final, late_game = table.seq, game
            transaction.on_commit(lambda: _cache_put(table.pk, final, late_game))
    return target, token, outbox


def _late_arrival(table: OnlineTable, seat: OnlineSeat, seats: list[OnlineSeat],
                  now: dt.datetime, outbox: Outbox) -> tuple[Game | None, list[TableEvent]]:
    """R3 at a tournament table the referee started before ``seat``'s member arrived (the
    start fixed its late seats without him): when his arrival (recorded now, or by the
    referee) is late, the engine's :class:`~risiko.actions.Late` marks the seat, recorded
    as the referee's line ``R late <seat>``: of his first 3 turns of play those not begun
    are penalised, the one under way too (his turns already past, lost absent, count among
    them: R3's "primi tre turni di gioco"; the ruleset's ``late_penalty_from`` says so, or
    counts them from his arrival). Returns the game and the event, or (None, [])
    when he is not late."""
    if not _late_seats(table, [seat]):
        return None, []
    game = _take_game(table)
    before = adapter.draws(game)
    try:
        recorded = adapter.push(game, Late(seat.position - 1))
    except RisikoError:  # his seat is out of play (R13 declared): nothing to penalise
        _cache_put(table.pk, table.seq, game)
        return None, []
    event = _event(table, actor="system", kind=EventKind.SYSTEM, seat=seat.position,
                   text=adapter.line_of(None, recorded), draws=(before, adapter.draws(game)),
                   value=olog.action_value(None, recorded, _players(seats)))
    _after_change(table, game, now, outbox, seats)
    return game, [event]


def _start(table: OnlineTable, now: dt.datetime, seats: list[OnlineSeat],
           outbox: Outbox) -> Game:
    if table.game_table is not None and "late" not in (table.settings or {}):
        table.settings = {**(table.settings or {}), "late": _late_seats(table, seats)}
    s = settings_of(table)
    game = adapter.new_game(
        _players(seats), table.ruleset, bytes.fromhex(table.seed), late=s.get("late") or (),
        last_rounds_at=s.get("call_round"),
    )
    table.status = TableStatus.PLAYING
    table.started = now
    table.draws = adapter.draws(game)
    _event(table, actor="system", kind=EventKind.SYSTEM,
           text=f"# start: commitment {table.commitment}",
           value=olog.value(olog.START, commitment=table.commitment))
    if s.get("call_at"):
        at = dt.time.fromisoformat(str(s["call_at"]))
        local = timezone.localtime(now, CLUB_TIME)
        due = dt.datetime.combine(local.date(), at, tzinfo=CLUB_TIME)
        if due < local:
            due += dt.timedelta(days=1)
        _deadline(table, DeadlineKind.CALL, due, outbox=outbox)
    _after_change(table, game, now, outbox, seats)
    transaction.on_commit(lambda: _cache_put(table.pk, table.seq, game))
    return game


def start_now(table_id: int, *, who: str) -> Outbox:
    """Start a table whose open seats bots take (the creator's button)."""
    now = timezone.now()
    with transaction.atomic():
        table = OnlineTable.objects.select_for_update().get(pk=table_id)
        if table.status != TableStatus.LOBBY:
            raise OnlineError(NOT_PLAYING(status=table.status))
        for x in _seats(table):
            if x.kind == SeatKind.OPEN and table.kind == TableKind.TOURNAMENT:
                # never a bot for a member: his turns time out until he comes (R11)
                x.kind, x.absent_since = SeatKind.MEMBER, now
                x.save()
            elif x.kind == SeatKind.OPEN:
                x.kind, x.bot = SeatKind.BOT, "heuristic"
                x.save()
        seats = _seats(table)
        outbox = Outbox(table.pk)
        game = _start(table, now, seats, outbox)
        _save(table)
        club.audit(who, "online start", _tournament(table), table,
                   f"online table {table.code} started", params=_where(table))
        _broadcast(table, game, seats, [], outbox)
    return outbox


def identify(code: str, user: Any, token: str | None, *, club: Any = None
             ) -> tuple[OnlineTable, Actor] | None:
    """The table of ``code`` and who connects: a guest's or bot's token, a member's seat, a
    referee of the table's club, else a spectator. None when there is no such table (or,
    ``club`` given, when it is another club's)."""
    tables = OnlineTable.objects.select_related("club")
    table = (tables.filter(code=code) if club is None
             else tables.filter(code=code, club=club)).first()
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
        if is_referee(user, table.club):
            return table, Actor("referee", None, user.get_username())
    return table, Actor("spectator")


def seat_of_token(table_id: int, token: str) -> Actor | None:
    """The seat a guest's or remote bot's secret ``token`` holds at table ``table_id`` (the
    socket's ``auth`` message), or None."""
    seat = OnlineSeat.objects.filter(table_id=table_id, token_hash=token_hash(token)).first()
    return None if seat is None else Actor("seat", seat.position - 1, seat.name, seat.pk)
