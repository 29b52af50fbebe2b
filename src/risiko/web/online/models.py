"""Online tables: the table, its seats, its events (the log), deadlines, members.

See docs/online.md for the design: a table's game is a snapshot plus the events since; each
event has a sequence number unique in its table; deadlines are rows fired exactly once.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from risiko.agents.levels import level_of
from risiko.web.players.models import Player
from risiko.web.results.models import GameTable

#: the Italian names of the server's bots, by seat (``Bot Aldo (livello 3)`` at seat 1)
BOT_NAMES = ("Aldo", "Bice", "Carlo", "Dora", "Ezio", "Fede")


@lru_cache(maxsize=256)
def bot_label(position: int, bot: str, lang: str = "it") -> str:
    """How the server's bot ``bot`` (a registered name, :data:`risiko.agents.levels.LEVELS`)
    at seat ``position`` is called, in ``lang``: its Italian name by seat and its level
    (``Bot Aldo (livello 3)``, ``Bot Aldo (level 3)``); a bot with no level says its name."""
    name = BOT_NAMES[(position - 1) % len(BOT_NAMES)]
    level = level_of(bot)
    with translation.override(lang):
        if level is None:
            return gettext("Bot %(name)s (%(bot)s)") % {"name": name, "bot": bot}
        return gettext("Bot %(name)s (level %(level)s)") % {"name": name, "level": level}


class TableStatus(models.TextChoices):
    """Where a table is: ``lobby`` (seats being taken), ``playing``, ``paused`` (by the
    referee: no clock runs), ``over``. The stored values are these names."""

    LOBBY = "lobby", "lobby"
    PLAYING = "playing", "playing"
    PAUSED = "paused", "paused"
    OVER = "over", "over"


class TableKind(models.TextChoices):
    """A table for fun (``casual``) or of a tournament's evening (``tournament``)."""

    CASUAL = "casual", "casual"
    TOURNAMENT = "tournament", "tournament"


class SeatKind(models.TextChoices):
    """Who holds a seat: nobody yet (``open``), a ``member``, a ``guest``, a ``bot``."""

    OPEN = "open", "open"
    MEMBER = "member", "member"
    GUEST = "guest", "guest"
    BOT = "bot", "bot"


class EventKind(models.TextChoices):
    """Who made an event: a seat's ``action``, the ``referee``, the ``clock``, the
    ``system``."""

    ACTION = "action", "action"
    REFEREE = "referee", "referee"
    CLOCK = "clock", "clock"
    SYSTEM = "system", "system"


class DeadlineKind(models.TextChoices):
    """What a deadline does when due: the turn clock's warning and end (R11), a seat's
    grace period and absence limit (R13), a bot's move, the call of the last rounds (R2)."""

    TURN_WARNING = "turn_warning", "turn_warning"
    TURN_END = "turn_end", "turn_end"
    GRACE_END = "grace_end", "grace_end"
    ABSENCE_LIMIT = "absence_limit", "absence_limit"
    BOT = "bot", "bot"
    CALL = "call", "call"


