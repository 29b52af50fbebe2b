"""A player is a person, known by a unique name across tournaments."""

from __future__ import annotations

from django.db import models


class Player(models.Model):
    """A club member or guest. ``accepted_ruleset`` (``name@version``) and ``accepted_on``
    record which regulation he accepted and when (closing line of the regulation)."""

    name = models.CharField(max_length=80, unique=True)
    email = models.EmailField(blank=True)
    member_since = models.DateField(null=True, blank=True)
    accepted_ruleset = models.CharField(max_length=40, blank=True)
    accepted_on = models.DateField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name
