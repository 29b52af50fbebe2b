"""App config."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PublicConfig(AppConfig):
    """The public pages."""

    name = "risiko.web.public"
    label = "public"
    verbose_name = _("Public pages")

    def ready(self) -> None:
        """Count the saves and deletes of the domain models (see ``data.change_key``)."""
        from django.apps import apps

        from .data import connect_signals

        connect_signals(
            m for label in ("players", "tournaments", "evenings", "results")
            for m in apps.get_app_config(label).get_models()
        )
