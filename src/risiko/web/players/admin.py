"""Players in the administration (committee only)."""

from __future__ import annotations

from django.contrib import admin

from risiko.web.auditlog.admin import AuditedAdmin

from .models import Player


@admin.register(Player)
class PlayerAdmin(AuditedAdmin):
    list_display = ("name", "email", "member_since", "accepted_ruleset", "accepted_on",
                    "created")
    list_filter = ("accepted_ruleset", "member_since", "accepted_on")
    search_fields = ("name", "email")
