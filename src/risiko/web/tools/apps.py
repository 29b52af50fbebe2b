"""App config."""

from django.apps import AppConfig


class ToolsConfig(AppConfig):
    """The tools pages."""

    name = "risiko.web.tools"
    label = "tools"
