"""A table: its seats, its result entered as scores or as an end-of-game sheet (pasted or
uploaded), the score breakdown, R13 and the history of corrections."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from risiko.faults import Fault
from risiko.ruleset import sheet_ruleset
from risiko.sheet import SheetError, parse_sheet_text
from risiko.web import services
from risiko.web.core import choices
from risiko.web.core.faults import SHEET_FAULT
from risiko.web.core.limits import loads
from risiko.web.core.tokens import once
from risiko.web.core.uploads import limit_upload
from risiko.web.evenings.models import Evening
from risiko.web.results.models import GameTable, TableResult
from risiko.web.results.selectors import seated
from risiko.web.site.permissions import referee_required
from risiko.web.tournaments.models import Tournament

from ..common import (
    arrivals_of,
    evening_or_404,
    read_result,
    refused,
    table_or_404,
    table_penalties,
    tables_of,
    tournament_or_404,
    who,
)
from ..forms import AbandonForm, ScoresForm, SheetForm, add_service_error


def _seats(table: GameTable) -> list[str]:
    return seated(table)


def _table_page(request: HttpRequest, t: Tournament, e: Evening, table: GameTable,
                **forms: Any) -> HttpResponse:
    seats = _seats(table)
    penalties = table_penalties(table)
    rows = list(table.results.order_by("id"))
    current = next((r for r in reversed(rows) if not r.superseded), None)
    result = read_result(table, current, penalties) if current is not None else None
    initial: dict[str, Any] = {}
    if current is not None and current.scores is not None:
        for i, name in enumerate(seats, start=1):
            initial[f"score_{i}"] = current.scores.get(name)
            initial[f"risiko_{i}"] = name in (current.risiko or ())
            initial[f"abandoned_{i}"] = name in (current.abandoned or ())
    elif current is not None and result is not None and result.sheet_score is not None:
        # a sheet's result: the correction form starts from the scores the sheet gave
        by_player = {sc.player: sc for sc in result.sheet_score.seats}
        for i, name in enumerate(seats, start=1):
            if name in by_player:
                initial[f"score_{i}"] = by_player[name].score
                initial[f"risiko_{i}"] = by_player[name].risiko
            initial[f"abandoned_{i}"] = name in (current.abandoned or ())
    arrivals = arrivals_of(e)
    numbers = [info.number for info in tables_of(e)]
    context: dict[str, Any] = {
        "t": t, "evening": e, "date": e.date.isoformat(), "table": table, "seats": seats,
        "tab": "table", "stage_label": choices.label(choices.Stage, e.stage),
        "late": {n: arrivals[n].ruling.penalty_turns for n in seats
                 if n in arrivals and arrivals[n].ruling.penalty_turns},
        "result": result,
        "history": [read_result(table, r) for r in reversed(rows)],
        "penalties": table.penalties.select_related("player").order_by("id"),
        "scores_form": ScoresForm(seats=seats, initial=initial),
        "sheet_form": SheetForm(seats=seats),
        "abandon_form": AbandonForm(seats=seats),
        "previous": max((n for n in numbers if n < table.number), default=None),
        "next": min((n for n in numbers if n > table.number), default=None),
    }
    context.update(forms)
    return render(request, "console/table.html", context)


def _objects(slug: str, date: str, number: int) -> tuple[Tournament, Evening, GameTable]:
    t = tournament_or_404(slug)
    e = evening_or_404(t, date)
    return t, e, table_or_404(e, number)


@referee_required
def table(request: HttpRequest, slug: str, date: str, number: int) -> HttpResponse:
    """The table, its result and breakdown, the forms to enter or correct it."""
    return _table_page(request, *_objects(slug, date, number))


def _saved(request: HttpRequest, t: Tournament, e: Evening, table: GameTable,
           corrected: bool, row: TableResult) -> HttpResponseBase:
    if row.already_recorded:
        messages.info(request, _("Table %(n)d: this result was already recorded, nothing was "
                                 "saved.") % {"n": table.number})
    elif corrected:
        messages.success(request, _("Table %(n)d corrected: the previous result is kept in the "
                                    "history.") % {"n": table.number})
    else:
        messages.success(request, _("Table %(n)d: result saved.") % {"n": table.number})
    return redirect("console_table", t.slug, e.date.isoformat(), table.number)


@referee_required
@require_POST
@once
def enter_scores(request: HttpRequest, slug: str, date: str, number: int) -> HttpResponseBase:
    """The table scores typed directly."""
    t, e, table = _objects(slug, date, number)
    form = ScoresForm(request.POST, seats=_seats(table))
    if form.is_valid():
        scores, risiko, gone = form.values()
        had = table.results.current().exists()
        try:
            row = services.enter_scores(table, scores, risiko=risiko, abandoned=gone,
                                        reason=form.cleaned_data["reason"], who=who(request))
        except services.ServiceError as err:
            add_service_error(form, err)
        else:
            return _saved(request, t, e, table, had, row)
    return refused(request, _table_page(request, t, e, table, scores_form=form))


def _sheet(text: str, t: Tournament, e: Evening, table: GameTable) -> Any:
    """The pasted or uploaded sheet read by the library; ServiceError naming the table."""
    where = {"evening": e.date.isoformat(), "table": table.number}
    if text.lstrip().startswith(("{", "[")):
        loads("sheet", text)  # too deep, NUL, integers beyond 64 bits: refused by name
    try:
        return parse_sheet_text(text, ruleset=sheet_ruleset(t.ruleset_name, t.ruleset_version))
    except SheetError as err:
        raise services.ServiceError(*[
            f if isinstance(f, Fault) else SHEET_FAULT(where, text=str(f)) for f in err.faults
        ]) from None


@referee_required
@require_POST
@limit_upload
@once
def enter_sheet(request: HttpRequest, slug: str, date: str, number: int) -> HttpResponseBase:
    """An end-of-game sheet, JSON or CSV, pasted or uploaded (scored by the game library)."""
    t, e, table = _objects(slug, date, number)
    form = SheetForm(request.POST, request.FILES, seats=_seats(table))
    if form.is_valid():
        had = table.results.current().exists()
        try:
            sheet = _sheet(form.cleaned_data["sheet_text"], t, e, table)
            row = services.enter_sheet(table, sheet.to_dict(),
                                       abandoned=form.cleaned_data["abandoned"],
                                       reason=form.cleaned_data["reason"], who=who(request))
        except services.ServiceError as err:
            add_service_error(form, err)
        else:
            return _saved(request, t, e, table, had, row)
    return refused(request, _table_page(request, t, e, table, sheet_form=form))


@referee_required
@require_POST
@once
def abandon(request: HttpRequest, slug: str, date: str, number: int) -> HttpResponseBase:
    """R13 after the result: a player left the game (table score 0, ranking -25)."""
    t, e, table = _objects(slug, date, number)
    form = AbandonForm(request.POST, seats=_seats(table))
    if form.is_valid():
        try:
            services.mark_abandoned(table, form.cleaned_data["player"], who=who(request))
        except services.ServiceError as err:
            add_service_error(form, err)
        else:
            messages.success(request, _("%(player)s left the game (R13).")
                             % {"player": form.cleaned_data["player"]})
            return redirect("console_table", t.slug, date, table.number)
    return refused(request, _table_page(request, t, e, table, abandon_form=form))
