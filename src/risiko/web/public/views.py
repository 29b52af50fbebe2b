"""The public pages (no login, read only: GET and HEAD, anything else is 405).

The current tournament (the most recent with ``is_current``; without one, the most recent)
at stable addresses - ``/classifica/``, ``/serate/``, ``/giocatori/``, ``/finali/`` - and
every tournament by slug under ``/t/<slug>/``; the home page; the JSON API. Everything shown
is computed from the recorded facts (:mod:`.data`, cached until the next change).
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

from django.conf import settings
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from risiko.names import clean_name
from risiko.web.collation import display_key
from risiko.web.tournaments.models import Tournament

from . import data, polled, skill, texts
from .chart import points_chart

# ------------------------------------------------------------------------------ lookups


def current_tournament() -> Tournament | None:
    """The most recent tournament marked current; without one, the most recent (None when
    there is no tournament at all)."""
    return Tournament.objects.current_or_newest()


def _by_slug(slug: str) -> Tournament:
    t = Tournament.objects.by_slug(slug)
    if t is None:
        raise Http404("no such tournament")
    return t


def _base(request: HttpRequest, t: Tournament, snap: data.Snapshot, tab: str,
          **extra: Any) -> dict[str, Any]:
    """What every page of a tournament needs: the tournament, its tabs, the links."""
    report = snap.report
    semifinal_held = any(e.stage == "semifinal" for e in snap.domain.evenings)
    context = {
        "tournament": t,
        "snap": snap,
        "report": report,
        "tab": tab,
        "player_base": reverse("tournament_players", args=[t.slug]),
        "evening_base": reverse("tournament_evenings", args=[t.slug]),
        "semifinal_held": semifinal_held,
        "has_stages": bool(report["semifinal_tables"] or report["finalists"]
                           or report["final_standings"]),
        # a penalty's reason and referee on the public pages: the club decides
        "penalty_details": bool(getattr(settings, "RISIKO_PUBLIC_PENALTY_DETAILS", False)),
    }
    context.update(extra)
    return context


# ------------------------------------------------------------------------------ standings


def _standings_context(request: HttpRequest, t: Tournament) -> dict[str, Any]:
    snap = data.snapshot(t)
    report = snap.report
    semifinalists = {p: n for n, table in enumerate(report["semifinal_tables"] or [], 1)
                     for p in table}
    tie_breaks = [texts.tie_break_label(m) for m in report["format"]["tie_breaks"]]
    if tie_breaks and report["format"]["tie_breaks"][0] == "points":
        tie_breaks = tie_breaks[1:]
    return _base(
        request, t, snap, "standings",
        tie_breaks=", ".join(f"{i}. {label}" for i, label in enumerate(tie_breaks, 1)),
        rows=snap.rows,
        ranking_line=texts.ranking_line(report["format"]),
        # formulas other than Club Milano's: table points, bonus and wins beside the points
        show_bonus=(report["format"].get("ranking_points") or {}).get("formula",
                                                                      "table") != "table",
        semifinalists=semifinalists,
        live_url=reverse("standings_live", args=[t.slug]),
        evenings_played=sum(1 for e in snap.domain.stage_evenings("qualifying")
                            if any(tb.played for tb in e.tables)),
    )


def _standings_page(request: HttpRequest, t: Tournament, **extra: Any) -> HttpResponse:
    context = _standings_context(request, t)
    context.update(extra)
    return render(request, "public/standings.html", context)


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The current tournament's standings when exactly one tournament is current; else the
    list of tournaments."""
    current = list(Tournament.objects.newest_first().filter(is_current=True)[:2])
    if len(current) == 1:
        others = list(Tournament.objects.newest_first())
        return _standings_page(request, current[0],
                               tournaments=others if len(others) > 1 else [])
    return tournaments(request)


@require_safe
def tournaments(request: HttpRequest) -> HttpResponse:
    """Every tournament, newest first."""
    rows = Tournament.objects.newest_first()
    return render(request, "public/tournaments.html", {"tournaments": rows})


@require_safe
def standings(request: HttpRequest) -> HttpResponse:
    """``/classifica/``: the current tournament's standings."""
    t = current_tournament()
    if t is None:
        return tournaments(request)
    return _standings_page(request, t)


@require_safe
def tournament_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """``/t/<slug>/``: a tournament's standings."""
    return _standings_page(request, _by_slug(slug))


