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

from django.core.validators import RegexValidator
from django.db import models

from risiko.national.categories import Category

CATEGORY_CHOICES = [(c.value, c.value) for c in Category]


class Club(models.Model):
    """A club of the national ranking."""

    key = models.CharField("identificativo", max_length=60, unique=True)
    name = models.CharField("nome", max_length=120)
    region = models.CharField("regione", max_length=40, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = "club"
        verbose_name_plural = "club"

    def __str__(self) -> str:
        return self.name


class NationalPlayer(models.Model):
    """A player of the national register."""

    national_id = models.PositiveIntegerField("ID nazionale", unique=True)
    name = models.CharField("nome", max_length=80)
    surname = models.CharField("cognome", max_length=80)
    birth_date = models.DateField("data di nascita", null=True, blank=True)

    class Meta:
        ordering = ["surname", "name", "national_id"]
        verbose_name = "giocatore nazionale"
        verbose_name_plural = "giocatori nazionali"

    def __str__(self) -> str:
        return f"{self.name} {self.surname} ({self.national_id})"


class Exclusion(models.Model):
    """A player out of the ranking: for ``years`` (comma-separated; empty with no
    ``start``: always) or disqualified from ``start`` to ``end`` (end empty: open)."""

    player = models.OneToOneField(NationalPlayer, on_delete=models.CASCADE,
                                  related_name="exclusion")
    years = models.CharField(
        "anni esclusi", max_length=200, blank=True,
        validators=[RegexValidator(r"^\s*(\d{4}\s*(,\s*\d{4}\s*)*)?$",
                                   "Anni separati da virgole: 2023, 2024")])
    start = models.DateField("inizio squalifica", null=True, blank=True)
    end = models.DateField("fine squalifica", null=True, blank=True)
    reason = models.CharField("motivazione", max_length=300, blank=True)

    class Meta:
        verbose_name = "esclusione"
        verbose_name_plural = "esclusioni"


class NationalTournament(models.Model):
    """A tournament reported by a club (the same club, name and first date: the same)."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField("nome", max_length=200)
    first_date = models.DateField("primo turno")
    year = models.PositiveSmallIntegerField("anno", db_index=True)
    current = models.PositiveIntegerField("revisione in vigore")

    class Meta:
        ordering = ["id"]
        verbose_name = "torneo nazionale"
        verbose_name_plural = "tornei nazionali"
        constraints = [models.UniqueConstraint(
            fields=["club", "name", "first_date"], name="national_tournament_once")]

    def __str__(self) -> str:
        return f"{self.first_date:%Y%m%d} - {self.club.key} - {self.name}"


class TournamentRevision(models.Model):
    """One report of a tournament, kept as it was received (canonical JSON)."""

    tournament = models.ForeignKey(NationalTournament, on_delete=models.CASCADE,
                                   related_name="revisions")
    number = models.PositiveIntegerField("revisione")
    report = models.JSONField()
    source = models.CharField("file", max_length=300, blank=True)
    by = models.CharField("da", max_length=150)
    received = models.DateTimeField("ricevuto", auto_now_add=True)
    category = models.CharField("tipologia", max_length=12, choices=CATEGORY_CHOICES)
    rounds = models.PositiveSmallIntegerField("turni previsti")
    last_date = models.DateField("ultimo turno")
    finished = models.BooleanField("concluso")
    tables = models.PositiveIntegerField("partite")
    has_standings = models.BooleanField("con classifica")

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = "revisione"
        verbose_name_plural = "revisioni"
        constraints = [models.UniqueConstraint(
            fields=["tournament", "number"], name="national_revision_once")]


class NationalResult(models.Model):
    """A named player's part in a revision."""

    revision = models.ForeignKey(TournamentRevision, on_delete=models.CASCADE,
                                 related_name="results")
    player = models.ForeignKey(NationalPlayer, on_delete=models.PROTECT,
                               related_name="results")
    name = models.CharField("nome nel torneo", max_length=170)
    club = models.CharField("club", max_length=120)
    games = models.PositiveSmallIntegerField("partite")
    wins = models.PositiveSmallIntegerField("vittorie")
    position = models.PositiveIntegerField("posizione", null=True, blank=True)

    class Meta:
        ordering = ["revision", "id"]
        verbose_name = "risultato"
        verbose_name_plural = "risultati"
        constraints = [models.UniqueConstraint(
            fields=["revision", "player"], name="national_result_once")]
