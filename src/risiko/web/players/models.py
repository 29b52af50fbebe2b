"""A player is a person, known by a unique name across tournaments."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from risiko.names import name_key


class Player(models.Model):
    """A club member or guest, known by ``name`` (Unicode NFC, single spaces) and by ``key``
    (:func:`risiko.names.name_key`: NFC + case folding; unique, so ``Luè``, ``LUÈ`` and
    ``Lue`` with a combining accent are one player, in every tournament). ``key`` follows
    ``name`` on save (code that bulk-creates players sets it with ``name_key``).
    ``accepted_ruleset`` (``name@version``) and ``accepted_on`` record which regulation he
    accepted and when (closing line of the regulation)."""

    name = models.CharField(max_length=80, unique=True)
    key = models.CharField(max_length=255, unique=True, editable=False)
    email = models.EmailField(blank=True)
    member_since = models.DateField(null=True, blank=True)
    accepted_ruleset = models.CharField(max_length=40, blank=True)
    accepted_on = models.DateField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name"]

    def clean(self) -> None:
        """Refuse a name that is another player's written differently (the admin's forms)."""
        twin = Player.objects.filter(key=name_key(self.name)).exclude(pk=self.pk).first()
        if twin is not None:
            raise ValidationError({"name": f"{twin.name!r} is the same name"})

    def save(self, *args: Any, **kwargs: Any) -> None:
        """The key follows the name."""
        self.key = name_key(self.name)
        super().save(*args, **kwargs)

    def __str__(self) -> str:
        return self.name
