"""App config."""

from django.apps import AppConfig


class NationalConfig(AppConfig):
    """The national ranking."""

    name = "risiko.web.national"
    label = "national"
    verbose_name = "Ranking nazionale"