@require_safe
def standings_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings table alone, polled by the page every 10 s (htmx)."""
    t = _by_slug(slug)
    context = _standings_context(request, t)
    response = render(request, "public/_standings_live.html", context)
    response["Cache-Control"] = "no-cache"
    polled.offer(request, t.pk, context["snap"].key, clock=True)  # the next: at the door
    return response


# ------------------------------------------------------------------------------ stages


def _finals_page(request: HttpRequest, t: Tournament) -> HttpResponse:
    snap = data.snapshot(t)
    report = snap.report
    stage_dates = {e.stage: e.date for e in snap.summaries if e.stage != "qualifying"}
    semifinal = snap.evening(stage_dates["semifinal"]) if "semifinal" in stage_dates else None
    final = snap.evening(stage_dates["final"]) if "final" in stage_dates else None
    sf_scores = _stage_scores(semifinal)
    after = []
    for position, player in enumerate(report["after_semifinal"] or [], start=1):
        row = snap.row_of.get(player)
        qualifying = row["points"] if row else 0
        table, ranking = sf_scores.get(player, (None, 0))
        after.append({
            "position": position, "player": player, "qualifying": qualifying,
            "table": table, "ranking": ranking,
            "total": qualifying + (table or 0) + ranking if player in sf_scores else None,
        })
    final_scores = _stage_scores(final)
    fmt = report["format"]
    layout = ""
    if not fmt["ripescati"]:
        direct = fmt["direct_to_final"]
        layout = "; ".join(
            _("table %(n)s: %(positions)s") % {
                "n": n, "positions": ", ".join(str(p + direct) for p in table)}
            for n, table in enumerate(fmt["semifinal_tables"], start=1))
    return render(request, "public/finals.html", _base(
        request, t, snap, "finals",
        semifinal=semifinal, final=final, after=after, semifinal_layout=layout,
        semifinal_scores={p: s for p, (s, _r) in sf_scores.items()},
        final_scores={p: s for p, (s, _r) in final_scores.items()},
    ))


def _stage_scores(evening: data.EveningView | None) -> dict[str, tuple[int | None, int]]:
    """player -> (table score, ranking points of the evening) at a stage evening."""
    if evening is None:
        return {}
    out: dict[str, tuple[int | None, int]] = {}
    for table in evening.tables:
        for seat in table.seats:
            out[seat.player] = (seat.score, 0)
    for p in evening.penalties:
        score, ranking = out.get(p.player, (None, 0))
        out[p.player] = (score, ranking + p.effective)
    return out


@require_safe
def finals(request: HttpRequest) -> HttpResponse:
    """``/finali/``: the current tournament's semifinal and final."""
    t = current_tournament()
    if t is None:
        return tournaments(request)
    return _finals_page(request, t)


@require_safe
def tournament_finals(request: HttpRequest, slug: str) -> HttpResponse:
    """``/t/<slug>/finali/``: semifinal tables, order after the semifinal, finalists, the
    final and the final standings."""
    return _finals_page(request, _by_slug(slug))


# ------------------------------------------------------------------------------ evenings


def _evenings_page(request: HttpRequest, t: Tournament) -> HttpResponse:
    snap = data.snapshot(t)
    return render(request, "public/evenings.html",
                  _base(request, t, snap, "evenings", evenings=snap.summaries))


@require_safe
def evenings(request: HttpRequest) -> HttpResponse:
    """``/serate/``: the current tournament's evenings."""
    t = current_tournament()
    if t is None:
        return tournaments(request)
    return _evenings_page(request, t)


@require_safe
def tournament_evenings(request: HttpRequest, slug: str) -> HttpResponse:
    """``/t/<slug>/serate/``: the evenings, newest first."""
    return _evenings_page(request, _by_slug(slug))


@require_safe
def tournament_evening(request: HttpRequest, slug: str, date: _dt.date) -> HttpResponse:
    """``/t/<slug>/serate/<YYYY-MM-DD>/``: tables with every seat's score, arrivals,
    penalties."""
    t = _by_slug(slug)
    snap = data.snapshot(t)
    evening = snap.evening(date)
    if evening is None:
        raise Http404("no evening on that date")
    dates = sorted(e.date for e in snap.summaries)
    i = dates.index(date)
    return render(request, "public/evening.html", _base(
        request, t, snap, "evenings", evening=evening,
        previous=dates[i - 1] if i > 0 else None,
        next=dates[i + 1] if i + 1 < len(dates) else None,
    ))


# ------------------------------------------------------------------------------ players


def _players_page(request: HttpRequest, t: Tournament) -> HttpResponse:
    snap = data.snapshot(t)
    players = sorted(snap.domain.player_names, key=display_key)  # Italian order
    rows = [(name, snap.row_of.get(name)) for name in players]
    return render(request, "public/players.html",
                  _base(request, t, snap, "players", players=rows))