class OnlineTable(models.Model):
    """One online game. ``settings``: ``clock_seconds`` (R11; 0 = off), ``warning_seconds``,
    ``grace_seconds``, ``absence_limit_seconds``, ``bot_for_absent``, ``call_round`` or
    ``call_at`` ("HH:MM", club time), ``bot_delay_ms``. ``seq``: the last event's number."""

    code = models.CharField(max_length=16, unique=True)
    #: the club the table belongs to (issue 21 item 1): a casual table the club whose lobby
    #: created it, a tournament's table its tournament's club
    club = models.ForeignKey("national.Club", on_delete=models.PROTECT,
                             related_name="online_tables", verbose_name=_("club"))
    name = models.CharField(max_length=80)
    ruleset = models.CharField(max_length=40, default="club-milano")
    seats = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=12, choices=TableKind.choices, default=TableKind.CASUAL)
    game_table = models.OneToOneField(
        GameTable, null=True, blank=True, on_delete=models.PROTECT, related_name="online"
    )
    settings = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=8, choices=TableStatus.choices, default=TableStatus.LOBBY)
    seq = models.PositiveIntegerField(default=0)
    snapshot = models.BinaryField(null=True, blank=True)
    snapshot_seq = models.PositiveIntegerField(default=0)
    snapshot_format = models.CharField(max_length=40, blank=True)
    seed = models.CharField(max_length=64)
    commitment = models.CharField(max_length=64)
    draws = models.PositiveIntegerField(default=0)
    skipped_draws = models.JSONField(default=list, blank=True)
    turn = models.PositiveIntegerField(default=0)
    clock_epoch = models.PositiveIntegerField(default=0)
    turn_deadline = models.DateTimeField(null=True, blank=True)
    paused_remaining_ms = models.IntegerField(null=True, blank=True)
    penalties = models.JSONField(default=list, blank=True)
    record = models.TextField(blank=True)
    created_by = models.CharField(max_length=80, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    #: not fields: the events written by the change in progress, whether the snapshot
    #: changed (a table row is saved without its snapshot otherwise), and the columns as
    #: read under the row's lock (``services.rows``: only those changed are written)
    new_events: list[TableEvent] | None = None
    snapshot_dirty: bool = False
    loaded_row: dict[str, Any] | None = None

    class Meta:
        verbose_name = _("online table")
        verbose_name_plural = _("online tables")
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"


class OnlineSeat(models.Model):
    """Seat ``position`` (1.., turn order) of a table: open, a member, a guest or a bot."""

    table = models.ForeignKey(OnlineTable, on_delete=models.CASCADE, related_name="seat_set")
    position = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=SeatKind.choices, default=SeatKind.OPEN)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
        related_name="online_seats",
    )
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="online_seats"
    )
    guest_name = models.CharField(max_length=80, blank=True)
    token_hash = models.CharField(max_length=64, blank=True)
    #: SHA-256 of the browser session that took the seat as a guest: one seat per browser
    #: session per table (a logged-in user's is ``user``)
    session_hash = models.CharField(max_length=64, blank=True)
    bot = models.CharField(max_length=16, blank=True)
    connections = models.IntegerField(default=0)
    #: the last time a worker holding a connection of this seat said it is alive: a seat
    #: whose connections all sat on a worker that died stops beating and is swept absent
    heartbeat = models.DateTimeField(null=True, blank=True)
    absent_since = models.DateTimeField(null=True, blank=True)
    absence_epoch = models.PositiveIntegerField(default=0)
    stand_in = models.BooleanField(default=False)
    r13_requested = models.BooleanField(default=False)
    joined = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("online seat")
        verbose_name_plural = _("online seats")
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="online_one_seat"),
            models.UniqueConstraint(
                fields=["table", "user"], condition=Q(user__isnull=False),
                name="online_one_seat_per_user",
            ),
            models.UniqueConstraint(
                fields=["token_hash"], condition=~Q(token_hash=""), name="online_one_token"
            ),
            models.UniqueConstraint(
                fields=["table", "session_hash"], condition=~Q(session_hash=""),
                name="online_one_seat_per_session",
            ),
        ]

    @property
    def name(self) -> str:
        """The name shown at the table (a member's from ``player_name`` when the query that
        read the seat joined it, else from his player record)."""
        if self.kind == "member":
            known = self.__dict__.get("player_name")
            if known is not None:
                return str(known)
            if self.player is not None:
                return self.player.name
        if self.kind == "guest":
            return self.guest_name
        if self.kind == "bot":  # its label in Italian, the club's language (a name: data)
            return bot_label(self.position, self.bot)
        return ""

    def __str__(self) -> str:
        return f"{self.table.code} seat {self.position}: {self.name or self.kind}"


