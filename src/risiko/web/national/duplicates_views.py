"""The register's care page (the national officer's: the register is every club's; a club's
committee is refused): ``/nazionale/registro/``, Italian first.

It lists the possible duplicates (RisiKoDataManager's rule), each with the forms to merge
one into the other or to declare them different (a reason each), the pairs declared
different, the national ids merged, and the suspensions with the form to add or change one.
Every form is exactly-once (its one-time token); a refusal shows its faults in the reader's
language, nothing saved.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from ..core.faults import ServiceError
from ..core.tokens import once
from ..site.permissions import officer_required
from . import duplicates_services as svc
from .duplicates_models import DeclaredDifferent, MergedPlayer
from .models import Exclusion


class MergeForm(forms.Form):
    """Merge ``gone`` into ``kept``."""

    kept = forms.IntegerField(label=gettext_lazy("National id kept"), min_value=1)
    gone = forms.IntegerField(label=gettext_lazy("National id merged into it"), min_value=1)
    reason = forms.CharField(label=gettext_lazy("Why"), max_length=300)


class DifferentForm(forms.Form):
    """Declare two players different."""

    first = forms.IntegerField(label=gettext_lazy("National id"), min_value=1)
    second = forms.IntegerField(label=gettext_lazy("Other national id"), min_value=1)
    reason = forms.CharField(label=gettext_lazy("Why"), max_length=300)


class SuspendForm(forms.Form):
    """A suspension."""

    national_id = forms.IntegerField(label=gettext_lazy("National id"), min_value=1)
    start = forms.DateField(label=gettext_lazy("From"))
    end = forms.DateField(label=gettext_lazy("Until (empty: open)"), required=False)
    reason = forms.CharField(label=gettext_lazy("Why"), max_length=300)


_ACTIONS: dict[str, type[forms.Form]] = {
    "merge": MergeForm, "different": DifferentForm, "suspend": SuspendForm}


def _apply(action: str, d: dict[str, Any], who: str) -> str:
    if action == "merge":
        svc.merge_players(d["kept"], d["gone"], reason=d["reason"], who=who)
        return _("Players merged.")
    if action == "different":
        svc.declare_different(d["first"], d["second"], reason=d["reason"], who=who)
        return _("Declared different.")
    svc.suspend(d["national_id"], d["start"], d["end"], reason=d["reason"], who=who)
    return _("Suspension saved.")


@officer_required
@require_http_methods(["GET", "POST"])
@once
def register_care(request: HttpRequest) -> HttpResponseBase:
    """Possible duplicates, merges, pairs declared different, suspensions."""
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action not in _ACTIONS:
            raise Http404
        form = _ACTIONS[action](request.POST, prefix=action)
        if form.is_valid():
            try:
                said = _apply(action, form.cleaned_data,
                              str(request.user.get_username()) or "?")
            except ServiceError as err:
                for fault in err.faults:
                    messages.error(request, fault.message(get_language()))
            else:
                messages.success(request, said)
                return redirect("register_care")
        else:
            for field, errors in form.errors.items():
                label = form.fields[field].label if field in form.fields else ""
                for error in errors:
                    messages.error(request, f"{label}: {error}" if label else str(error))
    return render(request, "national/register/care.html", {
        "duplicates": svc.duplicates(),
        "different": DeclaredDifferent.objects.select_related("first", "second"),
        "merged": MergedPlayer.objects.select_related("into"),
        "suspensions": Exclusion.objects.filter(start__isnull=False).select_related("player"),
        "forms": {a: f(prefix=a) for a, f in _ACTIONS.items()},
    })
