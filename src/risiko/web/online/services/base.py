"""Online tables: their settings, limits and faults, the actor, the outbox, the groups' names."""

from __future__ import annotations

import hashlib
import logging
import unicodedata
import zoneinfo
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.db import models

from risiko.agents.levels import LEVELS, level_of
from risiko.faults import Fault, RisikoError, define
from risiko.names import clean_name, name_faults
from risiko.tournament.dates import clock_name, parse_clock

from ..models import OnlineTable

log = logging.getLogger("risiko.web.online.services")  # the name it had as one module
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
    "stand_in_level": 2,  # the level of the bot that plays for an absent person (casual)
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
                     "bot for seat {seat}: {bot!r} is not a bot level ({levels})")
STAND_IN_LEVEL = define("online.stand_in_level", "R13", "level of the bot for an absent "
                        "player: {value!r} is not a bot level ({levels})")
NAME_TOO_LONG = define("online.name_too_long", "",
                       "{field}: at most {most} characters, not {count}")
NAME_CONTROL = define("online.name_control", "", "{field}: control characters are not allowed")
GUEST_NO_NAME = define("online.guest_no_name", "", "your name: a guest needs a name")

#: the most a table's settings may be: a turn clock of 30 minutes, a call at round 99
MOST_CLOCK_MINUTES = 30
MOST_CALL_ROUND = 99
MOST_TABLE_NAME = 80
MOST_GUEST_NAME = 40
#: the server's bots by name, the levels' (:data:`risiko.agents.levels.LEVELS`) when loaded
BOTS = tuple(LEVELS.values())


def levels_text() -> str:
    """The bot levels, for a refusal (``1, 2, 3``)."""
    return ", ".join(str(level) for level in sorted(LEVELS))


def bot_of(value: object, seat: int | str) -> str:
    """The registered bot a form or a command names for ``seat``: a level (``3``, ``"3"``)
    or a bot's name of :data:`~risiko.agents.levels.LEVELS` (``"heuristic"``); OnlineError
    (``online.unknown_bot``, naming the levels) otherwise. The levels are read now, so a
    level added to the table is offered with no change here."""
    text = str(value).strip().lower()
    if text.isdigit() and int(text) in LEVELS:
        return LEVELS[int(text)]
    if not text.isdigit() and level_of(text) is not None:
        return text
    raise OnlineError(UNKNOWN_BOT(seat=seat, bot=str(value), levels=levels_text()))


def bot_for(seat: Any, table: OnlineTable) -> str:
    """The bot that plays ``seat`` now: a bot seat's own; for a person's seat (a stand-in,
    R13 at a casual table) the one the referee chose for it (``bot_level``), else the
    table's ``stand_in_level``."""
    if seat.bot:
        return str(seat.bot)
    return LEVELS.get(settings_of(table)["stand_in_level"], "heuristic")


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
BUSY = define("online.busy", "", "the table's database did not answer this moment: nothing "
              "was changed; send it again")
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


# ------------------------------------------------------------------------------ helpers
def settings_of(table: OnlineTable) -> dict[str, Any]:
    """The table's settings over the defaults."""
    return {**DEFAULTS, **(table.settings or {})}


def fault_dicts(faults: Iterable[Fault], lang: str) -> list[dict[str, Any]]:
    """Faults as the protocol sends them: the message in the viewer's language."""
    return [f.to_dict(lang) for f in faults]
