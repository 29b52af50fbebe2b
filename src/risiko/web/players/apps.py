"""App config."""

from django.apps import AppConfig


class PlayersConfig(AppConfig):
    """Players."""

    name = "risiko.web.players"
    label = "players"
    verbose_name = "Giocatori"
