"""An evening's penalties (table or ranking points), voiding one, appeals decided by the
chief referee, disciplinary records (R10)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from risiko.web import services
from risiko.web.core import choices
from risiko.web.core.tokens import once
from risiko.web.evenings.models import Evening
from risiko.web.results.models import Penalty
from risiko.web.selectors import current_appeal
from risiko.web.site.permissions import referee_required
from risiko.web.tournaments.models import Tournament

from ..common import evening_or_404, player_names, referee_name, refused, tournament_or_404, who
from ..forms import AppealForm, DisciplineForm, PenaltyForm, VoidForm, add_service_error


def _penalty_rows(e: Evening, void_forms: dict[int, VoidForm]) -> list[dict[str, Any]]:
    out = []
    for p in e.penalties.select_related("player", "table").order_by("id"):
        appeal = current_appeal(p)
        out.append({
            "penalty": p,
            "unit": choices.label(choices.PenaltyUnit, p.unit),
            "appeal": appeal,
            "outcome": choices.label(choices.AppealOutcome, appeal.outcome) if appeal else "",
            "void_form": void_forms.get(p.pk) or VoidForm(auto_id=f"v{p.pk}_%s"),
        })
    return out


def _penalties_page(request: HttpRequest, t: Tournament, e: Evening,
                    void_forms: dict[int, VoidForm] | None = None, **forms: Any
                    ) -> HttpResponse:
    players = player_names(t)
    me = referee_name(request)
    context: dict[str, Any] = {
        "t": t, "evening": e, "date": e.date.isoformat(), "tab": "penalties",
        "stage_label": choices.label(choices.Stage, e.stage),
        "rows": _penalty_rows(e, void_forms or {}),
        "discipline": [
            {"row": d, "level": choices.label(choices.DisciplineLevel, d.level)}
            for d in e.discipline.select_related("player").order_by("id")
        ],
        "penalty_form": PenaltyForm(players=players, initial={"referee": me}),
        "discipline_form": DisciplineForm(players=players, initial={"referee": me}),
    }
    context.update(forms)
    return render(request, "console/penalties.html", context)


@referee_required
def penalties(request: HttpRequest, slug: str, date: str) -> HttpResponse:
    """The evening's penalties with their appeals, and disciplinary records."""
    t = tournament_or_404(slug)
    return _penalties_page(request, t, evening_or_404(t, date))


@referee_required
@require_POST
@once
def add_penalty(request: HttpRequest, slug: str, date: str) -> HttpResponseBase:
    """A penalty: table points (on the player's table) or ranking points, with a reason."""
    t = tournament_or_404(slug)
    e = evening_or_404(t, date)
    form = PenaltyForm(request.POST, players=player_names(t))
    if form.is_valid():
        d = form.cleaned_data
        try:
            services.add_penalty(e, d["player"], d["points"], unit=d["unit"],
                                 reason=d["reason"], referee=d["referee"], at=d["at"],
                                 who=who(request))
        except services.ServiceError as err:
            add_service_error(form, err)
        else:
            messages.success(request, _("Penalty for %(player)s recorded.")
                             % {"player": d["player"]})
            return redirect("console_penalties", t.slug, date)
    return refused(request, _penalties_page(request, t, e, penalty_form=form))


def _penalty_or_404(e: Evening, pk: int) -> Penalty:
    return get_object_or_404(Penalty.objects.select_related("player"), pk=pk, evening=e)


@referee_required
@require_POST
@once
def void_penalty(request: HttpRequest, slug: str, date: str, pk: int) -> HttpResponseBase:
    """Void a penalty entered by mistake (kept, not counted)."""
    t = tournament_or_404(slug)
    e = evening_or_404(t, date)
    penalty = _penalty_or_404(e, pk)
    form = VoidForm(request.POST, auto_id=f"v{pk}_%s")
    if form.is_valid():
        try:
            services.void_penalty(penalty, reason=form.cleaned_data["reason"],
                                  who=who(request))
        except services.ServiceError as err:
            add_service_error(form, err)
        else:
            messages.success(request, _("Penalty voided."))
            return redirect("console_penalties", t.slug, date)
    return refused(request, _penalties_page(request, t, e, void_forms={penalty.pk: form}))


@referee_required
@require_http_methods(["GET", "POST"])
@once
def appeal(request: HttpRequest, slug: str, date: str, pk: int) -> HttpResponseBase:
    """The appeal on a penalty: upheld, reduced or annulled by the chief referee."""
    t = tournament_or_404(slug)
    e = evening_or_404(t, date)
    penalty = _penalty_or_404(e, pk)
    form = AppealForm(request.POST or None,
                      initial={"referee": e.chief_referee or referee_name(request)})
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            services.decide_appeal(penalty, d["outcome"], points=d["points"],
                                   referee=d["referee"], reason=d["reason"], who=who(request))
        except services.ServiceError as err:
            add_service_error(form, err)
        else:
            messages.success(request, _("Appeal of %(player)s: %(outcome)s.") % {
                "player": penalty.player.name,
                "outcome": choices.label(choices.AppealOutcome, d["outcome"])})
            return redirect("console_penalties", t.slug, date)
    history = [{"row": a, "outcome": choices.label(choices.AppealOutcome, a.outcome)}
               for a in penalty.appeals.order_by("-id")]
    return refused(request, render(request, "console/appeal.html", {
        "t": t, "evening": e, "date": e.date.isoformat(), "tab": "penalties",
        "stage_label": choices.label(choices.Stage, e.stage),
        "penalty": penalty, "unit": choices.label(choices.PenaltyUnit, penalty.unit),
        "form": form, "history": history,
    }))


@referee_required
@require_POST
@once
def add_discipline(request: HttpRequest, slug: str, date: str) -> HttpResponseBase:
    """A disciplinary record (R10): warning or expulsion."""
    t = tournament_or_404(slug)
    e = evening_or_404(t, date)
    form = DisciplineForm(request.POST, players=player_names(t))
    if form.is_valid():
        d = form.cleaned_data
        try:
            services.add_discipline(e, d["player"], d["level"], reason=d["reason"],
                                    referee=d["referee"], table_number=d["table_number"],
                                    who=who(request))
        except services.ServiceError as err:
            add_service_error(form, err)
        else:
            messages.success(request, _("Disciplinary record for %(player)s saved.")
                             % {"player": d["player"]})
            return redirect("console_penalties", t.slug, date)
    return refused(request, _penalties_page(request, t, e, discipline_form=form))
