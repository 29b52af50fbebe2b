"""Tables of an evening with their seats (turn order), results, penalties, appeals and
disciplinary records. Nothing is deleted: a correction adds a row and marks the previous one
``superseded`` (seats, results, appeals), a penalty or disciplinary record entered by mistake
is ``voided`` (:mod:`risiko.web.core.models`). Each model's constraint stands beside it."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

from risiko.web.core.choices import AppealOutcome, DisciplineLevel, PenaltyUnit
from risiko.web.core.models import SupersededRow, VoidedRow, one_current
from risiko.web.evenings.models import Evening
from risiko.web.players.models import Player


class GameTable(models.Model):
    """Table ``number`` (1-based) of an evening."""

    evening = models.ForeignKey(Evening, on_delete=models.PROTECT, related_name="tables")
    number = models.PositiveIntegerField()
    turn_clock = models.BooleanField(default=False)  # R11: the 3-minute limit switched on
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["evening", "number"]
        constraints = [
            models.UniqueConstraint(fields=["evening", "number"], name="one_table_number")
        ]

    def __str__(self) -> str:
        return f"{self.evening} tavolo {self.number}"


class Seat(SupersededRow):
    """A seat at a table: ``position`` 1.. is the turn order. A new seating plan or a swap
    supersedes the seats it changes (``reason``: why), so the history stays. A player sits
    at most once per evening (``evening`` is the table's), a position holds one player."""

    evening = models.ForeignKey(Evening, on_delete=models.PROTECT, related_name="seats")
    table = models.ForeignKey(GameTable, on_delete=models.PROTECT, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveIntegerField()
    reason = models.CharField(max_length=300, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "position"]
        constraints = [
            one_current("evening", "player", name="one_current_seat_per_player"),
            one_current("table", "position", name="one_current_seat_per_position"),
        ]

    def save(self, *args: Any, **kwargs: Any) -> None:
        """The seat's evening is its table's."""
        if self.table_id is not None and self.evening_id is None:
            self.evening_id = self.table.evening_id
        super().save(*args, **kwargs)


class TableResult(SupersededRow):
    """The result of a table: an end-of-game ``sheet`` (JSON of ``risiko score``) or direct
    ``scores`` (``{"Anna": 57, ...}``, with ``risiko`` the players who completed their
    objective); ``abandoned`` lists players who left (R13). The one row not ``superseded``
    is the result; a correction says why (``reason``).

    ``already_recorded`` (not a column) is True on the row the services return when the
    result sent was the current one's, so nothing was written."""

    #: set by the services on the current row when the same result is sent again
    already_recorded: bool = False

    table = models.ForeignKey(GameTable, on_delete=models.PROTECT, related_name="results")
    sheet = models.JSONField(null=True, blank=True)
    scores = models.JSONField(null=True, blank=True)
    risiko = models.JSONField(default=list, blank=True)
    abandoned = models.JSONField(default=list, blank=True)
    # the table's winners where the club breaks a tie at the table otherwise, and
    # the order of elimination (first out first) for the formulas that need it
    winners = models.JSONField(default=list, blank=True)
    eliminated = models.JSONField(default=list, blank=True)
    entered_by = models.CharField(max_length=150, blank=True)
    reason = models.CharField(max_length=300, blank=True)

    class Meta:
        verbose_name = _("table result")
        verbose_name_plural = _("table results")
        ordering = ["table", "id"]
        constraints = [one_current("table", name="one_current_result")]


class Penalty(VoidedRow):
    """A penalty (preamble, R5, R13): ``unit`` "table" (table points, on ``table``) or
    "ranking" (ranking points on the evening); ``points`` < 0."""

    evening = models.ForeignKey(Evening, on_delete=models.PROTECT, related_name="penalties")
    table = models.ForeignKey(
        GameTable, null=True, blank=True, on_delete=models.PROTECT, related_name="penalties"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="penalties")
    unit = models.CharField(max_length=8, choices=PenaltyUnit.choices)
    points = models.IntegerField()
    reason = models.CharField(max_length=300, blank=True)
    referee = models.CharField(max_length=80, blank=True)
    at = models.CharField(max_length=5, blank=True)

    class Meta:
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        ordering = ["evening", "id"]


class Appeal(SupersededRow):
    """An appeal on a penalty decided by the evening's chief referee: ``outcome`` upheld |
    reduced (to ``points``) | annulled. The one row not ``superseded`` counts."""

    penalty = models.ForeignKey(Penalty, on_delete=models.PROTECT, related_name="appeals")
    outcome = models.CharField(max_length=8, choices=AppealOutcome.choices)
    points = models.IntegerField(null=True, blank=True)
    referee = models.CharField(max_length=80, blank=True)
    reason = models.CharField(max_length=300, blank=True)

    class Meta:
        verbose_name = _("appeal")
        verbose_name_plural = _("appeals")
        ordering = ["penalty", "id"]
        constraints = [one_current("penalty", name="one_current_appeal")]


class Discipline(VoidedRow):
    """A disciplinary record (R10): warning, expulsion from the table, the tournament or the
    club; an expelled player is not seated again in that scope."""

    evening = models.ForeignKey(Evening, on_delete=models.PROTECT, related_name="discipline")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="discipline")
    level = models.CharField(max_length=12, choices=DisciplineLevel.choices)
    table_number = models.PositiveIntegerField(null=True, blank=True)
    reason = models.CharField(max_length=300, blank=True)
    referee = models.CharField(max_length=80, blank=True)

    class Meta:
        verbose_name = _("disciplinary record")
        verbose_name_plural = _("disciplinary records")
        ordering = ["evening", "id"]
