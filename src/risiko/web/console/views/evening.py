"""An evening: overview, check-in (R3 class at once, through htmx), seating (optimiser,
swaps, by hand) and the printable table cards."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from risiko.tournament.seating import MIN_TABLE, table_sizes
from risiko.web import services
from risiko.web.collation import display_key
from risiko.web.core import choices
from risiko.web.core.tokens import once
from risiko.web.evenings.models import Evening
from risiko.web.players.models import Player
from risiko.web.site.permissions import referee_required
from risiko.web.tournaments.models import Tournament

from ..common import (
    ArrivalInfo,
    arrivals_of,
    evening_or_404,
    player_names,
    refused,
    ruling_of,
    seated_names,
    tables_of,
    tournament_or_404,
    who,
)
from ..forms import ArrivalForm, SeedForm, SwapForm, TablesForm, add_service_error, now_hhmm


def _evening_context(t: Tournament, e: Evening, tab: str) -> dict[str, Any]:
    return {"t": t, "evening": e, "date": e.date.isoformat(), "tab": tab,
            "stage_label": choices.label(choices.Stage, e.stage)}


def _counts(arrivals: dict[str, ArrivalInfo], players: list[Player]) -> dict[str, int]:
    """Players by R3 class, and those not arrived yet, among ``players``."""
    names = [p.name for p in players]
    c = Counter(arrivals[n].ruling.arrival_class for n in names if n in arrivals)
    return {"on_time": c["on_time"], "late": c["late"], "excluded": c["excluded"],
            "waiting": sum(1 for n in names if n not in arrivals)}


@referee_required
def evening(request: HttpRequest, slug: str, date: str) -> HttpResponse:
    """The evening at a glance: arrivals by R3 class, tables and their results."""
    t = tournament_or_404(slug)
    e = evening_or_404(t, date)
    arrivals = arrivals_of(e)
    context = _evening_context(t, e, "evening")
    context.update({"tables": tables_of(e), "counts": _counts(arrivals, _players_of(t, e)),
                    "penalties": e.penalties.count(), "discipline": e.discipline.count()})
    return render(request, "console/evening.html", context)


def _row(e: Evening, player: Player, info: ArrivalInfo | None,
         form: ArrivalForm | None = None) -> dict[str, Any]:
    if form is None:
        initial: dict[str, Any]
        if info is None:
            initial = {"at": now_hhmm()}
        else:
            initial = {"at": info.row.at, "phoned": info.row.phoned,
                       "phoned_at": info.row.phoned_at}
        form = ArrivalForm(initial=initial, auto_id=f"a{player.pk}_%s")
    ruling = info.ruling if info is not None else None
    return {"player": player, "info": info, "form": form, "ruling": ruling,
            "class_label": choices.label(choices.ArrivalClass, ruling.arrival_class)
            if ruling else ""}


def _players(t: Tournament) -> list[Player]:
    return sorted((entry.player for entry in t.entries.select_related("player")),
                  key=lambda p: display_key(p.name))


def _players_of(t: Tournament, e: Evening) -> list[Player]:
    """The players to check in: everyone, or at a seated semifinal or final only those
    seated (the qualified, R18)."""
    players = _players(t)
    if e.stage != "qualifying" and e.tables.exists():
        seated = set(seated_names(e))
        players = [p for p in players if p.name in seated]
    return players


def _checkin_page(request: HttpRequest, t: Tournament, e: Evening,
                  bad: tuple[Player, ArrivalForm] | None = None) -> HttpResponse:
    arrivals = arrivals_of(e)
    players = _players_of(t, e)
    rows = [
        _row(e, p, arrivals.get(p.name), bad[1] if bad and bad[0].pk == p.pk else None)
        for p in players
    ]
    context = _evening_context(t, e, "checkin")
    context.update({"rows": rows, "counts": _counts(arrivals, players),
                    "seated": bool(e.tables.exists())})
    return render(request, "console/checkin.html", context)


@referee_required
def checkin(request: HttpRequest, slug: str, date: str) -> HttpResponse:
    """Every player of the tournament with his arrival (now by default) and phone flag."""
    t = tournament_or_404(slug)
    return _checkin_page(request, t, evening_or_404(t, date))


@referee_required
@require_POST
@once
def arrival(request: HttpRequest, slug: str, date: str, player: int) -> HttpResponseBase:
    """Record (or correct) one arrival; htmx gets the player's row back with the R3 class."""
    t = tournament_or_404(slug)
    e = evening_or_404(t, date)
    p = get_object_or_404(Player, pk=player, entries__tournament=t)
    form: ArrivalForm | None = ArrivalForm(request.POST, auto_id=f"a{p.pk}_%s")
    info = None
    if form is not None and form.is_valid():
        d = form.cleaned_data
        try:
            row, ruling = services.record_arrival(
                e, p.name, d["at"], phoned=d["phoned"], phoned_at=d["phoned_at"] or None,
                reason=d["reason"], who=who(request),
            )
        except services.ServiceError as err:
            add_service_error(form, err)
        else:
            info = ArrivalInfo(row, ruling)
            form = None
    if not request.headers.get("HX-Request"):
        if form is not None or info is None:  # refused: the page with the row's errors
            return refused(request, _checkin_page(request, t, e, bad=(p, form or ArrivalForm())))
        messages.success(request, _("%(player)s: %(class)s") % {
            "player": p.name, "class": choices.label(choices.ArrivalClass,
                                                    info.ruling.arrival_class)})
        return redirect("console_checkin", t.slug, date)
    if info is None:  # the form's errors in the row; the recorded arrival still shown
        current = e.arrivals.current().filter(player=p).first()
        found = ruling_of(e, current) if current is not None else None
        if current is not None and found is not None:
            info = ArrivalInfo(current, found)
    context = _evening_context(t, e, "checkin")
    context.update(_row(e, p, info, form))
    context["counts"] = _counts(arrivals_of(e), _players_of(t, e))
    context["oob"] = True
    response = render(request, "console/_arrival_row.html", context)
    return refused(request, response) if form is not None else response


