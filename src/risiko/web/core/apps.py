"""App config."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    """The write path's common parts: correction rows, one-time form tokens, the first
    account, service faults."""

    name = "risiko.web.core"
    label = "core"
    verbose_name = _("Forms and first run")
