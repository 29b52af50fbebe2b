"""Online tables: every change, applied under the table's row lock with a sequence number.

The functions here are synchronous (the consumer calls them in a worker thread). Each change
runs in one transaction that locks the table's row (``select_for_update``), checks the actor,
pushes the action through the engine (:mod:`risiko.online.adapter`), writes one
:class:`TableEvent` with the next ``seq``, and schedules what follows (the turn clock, a bot's
move). It returns an :class:`Outbox`: the messages to send to the table's groups once the
transaction has committed. Refusals write nothing and carry the faults. See docs/online.md.

One module per concern; this package gives every public name (and the few private ones the
tests reach) where callers have always found them:

- :mod:`.base`: settings, limits, faults, :class:`Actor`, :class:`Outbox`, :class:`Reply`,
  group names, checked names;
- :mod:`.rows`: the raw-SQL reads and writes of an action's rows (and why they are raw);
- :mod:`.cache`: this process's cached games, and a game rebuilt from its rows;
- :mod:`.results`: a game's end, its record, a tournament table's result and the one that
  waits beside the referee's;
- :mod:`.schedule`: what a change schedules (turn clock, a bot's move) and the invariant that
  someone will act;
- :mod:`.messages`: what the groups are sent (the table, the log, the state);
- :mod:`.lobby`: tables made, joined and started; who a connection is;
- :mod:`.play`: a seat's action;
- :mod:`.referee`: the referee's commands;
- :mod:`.presence`: connections, heartbeats, absence;
- :mod:`.deadlines`: deadlines fired, the schedulers' heartbeat;
- :mod:`.evenings`: online evenings and their arrivals (R3);
- reads: :mod:`risiko.web.online.selectors`."""

from __future__ import annotations

from risiko.faults import IllegalActionError

from ..selectors import events_of, finished_tables_of, lobby_tables, table_for_code, waiting_results
from .base import (
    ALREADY_IDENTIFIED,
    ALREADY_SEATED,
    ARRIVAL_CLOSED,
    ARRIVAL_EXCLUDED,
    BAD_COMMAND,
    BAD_SETTING,
    BAD_TOKEN,
    BOTS,
    BUSY,
    CALL_AT_BAD,
    CALL_ROUND_RANGE,
    CLOCK_RANGE,
    CLOCK_SECONDS_RANGE,
    CLUB_TIME,
    DEFAULTS,
    GUEST_NO_NAME,
    LOG_LENGTH,
    MOST_CALL_ROUND,
    MOST_CLOCK_MINUTES,
    MOST_GUEST_NAME,
    MOST_TABLE_NAME,
    NAME_CONTROL,
    NAME_TAKEN,
    NAME_TOO_LONG,
    NEED_REASON,
    NO_ONLINE_SEAT,
    NOT_MEMBER,
    NOT_ONLINE_EVENING,
    NOT_PLAYING,
    NOT_REFEREE,
    NOT_SEATED_HERE,
    NOTHING_TO_UNDO,
    OUT_OF_TURN,
    RESULT_CHOICE,
    RESULT_DECIDED,
    RESULT_REASON,
    SEAT_TAKEN,
    SEATS_RANGE,
    SNAPSHOT_EVERY,
    SPECTATOR,
    STALE,
    TABLE_FULL,
    TOKEN_IN_URL,
    UNKNOWN_BOT,
    UNKNOWN_RULESET,
    UNKNOWN_SETTING,
    WRONG_SEAT,
    Actor,
    M,
    OnlineError,
    Outbox,
    Reply,
    bot_for,
    bot_of,
    checked_call_at,
    checked_name,
    fault_dicts,
    log,
    public_group,
    seat_group,
    settings_of,
    token_hash,
)
from .cache import (
    _CACHE,
    _cache_peek,
    _cache_put,
    _fresh,
    _rebuild,
    advance_cached,
    clear_cache,
    game_of,
)
from .deadlines import beat, due_deadlines, fire, next_due, set_aside
from .evenings import club_now, evening_table, open_evening
from .lobby import create_table, identify, join, seat_of_token, start_now
from .messages import entry_of, is_connected, presence_stale_after, state_message, table_view
from .play import apply, outbox_seq
from .presence import connected, disconnected, heartbeat, keep_tables_alive, leave, sweep_presence
from .referee import referee
from .results import build_record, keep_result
from .rows import _game_lines, _seats
from .schedule import _someone_acts

__all__ = [
    "ALREADY_IDENTIFIED",
    "ALREADY_SEATED",
    "ARRIVAL_CLOSED",
    "ARRIVAL_EXCLUDED",
    "BAD_COMMAND",
    "BAD_SETTING",
    "BAD_TOKEN",
    "BOTS",
    "BUSY",
    "CALL_AT_BAD",
    "CALL_ROUND_RANGE",
    "CLOCK_RANGE",
    "CLOCK_SECONDS_RANGE",
    "CLUB_TIME",
    "DEFAULTS",
    "GUEST_NO_NAME",
    "LOG_LENGTH",
    "MOST_CALL_ROUND",
    "MOST_CLOCK_MINUTES",
    "MOST_GUEST_NAME",
    "MOST_TABLE_NAME",
    "NAME_CONTROL",
    "NAME_TAKEN",
    "NAME_TOO_LONG",
    "NEED_REASON",
    "NOTHING_TO_UNDO",
    "NOT_MEMBER",
    "NOT_ONLINE_EVENING",
    "NOT_PLAYING",
    "NOT_REFEREE",
    "NOT_SEATED_HERE",
    "NO_ONLINE_SEAT",
    "OUT_OF_TURN",
    "RESULT_CHOICE",
    "RESULT_DECIDED",
    "RESULT_REASON",
    "SEATS_RANGE",
    "SEAT_TAKEN",
    "SNAPSHOT_EVERY",
    "SPECTATOR",
    "STALE",
    "TABLE_FULL",
    "TOKEN_IN_URL",
    "UNKNOWN_BOT",
    "UNKNOWN_RULESET",
    "UNKNOWN_SETTING",
    "WRONG_SEAT",
    "_CACHE",
    "Actor",
    "IllegalActionError",
    "M",
    "OnlineError",
    "Outbox",
    "Reply",
    "_cache_peek",
    "_cache_put",
    "_fresh",
    "_game_lines",
    "_rebuild",
    "_seats",
    "_someone_acts",
    "advance_cached",
    "apply",
    "beat",
    "bot_for",
    "bot_of",
    "build_record",
    "checked_call_at",
    "checked_name",
    "clear_cache",
    "club_now",
    "connected",
    "create_table",
    "disconnected",
    "due_deadlines",
    "entry_of",
    "evening_table",
    "events_of",
    "fault_dicts",
    "finished_tables_of",
    "fire",
    "game_of",
    "heartbeat",
    "identify",
    "is_connected",
    "join",
    "keep_result",
    "keep_tables_alive",
    "leave",
    "lobby_tables",
    "log",
    "next_due",
    "open_evening",
    "outbox_seq",
    "presence_stale_after",
    "public_group",
    "referee",
    "seat_group",
    "seat_of_token",
    "set_aside",
    "settings_of",
    "start_now",
    "state_message",
    "sweep_presence",
    "table_for_code",
    "table_view",
    "token_hash",
    "waiting_results",
]
