"""The lab's plots (``risiko analyse ... --plots``, the committee's page): bar and line
charts with 95 % error bars, written as PNG and SVG. matplotlib (the ``lab`` extra) is
imported only when a plot is drawn; :func:`available` says whether it is installed. The
callers give every word (Italian first: the CLI from the library's catalogue, the web page
from Django's), so this module holds none and needs no Django.
"""

from __future__ import annotations

import importlib
import io
import textwrap
from collections.abc import Mapping, Sequence
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from risiko.figures import decimal_text


def available() -> bool:
    """True when matplotlib is installed (``pip install 'risiko-club[lab]'``)."""
    return find_spec("matplotlib") is not None


def _pyplot() -> Any:
    matplotlib: Any = importlib.import_module("matplotlib")  # Any: the extra may be absent
    matplotlib.use("Agg")  # no display: files and strings only
    return importlib.import_module("matplotlib.pyplot")


def _numbers_in(ax: Any, lang: str, *axes: str) -> None:
    """The tick numbers of ``axes`` ("x", "y") written as ``lang`` writes them: a decimal
    comma in Italian (0,25), a point in English."""
    if not lang.startswith("it"):
        return
    ticker = importlib.import_module("matplotlib.ticker")
    comma = ticker.FuncFormatter(
        lambda v, _pos: decimal_text(float(v), None, lang).replace("-", "−"))
    for name in axes:
        getattr(ax, f"{name}axis").set_major_formatter(comma)


def _wrapped(title: str) -> str:
    """A long title on two or more lines (one line of a 6-inch figure holds ~70
    characters: a longer one was cut at both edges)."""
    return textwrap.fill(title, 70)


def bar_chart(labels: Sequence[str], values: Sequence[float], *, title: str, xlabel: str,
              ylabel: str, lows: Sequence[float] | None = None,
              highs: Sequence[float] | None = None,
              lines: Sequence[float] = (), lang: str = "en") -> Any:
    """A bar per label (``values``), with error bars from ``lows``/``highs`` (the interval's
    ends) and dashed reference ``lines`` (a fair share, ±2), the numbers written as ``lang``
    writes them (a decimal comma in Italian); returns the figure."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(max(5.0, 0.55 * len(labels) + 2), 3.6), dpi=100)
    err = None
    if lows is not None and highs is not None:
        err = [[v - lo for v, lo in zip(values, lows, strict=True)],
               [hi - v for v, hi in zip(values, highs, strict=True)]]
    ax.bar(range(len(labels)), values, yerr=err, capsize=3, color="#b22222")
    ax.set_xticks(range(len(labels)), labels, rotation=45 if len(labels) > 8 else 0,
                  ha="right" if len(labels) > 8 else "center")
    for y in lines:
        ax.axhline(y, color="#333333", linestyle="--", linewidth=1)
    ax.set_title(_wrapped(title))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    _numbers_in(ax, lang, "y")
    fig.tight_layout()
    return fig


def merged_series(series: Mapping[str, Sequence[float]]) -> dict[str, list[float]]:
    """``series`` with the series of equal values joined under one label, the names joined
    by " = " in their order (a line drawn over an equal one would hide it).

    >>> merged_series({"club-milano": [0.3, 0.5], "rtu": [0.5, 0.7], "club@2": [0.3, 0.5]})
    {'club-milano = club@2': [0.3, 0.5], 'rtu': [0.5, 0.7]}
    """
    names: dict[tuple[float, ...], list[str]] = {}
    for name, ys in series.items():
        names.setdefault(tuple(ys), []).append(name)
    return {" = ".join(group): list(ys) for ys, group in names.items()}


def line_chart(x: Sequence[float], series: Mapping[str, Sequence[float]], *, title: str,
               xlabel: str, ylabel: str, lang: str = "en") -> Any:
    """One line with markers per named series over ``x``, the numbers written as ``lang``
    writes them; returns the figure. Series with the same values are one line whose label
    names them all (:func:`merged_series`), so no line hides another."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 3.6), dpi=100)
    for name, ys in merged_series(series).items():
        ax.plot(list(x)[: len(ys)], list(ys), marker="o", label=name)
    ax.set_title(_wrapped(title))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend()
    _numbers_in(ax, lang, "x", "y")
    fig.tight_layout()
    return fig


def save(fig: Any, folder: Path, stem: str) -> list[Path]:
    """Write ``fig`` as ``stem.png`` and ``stem.svg`` in ``folder``; the two paths."""
    paths = [folder / f"{stem}.png", folder / f"{stem}.svg"]
    for p in paths:
        fig.savefig(p, metadata={"Date": None} if p.suffix == ".svg" else None)
    _pyplot().close(fig)
    return paths


def svg_text(fig: Any) -> str:
    """``fig`` as an SVG document (for a page), closing the figure."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    _pyplot().close(fig)
    text = buf.getvalue()
    return text[text.find("<svg"):]  # inline: no XML prologue or doctype
