"""Players in the administration (committee only)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from risiko.names import search_key
from risiko.web.auditlog.admin import AuditedAdmin

from .models import Player


@admin.register(Player)
class PlayerAdmin(AuditedAdmin):
    list_display = ("name", "email", "member_since", "accepted_ruleset", "accepted_on",
                    "created")
    list_filter = ("accepted_ruleset", "member_since", "accepted_on")
    search_fields = ("name", "email")

    def get_search_results(self, request: HttpRequest, queryset: QuerySet[Any],
                           search_term: str) -> tuple[QuerySet[Any], bool]:
        """The admin's search, and the players whose name holds ``search_term`` by
        :func:`risiko.names.search_key` (``nicolo`` finds Nicolò, as the check-in does)."""
        found, duplicates = super().get_search_results(request, queryset, search_term)
        key = search_key(search_term)
        if key:
            ids = [pk for pk, name in queryset.values_list("pk", "name")
                   if key in search_key(name)]
            found = found | queryset.filter(pk__in=ids)
        return found, duplicates
