"""App config."""

from django.apps import AppConfig


class CoreConfig(AppConfig):
    """The write path's common parts: correction rows, one-time form tokens, the first
    account, service faults."""

    name = "risiko.web.core"
    label = "core"
    verbose_name = "Scritture"
