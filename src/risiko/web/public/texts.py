"""Words of the domain in the page's language: stages, R3 classes, appeal outcomes, and what
the season report waits for (the values of its ``faults`` list, rendered by their code with
this app's catalogue; any other code in the words of :mod:`risiko.faults`)."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.utils import dateformat
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.text import capfirst
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from risiko.faults import Fault
from risiko.tournament.ranking import RankingPoints, format_points
from risiko.web.core import choices


def long_date(day: _dt.date) -> str:
    """``9 Marzo 2027`` / ``March 9, 2027``."""
    return dateformat.format(day, pgettext("date format", "F j, Y"))


def short_date(day: _dt.date) -> str:
    """``9 Mar 2027`` / ``9 Mar 2027``."""
    return dateformat.format(day, pgettext("short date format", "j M Y"))


def stage_label(stage: str) -> str:
    """Qualificazione, Semifinale, Finale: the stage's word (:mod:`risiko.web.core.choices`)
    as a badge says it (or the stage as it is)."""
    return capfirst(choices.label(choices.Stage, stage))


def arrival_label(arrival_class: str) -> str:
    """R3: in orario, in ritardo, escluso (:mod:`risiko.web.core.choices`)."""
    return choices.label(choices.ArrivalClass, arrival_class)


def appeal_label(outcome: str) -> str:
    """The outcome of an appeal on a penalty: "ricorso: accolto in parte, penalità ridotta"
    (the outcome's word from :mod:`risiko.web.core.choices`)."""
    return _("appeal: %(outcome)s") % {
        "outcome": choices.label(choices.AppealOutcome, outcome)}


def unit_label(unit: str) -> str:
    """A penalty's points: punti tavolo, punti classifica (:mod:`risiko.web.core.choices`)."""
    return choices.label(choices.PenaltyUnit, unit)


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
        "wins": _("more tables won"),
        "best_win": _("the better best winning score"),
        "second_best": _("the better second best table score"),
        "third_best": _("the better third best table score"),
        "best_ranking": _("the better best ranking points of one table"),
        "second_best_ranking": _("the better second best ranking points of one table"),
        "third_best_ranking": _("the better third best ranking points of one table"),
        "previous_position": _("the better position after the previous evening"),
        "total_without_discards": _("more points without discards"),
        "bonus": _("more bonus points"),
    }.get(metric, metric)


def points_text(value: Any) -> str:
    """A ranking figure in the page's language (``598,5`` in Italian, ``598.5`` in English;
    whole numbers without decimals)."""
    if value is None:
        return ""
    return format_points(Decimal(str(value)), get_language() or "it")


def _factors(rp: RankingPoints, winner_only: bool = False) -> str:
    out = ""
    names = rp.spec.params
    five = rp.get("five_seat_factor") if "five_seat_factor" in names else None
    three = rp.get("three_seat_factor") if "three_seat_factor" in names else None
    if five is not None and five != 1:
        out += _(", ×%(factor)s at 5-player tables") % {"factor": points_text(five)}
    if three is not None and three != 1:
        out += _(", ×%(factor)s at 3-player tables") % {"factor": points_text(three)}
    if "cap" in names and rp.get("cap") is not None:
        if "cap_players" in names and rp.get("cap_players") == "winners":
            out += _(", the winner's at most %(cap)s table points") % {
                "cap": points_text(rp.get("cap"))}
        else:
            out += _(", at most %(cap)s table points") % {"cap": points_text(rp.get("cap"))}
    return out


def formula_line(rp: RankingPoints) -> str:
    """How one table's scores become ranking points (the format's formula with its
    parameters), in the page's language."""
    name = rp.formula
    if name == "win_bonus":
        if rp.get("share") == "full":
            sharing = _(", the full bonus to each tied winner")
        else:
            sharing = _(", shared by tied winners")
        if rp.get("max_sharing") is not None:
            sharing += _(" (nothing when more than %(n)s tie)") % {"n": rp.get("max_sharing")}
        return _("Ranking points: table points%(factors)s, + %(bonus)s to the table's "
                 "winner%(sharing)s.") % {"factors": _factors(rp),
                                           "bonus": points_text(rp.get("win_bonus")),
                                           "sharing": sharing}
    if name == "thousandths":
        return _("Ranking points: table points / %(divisor)s%(factors)s, + %(win)s to the "
                 "table's winner (a RisiKo! counts as the most table points).") % {
            "divisor": points_text(rp.get("divisor")), "factors": _factors(rp),
            "win": points_text(rp.get("win_point"))}
    if name == "placement_bonus":
        return _("Ranking points: a bonus by place at the table (%(alive)s; eliminated "
                 "players %(out)s) + table points / %(divisor)s%(factors)s.") % {
            "alive": "/".join(points_text(v) for v in rp.get("placement_bonus")),
            "out": "/".join(points_text(v) for v in rp.get("eliminated_bonus")),
            "divisor": points_text(rp.get("divisor")), "factors": _factors(rp)}
    if name == "winner_gap":
        line = _("Ranking points: the table's winner %(base)s + his table points, the "
                 "others %(base)s minus their gap to the winner.") % {
            "base": points_text(rp.get("base"))}
        if rp.get("risiko_points") is not None:
            line += " " + _("A RisiKo! counts %(points)s table points.") % {
                "points": points_text(rp.get("risiko_points"))}
        return line
    if name == "placement":
        return _("Ranking points by place at the table and table size; a shared place "
                 "shares the points of the places it covers.")
    return _("Ranking points: the table points of each qualifying evening.")


def discards_line(fmt: Mapping[str, Any]) -> str:
    """What is discarded (best N, the worst evenings from an evening on), or ``""``."""
    if fmt.get("best_of") is not None:
        n = fmt["best_of"]
        return ngettext("Only the best table counts.", "Only the best %(n)s tables count.",
                        n) % {"n": n}
    worst = fmt.get("discard_worst") or 0
    if not worst:
        return ""
    text = ngettext("The worst evening is discarded", "The %(n)s worst evenings are "
                    "discarded", worst) % {"n": worst}
    start = fmt.get("discard_from_evening") or 0
    if start:
        text += _(" once %(n)s qualifying evenings have been held") % {"n": start}
    return text + "."


def ranking_line(fmt: Mapping[str, Any]) -> str:
    """How the standings are computed, in one line of the page's language: the formula,
    the discards (the tie-breaks are said next to it). ``fmt`` is the JSON form of the
    format (a season report's ``format``)."""
    try:
        rp = RankingPoints.from_dict(fmt.get("ranking_points"), str(fmt.get("name", "?")))
    except ValueError:
        rp = RankingPoints()
    return " ".join(t for t in (formula_line(rp), discards_line(fmt)) if t)


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
