"""Models of the site foundation: the login limit's counters."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class LoginThrottle(models.Model):
    """Login attempts counted in a window (:mod:`risiko.web.site.ratelimit`): one row per
    username or client address, stored as ``user:<sha256>`` / ``address:<sha256>`` (never
    the text typed); ``attempts`` in the window that began at ``started``."""

    key = models.CharField(max_length=80, unique=True)
    attempts = models.PositiveIntegerField(default=0)
    started = models.DateTimeField()

    class Meta:
        verbose_name = _("login attempts")
        verbose_name_plural = _("login attempts")
        indexes = [models.Index(fields=["started"], name="site_loginthrottle_started")]

    def __str__(self) -> str:
        return f"{self.key[:16]}…: {self.attempts}"