def _seating_page(request: HttpRequest, t: Tournament, e: Evening, **forms: Any
                  ) -> HttpResponse:
    tables = tables_of(e)
    seated = [n for info in tables for n in info.seats]
    arrivals = arrivals_of(e)
    admitted_waiting = sorted((n for n, a in arrivals.items()
                               if a.ruling.admitted and n not in seated), key=display_key)
    excluded = sorted((n for n, a in arrivals.items() if not a.ruling.admitted),
                      key=display_key)
    admitted = sum(1 for a in arrivals.values() if a.ruling.admitted)  # what the optimiser seats
    context = _evening_context(t, e, "seating")
    context.update({
        "tables": tables,
        "played": any(info.result is not None for info in tables),
        "waiting": admitted_waiting,
        "excluded": excluded,
        "late": {n: a.ruling.penalty_turns for n, a in arrivals.items()
                 if a.ruling.penalty_turns},
        "seed_form": SeedForm(),
        "admitted": admitted,
        "sizes": table_sizes(admitted) if admitted >= MIN_TABLE else [],
        "swap_form": SwapForm(seated=sorted(seated, key=display_key)),
        "tables_form": TablesForm(initial={"tables": "\n".join(
            ", ".join(info.seats) for info in tables)}),
    })
    context.update(forms)
    return render(request, "console/seating.html", context)


@referee_required
def seating(request: HttpRequest, slug: str, date: str) -> HttpResponse:
    """The tables in turn order, the optimiser, swaps and seating by hand."""
    t = tournament_or_404(slug)
    return _seating_page(request, t, evening_or_404(t, date))


@referee_required
@require_POST
@once
def seat(request: HttpRequest, slug: str, date: str) -> HttpResponseBase:
    """Seat the admitted arrivals with the optimiser."""
    t = tournament_or_404(slug)
    e = evening_or_404(t, date)
    form = SeedForm(request.POST)
    if form.is_valid():
        seed = form.cleaned_data["seed"].strip() or None
        try:
            tables = services.seat_evening(
                e, seed=int(seed) if seed and seed.isdigit() else seed, who=who(request)
            )
        except services.ServiceError as err:
            add_service_error(form, err)
        else:
            messages.success(request, _("%(n)d tables seated.") % {"n": len(tables)})
            return redirect("console_seating", t.slug, date)
    return refused(request, _seating_page(request, t, e, seed_form=form))


@referee_required
@require_POST
@once
def swap(request: HttpRequest, slug: str, date: str) -> HttpResponseBase:
    """Swap two seated players by hand."""
    t = tournament_or_404(slug)
    e = evening_or_404(t, date)
    form = SwapForm(request.POST, seated=seated_names(e))
    if form.is_valid():
        a, b = form.cleaned_data["a"], form.cleaned_data["b"]
        try:
            if a == b:
                raise services.ServiceError(_("Choose two different players."))
            services.swap_seats(e, a, b, reason=form.cleaned_data["reason"], who=who(request))
        except services.ServiceError as err:
            add_service_error(form, err)
        else:
            messages.success(request, _("%(a)s and %(b)s swapped.") % {"a": a, "b": b})
            return redirect("console_seating", t.slug, date)
    return refused(request, _seating_page(request, t, e, swap_form=form))


@referee_required
@require_POST
@once
def set_tables(request: HttpRequest, slug: str, date: str) -> HttpResponseBase:
    """Seat by hand (also: a late arrival added to a table)."""
    t = tournament_or_404(slug)
    e = evening_or_404(t, date)
    form = TablesForm(request.POST)
    if form.is_valid():
        try:
            services.set_tables(e, form.cleaned_data["tables"],
                                reason=form.cleaned_data["reason"], who=who(request))
        except services.ServiceError as err:
            add_service_error(form, err)
        else:
            messages.success(request, _("Tables saved."))
            return redirect("console_seating", t.slug, date)
    return refused(request, _seating_page(request, t, e, tables_form=form))


@referee_required
def table_cards(request: HttpRequest, slug: str, date: str) -> HttpResponse:
    """Printable cards, one per table: seats in turn order and a box for each score."""
    t = tournament_or_404(slug)
    e = evening_or_404(t, date)
    arrivals = arrivals_of(e)
    context = _evening_context(t, e, "cards")
    context.update({
        "tables": tables_of(e),
        "late": {n: a.ruling.penalty_turns for n, a in arrivals.items()
                 if a.ruling.penalty_turns},
        "players": player_names(t),
    })
    return render(request, "console/table_cards.html", context)
