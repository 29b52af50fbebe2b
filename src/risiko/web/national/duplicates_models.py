"""The register's care (issue 21 item 2): pairs declared different, players merged.

- :class:`DeclaredDifferent`: two players the national officer declared different people
  (RisiKoDataManager's ``FALSE_POSITIVE`` sheet): never listed again as possible
  duplicates; one row per pair, the lower national id first (``declared_different_once``,
  ``declared_different_order``);
- :class:`MergedPlayer`: a national id merged into another player: a report naming the old
  id again counts for the player kept (one row per old id: its ``national_id`` is unique).

Suspensions are :class:`~.models.Exclusion` rows (from, until, reason).
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class DeclaredDifferent(models.Model):
    """Two players declared different people."""

    first = models.ForeignKey("national.NationalPlayer", on_delete=models.CASCADE,
                              related_name="+", verbose_name=_("first player"))
    second = models.ForeignKey("national.NationalPlayer", on_delete=models.CASCADE,
                               related_name="+", verbose_name=_("second player"))
    reason = models.CharField(_("reason"), max_length=300)
    by = models.CharField(_("declared by"), max_length=150)
    at = models.DateTimeField(_("declared"), auto_now_add=True)

    class Meta:
        ordering = ["first", "second"]
        verbose_name = _("pair declared different")
        verbose_name_plural = _("pairs declared different")
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="declared_different_once"),
            models.CheckConstraint(condition=Q(first__lt=F("second")),
                                   name="declared_different_order"),
        ]

    def __str__(self) -> str:
        return gettext("%(first)s is not %(second)s") % {"first": self.first,
                                                        "second": self.second}


class MergedPlayer(models.Model):
    """A national id merged into the player ``into``."""

    national_id = models.PositiveIntegerField(_("national id merged"), unique=True)
    into = models.ForeignKey("national.NationalPlayer", on_delete=models.CASCADE,
                             related_name="merged_ids", verbose_name=_("player kept"))
    name = models.CharField(_("name"), max_length=170)
    reason = models.CharField(_("reason"), max_length=300)
    by = models.CharField(_("merged by"), max_length=150)
    at = models.DateTimeField(_("merged"), auto_now_add=True)

    class Meta:
        ordering = ["national_id"]
        verbose_name = _("merged national id")
        verbose_name_plural = _("merged national ids")

    def __str__(self) -> str:
        return gettext("%(national_id)s merged into %(into)s") % {
            "national_id": self.national_id, "into": self.into}
