"""App config."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ToolsConfig(AppConfig):
    """The tools pages."""

    name = "risiko.web.tools"
    label = "tools"
    verbose_name = _("Referee tools")
