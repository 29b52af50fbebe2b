"""The national ranking's data: every tournament a club reported, each report kept.

- :class:`Club`: a club by its identifier on the national server (the report's ``club.id``)
  and its name as clubs write it ("MILANO [Club Milano]");
- :class:`NationalPlayer`: a player by national id (the register: name, surname, birth date);
- :class:`Exclusion`: a player's exclusion from the ranking (years, or a period of
  disqualification, and the reason): one per player, as RisiKoDataManager's blacklist reads
  one row per player;
- :class:`NationalTournament`: a tournament, the same one being the same club, name and
  first date (a database constraint); ``current`` is its revision in force, ``year`` that
  revision's year; its ``id`` is the order of publication (it decides between equal scores);
- :class:`TournamentRevision`: one report of the tournament, kept whole (``report``, the
  canonical ``risiko-report/1`` JSON) and never changed: a report of the same tournament
  again is a new revision (``number``, unique per tournament), so a player's history is never
  lost;
- :class:`NationalResult`: one named player's part in a revision (games, wins, position,
  the club he played for), what the ranking reads.

The list is not stored: :func:`risiko.web.national.services.ranking` recomputes it from
the current revisions.
"""

from __future__ import annotations

from datetime import date

from django.core.validators import RegexValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils.text import slugify
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from risiko.national.categories import Category

#: each category's name as people read it (GestioneTorneo's label in Italian); the stored
#: value is the category's (JSON and URLs use it)
CATEGORY_NAMES = {
    Category.RADUNO: _("National gathering"),
    Category.MASTER: _("Master tournament"),
    Category.OPEN: _("Open tournament"),
    Category.INTERCLUB: _("Interclub tournament"),
    Category.CAMPIONATO: _("Periodic championship"),
    Category.NAZIONALE: _("National championship"),
    Category.INVITI: _("Invitational tournament"),
    Category.SQUADRE: _("Team tournament"),
    Category.DUE_VS_DUE: _("2 vs 2 tournament"),
    Category.AMICHEVOLE: _("Friendly games"),
}
CATEGORY_CHOICES = [(c.value, CATEGORY_NAMES[c]) for c in Category]


#: the form of a new club's identifier: lowercase letters, digits and hyphens, a letter or
#: a digit at each end (``milano``, ``roma-2``)
CLUB_KEY_PATTERN = r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?"


