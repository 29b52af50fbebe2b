"""Words of the domain in the page's language: stages, R3 classes, appeal outcomes, and what
the season report waits for (the values of its ``faults`` list, rendered by their code with
this app's catalogue; any other code in the words of :mod:`risiko.faults`)."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from typing import Any

from django.utils import dateformat
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from risiko.faults import Fault


def long_date(day: _dt.date) -> str:
    """``9 Marzo 2027`` / ``March 9, 2027``."""
    return dateformat.format(day, pgettext("date format", "F j, Y"))


def short_date(day: _dt.date) -> str:
    """``9 Mar 2027`` / ``9 Mar 2027``."""
    return dateformat.format(day, pgettext("short date format", "j M Y"))


def stage_label(stage: str) -> str:
    """Qualifying, Semifinal, Final (or the stage as it is)."""
    return {
        "qualifying": pgettext("stage", "Qualifying"),
        "semifinal": pgettext("stage", "Semifinal"),
        "final": pgettext("stage", "Final"),
    }.get(stage, stage)


def arrival_label(arrival_class: str) -> str:
    """R3: on time, late, excluded."""
    return {
        "on_time": _("on time"),
        "late": _("late"),
        "excluded": _("excluded"),
    }.get(arrival_class, arrival_class)


def appeal_label(outcome: str) -> str:
    """The outcome of an appeal on a penalty."""
    return {
        "upheld": _("appeal rejected"),
        "reduced": _("reduced on appeal"),
        "annulled": _("annulled on appeal"),
    }.get(outcome, outcome)


def tie_break_label(metric: str) -> str:
    """A tie-break of the format (a metric of ``risiko.tournament.standings.METRICS``)."""
    return {
        "points": _("more points"),
        "risiko": _("more RisiKo! (objectives completed)"),
        "best": _("the better best table score"),
        "penalties": _("fewer ranking penalty points"),
        "games": _("more games played"),
        "table_points": _("more table points"),
        "carry_over": _("more points carried over"),
        "fewer_games": _("fewer games played"),
    }.get(metric, metric)


def join_names(names: list[str]) -> str:
    """``A, B and C`` in the page's language."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " " + _("and") + " " + names[-1]


def _date(text: str) -> str:
    try:
        return long_date(_dt.date.fromisoformat(text))
    except ValueError:
        return text


_SHARED = ("stage.shared_place_qualifying", "stage.shared_place_ripescato",
           "stage.shared_place_after_semifinal")


def _pending_text(f: Fault) -> str:
    p, s = f.params, f.subjects
    if f.code == "stage.no_result":
        return _("Evening of %(date)s (%(stage)s), table %(table)s: no result yet") % {
            "date": _date(str(s.get("evening", ""))),
            "stage": stage_label(str(s.get("stage", ""))).lower(), "table": s.get("table")}
    if f.code == "stage.too_few_eligible":
        return _("Semifinal: %(count)s eligible players are ranked, the semifinal needs "
                 "%(need)s") % {"count": p["count"], "need": p["need"]}
    if f.code == "stage.too_few_ranked":
        return _("Final: %(count)s players are ranked, the final needs %(need)s") % {
            "count": p["count"], "need": p["need"]}
    if f.code in _SHARED:
        return _("%(stage)s: %(players)s share position %(place)s across a cut: waiting "
                 "for a draw of lots") % {"stage": stage_label(str(s.get("stage", ""))),
                                          "players": join_names(list(p["players"])),
                                          "place": p["place"]}
    if f.code == "stage.waiting_semifinal":
        return _("Order after the semifinal: waiting for the result of semifinal table "
                 "%(tables)s") % {"tables": join_names([str(n) for n in p["tables"]])}
    if f.code == "stage.no_semifinal_evening":
        return _("Order after the semifinal: no semifinal evening yet")
    if f.code == "stage.waiting_final":
        return _("Final standings: waiting for the result of the final")
    if f.code == "stage.no_final_evening":
        return _("Final standings: no final evening yet")
    return f.message(get_language() or "it")


def pending_line(fault: Fault | Mapping[str, Any]) -> SafeString:
    """One thing the season report waits for (a value of its ``faults`` list, by code) in
    the page's language (HTML)."""
    f = fault if isinstance(fault, Fault) else Fault.from_dict(fault)
    return format_html("{}", _pending_text(f))
