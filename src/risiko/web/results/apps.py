"""App config."""

from django.apps import AppConfig


class ResultsConfig(AppConfig):
    """Tables and results."""

    name = "risiko.web.results"
    label = "results"
    verbose_name = "Tavoli e risultati"
