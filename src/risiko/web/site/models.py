"""Models of the site foundation: the login limit's counters, the clubs' memberships."""

from __future__ import annotations

from django.conf import settings
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


class ClubMembership(models.Model):
    """A person's role at a club (issue 21 item 1): ``referee`` or ``committee`` (a committee
    member is also a referee) of one :class:`~risiko.web.national.models.Club`; one row per
    user, club and role. A club's people act only on their club
    (:mod:`risiko.web.site.permissions`). The groups ``referee`` and ``committee`` stay the
    roles at the default club (a one-club server needs no membership)."""

    REFEREE = "referee"
    COMMITTEE = "committee"
    ROLES = [(REFEREE, _("referee")), (COMMITTEE, _("committee"))]

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="club_memberships", verbose_name=_("user"))
    club = models.ForeignKey("national.Club", on_delete=models.CASCADE,
                             related_name="memberships", verbose_name=_("club"))
    role = models.CharField(_("role"), max_length=12, choices=ROLES)

    class Meta:
        verbose_name = _("club membership")
        verbose_name_plural = _("club memberships")
        ordering = ["club", "role", "user"]
        constraints = [models.UniqueConstraint(fields=["user", "club", "role"],
                                               name="one_membership_per_role")]

    def __str__(self) -> str:
        return f"{self.user} · {self.club} · {self.role}"
