"""Pairs declared different and merged national ids in the administration: read only (they
change through the register's page, :mod:`.duplicates_views`, which audits)."""

from __future__ import annotations

from django.contrib import admin

from .admin import ReadOnly
from .duplicates_models import DeclaredDifferent, MergedPlayer


@admin.register(DeclaredDifferent)
class DeclaredDifferentAdmin(ReadOnly):
    list_display = ("first", "second", "reason", "by", "at")


@admin.register(MergedPlayer)
class MergedPlayerAdmin(ReadOnly):
    list_display = ("national_id", "name", "into", "reason", "by", "at")
