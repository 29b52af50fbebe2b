"""One row per change made through the services (web, command line, import)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class AuditEntry(models.Model):
    """``who`` (username or referee name) did ``action`` on ``target`` (e.g.
    ``"results.TableResult:12"``) in ``tournament`` at ``when``; ``data`` holds the values
    entered and, for corrections, the values replaced; ``params`` the values of the one-line
    ``summary`` (player, time, class, table ...), from which the console says it in the
    reader's language (:mod:`risiko.web.console.audit_words`)."""

    when = models.DateTimeField(auto_now_add=True)
    who = models.CharField(max_length=150)
    action = models.CharField(max_length=60)
    tournament = models.CharField(max_length=120, blank=True)
    target = models.CharField(max_length=120, blank=True)
    summary = models.CharField(max_length=300, blank=True)
    data = models.JSONField(default=dict, blank=True)
    params = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")
        ordering = ["-when", "-id"]

    def __str__(self) -> str:
        return f"{self.when:%Y-%m-%d %H:%M} {self.who}: {self.action} {self.target}"
