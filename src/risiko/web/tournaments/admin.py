"""Tournaments, entries, carry-over (R17) and draws of lots in the administration
(committee only)."""

from __future__ import annotations

from django.contrib import admin

from risiko.web.auditlog.admin import AuditedAdmin

from .models import CarryOver, Draw, Entry, Tournament


class EntryInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Entry
    extra = 0
    autocomplete_fields = ("player",)


@admin.register(Tournament)
class TournamentAdmin(AuditedAdmin):
    tournament_path = "self"
    list_display = ("name", "slug", "club", "ruleset_name", "ruleset_version", "is_current",
                    "previous", "created")
    list_filter = ("club", "is_current", "ruleset_name")
    readonly_fields = ("club",)  # a tournament stays in its club (a new one: the request's)
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    inlines = (EntryInline,)


@admin.register(Entry)
class EntryAdmin(AuditedAdmin):
    tournament_path = "tournament"
    list_display = ("player", "tournament", "order", "created")
    list_filter = ("tournament",)
    search_fields = ("player__name", "tournament__name")
    list_select_related = ("player", "tournament")
    autocomplete_fields = ("player",)


@admin.register(CarryOver)
class CarryOverAdmin(AuditedAdmin):
    tournament_path = "tournament"
    list_display = ("player", "tournament", "points", "referee", "note", "superseded",
                    "created")
    list_filter = ("tournament", "superseded")
    search_fields = ("player__name", "referee", "note")
    list_select_related = ("player", "tournament")
    autocomplete_fields = ("player",)


@admin.register(Draw)
class DrawAdmin(AuditedAdmin):
    tournament_path = "tournament"
    list_display = ("tournament", "stage", "order", "referee", "note", "superseded",
                    "created")
    list_filter = ("tournament", "stage", "superseded")
    search_fields = ("referee", "note", "tournament__name")
    list_select_related = ("tournament",)
