"""The audit log in the administration (read only), and :class:`AuditedAdmin`, the base of
every other model's admin: a change made in the administration is written to the audit log
too (who, what, the fields changed), like a change made through the services."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Model
from django.forms import ModelForm
from django.http import HttpRequest

from .models import AuditEntry


def _tournament_of(obj: Model, path: str) -> Any:
    """Follow ``path`` (``"evening.tournament"``; ``"self"``: ``obj`` itself) from ``obj``;
    None if it breaks."""
    if not path:
        return None
    if path == "self":
        return obj
    value: Any = obj
    for name in path.split("."):
        value = getattr(value, name, None)
        if value is None:
            return None
    return value


def _label(obj: Model) -> str:
    return f"{obj._meta.label}:{obj.pk}"


class AuditedAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """A ModelAdmin whose saves and deletions are written to the audit log (action
    ``admin add`` / ``admin change`` / ``admin delete``). ``tournament_path`` names the
    attribute path from the object to its tournament (``"self"``: a tournament; ``""``:
    none)."""

    tournament_path = ""

    def _audit(self, request: HttpRequest, action: str, obj: Model, summary: str,
               data: dict[str, Any] | None = None) -> None:
        t = _tournament_of(obj, self.tournament_path)
        AuditEntry.objects.create(
            who=str(request.user.get_username()) or "?", action=action,
            tournament=str(getattr(t, "name", "")) if t is not None else "",
            target=_label(obj), summary=summary[:300], data=data or {},
        )

    def save_model(self, request: HttpRequest, obj: Any, form: ModelForm[Any],
                   change: bool) -> None:
        super().save_model(request, obj, form, change)
        changed = list(form.changed_data)
        values = {name: str(form.cleaned_data.get(name)) for name in changed}
        self._audit(request, "admin change" if change else "admin add", obj,
                    f"{obj}: {', '.join(changed) or 'no field changed'}",
                    {"changed": values})

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        label = str(obj)
        t = _tournament_of(obj, self.tournament_path)
        target = _label(obj)
        super().delete_model(request, obj)
        AuditEntry.objects.create(
            who=str(request.user.get_username()) or "?", action="admin delete",
            tournament=str(getattr(t, "name", "")) if t is not None else "",
            target=target, summary=label[:300],
        )

    def delete_queryset(self, request: HttpRequest, queryset: Any) -> None:
        for obj in list(queryset):
            self.delete_model(request, obj)


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Read only: the log is written by the services and the administration."""

    list_display = ("when", "who", "action", "tournament", "target", "summary")
    list_filter = ("action", "tournament", "who")
    search_fields = ("who", "action", "summary", "target", "tournament")
    date_hierarchy = "when"
    readonly_fields = ("when", "who", "action", "tournament", "target", "summary", "data")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
