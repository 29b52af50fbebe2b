"""The national ranking in the administration: clubs, the register and its exclusions are
edited here (audit-logged, :class:`~risiko.web.auditlog.admin.AuditedAdmin`); tournaments and
their revisions are read only (they change only by an import or the publish flow, each
report kept, with its status and who decided it); club keys are read only (issued by the
officer's command, the secret shown once)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import get_language

from risiko.web.auditlog.admin import AuditedAdmin

from .models import (
    Club,
    ClubKey,
    Exclusion,
    NationalPlayer,
    NationalTournament,
    TournamentRevision,
)


class ClubForm(forms.ModelForm):  # type: ignore[type-arg]
    """A club added or changed in the admin meets the register's rules
    (:func:`risiko.web.national.publishing.check_club_change`): the refusal in the page's
    language, on the form."""

    class Meta:
        model = Club
        fields = "__all__"

    def clean(self) -> dict[str, Any]:
        from risiko.faults import RisikoError

        from .publishing import check_club_change

        data = super().clean() or {}
        key, slug = str(data.get("key") or ""), str(data.get("slug") or "")
        if key and slug:
            try:
                check_club_change(key, slug, pk=self.instance.pk,
                                  key_changed=self.instance.pk is None
                                  or "key" in self.changed_data)
            except RisikoError as e:
                lang = "en" if (get_language() or "it").startswith("en") else "it"
                raise forms.ValidationError([f.message(lang) for f in e.faults]) from None
        return data


@admin.register(Club)
class ClubAdmin(AuditedAdmin):
    form = ClubForm
    list_display = ("name", "key", "slug", "region", "official", "official_from", "official_to",
                    "is_default")
    list_filter = ("official", "region")
    search_fields = ("name", "key", "slug")


class ExclusionInline(admin.StackedInline):  # type: ignore[type-arg]
    model = Exclusion
    extra = 0


@admin.register(NationalPlayer)
class NationalPlayerAdmin(AuditedAdmin):
    list_display = ("national_id", "surname", "name", "birth_date")
    search_fields = ("surname", "name", "=national_id")
    inlines = [ExclusionInline]


@admin.register(Exclusion)
class ExclusionAdmin(AuditedAdmin):
    list_display = ("player", "years", "start", "end", "reason")
    search_fields = ("player__surname", "player__name", "=player__national_id")
    autocomplete_fields = ("player",)


class ReadOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    """Seen, never changed here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class RevisionInline(admin.TabularInline):  # type: ignore[type-arg]
    model = TournamentRevision
    fields = ("number", "status", "received", "by", "decided_by", "decided_at", "reason",
              "club_revision", "source", "category", "rounds", "last_date", "finished",
              "tables")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(NationalTournament)
class NationalTournamentAdmin(ReadOnly):
    list_display = ("name", "club", "first_date", "year", "current")
    list_filter = ("year", "club")
    search_fields = ("name", "club__name")
    inlines = [RevisionInline]


@admin.register(ClubKey)
class ClubKeyAdmin(ReadOnly):
    """Club keys are seen here; they are issued, rotated and revoked by the national officer
    with ``risiko national key`` (the secret is shown once, never stored)."""

    list_display = ("club", "key_id", "issued", "issued_by", "revoked", "revoked_by")
    list_filter = ("club",)


from . import duplicates_admin, interclub_admin  # noqa: E402,F401  (their own modules)
