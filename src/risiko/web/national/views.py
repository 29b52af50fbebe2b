"""Public pages of the national ranking (Italian first; no login): the list of a year, its
tournaments, a player's history; the list as JSON and CSV (the ``risiko national ranking``
contracts).

- ``national_home`` (``/nazionale/``): the latest year with a tournament (or this year);
- ``national_year`` (``/nazionale/<year>/``): position, player, club, points, points per
  category, results counted, tournaments played, games, wins, win %;
- ``national_year_json`` / ``national_year_csv`` (``/nazionale/<year>.json``, ``.csv``);
- ``national_tournaments`` (``/nazionale/<year>/tornei/``): the year's tournaments;
- ``national_club`` (``/nazionale/<year>/club/<club id or URL name>/``, ``.json``, ``.csv``):
  the club's players in the year's list (their national positions) and its tournaments of
  the year with their revision in force and status; an unknown club answers 404 (a year
  outside the calendar too, as every page here);
- ``national_player`` (``/nazionale/giocatore/<national id>/``): every year he played, each
  tournament's position and points, counted or not and why (never lost: every year is
  recomputed from the revisions in force); while a report of his waits for the national
  officer, the year also shows the **estimate** ("stima"): his position and points as if the
  waiting reports were approved.
"""

from __future__ import annotations

import csv
import io
from datetime import date
from typing import Any

from django.db.models import F
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe

from risiko.figures import decimal_text, percent_text
from risiko.national.categories import CODES, Category
from risiko.national.ranking import HistoryLine, display_points
from risiko.tournament.dates import EVENING_YEARS

from . import services
from .models import (
    CATEGORY_NAMES,
    Club,
    NationalPlayer,
    NationalResult,
    RevisionStatus,
)

#: why a result counted or not, as the player's page says it
WHY = {
    "counted": _("counted"),
    "best_n": _("beyond the category's best results"),
    "max_rounds": _("beyond the category's rounds"),
    "max_games_played": _("beyond the category's games"),
    "not_ranked": _("a category that does not count"),
    "not_finished": _("not finished"),
    "no_standings": _("no standings"),
    "not_in_standings": _("not in the standings"),
    "disqualified": _("disqualified"),
}


def _points(value: Any) -> str:
    """Points as the page's language writes them: ``777,60`` in Italian, ``777.60`` in
    English (two decimals, :func:`~risiko.national.ranking.display_points`)."""
    return decimal_text(display_points(value), 2, get_language())


def _win_rate(wins: int, games: int) -> str:
    """Wins per game as a percentage in the page's language (``29 %``, ``29%``); ``–``
    without games."""
    return percent_text(wins / games, 0, get_language()) if games else "–"


@require_safe
def national_home(request: HttpRequest) -> HttpResponse:
    """The latest year with a tournament in force, else this year's page when a report of
    this year waits for the officer; none at all: this year's empty list, said as such,
    with no live tag (nothing to follow: ``ws/live/`` refuses ``/nazionale/``) and no
    JSON/CSV links (they would answer 404)."""
    known = services.years()
    if known:
        return redirect("national_year", year=known[-1])
    year = date.today().year
    if services.year_fault(year) is None:
        return redirect("national_year", year=year)
    return render(request, "national/year.html", {
        "year": year, "rows": [], "since": None, "categories": [], "unfollowed": True})


def _no_year(request: HttpRequest, year: int) -> HttpResponse | None:
    """404 naming ``year`` and the years that have a tournament, as ``risiko national
    ranking --year`` refuses it; None when ``year`` has one."""
    fault = services.year_fault(year, get_language() or "it")
    if fault is None:
        return None
    return render(request, "national/year.html", {
        "year": year, "rows": [], "refused": fault.message(get_language()),
        "years": services.years()}, status=404)


@require_safe
def national_year(request: HttpRequest, year: int) -> HttpResponse:
    """The national list of ``year`` (404 for a year without tournaments)."""
    refused = _no_year(request, year)
    if refused is not None:
        return refused
    ranking = services.ranking(year)
    categories = list(ranking.counts)
    slugs = _club_slugs()
    note = services.nobody_listed(year, ranking)
    rows: list[dict[str, Any]] = [{
        "position": p.position, "national_id": p.national_id, "name": p.name,
        "club": p.club, "club_slug": slugs.get(p.club), "points": _points(p.points),
        "by_category": [_points(p.by_category[c]) for c in categories],
        "tournaments": p.tournaments, "played": p.played, "games": p.games, "wins": p.wins,
        "win_rate": _win_rate(p.wins, p.games),
    } for p in ranking.players]
    return render(request, "national/year.html", {
        "year": year, "rows": rows, "since": ranking.rules.since,
        "note": note.message(get_language()) if note is not None else None,
        "categories": [(CATEGORY_NAMES[c], CODES[c], ranking.counts[c]) for c in categories],
    })


@require_safe
def national_year_json(request: HttpRequest, year: int) -> JsonResponse:
    """The list as ``risiko national ranking --json`` gives it (a year without tournaments:
    404 with ``{"faults": [...]}``)."""
    fault = services.year_fault(year, get_language() or "it")
    if fault is not None:
        return JsonResponse({"faults": [fault.to_dict(get_language() or "it")]}, status=404)
    response = JsonResponse(services.ranking(year).to_json(),
                            json_dumps_params={"ensure_ascii": False})
    response["Access-Control-Allow-Origin"] = "*"  # public, read-only data
    return response


