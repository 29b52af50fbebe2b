"""Interclub pages (Italian first): public standings and the committee's console.

Public (no login):

- ``interclub_events`` (``/nazionale/interclub/``): the events, newest first;
- ``interclub_event`` (``/nazionale/interclub/<id>/``, ``?regione=Lombardia`` for a
  regional championship across clubs): team standings (best games counted) and individual
  standings;
- ``interclub_event_json`` (``/nazionale/interclub/<id>.json``, same ``regione``): the
  JSON of :func:`~.interclub_services.standings_json`.

Console. An event belongs to its organising club (the club that hosts it,
``InterclubEvent.club``): that club's committee runs it, its referees record the tables'
results, the national officer runs any; other clubs' people only see its public pages (a
403, nothing written, no audit entry), as everywhere in a club's console
(:mod:`risiko.web.site.permissions`, :class:`~risiko.web.site.models.ClubMembership`):

- ``interclub_manage`` (``/nazionale/interclub/gestione/``, the committee of the request's
  club, or the national officer): the club's events (the officer's: every one), and a new
  one, organised by the request's club (``/c/<club>/nazionale/interclub/gestione/``; today's
  URLs: the default club);
- ``interclub_event_manage`` (``/nazionale/interclub/<id>/gestione/``, whatever the URL's
  club: the organising club's committee, its referees for the results only, the national
  officer): add a club's team,
  put a player in a roster or take him out, field a team's 4 players of a round, seat a
  round, record a table's result (with a reason when it changes). Every form is
  exactly-once (its one-time token) and a refusal shows its faults in the reader's
  language, nothing saved.
"""

from __future__ import annotations

import functools
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from risiko.national.interclub import FIELDED

from ..core.faults import ServiceError
from ..core.tokens import once
from ..site.permissions import (
    committee_required,
    is_committee,
    is_national_officer,
    is_referee,
)
from . import interclub_services as svc
from .interclub_models import InterclubEvent, InterclubTeam
from .models import Club


def _region(request: HttpRequest) -> str:
    return request.GET.get("regione", "").strip()[:40]


@require_safe
def interclub_events(request: HttpRequest) -> HttpResponse:
    """The interclub events, newest first."""
    return render(request, "national/interclub/events.html",
                  {"events": InterclubEvent.objects.all()})


def _event(event_id: int) -> InterclubEvent:
    return get_object_or_404(InterclubEvent, pk=event_id)


@require_safe
def interclub_event(request: HttpRequest, event_id: int) -> HttpResponse:
    """An event's team and individual standings (of one region with ``?regione=``)."""
    event = _event(event_id)
    region = _region(request)
    regions = sorted({r for r in event.teams.values_list("club__region", flat=True) if r})
    if region and region not in regions:
        raise Http404
    return render(request, "national/interclub/event.html", {
        "event": event, "standings": svc.standings(event, region), "region": region,
        "regions": regions})


@require_safe
def interclub_event_json(request: HttpRequest, event_id: int) -> JsonResponse:
    """The standings as JSON (see :func:`~.interclub_services.standings_json`)."""
    event = _event(event_id)
    response = JsonResponse(svc.standings_json(svc.standings(event, _region(request))),
                            json_dumps_params={"ensure_ascii": False})
    response["Access-Control-Allow-Origin"] = "*"  # public, read-only data
    return response


# ------------------------------------------------------------------------------ console


class EventForm(forms.Form):
    """A new interclub event."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=200)
    year = forms.IntegerField(label=gettext_lazy("Year"), min_value=2000, max_value=2099)
    region = forms.CharField(label=gettext_lazy("Region (empty: the national championship)"),
                             max_length=40, required=False)
    rounds = forms.IntegerField(label=gettext_lazy("Rounds"), min_value=1, max_value=10, initial=3)
    counted_games = forms.IntegerField(label=gettext_lazy("Games counted per team"), min_value=1,
                                       max_value=60, initial=9)


class TeamForm(forms.Form):
    """A club's team."""

    club = forms.ModelChoiceField(label=gettext_lazy("Club"), queryset=Club.objects.all())
    name = forms.CharField(label=gettext_lazy("Team name (empty: the club's)"), max_length=120,
                           required=False)


