"""App config."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AuditlogConfig(AppConfig):
    """Audit log."""

    name = "risiko.web.auditlog"
    label = "auditlog"
    verbose_name = _("Audit log")
