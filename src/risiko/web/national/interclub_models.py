"""Interclub events in the database (issue 21 item 7; the rules:
:mod:`risiko.national.interclub`).

- :class:`InterclubEvent`: the national team championship of a year, or a regional one
  (``region``: only teams of that region's clubs);
- :class:`InterclubTeam`: a club's team at an event (one per club and event:
  ``interclub_team_once``);
- :class:`InterclubMember`: a player of a team's roster (4 to 12, checked by the service);
  a player is in one team per event (``interclub_player_once``, on the event itself);
- :class:`InterclubRound`: a round of an event (``interclub_round_once``);
- :class:`InterclubFielded`: a member fielded in a round (4 per team; one row per member
  and round: ``interclub_fielded_once``);
- :class:`InterclubSeat`: a fielded player at a table of a round, with his result
  (``table_points``, ``risiko``, ``score`` = placement points + table points / 100);
  one seat per player and round (``interclub_seat_once``) and per place
  (``interclub_place_once``).

The models are imported by :mod:`.models` (Django's place for them); their words are
Italian and English like the app's.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class InterclubEvent(models.Model):
    """An interclub event: ``rounds`` planned, a team's ``counted_games`` best games make
    its total; ``region`` empty: the national championship; ``club`` the club that
    organises it (hosts it): its committee runs the event, its referees record the results,
    the national officer runs any (:mod:`.interclub_views`)."""

    name = models.CharField(_("name"), max_length=200)
    year = models.PositiveSmallIntegerField(_("year"))
    region = models.CharField(_("region"), max_length=40, blank=True,
                              help_text=_("Empty: the national championship; a region: "
                                          "only teams of its clubs."))
    rounds = models.PositiveSmallIntegerField(_("planned rounds"), default=3)
    counted_games = models.PositiveSmallIntegerField(_("games counted per team"), default=9)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    club = models.ForeignKey("national.Club", on_delete=models.PROTECT,
                             related_name="interclub_events",
                             verbose_name=_("organising club"))

    class Meta:
        ordering = ["-year", "name"]
        verbose_name = _("interclub event")
        verbose_name_plural = _("interclub events")
        constraints = [models.UniqueConstraint(fields=["name", "year"],
                                               name="interclub_event_once")]

    def __str__(self) -> str:
        return f"{self.name} {self.year}"


class InterclubTeam(models.Model):
    """A club's team at an event."""

    event = models.ForeignKey(InterclubEvent, on_delete=models.CASCADE, related_name="teams",
                              verbose_name=_("interclub event"))
    club = models.ForeignKey("national.Club", on_delete=models.PROTECT,
                             related_name="interclub_teams", verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=120)

    class Meta:
        ordering = ["event", "name"]
        verbose_name = _("interclub team")
        verbose_name_plural = _("interclub teams")
        constraints = [models.UniqueConstraint(fields=["event", "club"],
                                               name="interclub_team_once")]

    def __str__(self) -> str:
        return self.name


class InterclubMember(models.Model):
    """A player of a team's roster (the event repeated: one team per player and event)."""

    event = models.ForeignKey(InterclubEvent, on_delete=models.CASCADE, related_name="members",
                              verbose_name=_("interclub event"))
    team = models.ForeignKey(InterclubTeam, on_delete=models.CASCADE, related_name="members",
                             verbose_name=_("interclub team"))
    player = models.ForeignKey("national.NationalPlayer", on_delete=models.PROTECT,
                               related_name="interclub_memberships",
                               verbose_name=_("national player"))

    class Meta:
        ordering = ["team", "player__surname", "player__name"]
        verbose_name = _("roster member")
        verbose_name_plural = _("roster members")
        constraints = [models.UniqueConstraint(fields=["event", "player"],
                                               name="interclub_player_once")]

    def __str__(self) -> str:
        return gettext("%(player)s for %(team)s") % {"player": self.player, "team": self.team}


class InterclubRound(models.Model):
    """A round of an event, seated once (``seed``: the draw's seed, kept to explain it)."""

    event = models.ForeignKey(InterclubEvent, on_delete=models.CASCADE, related_name="event_rounds",
                              verbose_name=_("interclub event"))
    number = models.PositiveSmallIntegerField(_("round"))
    seed = models.BigIntegerField(_("draw seed"), default=0)

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("interclub round")
        verbose_name_plural = _("interclub rounds")
        constraints = [models.UniqueConstraint(fields=["event", "number"],
                                               name="interclub_round_once")]

    def __str__(self) -> str:
        return gettext("%(event)s, round %(number)s") % {"event": self.event,
                                                         "number": self.number}


class InterclubFielded(models.Model):
    """A member fielded by his team in a round."""

    round = models.ForeignKey(InterclubRound, on_delete=models.CASCADE, related_name="fielded",
                              verbose_name=_("interclub round"))
    member = models.ForeignKey(InterclubMember, on_delete=models.CASCADE,
                               related_name="fielded", verbose_name=_("roster member"))

    class Meta:
        ordering = ["round", "member"]
        verbose_name = _("fielded player")
        verbose_name_plural = _("fielded players")
        constraints = [models.UniqueConstraint(fields=["round", "member"],
                                               name="interclub_fielded_once")]

    def __str__(self) -> str:
        return f"{self.member} ({self.round})"


class InterclubSeat(models.Model):
    """A fielded player at a table of a round, and his game's result."""

    round = models.ForeignKey(InterclubRound, on_delete=models.CASCADE, related_name="seats",
                              verbose_name=_("interclub round"))
    member = models.ForeignKey(InterclubMember, on_delete=models.PROTECT, related_name="seats",
                               verbose_name=_("roster member"))
    table = models.PositiveSmallIntegerField(_("table"))
    position = models.PositiveSmallIntegerField(_("seat"))
    table_points = models.SmallIntegerField(_("table points"), null=True, blank=True)
    risiko = models.BooleanField(_("RisiKo!"), default=False)
    score = models.DecimalField(_("score"), max_digits=6, decimal_places=2, null=True,
                                blank=True)
    won = models.BooleanField(_("first at the table"), default=False)

    class Meta:
        ordering = ["round", "table", "position"]
        verbose_name = _("interclub seat")
        verbose_name_plural = _("interclub seats")
        constraints = [
            models.UniqueConstraint(fields=["round", "member"], name="interclub_seat_once"),
            models.UniqueConstraint(fields=["round", "table", "position"],
                                    name="interclub_place_once"),
        ]

    def __str__(self) -> str:
        return gettext("%(member)s, table %(table)s") % {"member": self.member,
                                                         "table": self.table}
