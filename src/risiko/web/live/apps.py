"""The live pages' app: registers the push after every committed write."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LiveConfig(AppConfig):
    """``risiko.web.live``: its hook in :data:`risiko.web.core.writes.AFTER_COMMIT`."""

    name = "risiko.web.live"
    label = "live"
    verbose_name = _("Live pages")

    def ready(self) -> None:
        from risiko.web.core.writes import AFTER_COMMIT

        from .hub import changed

        if changed not in AFTER_COMMIT:
            AFTER_COMMIT.append(changed)
