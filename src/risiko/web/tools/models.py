"""The closing dice of a table (R2): the events the referee records, never deleted.

The state (closing round, band, whose turn, who is in play, ended) is replayed from the
events that are not ``voided`` (:class:`risiko.closing.ClosingState`); "undo" voids the
latest event. Every event is also in the audit log.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from risiko.web.core.models import VoidedRow
from risiko.web.results.models import GameTable


class ClosingEvent(VoidedRow):
    """One event of a table's closing dice: ``kind`` roll | skip | widen | end | out | back;
    ``position`` the seat (turn order) concerned, ``player`` its name then; ``total`` the sum
    rolled; ``conquests`` the territories the seat conquered in that turn; ``closing_round``,
    ``band_low``/``band_high`` and ``closed`` as computed when recorded; ``reason`` the
    referee's (acceleration, end, skip)."""

    KINDS = [
        ("roll", "roll"),
        ("skip", "no roll"),
        ("widen", "band widened"),
        ("end", "game ended"),
        ("out", "out of play"),
        ("back", "back in play"),
    ]
    table = models.ForeignKey(GameTable, on_delete=models.PROTECT, related_name="closing_events")
    kind = models.CharField(max_length=8, choices=KINDS)
    position = models.PositiveIntegerField(null=True, blank=True)
    player = models.CharField(max_length=80, blank=True)
    total = models.PositiveSmallIntegerField(null=True, blank=True)
    conquests = models.PositiveSmallIntegerField(default=0)
    closing_round = models.PositiveIntegerField(default=1)
    band_low = models.PositiveSmallIntegerField(default=0)
    band_high = models.PositiveSmallIntegerField(default=0)
    closed = models.BooleanField(default=False)
    reason = models.CharField(max_length=300, blank=True)
    who = models.CharField(max_length=150, blank=True)

    class Meta:
        verbose_name = _("closing dice roll")
        verbose_name_plural = _("closing dice rolls")
        ordering = ["table", "id"]

    def __str__(self) -> str:
        return f"{self.table} {self.kind} {self.player} {self.total or ''}".strip()
