"""Tables, seats, results, penalties, appeals and disciplinary records in the administration
(committee only)."""

from __future__ import annotations

from django.contrib import admin

from risiko.web.auditlog.admin import AuditedAdmin

from .models import Appeal, Discipline, GameTable, Penalty, Seat, TableResult


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Seat
    extra = 0
    ordering = ("position",)
    autocomplete_fields = ("player",)


@admin.register(GameTable)
class GameTableAdmin(AuditedAdmin):
    tournament_path = "evening.tournament"
    list_display = ("__str__", "evening", "number", "turn_clock", "created")
    list_filter = ("evening__tournament", "evening", "turn_clock")
    search_fields = ("evening__tournament__name", "seats__player__name")
    list_select_related = ("evening__tournament",)
    inlines = (SeatInline,)


@admin.register(Seat)
class SeatAdmin(AuditedAdmin):
    tournament_path = "table.evening.tournament"
    list_display = ("player", "table", "position")
    list_filter = ("table__evening__tournament", "table__evening")
    search_fields = ("player__name",)
    list_select_related = ("player", "table__evening__tournament")
    autocomplete_fields = ("player",)


@admin.register(TableResult)
class TableResultAdmin(AuditedAdmin):
    tournament_path = "table.evening.tournament"
    list_display = ("table", "kind", "scores", "risiko", "abandoned", "entered_by",
                    "superseded", "created")
    list_filter = ("table__evening__tournament", "table__evening", "superseded")
    search_fields = ("entered_by", "table__seats__player__name")
    list_select_related = ("table__evening__tournament",)

    @admin.display(description="kind")
    def kind(self, obj: TableResult) -> str:
        return "sheet" if obj.sheet is not None else "scores"


@admin.register(Penalty)
class PenaltyAdmin(AuditedAdmin):
    tournament_path = "evening.tournament"
    list_display = ("player", "points", "unit", "reason", "referee", "evening", "table",
                    "at", "voided", "created")
    list_filter = ("evening__tournament", "evening", "unit", "voided")
    search_fields = ("player__name", "reason", "referee")
    list_select_related = ("player", "evening__tournament", "table")
    autocomplete_fields = ("player",)


@admin.register(Appeal)
class AppealAdmin(AuditedAdmin):
    tournament_path = "penalty.evening.tournament"
    list_display = ("penalty", "outcome", "points", "referee", "reason", "superseded",
                    "created")
    list_filter = ("penalty__evening__tournament", "outcome", "superseded")
    search_fields = ("penalty__player__name", "referee", "reason")
    list_select_related = ("penalty__player", "penalty__evening__tournament")


@admin.register(Discipline)
class DisciplineAdmin(AuditedAdmin):
    tournament_path = "evening.tournament"
    list_display = ("player", "level", "table_number", "reason", "referee", "evening",
                    "voided", "created")
    list_filter = ("evening__tournament", "level", "voided")
    search_fields = ("player__name", "reason", "referee")
    list_select_related = ("player", "evening__tournament")
    autocomplete_fields = ("player",)
