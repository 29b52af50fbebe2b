"""Exports (standings CSV and JSON, the season file), the print-friendly standings and the
audit log of a tournament."""

from __future__ import annotations

import io
import json
from typing import Any

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from risiko import csvcells
from risiko.web import services
from risiko.web.auditlog.models import AuditEntry
from risiko.web.public import data
from risiko.web.site.permissions import referee_required

from ..audit_words import action_text, data_text, summary_text
from ..common import tournament_or_404

#: the columns of the standings CSV; table_points, bonus and wins come last, after the
#: columns a reader of the older export knows
CSV_COLUMNS = ("rank", "player", "points", "games", "risiko", "best", "penalties", "eligible",
               "table_points", "bonus", "wins")


def _download(body: str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@referee_required
def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The general ranking as CSV (the columns of ``risiko season --json``'s rows)."""
    t = tournament_or_404(slug)
    buf = io.StringIO()
    writer = csvcells.writer(buf, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in data.snapshot(t, fresh=True).season["standings"]:
        writer.writerow(["" if row[c] is None else row[c] for c in CSV_COLUMNS])
    return _download(buf.getvalue(), "text/csv; charset=utf-8", f"{t.slug}-classifica.csv")


@referee_required
def standings_json(request: HttpRequest, slug: str) -> HttpResponse:
    """The ranking and the stages as JSON (``risiko season --json`` without the evenings)."""
    t = tournament_or_404(slug)
    report = {k: v for k, v in data.snapshot(t, fresh=True).season.items() if k != "evenings"}
    return _download(json.dumps(report, ensure_ascii=False, indent=1),
                     "application/json", f"{t.slug}-classifica.json")


@referee_required
def season_export(request: HttpRequest, slug: str) -> HttpResponse:
    """The season file (``risiko season FILE`` reads it; the committee can import it)."""
    t = tournament_or_404(slug)
    return _download(json.dumps(services.export_season(t), ensure_ascii=False, indent=1),
                     "application/json", f"{t.slug}.json")


@referee_required
def standings_print(request: HttpRequest, slug: str) -> HttpResponse:
    """The ranking (and the final standings once known) on a printable page."""
    t = tournament_or_404(slug)
    snap = data.snapshot(t, fresh=True)
    return render(request, "console/standings_print.html",
                  {"t": t, "snap": snap, "report": snap.season})


@referee_required
def audit(request: HttpRequest, slug: str) -> HttpResponse:
    """Who changed what, when, in this tournament (newest first, 100 a page)."""
    t = tournament_or_404(slug)
    entries = AuditEntry.objects.filter(tournament=t.name).order_by("-when", "-id")
    page = Paginator(entries, 100).get_page(request.GET.get("page"))
    rows: list[dict[str, Any]] = [
        {"entry": e, "action": action_text(e), "summary": summary_text(e),
         "data": data_text(e.data or {})}
        for e in page.object_list
    ]
    return render(request, "console/audit.html",
                  {"t": t, "tab": "audit", "page": page, "rows": rows})
