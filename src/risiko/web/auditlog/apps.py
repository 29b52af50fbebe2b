"""App config."""

from django.apps import AppConfig


class AuditlogConfig(AppConfig):
    """Audit log."""

    name = "risiko.web.auditlog"
    label = "auditlog"
    verbose_name = "Registro modifiche"
