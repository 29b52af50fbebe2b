"""Club memberships in the administration (committee only, audit-logged): who is a referee
or in the committee of which club (issue 21 item 1)."""

from __future__ import annotations

from django.contrib import admin

from risiko.web.auditlog.admin import AuditedAdmin

from .models import ClubMembership


@admin.register(ClubMembership)
class ClubMembershipAdmin(AuditedAdmin):
    list_display = ("user", "club", "role")
    list_filter = ("role", "club")
    search_fields = ("user__username", "club__name", "club__key")
    autocomplete_fields = ("club",)
    raw_id_fields = ("user",)
