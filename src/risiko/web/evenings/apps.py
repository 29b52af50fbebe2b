"""App config."""

from django.apps import AppConfig


class EveningsConfig(AppConfig):
    """Evenings."""

    name = "risiko.web.evenings"
    label = "evenings"
    verbose_name = "Serate"
