"""App config."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NationalConfig(AppConfig):
    """The national ranking."""

    name = "risiko.web.national"
    label = "national"
    verbose_name = _("National ranking")
