"""What every app's write path shares.

- :class:`SupersededRow` and :class:`VoidedRow`: the two shapes of a *correction row*. Facts
  are never deleted: a correction adds a row and marks the one it replaces ``superseded``
  (arrivals, seats, results, appeals, carry-over, draws), a fact entered by mistake is
  ``voided`` (penalties, disciplinary records, closing dice events). Each shape has a
  ``current()`` query (``Arrival.objects.current()``, ``evening.arrivals.current()``): the
  rows that count. Each model declares beside it the database constraint that keeps "one
  current row per key" true whatever the requests do at the same moment.
- :class:`FormToken`: the one-time token of a console form (double submits are harmless).
- :class:`FirstAccount`: at most one first account (the first-run page).
"""

from __future__ import annotations

from typing import TypeVar

from django.db import models
from django.utils.translation import gettext_lazy as _

_M = TypeVar("_M", bound=models.Model)


class SupersededQuerySet(models.QuerySet[_M]):
    """Rows of a superseded shape: ``current()`` are those not superseded."""

    def current(self) -> SupersededQuerySet[_M]:
        """The rows that count (not superseded)."""
        return self.filter(superseded=False)


class VoidedQuerySet(models.QuerySet[_M]):
    """Rows of a voided shape: ``current()`` are those not voided."""

    def current(self) -> VoidedQuerySet[_M]:
        """The rows that count (not voided)."""
        return self.filter(voided=False)


class CorrectionRow(models.Model):
    """A recorded fact that is never deleted: when it was recorded (``created``)."""

    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True


class SupersededRow(CorrectionRow):
    """A fact corrected by a newer row: the old one is kept, ``superseded``."""

    superseded = models.BooleanField(default=False)

    objects = SupersededQuerySet.as_manager()

    class Meta:
        abstract = True


class VoidedRow(CorrectionRow):
    """A fact that may be ``voided`` (entered by mistake: kept, not counted)."""

    voided = models.BooleanField(default=False)

    objects = VoidedQuerySet.as_manager()

    class Meta:
        abstract = True


def one_current(*fields: str, name: str) -> models.UniqueConstraint:
    """The constraint "one current (not superseded) row per ``fields``", named ``name``."""
    return models.UniqueConstraint(
        fields=list(fields), condition=models.Q(superseded=False), name=name
    )


class FormToken(models.Model):
    """A one-time form token once used: the request that used it succeeded and wrote
    ``status``/``location``/``message`` (and ``body`` for an htmx fragment), so a second post
    of the same token answers with that outcome and writes nothing. Kept a day."""

    key = models.CharField(max_length=64, primary_key=True)
    used = models.DateTimeField(auto_now_add=True)
    who = models.CharField(max_length=150, blank=True)
    path = models.CharField(max_length=300, blank=True)
    status = models.PositiveSmallIntegerField(default=0)
    location = models.CharField(max_length=600, blank=True)
    message = models.CharField(max_length=600, blank=True)
    content_type = models.CharField(max_length=100, blank=True)
    body = models.TextField(blank=True)

    class Meta:
        verbose_name = _("form sent")
        verbose_name_plural = _("forms sent")
        ordering = ["-used"]

    def __str__(self) -> str:
        return f"{self.key[:8]}… {self.path} {self.status}"


class FirstAccount(models.Model):
    """The first account, created by the first-run page: ``slot`` is always 1, so a second
    one made at the same moment is refused by the database."""

    slot = models.PositiveSmallIntegerField(default=1, unique=True)
    username = models.CharField(max_length=150)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("first account")
        verbose_name_plural = _("first accounts")
        constraints = [
            models.CheckConstraint(condition=models.Q(slot=1), name="one_first_account"),
        ]

    def __str__(self) -> str:
        return self.username
