"""Console home (tournaments, the current evening), a tournament's page (players, evenings,
carry-over), its format (compared, then applied), and the season file import (committee)."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.db import transaction
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from risiko.tournament.standings import compare_formats
from risiko.web import services
from risiko.web.auditlog.models import AuditEntry
from risiko.web.clubs import request_club
from risiko.web.collation import display_key
from risiko.web.core import repair
from risiko.web.core.tokens import once
from risiko.web.core.uploads import limit_upload
from risiko.web.evenings.models import Arrival, Evening
from risiko.web.players.models import Player
from risiko.web.public import data
from risiko.web.results.models import GameTable
from risiko.web.site.permissions import committee_required, is_committee, referee_required
from risiko.web.tournaments.models import CarryOver, Tournament

from ..common import (
    next_free_date,
    player_names,
    referee_name,
    refused,
    tournament_or_404,
    who,
)
from ..forms import (
    CarryOverForm,
    EveningForm,
    FormatForm,
    ImportForm,
    MergePlayersForm,
    PlayersForm,
    TournamentForm,
    add_service_error,
    format_changes,
    today,
)

#: What each ranking-point formula parameter means, in the page's language (the library's
#: help texts are English; risiko.tournament.ranking.FORMULAS)
PARAM_MEANINGS = {
    "win_bonus": gettext_lazy("bonus to the table's winner"),
    "win_point": gettext_lazy("added to each winner of the table"),
    "five_seat_factor": gettext_lazy("factor on table points at a 5-player table"),
    "three_seat_factor": gettext_lazy("factor on table points at a 3-player table"),
    "cap": gettext_lazy("most table points counted (after the factor; a RisiKo! counts "
                        "this)"),
    "share": gettext_lazy("tied winners: equal shares, or each the full bonus"),
    "max_sharing": gettext_lazy("more tied winners than this get no bonus"),
    "precision": gettext_lazy("decimal places of the ranking points"),
    "rounding": gettext_lazy("rounding to the precision: half_up, half_even, up (away from "
                             "zero), down (towards zero)"),
    "divisor": gettext_lazy("table points are divided by this"),
    "placement_bonus": gettext_lazy("bonus by place at the table, 1st first"),
    "eliminated_bonus": gettext_lazy("bonus of eliminated players (by place from the 2nd, "
                                     "or the last out first)"),
    "eliminated_by": gettext_lazy("eliminated players' bonus by place at the table or by "
                                  "order of elimination"),
    "base": gettext_lazy("the winner's base, and the others' base"),
    "full_gap_from": gettext_lazy("a winner's score from which the gap is measured from "
                                  "the base"),
    "points_by_size": gettext_lazy("points by table size and place"),
    "table_share": gettext_lazy("add table points / the table's total"),
}


def current_evening() -> Evening | None:
    """Today's evening (club time) of any tournament, else the latest evening of a current
    tournament."""
    day = today()
    found = Evening.objects.filter(date=day).select_related("tournament").first()
    if found is None:
        found = (Evening.objects.filter(tournament__is_current=True, date__lte=day)
                 .select_related("tournament").order_by("-date").first())
    return found


@referee_required
@require_http_methods(["GET", "POST"])
@once
def home(request: HttpRequest) -> HttpResponseBase:
    """The tournaments, creating one (with its players), the current evening."""
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                t = services.create_tournament(
                    form.cleaned_data["name"], ruleset=form.cleaned_data["ruleset"],
                    format=form.format_dict(), who=who(request),
                )
                if form.cleaned_data["players"]:
                    services.add_players(t, form.cleaned_data["players"], who=who(request))
        except services.ServiceError as e:
            add_service_error(form, e)
        else:
            messages.success(request, _("New tournament: %(name)s.") % {"name": t.name})
            return redirect("console_tournament", t.slug)
    tournaments = Tournament.objects.annotate(
        n_players=Count("entries", distinct=True), n_evenings=Count("evenings", distinct=True)
    ).order_by("-is_current", "-created")
    repairs = AuditEntry.objects.filter(who=repair.WHO, action__in=repair.ACTIONS)[:50]
    return refused(request, render(request, "console/home.html", {
        "tournaments": tournaments, "form": form, "current": current_evening(),
        "repairs": repairs,
    }))


def _tournament_page(request: HttpRequest, t: Tournament, **forms: Any) -> HttpResponse:
    snap = data.snapshot(t, fresh=True)  # computed once per change, shared with the public pages
    players = player_names(t)
    evenings = list(t.evenings.order_by("date"))
    # counted one table at a time: a join of tables and arrivals would multiply the rows
    n_tables = dict(GameTable.objects.filter(evening__tournament=t).values_list("evening")
                    .annotate(n=Count("id")))
    n_arrivals = dict(Arrival.objects.filter(evening__tournament=t).values_list("evening")
                      .annotate(n=Count("id")))
    for e in evenings:
        e.n_tables = n_tables.get(e.pk, 0)  # type: ignore[attr-defined]
        e.n_arrivals = n_arrivals.get(e.pk, 0)  # type: ignore[attr-defined]
    context: dict[str, Any] = {
        "t": t,
        "snap": snap,
        "players": players,
        "evenings": evenings,
        "carry_overs": sorted(CarryOver.objects.current().filter(tournament=t)
                              .select_related("player"), key=lambda c: display_key(c.player.name)),
        "report": snap.season,
        "faults": snap.faults,
        "unreadable": snap.unreadable,
        "players_form": PlayersForm(),
        "evening_form": EveningForm(initial={"date": next_free_date(t, today()),
                                             "chief_referee": referee_name(request)}),
        "carry_form": CarryOverForm(players=players, initial={"referee": referee_name(request)}),
        "tab": "tournament",
    }
    context.update(forms)
    return render(request, "console/tournament.html", context)


@referee_required
def tournament(request: HttpRequest, slug: str) -> HttpResponse:
    """A tournament: its players, evenings, carry-over, the ranking so far."""
    return _tournament_page(request, tournament_or_404(slug))


@referee_required
@require_POST
@once
def add_players(request: HttpRequest, slug: str) -> HttpResponseBase:
    """Register players, one per line."""
    t = tournament_or_404(slug)
    form = PlayersForm(request.POST)
    if form.is_valid():
        try:
            added, already = services.register_players(t, form.cleaned_data["players"],
                                                       who=who(request))
        except services.ServiceError as e:
            add_service_error(form, e)
        else:
            said = ngettext("%(n)d player registered.", "%(n)d players registered.",
                            len(added)) % {"n": len(added)}
            if already:
                said += " " + ngettext("Already registered: %(names)s.",
                                       "Already registered: %(names)s.",
                                       len(already)) % {"names": ", ".join(already)}
            messages.success(request, said)
            return redirect("console_tournament", t.slug)
    return refused(request, _tournament_page(request, t, players_form=form))


@referee_required
@require_POST
@once
def open_evening(request: HttpRequest, slug: str) -> HttpResponseBase:
    """Open an evening, then go to its check-in; a semifinal or final evening is seated
    from the ranking as it opens (R18)."""
    t = tournament_or_404(slug)
    form = EveningForm(request.POST)
    if form.is_valid():
        d = form.cleaned_data
        try:
            if d["stage"] == "qualifying":
                e = services.open_evening(t, d["date"], chief_referee=d["chief_referee"],
                                          who=who(request))
            else:  # the semifinal and the final are seated from the ranking (R18)
                e = services.seat_stage(t, d["date"], d["stage"],
                                        chief_referee=d["chief_referee"], who=who(request))
        except services.ServiceError as err:
            add_service_error(form, err)
        else:
            messages.success(request, _("Evening of %(date)s opened.") % {"date": e.date})
            return redirect("console_checkin", t.slug, e.date.isoformat())
    return refused(request, _tournament_page(request, t, evening_form=form))


@referee_required
@require_POST
@once
def carry_over(request: HttpRequest, slug: str) -> HttpResponseBase:
    """R17: confirm a new member's carried-over points."""
    t = tournament_or_404(slug)
    form = CarryOverForm(request.POST, players=player_names(t))
    if form.is_valid():
        d = form.cleaned_data
        try:
            services.set_carry_over(t, d["player"], d["points"], referee=d["referee"],
                                    note=d["note"], who=who(request))
        except services.ServiceError as e:
            add_service_error(form, e)
        else:
            messages.success(request, _("Carry-over of %(player)s confirmed.")
                             % {"player": d["player"]})
            return redirect("console_tournament", t.slug)
    return refused(request, _tournament_page(request, t, carry_form=form))


