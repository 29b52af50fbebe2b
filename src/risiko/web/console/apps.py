"""App config."""

from django.apps import AppConfig


class ConsoleConfig(AppConfig):
    """The console pages."""

    name = "risiko.web.console"
    label = "console"
