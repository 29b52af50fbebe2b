"""Evenings and arrivals (R3) in the administration (committee only)."""

from __future__ import annotations

from django.contrib import admin

from risiko.web.auditlog.admin import AuditedAdmin

from .models import Arrival, Evening


@admin.register(Evening)
class EveningAdmin(AuditedAdmin):
    tournament_path = "tournament"
    list_display = ("date", "tournament", "stage", "chief_referee", "created")
    list_filter = ("tournament", "stage")
    search_fields = ("tournament__name", "chief_referee")
    date_hierarchy = "date"
    list_select_related = ("tournament",)


@admin.register(Arrival)
class ArrivalAdmin(AuditedAdmin):
    tournament_path = "evening.tournament"
    list_display = ("player", "evening", "at", "phoned", "phoned_at", "recorded_by",
                    "superseded", "created")
    list_filter = ("evening__tournament", "evening", "phoned", "superseded")
    search_fields = ("player__name", "recorded_by")
    list_select_related = ("player", "evening__tournament")
    autocomplete_fields = ("player",)
