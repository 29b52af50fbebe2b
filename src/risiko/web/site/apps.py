"""App config: restricts the Django admin to the committee once the apps are ready."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SiteConfig(AppConfig):
    """Base layout, first run, login, permissions, regulation."""

    name = "risiko.web.site"
    label = "site"
    verbose_name = _("Site")

    def ready(self) -> None:
        from .permissions import restrict_admin_to_committee

        restrict_admin_to_committee()
