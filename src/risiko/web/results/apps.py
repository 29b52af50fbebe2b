"""App config."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ResultsConfig(AppConfig):
    """Tables and results."""

    name = "risiko.web.results"
    label = "results"
    verbose_name = _("Tables and results")