@referee_required
@require_POST
@once
def make_current(request: HttpRequest, slug: str) -> HttpResponseBase:
    """Make this tournament the one the public pages show."""
    t = tournament_or_404(slug)
    services.set_current(t, who=who(request))
    messages.success(request, _("%(name)s is now the tournament the public pages show.")
                     % {"name": t.name})
    return redirect("console_tournament", t.slug)


@committee_required
@require_http_methods(["GET", "POST"])
@limit_upload
@once
def import_season(request: HttpRequest) -> HttpResponseBase:
    """Create a tournament from a season file (committee only)."""
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            t = services.import_season(form.cleaned_data["file"], who=who(request),
                                       name=form.cleaned_data["name"] or None)
        except services.ServiceError as e:
            add_service_error(form, e)
        else:
            messages.success(request, _("Season imported: %(name)s.") % {"name": t.name})
            return redirect("console_tournament", t.slug)
    return refused(request, render(request, "console/import.html", {"form": form}))


@committee_required
@require_http_methods(["GET", "POST"])
@once
def merge_players(request: HttpRequest) -> HttpResponseBase:
    """Merge two players who are one person (committee only; audit-logged)."""
    names = sorted(Player.objects.exclude(key__contains="#merged-")
                   .values_list("name", flat=True), key=str.casefold)
    form = MergePlayersForm(request.POST or None, players=names)
    if request.method == "POST" and form.is_valid():
        keep, twin = form.cleaned_data["keep"], form.cleaned_data["twin"]
        try:
            services.merge_players(keep, twin, who=who(request))
        except services.ServiceError as e:
            add_service_error(form, e)
        else:
            messages.success(request, _("%(twin)s merged into %(keep)s.")
                             % {"twin": twin, "keep": keep})
            return redirect("console_merge_players")
    collisions = AuditEntry.objects.filter(who=repair.WHO, action=repair.COLLISION)
    return refused(request, render(request, "console/merge_players.html",
                                   {"form": form, "collisions": collisions}))


