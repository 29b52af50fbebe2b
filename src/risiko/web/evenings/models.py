"""An evening of a tournament and the arrivals recorded at it (R3)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from risiko.web.core.choices import Stage
from risiko.web.core.models import SupersededRow, one_current
from risiko.web.players.models import Player
from risiko.web.tournaments.models import Tournament


class Evening(models.Model):
    """An evening: ``date``, ``stage``, ``schedule`` (JSON of the R2/R3 times when they
    differ from the ruleset's: ``{"on_time_until": "21:10", ...}``), chief referee."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="evenings")
    date = models.DateField()
    stage = models.CharField(max_length=12, choices=Stage.choices, default="qualifying")
    schedule = models.JSONField(default=dict, blank=True)
    chief_referee = models.CharField(max_length=80, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("evening")
        verbose_name_plural = _("evenings")
        ordering = ["tournament", "date"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "date"], name="one_evening_per_date")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} {self.date} ({self.stage})"


class Arrival(SupersededRow):
    """A player's arrival (R3) as recorded: ``at`` "HH:MM" local time, phone notice flag.
    A correction adds a row and marks the old one ``superseded`` (``reason``: why it was
    corrected); nothing is deleted. One current arrival per player and evening."""

    evening = models.ForeignKey(Evening, on_delete=models.PROTECT, related_name="arrivals")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="arrivals")
    at = models.CharField(max_length=5)
    phoned = models.BooleanField(default=False)
    phoned_at = models.CharField(max_length=5, blank=True)
    recorded_by = models.CharField(max_length=150, blank=True)
    reason = models.CharField(max_length=300, blank=True)

    class Meta:
        verbose_name = _("arrival")
        verbose_name_plural = _("arrivals")
        ordering = ["evening", "at", "id"]
        constraints = [one_current("evening", "player", name="one_current_arrival")]
