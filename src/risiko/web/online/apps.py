"""Online tables: the club regulation played live in the browser (docs/online.md)."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OnlineConfig(AppConfig):
    """The ``risiko.web.online`` app (label ``online``)."""

    name = "risiko.web.online"
    label = "online"
    verbose_name = _("Online tables")
