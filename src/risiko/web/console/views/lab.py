"""The committee's lab page (issue 19 item 4): the closing dice of every ruleset (exact),
objectives and seat order from a few simulated games, and the luck of the dice in the
club's finished online games. Referees and the committee only; the figures come from
:mod:`risiko.lab` (no Django there), the plots from :mod:`risiko.web.labplots` when
matplotlib (the ``lab`` extra) is installed."""

from __future__ import annotations

import base64
from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from risiko import lab
from risiko.agents.levels import LEVELS
from risiko.faults import InvalidInputError
from risiko.ruleset import PRESETS, new_ruleset
from risiko.web import labplots
from risiko.web.clubs import request_club
from risiko.web.online.models import OnlineTable
from risiko.web.site.permissions import referee_required

#: finished online games read for the luck table (the newest)
LUCK_GAMES = 200
#: the most games the page simulates in one request (the CLI has no such limit)
MAX_GAMES = 200
#: the bot levels the page offers: the fast ones (a searching level takes up to a second a
#: decision; ``risiko analyse --bots N`` plays it from the command line)
PAGE_LEVELS = 2


class LabForm(forms.Form):
    """What to simulate: seats, games (0: none), the bots' level. Every field is optional:
    a field left out takes its default (``initial``), so a bad value is the only one named
    (``?seats=9`` names the seats, not the games and level it did not give)."""

    seats = forms.IntegerField(label=gettext_lazy("Seats"), min_value=3, max_value=6,
                               initial=4, required=False)
    games = forms.IntegerField(label=gettext_lazy("Games to simulate"), min_value=0,
                               max_value=MAX_GAMES, initial=0, required=False)
    level = forms.TypedChoiceField(label=gettext_lazy("Bots' level"), coerce=int, initial=2,
                                   required=False, empty_value=None,
                                   choices=[(k, f"{k} ({LEVELS[k]})") for k in sorted(LEVELS)
                                            if k <= PAGE_LEVELS])

    def clean(self) -> dict[str, Any]:
        """The values given, and the default of each field left out or empty."""
        cleaned: dict[str, Any] = super().clean() or {}
        for name, field in self.fields.items():
            if name in cleaned and cleaned[name] in (None, ""):
                cleaned[name] = field.initial
        return cleaned


def _svg(fig: Any) -> SafeString:
    """matplotlib's own SVG as an image (a ``data:`` URI, which the CSP's img-src allows):
    inline, its style attributes would break the page's Content Security Policy. The
    figure's title is the image's text for screen readers."""
    text = labplots.svg_text(fig)
    title = next((t.get_text() for t in fig.texts), "") or next(
        (a.get_title() for a in fig.axes if a.get_title()), "")
    data = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return format_html('<img class="lab-plot-img" src="data:image/svg+xml;base64,{}" alt="{}">',
                       data, title)


def _closing(seats: int, plots: bool) -> tuple[list[dict[str, Any]], SafeString | None]:
    rows: list[dict[str, Any]] = []
    series: dict[str, list[float]] = {}
    for name in PRESETS:
        rs = new_ruleset(name)
        exact = lab.closing_exact(rs, seats, rows=6)
        rows.append({"ruleset": rs.label, "rows": exact.rows, "mean": exact.mean_rounds,
                     "after": exact.mean_after_call})
        series[rs.label] = [x.p_end for x in exact.rows]
    fig = None
    if plots:
        fig = _svg(labplots.line_chart(
            range(1, 7), series,
            title=_("Closing dice (R2): chance the game ends in each closing round"),
            xlabel=_("Closing round"), ylabel=_("Probability")))
    return rows, fig


def _bars(rows: list[dict[str, Any]], labels: list[str], title: str, xlabel: str,
          fair: float) -> SafeString:
    return _svg(labplots.bar_chart(
        labels, [r["win_rate"]["value"] for r in rows],
        lows=[r["win_rate"]["low"] for r in rows], highs=[r["win_rate"]["high"] for r in rows],
        title=title, xlabel=xlabel, ylabel=_("Win rate"), lines=[fair]))


def _luck(plots: bool, club: Any) -> tuple[list[lab.SeatLuck], int, list[str],
                                          SafeString | None]:
    """The luck of ``club``'s finished online games (issue 21 item 1: its tables only)."""
    texts = list(OnlineTable.objects.filter(status="over", club=club).exclude(record="")
                 .order_by("-finished", "-pk").values_list("record", flat=True)[:LUCK_GAMES])
    games: list[list[lab.SeatLuck]] = []
    bad: list[str] = []
    for text in texts:
        try:
            games.append(lab.luck_of_record(text))
        except InvalidInputError as e:  # a record that no longer replays: named, skipped
            bad.append(str(e))
    rows = lab.merge_luck(games)
    fig = None
    if plots and rows:
        fig = _svg(labplots.bar_chart(
            [r.player for r in rows], [r.z for r in rows], title=_("Luck of the dice"),
            xlabel=_("Player"), ylabel=_("Luck index (z)"), lines=[-2, 0, 2]))
    return rows, len(games), bad, fig


@referee_required
def lab_page(request: HttpRequest) -> HttpResponse:
    """The lab: GET ``seats`` (3..6), ``games`` (0..200; 0 = no simulation), ``level`` (a
    bot level) — a bad value is shown on the form (status 400)."""
    form = LabForm(request.GET or None)
    plots = labplots.available()
    seats, games, level = 4, 0, 2
    if request.GET:
        if not form.is_valid():
            return _render(request, form, plots, 4, 0, 2, status=400)
        seats, games, level = (form.cleaned_data["seats"], form.cleaned_data["games"],
                               form.cleaned_data["level"])
    return _render(request, form, plots, seats, games, level)


def _render(request: HttpRequest, form: LabForm, plots: bool, seats: int, games: int,
            level: int, status: int = 200) -> HttpResponse:
    closing, closing_svg = _closing(seats, plots)
    context: dict[str, Any] = {
        "form": form, "plots": plots, "seats": seats, "closing": closing,
        "closing_svg": closing_svg, "games": games, "bot": LEVELS[level],
    }
    if games and status == 200:
        spec = lab.SimSpec((LEVELS[level],) * seats, new_ruleset(None).label, 8, False, 1)
        facts = lab.run_games(spec, games, workers=1)  # one process: no pool inside a server
        seat_rows = lab.seats_table(facts)
        obj_rows = lab.objectives_table(facts)
        context.update(sim=lab.closing_simulated(facts), seat_rows=seat_rows,
                       obj_rows=obj_rows, ruleset=spec.ruleset)
        if plots:
            context.update(
                seats_svg=_bars(seat_rows, [str(r["seat"]) for r in seat_rows],
                                _("Win rate by seat, with its confidence interval"),
                                _("Seat"), 1 / seats),
                obj_svg=_bars(obj_rows, [str(r["objective"]) for r in obj_rows],
                              _("Win rate by objective, with its confidence interval"),
                              _("Objective"), 1 / seats))
    luck, luck_games, bad, luck_svg = _luck(plots, request_club(request))
    context.update(luck=luck, luck_games=luck_games, luck_bad=bad, luck_svg=luck_svg)
    return render(request, "console/lab.html", context, status=status)
