"""A tournament: ruleset, format, entries, carry-over (R17) and draws of lots (R18)."""

from __future__ import annotations

from django.db import models

from risiko.web.core.models import SupersededRow, one_current
from risiko.web.players.models import Player


class Tournament(models.Model):
    """A tournament played under a ruleset (name and version) and a format.

    ``format`` is the JSON of :class:`risiko.tournament.format.TournamentFormat`
    (``{"name": "club-milano", ...}``); ``previous`` is the tournament it follows (R17).
    """

    name = models.CharField(max_length=120, unique=True)
    slug = models.SlugField(max_length=120, unique=True)
    ruleset_name = models.CharField(max_length=40, default="club-milano")
    ruleset_version = models.PositiveIntegerField(default=1)
    format = models.JSONField(default=dict)
    previous = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="next"
    )
    is_current = models.BooleanField(default=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player's membership of a tournament, in registration order."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    order = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="one_entry_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.tournament}"


class CarryOver(SupersededRow):
    """R17: points a new member keeps from the previous tournament, confirmed by a referee.
    A correction adds a row; the one row not ``superseded`` counts."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="carry_overs"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="carry_overs")
    points = models.IntegerField()
    referee = models.CharField(max_length=80, blank=True)
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["tournament", "player__name", "id"]
        constraints = [one_current("tournament", "player", name="one_current_carry_over")]


class Draw(SupersededRow):
    """A draw of lots ordering players who share a position straddling a cut (R18 reading):
    ``stage`` is the stage it seats; ``order`` the players' names as drawn, best first;
    ``players_key`` the tied players (their name keys, sorted, one per line). A new draw of
    the same players for the same stage supersedes the earlier one: one current draw per
    cut."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="draws")
    stage = models.CharField(max_length=12)
    order = models.JSONField(default=list)
    players_key = models.TextField(default="", blank=True)
    referee = models.CharField(max_length=80, blank=True)
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["tournament", "id"]
        constraints = [
            one_current("tournament", "stage", "players_key", name="one_current_draw_per_cut")
        ]