@referee_required
@require_http_methods(["GET", "POST"])
@once
def change_format(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The tournament's format: pick a preset and change its parameters, compare
    the standings under it with today's side by side (who moves up or down), then apply it
    (any referee before the first evening; then the committee, saying why; audit-logged)."""
    t = tournament_or_404(slug)
    club = request_club(request)
    preset, changes = format_changes(t.format)
    current = json.dumps(t.format, sort_keys=True)
    form = FormatForm(request.POST or None, initial={
        "preset": preset, "params": json.dumps(changes, ensure_ascii=False) if changes else "",
        "expected": current})
    comparison = None
    proposed = None
    if request.method == "POST" and form.is_valid():
        proposed = form.proposed
        wanted = json.dumps(proposed.to_dict(), sort_keys=True)
        if request.POST.get("action") == "apply" and form.cleaned_data["compared"] == wanted:
            try:
                services.set_format(t, proposed.to_dict(),
                                    committee=is_committee(request.user, club),
                                    expected=form.cleaned_data["expected"],
                                    reason=form.cleaned_data["reason"], who=who(request))
            except services.ServiceError as e:
                add_service_error(form, e)
            else:
                messages.success(request, _("The format of %(name)s is now %(format)s.")
                                 % {"name": t.name, "format": proposed.name})
                return redirect("console_tournament", t.slug)
        if not form.errors:
            snap = data.snapshot(t, fresh=True)
            comparison = compare_formats(snap.domain, proposed)
            posted = request.POST.copy()
            posted["compared"] = wanted  # what the committee saw: the one change it applies
            form = FormatForm(posted)
            form.is_valid()
    held = t.evenings.exists()
    context = {
        "t": t, "form": form, "comparison": comparison, "proposed": proposed,
        "proposed_format": proposed.to_dict() if proposed is not None else None,
        "params": _formula_params(proposed.ranking_points) if proposed is not None else [],
        "held": held, "committee": is_committee(request.user, club), "tab": "tournament",
        "current_json": json.dumps(t.format, indent=1, ensure_ascii=False),
    }
    response = render(request, "console/format.html", context)
    return refused(request, response) if form.errors else response


def _formula_params(rp: Any) -> list[tuple[str, Any, str]]:
    """(parameter, value, help) of a ranking-point formula, for the page."""
    values = rp.all_params()
    return [(name, values[name], PARAM_MEANINGS.get(name, p.help))
            for name, p in rp.spec.params.items()]
