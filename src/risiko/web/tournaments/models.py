"""A tournament: ruleset, format, entries, carry-over (R17) and draws of lots (R18)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from risiko.names import clean_name
from risiko.ruleset import Ruleset, get_ruleset
from risiko.web.core.models import SupersededRow, one_current
from risiko.web.players.models import Player


class TournamentQuerySet(models.QuerySet["Tournament"]):
    """The reads of tournaments every page and command shares: ``Tournament.objects.current()``,
    ``.by_key("torneo-2027")``."""

    def newest_first(self) -> TournamentQuerySet:
        """Newest first (the later id first among tournaments created together)."""
        return self.order_by("-created", "-pk")

    def current(self) -> Tournament | None:
        """The newest tournament marked current, or None when none is."""
        return self.newest_first().filter(is_current=True).first()

    def current_or_newest(self) -> Tournament | None:
        """:meth:`current`; without one, the newest tournament (None when there is none)."""
        return self.current() or self.newest_first().first()

    def by_slug(self, slug: str) -> Tournament | None:
        """The tournament whose URL name is ``slug``, or None."""
        return self.filter(slug=slug).first()

    def by_key(self, key: str | int) -> Tournament | None:
        """A tournament by id, slug or name (as a referee types it: NFC, single spaces), or
        None: how the command line and the services name one."""
        text = str(key)
        found = None
        if isinstance(key, int) or (text.isascii() and text.isdigit() and len(text) < 19):
            found = self.filter(pk=int(key)).first()
        if found is None and "\x00" not in text:
            found = self.by_slug(text) or self.filter(name=clean_name(text)).first()
        return found


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

    objects = TournamentQuerySet.as_manager()

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.name

    @property
    def ruleset_label(self) -> str:
        """``name@version`` of the ruleset it is played under (``club-milano@2``)."""
        return f"{self.ruleset_name}@{self.ruleset_version}"

    @property
    def ruleset(self) -> Ruleset:
        """The ruleset preset it is played under (InvalidInputError when that name and
        version is not shipped)."""
        return get_ruleset(self.ruleset_label)


class Entry(models.Model):
    """A player's membership of a tournament, in registration order."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    order = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
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
        verbose_name = _("carry-over")
        verbose_name_plural = _("carry-overs")
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
        verbose_name = _("draw of lots")
        verbose_name_plural = _("draws of lots")
        ordering = ["tournament", "id"]
        constraints = [
            one_current("tournament", "stage", "players_key", name="one_current_draw_per_cut")
        ]
