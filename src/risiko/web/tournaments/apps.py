"""App config."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Tournaments."""

    name = "risiko.web.tournaments"
    label = "tournaments"
    verbose_name = "Tornei"