class TableEvent(models.Model):
    """One change of a table's game: ``seq`` 1, 2, ... per table; ``text`` the record line
    (dice included; ``value`` the same for people); ``client_id`` the sender's message id
    (a message sent twice is applied once); ``draws`` the chance draws it used,
    ``[first, end)``."""

    table = models.ForeignKey(OnlineTable, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    actor = models.CharField(max_length=100)
    kind = models.CharField(max_length=8, choices=EventKind.choices)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    intention = models.JSONField(default=dict, blank=True)
    text = models.CharField(max_length=300)
    draws_from = models.PositiveIntegerField(default=0)
    draws_to = models.PositiveIntegerField(default=0)
    client_id = models.CharField(max_length=64, blank=True)
    undone = models.BooleanField(default=False)
    reason = models.CharField(max_length=300, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    #: the entry as a value, said in each viewer's language (:mod:`risiko.online.log`):
    #: ``{"code": "log.attack", "params": {...}}``; empty for entries written before it
    value = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = _("table event")
        verbose_name_plural = _("table events")
        ordering = ["table", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="online_one_event_per_seq"),
            models.UniqueConstraint(
                fields=["table", "actor", "client_id"], condition=~Q(client_id=""),
                name="online_message_once",
            ),
        ]


class Deadline(models.Model):
    """Something due at ``due``: fired once (``fired`` set in the transaction that applies
    it). ``guard``: the table's clock epoch (turn kinds), seq (bot), the seat's absence epoch
    (grace, absence); a guard that no longer matches makes the deadline stale."""

    table = models.ForeignKey(OnlineTable, on_delete=models.CASCADE, related_name="deadlines")
    kind = models.CharField(max_length=16, choices=DeadlineKind.choices)
    seat = models.PositiveSmallIntegerField(default=0)
    due = models.DateTimeField()
    guard = models.PositiveIntegerField(default=0)
    fired = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=40, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("deadline")
        verbose_name_plural = _("deadlines")
        ordering = ["due", "id"]
        indexes = [models.Index(fields=["fired", "due"], name="online_deadline_due")]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "kind", "seat", "guard"], name="online_one_deadline"
            ),
        ]


class SchedulerBeat(models.Model):
    """The schedulers' heartbeat (one row): a start after a long stop moves the deadlines."""

    beat = models.DateTimeField()

    class Meta:
        verbose_name = _("scheduler heartbeat")
        verbose_name_plural = _("scheduler heartbeats")


class Member(models.Model):
    """A member's account tied to his player record (an online result counts for him)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="member"
    )
    player = models.OneToOneField(Player, on_delete=models.PROTECT, related_name="member")
    invited_by = models.CharField(max_length=80, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user} = {self.player}"

    class Meta:
        verbose_name = _("member")
        verbose_name_plural = _("members")


class MemberInvite(models.Model):
    """A one-time invitation link from the committee (only its SHA-256 is stored)."""

    token_hash = models.CharField(max_length=64, unique=True)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="invites")
    created_by = models.CharField(max_length=80)
    created = models.DateTimeField(auto_now_add=True)
    used = models.DateTimeField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
        related_name="+",
    )

    class Meta:
        verbose_name = _("member invitation")
        verbose_name_plural = _("member invitations")


class ResultDecision(models.TextChoices):
    """The referee's choice between a table's two results: none yet (``""``), the
    ``online`` one, his own (``referee``)."""

    WAITING = "", "waiting"
    ONLINE = "online", "online"
    REFEREE = "referee", "referee"


class OnlineResult(models.Model):
    """An online tournament table's result that found the referee's result already entered
    for its table: it never replaces that one. The referee's result
    stands; this one waits here (``sheet``: the end board as ``risiko score`` reads it,
    ``abandoned``: the players who left, R13; ``beside``: the result it found) until the
    referee keeps one of the two, saying why: ``decision`` "" (waiting) | ``online`` (it
    became the table's result) | ``referee`` (his stays). One per online table."""

    table = models.OneToOneField(OnlineTable, on_delete=models.PROTECT,
                                 related_name="waiting_result")
    game_table = models.ForeignKey(GameTable, on_delete=models.PROTECT,
                                   related_name="online_results")
    beside = models.ForeignKey("results.TableResult", on_delete=models.PROTECT,
                               related_name="+")
    sheet = models.JSONField()
    abandoned = models.JSONField(default=list, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    decision = models.CharField(max_length=8, choices=ResultDecision.choices, blank=True)
    decided_by = models.CharField(max_length=150, blank=True)
    decided = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["game_table", "id"]
        verbose_name = _("online result waiting")
        verbose_name_plural = _("online results waiting")

    def __str__(self) -> str:
        return f"{self.game_table}: online {self.table.code} ({self.decision or 'waiting'})"