@require_safe
def national_year_csv(request: HttpRequest, year: int) -> HttpResponse:
    """The list as ``risiko national ranking --csv`` gives it (404 for a year without
    tournaments)."""
    fault = services.year_fault(year, get_language() or "it")
    if fault is not None:
        return HttpResponse(fault.message(get_language()), status=404,
                            content_type="text/plain; charset=utf-8")
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(services.ranking(year).csv_rows())
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="ranking-{year}.csv"'
    return response


@require_safe
def national_tournaments(request: HttpRequest, year: int) -> HttpResponse:
    """The tournaments of ``year`` (revisions in force), in order of publication, each
    with the players of its report (how many anonymous: not in the ranking); a year
    outside the calendar answers 404 (:func:`_outside`)."""
    _outside(year)
    tournaments = services.tournament_results(year)
    slugs = _club_slugs()
    counts = services.player_counts(year)
    return render(request, "national/tournaments.html", {
        "year": year, "tournaments": [
            (t, CATEGORY_NAMES[t.category], slugs.get(t.club),
             counts.get((t.club, t.name, t.first_date), (len(t.participants), 0)))
            for t in tournaments]})


def _outside(year: int) -> None:
    """Raise 404 for a year outside the project's calendar (``national.year_outside``):
    the pages of a year's tournaments and clubs have no year there."""
    low, high = EVENING_YEARS
    if not low <= year <= high:
        raise Http404


def _club_year(year: int, club: str, ranking: Any = None) -> services.ClubYear:
    _outside(year)
    found = services.find_club(club)
    if found is None:
        raise Http404
    return services.club_year(found, year, ranking)


def _club_slugs() -> dict[str, str]:
    """Each club's URL name by its name (a name two clubs share links nowhere)."""
    out: dict[str, str] = {}
    shared: set[str] = set()
    for name, slug in Club.objects.values_list("name", "slug"):
        if name in out:
            shared.add(name)
        out[name] = slug
    return {n: s for n, s in out.items() if n not in shared}


@require_safe
def national_club(request: HttpRequest, year: int, club: str) -> HttpResponse:
    """A club's page of the national list of ``year``."""
    ranking = services.ranking(year)
    data = _club_year(year, club, ranking)
    categories = list(ranking.counts)
    rows = [{
        "position": p.position, "national_id": p.national_id, "name": p.name,
        "points": _points(p.points),
        "by_category": [_points(p.by_category[c]) for c in categories],
        "tournaments": p.tournaments, "played": p.played, "games": p.games, "wins": p.wins,
        "win_rate": _win_rate(p.wins, p.games),
    } for p in data.players]
    statuses = dict(RevisionStatus.choices)
    return render(request, "national/club.html", {
        "year": year, "club": data.club, "rows": rows,
        "categories": [(CATEGORY_NAMES[c], CODES[c]) for c in categories],
        "tournaments": [{**t, "category": CATEGORY_NAMES[Category(t["category"])],
                         "status": statuses[t["status"]]} for t in data.tournaments]})


@require_safe
def national_club_json(request: HttpRequest, year: int, club: str) -> JsonResponse:
    """The club's page as JSON (:meth:`.services.ClubYear.to_json`)."""
    response = JsonResponse(_club_year(year, club).to_json(),
                            json_dumps_params={"ensure_ascii": False})
    response["Access-Control-Allow-Origin"] = "*"  # public, read-only data
    return response


@require_safe
def national_club_csv(request: HttpRequest, year: int, club: str) -> HttpResponse:
    """The club's players as CSV: the year list's CSV columns, its rows of the club."""
    ranking = services.ranking(year)
    data = _club_year(year, club, ranking)
    rows = ranking.csv_rows()
    ids = {str(p.national_id) for p in data.players}
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(
        [rows[0], *(r for r in rows[1:] if r[1] in ids)])
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="ranking-{year}-{data.club.slug}.csv"')
    return response


def _line(line: HistoryLine) -> dict[str, Any]:
    t = line.tournament
    return {"date": t.last_date, "name": t.name, "club": t.club,
            "category": CATEGORY_NAMES[t.category], "position": line.position,
            "points": _points(line.points), "counted": line.counted,
            "why": WHY[line.why], "below_min_tables": line.below_min_tables}


@require_safe
def national_player(request: HttpRequest, national_id: int) -> HttpResponse:
    """A player's history: every year he played, newest first."""
    player = NationalPlayer.objects.filter(national_id=national_id).first()
    if player is None:
        raise Http404
    years = set(NationalResult.objects.filter(
        player=player, revision__number=F("revision__tournament__current")).values_list(
        "revision__tournament__year", flat=True))
    waiting = list(NationalResult.objects.filter(
        player=player, revision__status=RevisionStatus.PUBLISHED,
        revision__number__gt=F("revision__tournament__current"))
        .values_list("revision__last_date__year", "revision__tournament__name")
        .order_by("revision__last_date", "revision_id"))
    years |= {y for y, _n in waiting}
    seasons = []
    for year in sorted(years, reverse=True):
        entry = next((p for p in services.ranking(year).players
                      if p.national_id == national_id), None)
        pending = [n for y, n in waiting if y == year]
        estimate = next((p for p in services.ranking(year, estimate=True).players
                         if p.national_id == national_id), None) if pending else None
        seasons.append({"year": year, "entry": entry,
                        "points": _points(entry.points) if entry else None,
                        "lines": [_line(h) for h in entry.history] if entry else [],
                        "pending": pending, "estimate": estimate,
                        "estimate_points": _points(estimate.points) if estimate else None})
    from .skill import rating_of

    return render(request, "national/player.html", {"player": player, "seasons": seasons,
                                                    "skill": rating_of(national_id)})