@require_safe
def players(request: HttpRequest) -> HttpResponse:
    """``/giocatori/``: the current tournament's players."""
    t = current_tournament()
    if t is None:
        return tournaments(request)
    return _players_page(request, t)


@require_safe
def tournament_players(request: HttpRequest, slug: str) -> HttpResponse:
    """``/t/<slug>/giocatori/``: the players, by name, with rank and points."""
    return _players_page(request, _by_slug(slug))


@require_safe
def tournament_player(request: HttpRequest, slug: str, name: str) -> HttpResponse:
    """``/t/<slug>/giocatori/<name>/``: a player's games, penalties and a chart of his
    ranking points evening by evening. An address whose name is the stored one written
    otherwise in Unicode (``E`` + a combining grave accent for ``È``, NFD; extra spaces) is
    sent (301) to the stored name's address (NFC, :func:`risiko.names.clean_name`); the case
    counts (``/alba/`` is not Alba's page)."""
    t = _by_slug(slug)
    snap = data.snapshot(t)
    stored = clean_name(name)
    if stored != name and stored in snap.domain.player_names:
        return redirect("tournament_player", t.slug, stored, permanent=True)
    if name not in snap.domain.player_names:
        raise Http404("no such player in this tournament")
    report = snap.report
    history = snap.history.get(name, [])
    semifinal_table = next((n for n, table in enumerate(report["semifinal_tables"] or [], 1)
                            if name in table), None)
    finalists = report["finalists"] or []
    final_standings = report["final_standings"] or []
    after = report["after_semifinal"] or []
    return render(request, "public/player.html", _base(
        request, t, snap, "players",
        player=name,
        row=snap.row_of.get(name),
        games=snap.games_of(name),
        penalties=snap.penalties_of(name),
        history=history,
        chart=points_chart(name, history),
        semifinal_table=semifinal_table,
        after_position=after.index(name) + 1 if name in after else None,
        seat_choice=finalists.index(name) + 1 if name in finalists else None,
        final_position=final_standings.index(name) + 1 if name in final_standings else None,
        skill=skill.rating_of(name),
    ))


# ------------------------------------------------------------------------------ JSON API


def _json(payload: Any, status: int = 200) -> JsonResponse:
    response = JsonResponse(payload, status=status, safe=False,
                            json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/json; charset=utf-8"
    response["Access-Control-Allow-Origin"] = "*"  # public, read-only data
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def api_tournaments(request: HttpRequest) -> JsonResponse:
    """``/api/tournaments``: every tournament, newest first: ``id, slug, name, ruleset``
    (``name@version``), ``players`` and ``evenings`` (how many), ``is_current``."""
    rows = Tournament.objects.order_by("-created", "-pk").annotate(
        n_players=Count("entries", distinct=True), n_evenings=Count("evenings", distinct=True)
    )
    return _json([
        {"id": t.pk, "slug": t.slug, "name": t.name, "ruleset": t.ruleset_label,
         "players": t.n_players, "evenings": t.n_evenings,
         "is_current": t.is_current}
        for t in rows
    ])


STAGE_KEYS = ("semifinal_tables", "direct_to_final", "after_semifinal", "finalists",
              "final_winner", "final_standings", "pending", "faults")


@require_safe
def api_standings(request: HttpRequest, key: str) -> JsonResponse:
    """``/api/tournaments/<id or slug>/standings``: ``standings`` as in ``risiko season
    --json`` (``rank, player, points, games, risiko, best, penalties, eligible``) and the
    stage keys (``semifinal_tables`` ... ``pending``, and ``faults``: what the report waits
    for as values)."""
    qs = Tournament.objects.all()
    numeric = key.isascii() and key.isdigit() and len(key) < 19  # "²" is a digit too
    t = qs.filter(pk=int(key)).first() if numeric else None
    t = t or (qs.filter(slug=key).first() if "\x00" not in key else None)
    if t is None:
        return _json({"error": f"no tournament {key[:80]!r}"}, status=404)
    snap = data.snapshot(t)
    report = snap.report
    payload: dict[str, Any] = {
        "id": t.pk, "slug": t.slug, "name": t.name, "ruleset": report["ruleset"],
        "format": report["format"], "standings": report["standings"],
    }
    payload.update({k: report[k] for k in STAGE_KEYS})
    polled.offer(request, t.pk, snap.key)  # the next request alike: answered at the door
    return _json(payload)