class Club(models.Model):
    """A club: of the national ranking (``key``, the report's ``club.id``) and the owner of
    its tournaments, referees, committee and public pages on a server that serves several
    (issue 21 item 1; :mod:`risiko.web.clubs`).

    ``name`` as clubs write it ("MILANO [Club Milano]"); ``slug`` its URL name
    (``/c/<slug>/...``); ``official`` with the dates it was official from and until (an
    official club of the RCU; empty: open); ``is_default``: the club today's URLs (without
    ``/c/<slug>/``) serve, at most one (a database constraint).

    ``key`` is unique whatever its case (``ROMA`` is ``roma``: the constraint
    ``club_key_unique_folded``, on its lower case), except the clubs stored before that
    rule whose identifier differed from an earlier club's by case only (``key_case_twin``,
    marked by migration ``national 0008``: kept as they were, never made again). A new
    identifier (``national club add``) has the form :data:`CLUB_KEY_PATTERN` and is no other
    club's URL name (:func:`risiko.web.national.publishing.register_club`); identifiers
    stored before are left as they are.
    """

    key = models.CharField(_("identifier"), max_length=60, unique=True)
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("URL name"), max_length=60, unique=True)
    region = models.CharField(_("region"), max_length=40, blank=True)
    official = models.BooleanField(_("official club"), default=False)
    official_from = models.DateField(_("official from"), null=True, blank=True)
    official_to = models.DateField(_("official until"), null=True, blank=True)
    is_default = models.BooleanField(_("default club"), default=False)
    key_case_twin = models.BooleanField(default=False, editable=False)

    class Meta:
        ordering = ["name"]
        verbose_name = _("ranking club")
        verbose_name_plural = _("ranking clubs")
        constraints = [
            models.UniqueConstraint(Lower("key"), condition=models.Q(key_case_twin=False),
                                    name="club_key_unique_folded"),
            models.UniqueConstraint(fields=["is_default"], condition=models.Q(is_default=True),
                                    name="one_default_club"),
            models.CheckConstraint(
                condition=(models.Q(official_from__isnull=True)
                           | models.Q(official_to__isnull=True)
                           | models.Q(official_from__lte=models.F("official_to"))),
                name="club_official_dates_in_order"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: object, **kwargs: object) -> None:
        """A club registered without a URL name (a report's club) gets one from its
        identifier: ``"MILANO"`` -> ``milano`` (``milano-2`` when taken)."""
        if not self.slug:
            self.slug = free_club_slug(self.key or self.name)
        super().save(*args, **kwargs)  # type: ignore[arg-type]

    def is_official_on(self, day: date) -> bool:
        """Whether the club is official on ``day`` (its dates included; an empty date is
        open).

        >>> c = Club(official=True, official_from=date(2020, 1, 1), official_to=None)
        >>> c.is_official_on(date(2019, 12, 31)), c.is_official_on(date(2024, 5, 1))
        (False, True)
        """
        return bool(self.official
                    and (self.official_from is None or self.official_from <= day)
                    and (self.official_to is None or day <= self.official_to))


def free_club_slug(text: str) -> str:
    """A URL name for a new club from ``text`` (its identifier or name) that no club has,
    as URL name or as identifier (``--club`` names a club by either): ``slugify(text)``
    (``club`` when empty), then ``-2``, ``-3``... (60 characters at most)."""
    base = (slugify(text) or "club")[:52]
    slug, n = base, 2
    while (Club.objects.filter(slug=slug).exists()
           or Club.objects.filter(key__iexact=slug).exclude(key=text).exists()):
        slug = f"{base}-{n}"
        n += 1
    return slug


class NationalPlayer(models.Model):
    """A player of the national register."""

    national_id = models.PositiveIntegerField(_("national id"), unique=True)
    name = models.CharField(_("name"), max_length=80)
    surname = models.CharField(_("surname"), max_length=80)
    birth_date = models.DateField(_("birth date"), null=True, blank=True)

    class Meta:
        ordering = ["surname", "name", "national_id"]
        verbose_name = _("national player")
        verbose_name_plural = _("national players")

    def __str__(self) -> str:
        return f"{self.name} {self.surname} ({self.national_id})"


class Exclusion(models.Model):
    """A player out of the ranking: for ``years`` (comma-separated; empty with no
    ``start``: always) or disqualified from ``start`` to ``end`` (end empty: open)."""

    player = models.OneToOneField(NationalPlayer, on_delete=models.CASCADE,
                                  related_name="exclusion", verbose_name=_("national player"))
    years = models.CharField(
        _("excluded years"), max_length=200, blank=True,
        validators=[RegexValidator(r"^\s*(\d{4}\s*(,\s*\d{4}\s*)*)?$",
                                   _("Years separated by commas: 2023, 2024"))])
    start = models.DateField(_("disqualified from"), null=True, blank=True)
    end = models.DateField(_("disqualified until"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("exclusion")
        verbose_name_plural = _("exclusions")

    def __str__(self) -> str:
        return gettext("exclusion of %(player)s") % {"player": self.player}


class NationalTournament(models.Model):
    """A tournament reported by a club (the same club, name and first date: the same)."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments",
                             verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=200)
    first_date = models.DateField(_("first round"))
    year = models.PositiveSmallIntegerField(_("year"), db_index=True)
    current = models.PositiveIntegerField(_("revision in force"))

    class Meta:
        ordering = ["id"]
        verbose_name = _("national tournament")
        verbose_name_plural = _("national tournaments")
        constraints = [models.UniqueConstraint(
            fields=["club", "name", "first_date"], name="national_tournament_once")]

    def __str__(self) -> str:
        return f"{self.first_date:%Y%m%d} - {self.club.key} - {self.name}"


class RevisionStatus(models.TextChoices):
    """Where a report stands (the flow of :mod:`.publishing`): ``published`` by its club and
    waiting for the national officer, ``approved`` (it may be in force) or ``refused`` (with
    a reason; it never counts)."""

    PUBLISHED = "published", _("published, waiting for approval")
    APPROVED = "approved", _("approved")
    REFUSED = "refused", _("refused")


class TournamentRevision(models.Model):
    """One report of a tournament, kept as it was received (canonical JSON).

    ``status`` with its audit trail: ``by``/``received`` who published it and when,
    ``decided_by``/``decided_at`` who approved or refused it and when, ``reason`` why it was
    refused. ``club_revision`` is the revision number the club's server signed with (None
    for a report published or imported on this server): unique per tournament, and a report
    whose number is not above every number received for its tournament is refused (a replay
    or an older report). Only an approved revision is ever in force
    (``NationalTournament.current``; 0 while none is).
    """

    tournament = models.ForeignKey(NationalTournament, on_delete=models.CASCADE,
                                   related_name="revisions",
                                   verbose_name=_("national tournament"))
    number = models.PositiveIntegerField(_("revision"))
    report = models.JSONField(_("report"))
    source = models.CharField(_("file"), max_length=300, blank=True)
    by = models.CharField(_("sent by"), max_length=150)
    received = models.DateTimeField(_("received"), auto_now_add=True)
    category = models.CharField(_("category"), max_length=12, choices=CATEGORY_CHOICES)
    rounds = models.PositiveSmallIntegerField(_("planned rounds"))
    last_date = models.DateField(_("last round"))
    finished = models.BooleanField(_("finished"))
    tables = models.PositiveIntegerField(_("games"))
    has_standings = models.BooleanField(_("with standings"))
    status = models.CharField(_("status"), max_length=10, choices=RevisionStatus.choices,
                              default=RevisionStatus.PUBLISHED, db_index=True)
    club_revision = models.PositiveBigIntegerField(_("club's revision number"), null=True,
                                                   blank=True)
    decided_by = models.CharField(_("decided by"), max_length=150, blank=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    reason = models.CharField(_("reason for refusal"), max_length=500, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("tournament revision")
        verbose_name_plural = _("tournament revisions")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"],
                                    name="national_revision_once"),
            models.UniqueConstraint(fields=["tournament", "club_revision"],
                                    name="national_club_revision_once"),
        ]
        permissions = [
            ("approve_report", _("Can approve or refuse a club's report")),
            ("manage_club_keys", _("Can issue, rotate and revoke club keys")),
        ]

    def __str__(self) -> str:
        return gettext("%(tournament)s, revision %(number)s") % {
            "tournament": self.tournament, "number": self.number}


class ClubKey(models.Model):
    """A club's key for publishing over HTTPS (:mod:`.publishing`): ``key_id`` is public
    (the ``X-Risiko-Key`` header names it); the secret is never stored: it is derived from
    the server's ``RISIKO_CLUB_KEY_SECRET`` and the key id
    (:func:`risiko.web.national.publishing.club_secret`). One key in force per club (a
    constraint); rotating revokes it and issues a new one in one transaction."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="keys",
                             verbose_name=_("club"))
    key_id = models.CharField(_("key id"), max_length=40, unique=True)
    issued = models.DateTimeField(_("issued"), auto_now_add=True)
    issued_by = models.CharField(_("issued by"), max_length=150)
    revoked = models.DateTimeField(_("revoked"), null=True, blank=True)
    revoked_by = models.CharField(_("revoked by"), max_length=150, blank=True)

    class Meta:
        ordering = ["club", "-issued"]
        verbose_name = _("club key")
        verbose_name_plural = _("club keys")
        constraints = [models.UniqueConstraint(
            fields=["club"], condition=models.Q(revoked__isnull=True),
            name="national_one_key_in_force")]

    def __str__(self) -> str:
        return f"{self.club.key}: {self.key_id}"


class NationalResult(models.Model):
    """A named player's part in a revision."""

    revision = models.ForeignKey(TournamentRevision, on_delete=models.CASCADE,
                                 related_name="results",
                                 verbose_name=_("tournament revision"))
    player = models.ForeignKey(NationalPlayer, on_delete=models.PROTECT,
                               related_name="results", verbose_name=_("national player"))
    name = models.CharField(_("name in the tournament"), max_length=170)
    club = models.CharField(_("club"), max_length=120)
    games = models.PositiveSmallIntegerField(_("games"))
    wins = models.PositiveSmallIntegerField(_("wins"))
    position = models.PositiveIntegerField(_("position"), null=True, blank=True)

    class Meta:
        ordering = ["revision", "id"]
        verbose_name = _("national result")
        verbose_name_plural = _("national results")
        constraints = [models.UniqueConstraint(
            fields=["revision", "player"], name="national_result_once")]

    def __str__(self) -> str:
        return gettext("%(name)s in %(revision)s") % {"name": self.name,
                                                      "revision": self.revision}


# Interclub events and the register's care (issue 21 items 7 and 2): their own modules,
# registered with this app.
from .duplicates_models import DeclaredDifferent, MergedPlayer  # noqa: E402
from .interclub_models import (  # noqa: E402
    InterclubEvent,
    InterclubFielded,
    InterclubMember,
    InterclubRound,
    InterclubSeat,
    InterclubTeam,
)

__all__ = ["CATEGORY_CHOICES", "CATEGORY_NAMES", "Club", "DeclaredDifferent", "Exclusion",
           "InterclubEvent",
           "InterclubFielded", "InterclubMember", "InterclubRound", "InterclubSeat",
           "InterclubTeam", "MergedPlayer", "NationalPlayer", "NationalResult",
           "NationalTournament",
           "TournamentRevision"]
