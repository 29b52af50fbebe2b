"""A tournament: ruleset, format, entries, carry-over (R17) and draws of lots (R18)."""

from __future__ import annotations

from typing import Any

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


class TournamentManager(models.Manager["Tournament"]):
    """``Tournament.objects``: the tournaments of the club scope in force
    (:func:`risiko.web.clubs.scoped_club`: the request's club), every club's outside one;
    with :class:`TournamentQuerySet`'s reads."""

    def get_queryset(self) -> TournamentQuerySet:
        from risiko.web.clubs import scoped_club

        qs = TournamentQuerySet(self.model, using=self._db)
        scope = scoped_club()
        if scope is None:
            return qs
        if scope.club_id is None:  # the default club, not created yet: no tournament
            return qs.filter(club__is_default=True)
        return qs.filter(club_id=scope.club_id)

    def newest_first(self) -> TournamentQuerySet:
        """See :meth:`TournamentQuerySet.newest_first`."""
        return self.get_queryset().newest_first()

    def current(self) -> Tournament | None:
        """See :meth:`TournamentQuerySet.current`."""
        return self.get_queryset().current()

    def current_or_newest(self) -> Tournament | None:
        """See :meth:`TournamentQuerySet.current_or_newest`."""
        return self.get_queryset().current_or_newest()

    def by_slug(self, slug: str) -> Tournament | None:
        """See :meth:`TournamentQuerySet.by_slug`."""
        return self.get_queryset().by_slug(slug)

    def by_key(self, key: str | int) -> Tournament | None:
        """See :meth:`TournamentQuerySet.by_key`."""
        return self.get_queryset().by_key(key)


class Tournament(models.Model):
    """A tournament of a club played under a ruleset (name and version) and a format.

    ``format`` is the JSON of :class:`risiko.tournament.format.TournamentFormat`
    (``{"name": "club-milano", ...}``); ``previous`` is the tournament it follows (R17);
    ``club`` the club that owns it (a new one: the request's club, else the default club,
    :func:`risiko.web.clubs.club_for_new_row`). Name and slug are unique per club.
    ``Tournament.objects`` reads the request's club only; ``Tournament.all_clubs`` every club.
    """

    club = models.ForeignKey("national.Club", on_delete=models.PROTECT,
                             related_name="club_tournaments", verbose_name=_("club"))
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=120)
    ruleset_name = models.CharField(max_length=40, default="club-milano")
    ruleset_version = models.PositiveIntegerField(default=1)
    format = models.JSONField(default=dict)
    previous = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="next"
    )
    is_current = models.BooleanField(default=True)
    created = models.DateTimeField(auto_now_add=True)

    objects = TournamentManager()
    all_clubs = TournamentQuerySet.as_manager()

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-created"]
        base_manager_name = "all_clubs"
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="tournament_name_per_club"),
            models.UniqueConstraint(fields=["club", "slug"], name="tournament_slug_per_club"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        """A new tournament without a club gets the request's club, else the default one."""
        if self.club_id is None:
            from risiko.web.clubs import club_for_new_row

            self.club = club_for_new_row()
        super().save(*args, **kwargs)

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
