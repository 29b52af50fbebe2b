"""App config."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EveningsConfig(AppConfig):
    """Evenings."""

    name = "risiko.web.evenings"
    label = "evenings"
    verbose_name = _("Evenings")
