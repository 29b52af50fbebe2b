"""The closing dice events in the administration (committee only, audited)."""

from __future__ import annotations

from django.contrib import admin

from risiko.web.auditlog.admin import AuditedAdmin

from .models import ClosingEvent


@admin.register(ClosingEvent)
class ClosingEventAdmin(AuditedAdmin):
    """Closing dice events: by table, kind, voided; search by player and reason. Changes
    made here are written to the audit log."""

    tournament_path = "table.evening.tournament"
    list_display = ("created", "table", "kind", "player", "total", "conquests",
                    "closing_round", "closed", "voided", "who")
    list_filter = ("kind", "closed", "voided", "table__evening__tournament")
    search_fields = ("player", "reason", "who")
    date_hierarchy = "created"