class MemberForm(forms.Form):
    """A player put in a team's roster."""

    team = forms.ModelChoiceField(label=gettext_lazy("Team"), queryset=InterclubTeam.objects.none())
    national_id = forms.IntegerField(label=gettext_lazy("National id"), min_value=1)


class RemoveForm(MemberForm):
    """A player taken out of a team's roster (never once fielded)."""


class FieldForm(forms.Form):
    """A team's players of a round."""

    team = forms.ModelChoiceField(label=gettext_lazy("Team"), queryset=InterclubTeam.objects.none())
    round = forms.IntegerField(label=gettext_lazy("Round"), min_value=1, max_value=10)
    players = forms.CharField(label=gettext_lazy("National ids of the 4 players"), max_length=200)

    def clean_players(self) -> list[int]:
        raw = self.cleaned_data["players"].replace(",", " ").split()
        if not all(p.isdigit() for p in raw) or len(raw) != FIELDED:
            raise forms.ValidationError(_("Give the national ids of %(n)s players.")
                                        % {"n": FIELDED})
        return [int(p) for p in raw]


class SeatForm(forms.Form):
    """Seat a round."""

    round = forms.IntegerField(label=gettext_lazy("Round"), min_value=1, max_value=10)


class ResultForm(forms.Form):
    """A table's result: one line per player, ``national id  table points`` and ``R``
    after a RisiKo!."""

    round = forms.IntegerField(label=gettext_lazy("Round"), min_value=1, max_value=10)
    table = forms.IntegerField(label=gettext_lazy("Table"), min_value=1, max_value=500)
    lines = forms.CharField(
        label=gettext_lazy("Results (one line per player: national id, table points, R for a "
                 "RisiKo!)"), widget=forms.Textarea(attrs={"rows": 4}), max_length=400)
    reason = forms.CharField(label=gettext_lazy("Why it changes (a result recorded already)"),
                             max_length=300, required=False)

    def clean_lines(self) -> list[tuple[int, int, bool]]:
        out = []
        for line in self.cleaned_data["lines"].splitlines():
            parts = line.replace(",", " ").split()
            if not parts:
                continue
            risiko = len(parts) == 3 and parts[2].upper() == "R"
            if len(parts) not in (2, 3) or (len(parts) == 3 and not risiko) or not all(
                    p.lstrip("-").isdigit() for p in parts[:2]):
                raise forms.ValidationError(_("Not a result line: %(line)s")
                                            % {"line": line.strip()})
            out.append((int(parts[0]), int(parts[1]), risiko))
        return out


def _who(request: HttpRequest) -> str:
    return str(request.user.get_username()) or "?"


def _refused(request: HttpRequest, err: ServiceError) -> None:
    for fault in err.faults:
        messages.error(request, fault.message(get_language()))


def _form_errors(request: HttpRequest, form: forms.Form) -> None:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else str(error))


@committee_required
@require_http_methods(["GET", "POST"])
@once
def interclub_manage(request: HttpRequest) -> HttpResponseBase:
    """The events, and a new one."""
    form = EventForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            d = form.cleaned_data
            try:
                event = svc.create_event(d["name"], d["year"], region=d["region"] or "",
                                         rounds=d["rounds"],
                                         counted_games=d["counted_games"], who=_who(request))
            except ServiceError as err:
                _refused(request, err)
            else:
                messages.success(request, _("Event created."))
                return redirect("interclub_event_manage", event_id=event.pk)
        else:
            _form_errors(request, form)
    events = InterclubEvent.objects.select_related("club")
    if not is_national_officer(request.user):  # a club's committee: its club's events
        club = getattr(request, "club", None)
        events = events.filter(club=club) if club is not None else events.none()
    return render(request, "national/interclub/manage.html", {
        "events": events, "form": form})


_ACTIONS: dict[str, type[forms.Form]] = {
    "team": TeamForm, "member": MemberForm, "remove": RemoveForm, "field": FieldForm,
    "seat": SeatForm,
    "result": ResultForm}


