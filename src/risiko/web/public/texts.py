"""Words of the domain in the page's language: stages, R3 classes, appeal outcomes, and the
``pending`` lines of the season report (English sentences of :mod:`risiko.tournament.finals`,
recognised and translated; a line not recognised is shown as it is, marked English)."""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Callable

from django.utils import dateformat
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import pgettext


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


def _split_names(text: str) -> list[str]:
    head, _sep, last = text.rpartition(" and ")
    return [*head.split(", "), last] if head else [last]


def _date(text: str) -> str:
    try:
        return long_date(_dt.date.fromisoformat(text))
    except ValueError:
        return text


def _stage_word(stage: str) -> str:
    return stage_label(stage)


_PENDING: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (re.compile(r"evening (\d{4}-\d\d-\d\d) \((\w+)\), table (\d+): no result yet"),
     lambda m: _("Evening of %(date)s (%(stage)s), table %(table)s: no result yet")
     % {"date": _date(m[1]), "stage": stage_label(m[2]).lower(), "table": m[3]}),
    (re.compile(r"semifinal: (\d+) eligible players are ranked; the semifinal needs (\d+)"),
     lambda m: _("Semifinal: %(count)s eligible players are ranked, the semifinal needs "
                 "%(need)s") % {"count": m[1], "need": m[2]}),
    (re.compile(r"final: (\d+) players are ranked; the final needs (\d+)"),
     lambda m: _("Final: %(count)s players are ranked, the final needs %(need)s")
     % {"count": m[1], "need": m[2]}),
    (re.compile(r"(semifinal|final): (.+) share the (\d+)(?:st|nd|rd|th) place .*, across "
                r"a cut of the (?:semifinal|final): record a draw of lots.*"),
     lambda m: _("%(stage)s: %(players)s share position %(place)s across a cut: waiting "
                 "for a draw of lots") % {"stage": _stage_word(m[1]),
                                          "players": join_names(_split_names(m[2])),
                                          "place": m[3]}),
    (re.compile(r"after the semifinal: waiting for the result of semifinal table (.+)"),
     lambda m: _("Order after the semifinal: waiting for the result of semifinal table "
                 "%(tables)s") % {"tables": join_names(_split_names(m[1]))}),
    (re.compile(r"after the semifinal: no semifinal evening yet"),
     lambda m: _("Order after the semifinal: no semifinal evening yet")),
    (re.compile(r"final standings: waiting for the result of the final"),
     lambda m: _("Final standings: waiting for the result of the final")),
    (re.compile(r"final standings: no final evening yet"),
     lambda m: _("Final standings: no final evening yet")),
]


def pending_line(text: str) -> SafeString:
    """One ``pending`` line of the season report in the page's language (HTML)."""
    for pattern, render in _PENDING:
        match = pattern.fullmatch(text)
        if match:
            return format_html("{}", render(match))
    return format_html('<span lang="en">{}</span>', text)
