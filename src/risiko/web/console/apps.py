"""App config."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ConsoleConfig(AppConfig):
    """The console pages."""

    name = "risiko.web.console"
    label = "console"
    verbose_name = _("Referee console")