def _bound(event: InterclubEvent, action: str, data: Any = None) -> forms.Form:
    form = _ACTIONS[action](data, prefix=action)
    team = form.fields.get("team")
    if isinstance(team, forms.ModelChoiceField):
        team.queryset = event.teams.all()
    return form


def _apply(request: HttpRequest, event: InterclubEvent, action: str,
           d: dict[str, Any]) -> str:
    """Run the service of ``action``; the message said on success."""
    who = _who(request)
    if action == "team":
        svc.add_team(event, d["club"], name=d["name"] or "", who=who)
        return _("Team added.")
    if action == "member":
        svc.add_member(d["team"], d["national_id"], who=who)
        return _("Player added to the roster.")
    if action == "remove":
        svc.remove_member(d["team"], d["national_id"], who=who)
        return _("Player taken out of the roster.")
    if action == "field":
        svc.field_players(d["team"], d["round"], d["players"], who=who)
        return _("Players fielded.")
    if action == "seat":
        tables = svc.seat_round(event, d["round"], who=who)
        return _("Round seated: %(tables)s tables.") % {"tables": len(tables)}
    svc.record_table(event, d["round"], d["table"], d["lines"], reason=d["reason"] or "",
                     who=who)
    return _("Result recorded.")


#: what a referee of the organising club may send (the rest is the committee's)
REFEREE_ACTIONS = frozenset({"result"})


def may_run(user: Any, event: InterclubEvent, action: str | None = None) -> bool:
    """Whether ``user`` may open ``event``'s console (``action`` None) or send ``action``
    there: the national officer always; the organising club's committee; its referees the
    console and :data:`REFEREE_ACTIONS` only; nobody else (another club's committee
    neither)."""
    if is_national_officer(user) or is_committee(user, event.club):
        return True
    return is_referee(user, event.club) and (action is None or action in REFEREE_ACTIONS)


def _running(view: Any) -> Any:
    """403 (PermissionDenied) before anything else (the form's one-time token is not even
    looked at) for who may not open the event's console or send its action
    (:func:`may_run`)."""

    @functools.wraps(view)
    def checked(request: HttpRequest, event_id: int) -> HttpResponseBase:
        event = _event(event_id)
        action = request.POST.get("action", "") if request.method == "POST" else None
        if not may_run(request.user, event, action):
            raise PermissionDenied
        return view(request, event_id)  # type: ignore[no-any-return]

    return checked


@login_required
@require_http_methods(["GET", "POST"])
@_running
@once
def interclub_event_manage(request: HttpRequest, event_id: int) -> HttpResponseBase:
    """An event's teams, rosters, rounds and the forms that change them (its organising
    club's committee and referees, :func:`may_run`)."""
    event = _event(event_id)
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action not in _ACTIONS:
            raise Http404
        form = _bound(event, action, request.POST)
        if form.is_valid():
            try:
                said = _apply(request, event, action, form.cleaned_data)
            except ServiceError as err:
                _refused(request, err)
            else:
                messages.success(request, said)
                return redirect("interclub_event_manage", event_id=event.pk)
        else:
            _form_errors(request, form)
    teams = [{"team": t, "members": list(t.members.select_related("player"))}
             for t in event.teams.select_related("club")]
    rounds = []
    for rnd in event.event_rounds.all():
        tables: dict[int, list[Any]] = {}
        for seat in rnd.seats.select_related("member__player", "member__team"):
            tables.setdefault(seat.table, []).append(seat)
        fielded: dict[str, list[Any]] = {}
        for f in rnd.fielded.select_related("member__player", "member__team"):
            fielded.setdefault(f.member.team.name, []).append(f.member.player)
        rounds.append({"round": rnd, "tables": sorted(tables.items()),
                       "fielded": sorted(fielded.items())})
    return render(request, "national/interclub/event_manage.html", {
        "event": event, "teams": teams, "rounds": rounds,
        "committee": may_run(request.user, event, "team"),
        "forms": {a: _bound(event, a) for a in _ACTIONS}})
