"""A line chart of a player's ranking points, evening by evening, drawn as inline SVG on the
server (no JavaScript): :func:`points_chart` gives the geometry, ``public/_chart.html`` draws
it with a title, a description and a tooltip per evening."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils import dateformat, formats
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from risiko.tournament.ranking import Number

from .data import Point
from .texts import long_date, points_text

WIDTH = 420  # user units: on a phone about as many pixels, so 13-unit text stays legible
HEIGHT = 230
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 12, 30
MAX_X_LABELS = 6


@dataclass(frozen=True)
class Dot:
    """One evening: position, the points and rank shown, its label (date)."""

    x: float
    y: float
    points: Number
    rank: int
    label: str
    tooltip: str


@dataclass(frozen=True)
class Tick:
    """An axis tick: position, label and its ``anchor`` (SVG text-anchor)."""

    at: float
    label: str
    anchor: str = "middle"


@dataclass(frozen=True)
class Chart:
    """The drawing: ``line`` (the polyline's points), ``dots``, axis ticks, the plot box and
    the accessible ``title`` and ``description``."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    line: str
    dots: tuple[Dot, ...]
    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]
    zero: float | None
    title: str
    description: str


def nice_step(span: float, ticks: int = 5) -> int:
    """A round step (1, 2, 5 x 10^k) giving about ``ticks`` intervals over ``span``."""
    if span <= 0:
        return 1
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * power >= raw:
            return max(1, int(m * power))
    return max(1, int(10 * power))  # pragma: no cover


def points_chart(player: str, points: Sequence[Point]) -> Chart | None:
    """The chart of ``player``'s points after each evening (None without any)."""
    if not points:
        return None
    values = [float(p.points) for p in points]
    low, high = min(0, *values), max(0, *values)
    step = nice_step(high - low)
    low = math.floor(low / step) * step
    high = max(math.ceil(high / step) * step, low + step)
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def y_of(v: float) -> float:
        return round(TOP + plot_h * (high - v) / (high - low), 1)

    def x_of(i: int) -> float:
        if len(points) == 1:
            return LEFT + plot_w / 2
        return round(LEFT + plot_w * i / (len(points) - 1), 1)

    dots = []
    for i, p in enumerate(points):
        date = long_date(p.date)
        tooltip = _("%(date)s: %(points)s points, rank %(rank)s") % {
            "date": date, "points": points_text(p.points), "rank": p.rank}
        dots.append(Dot(x_of(i), y_of(float(p.points)), p.points, p.rank,
                        dateformat.format(p.date, pgettext("chart date format", "j M")), tooltip))
    every = max(1, math.ceil(len(points) / MAX_X_LABELS))
    shown = list(range(0, len(dots), every))
    if shown[-1] != len(dots) - 1:  # the last evening is always labelled
        if len(shown) > 1 and len(dots) - 1 - shown[-1] < every / 2:
            shown[-1] = len(dots) - 1
        else:
            shown.append(len(dots) - 1)
    x_ticks = tuple(
        Tick(dots[i].x, dots[i].label,
             "start" if dots[i].x <= LEFT else "end" if dots[i].x >= WIDTH - RIGHT else "middle")
        for i in shown)
    y_ticks = tuple(Tick(y_of(v), formats.number_format(v), "end")
                    for v in range(int(low), int(high) + 1, step))
    first, last = points[0], points[-1]
    title = _("Ranking points of %(player)s, evening by evening") % {"player": player}
    if len(points) == 1:
        description = _("%(points)s points after the evening of %(date)s (rank %(rank)s).") % {
            "points": points_text(last.points), "rank": last.rank,
            "date": long_date(last.date)}
    else:
        description = _(
            "From %(first)s points after the evening of %(first_date)s to %(last)s points "
            "after the evening of %(last_date)s (rank %(rank)s); %(count)s evenings."
        ) % {"first": points_text(first.points), "first_date": long_date(first.date),
             "last": points_text(last.points), "last_date": long_date(last.date),
             "rank": last.rank, "count": len(points)}
    return Chart(
        width=WIDTH, height=HEIGHT, left=LEFT, right=WIDTH - RIGHT, top=TOP,
        bottom=HEIGHT - BOTTOM,
        line=" ".join(f"{d.x},{d.y}" for d in dots),
        dots=tuple(dots), y_ticks=y_ticks, x_ticks=x_ticks,
        zero=y_of(0) if low < 0 else None,
        title=title, description=description,
    )
