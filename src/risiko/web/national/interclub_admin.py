"""Interclub events in the administration: read only (they change through the console's
forms, :mod:`.interclub_views`, which check the rules, lock the event and audit)."""

from __future__ import annotations

from django.contrib import admin

from .admin import ReadOnly
from .interclub_models import InterclubEvent, InterclubMember, InterclubSeat, InterclubTeam


@admin.register(InterclubEvent)
class InterclubEventAdmin(ReadOnly):
    list_display = ("name", "year", "region", "rounds", "counted_games")
    list_filter = ("year",)


@admin.register(InterclubTeam)
class InterclubTeamAdmin(ReadOnly):
    list_display = ("name", "club", "event")
    list_filter = ("event",)


@admin.register(InterclubMember)
class InterclubMemberAdmin(ReadOnly):
    list_display = ("player", "team", "event")
    list_filter = ("event",)
    search_fields = ("player__surname", "=player__national_id")


@admin.register(InterclubSeat)
class InterclubSeatAdmin(ReadOnly):
    list_display = ("round", "table", "position", "member", "table_points", "risiko", "score")
    list_filter = ("round__event",)
