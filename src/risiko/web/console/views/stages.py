"""Semifinal and final (R18): the ranking, what is pending, draws of lots for ties across a
cut, seating a stage from the ranking, the final standings."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from risiko.web import services
from risiko.web.core import choices
from risiko.web.core.tokens import once
from risiko.web.public import data
from risiko.web.site.permissions import referee_required
from risiko.web.tournaments.models import Draw, Tournament

from ..common import (
    next_free_date,
    player_names,
    referee_name,
    refused,
    tables_of,
    tournament_or_404,
    who,
)
from ..forms import DrawForm, StageForm, add_service_error, today

#: the codes of a shared position across a cut, waiting for a draw of lots (R18 reading)
TIE_CODES = ("stage.shared_place_qualifying", "stage.shared_place_ripescato",
             "stage.shared_place_after_semifinal", "stage.table_winners_tie")


def pending_ties(pending: list[dict[str, Any]], players: list[str]) -> list[dict[str, Any]]:
    """The ties across a cut waiting for a draw of lots: the season report's ``faults``
    (values) whose code says so, with the stage the draw seats and the tied players."""
    known = set(players)
    out = []
    for fault in pending:
        if fault["code"] not in TIE_CODES:
            continue
        names = list(fault["params"].get("players", ()))
        if names and all(n in known for n in names):
            stage = fault["params"].get("cut") or fault["subjects"].get("stage", "final")
            out.append({"reason": fault, "stage": stage, "players": names})
    return out


def _stages_page(request: HttpRequest, t: Tournament, **forms: Any) -> HttpResponse:
    snap = data.snapshot(t, fresh=True)  # computed once per change, shared with the public pages
    report = snap.season
    players = player_names(t)
    me = referee_name(request)
    ties = pending_ties(report["faults"], players)
    for i, tie in enumerate(ties):
        tie["form"] = forms.pop(f"tie_{i}", None) or DrawForm(
            initial={"stage": tie["stage"], "order": "\n".join(tie["players"]), "referee": me},
            auto_id=f"d{i}_%s",
        )
    stage_evenings = list(t.evenings.exclude(stage="qualifying").order_by("date"))
    taken = {e.stage for e in stage_evenings}
    context: dict[str, Any] = {
        "t": t, "tab": "stages", "snap": snap, "report": report, "faults": snap.faults,
        "ties": ties,
        "stage_evenings": [
            {"evening": e, "label": choices.label(choices.Stage, e.stage),
             "tables": tables_of(e)} for e in stage_evenings
        ],
        "draws": Draw.objects.filter(tournament=t).order_by("id"),
        "stage_form": StageForm(initial={
            "stage": "final" if "semifinal" in taken else "semifinal",
            "date": next_free_date(t, today(), after_last=True),
            "chief_referee": me}),
        "draw_form": DrawForm(initial={"referee": me}),
        "can_seat": not {"semifinal", "final"} <= taken,
    }
    context.update(forms)
    return render(request, "console/stages.html", context)


@referee_required
def stages(request: HttpRequest, slug: str) -> HttpResponse:
    """The ranking, the semifinal and final as far as the results go, pending reasons."""
    return _stages_page(request, tournament_or_404(slug))


@referee_required
@require_POST
@once
def seat_stage(request: HttpRequest, slug: str) -> HttpResponseBase:
    """Open the semifinal or final evening seated from the ranking (R18)."""
    t = tournament_or_404(slug)
    form = StageForm(request.POST)
    if form.is_valid():
        d = form.cleaned_data
        try:
            e = services.seat_stage(t, d["date"], d["stage"],
                                    chief_referee=d["chief_referee"], who=who(request))
        except services.ServiceError as err:
            add_service_error(form, err)
        else:
            messages.success(request, _("%(stage)s of %(date)s seated.") % {
                "stage": choices.label(choices.Stage, e.stage).capitalize(), "date": e.date})
            return redirect("console_seating", t.slug, e.date.isoformat())
    return refused(request, _stages_page(request, t, stage_form=form))


@referee_required
@require_POST
@once
def draw(request: HttpRequest, slug: str) -> HttpResponseBase:
    """Record a draw of lots ordering tied players at a cut."""
    t = tournament_or_404(slug)
    form = DrawForm(request.POST)
    if form.is_valid():
        d = form.cleaned_data
        order, note = list(d["order"]), d["note"]
        if d["shuffle"]:
            secrets.SystemRandom().shuffle(order)
            note = " · ".join(x for x in (note, _("drawn by the console")) if x)
        try:
            services.record_draw(t, d["stage"], order, referee=d["referee"], note=note,
                                 who=who(request))
        except services.ServiceError as err:
            add_service_error(form, err)
        else:
            messages.success(request, _("Draw of lots recorded: %(order)s.")
                             % {"order": ", ".join(order)})
            return redirect("console_stages", t.slug)
    return refused(request, _stages_page(request, t, draw_form=form))
