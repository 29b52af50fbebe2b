"""The committee's lab page (issue 19 item 4): the closing dice of every ruleset (exact),
objectives, seat order and the luck of the dice from a few simulated games (any level, as
many games as :data:`SIM_BUDGET` allows), and the luck of the dice in the club's finished
online games or in game records uploaded for the moment (read, never stored). Referees and
the committee only; the figures come from :mod:`risiko.lab` (no Django there), the plots
from :mod:`risiko.web.labplots` when matplotlib (the ``lab`` extra) is installed."""

from __future__ import annotations

import base64
import math
from collections.abc import Sequence
from typing import Any

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from risiko import lab
from risiko.agents.levels import LEVELS
from risiko.faults import InvalidInputError
from risiko.ruleset import PRESETS, new_ruleset
from risiko.web import labplots
from risiko.web.clubs import request_club
from risiko.web.core.limits import size_text, upload_limit
from risiko.web.core.uploads import limit_upload
from risiko.web.online.models import OnlineTable
from risiko.web.site.permissions import referee_required

#: finished online games read for the luck table (the newest)
LUCK_GAMES = 200
#: the most games the page simulates in one request, whatever the level (the CLI has none)
MAX_GAMES = 200
#: the CPU seconds one request may spend simulating, by the estimates of :data:`SEAT_COST`
SIM_BUDGET = 5.0
#: estimated CPU seconds one seat's bot spends on a 4-seat game, by level (pure build,
#: measured 1-2 December 2026 under load: docs/lab.md "The page's bound"), with a margin; a
#: level not here costs as the dearest. Measure again when a level's budget changes.
SEAT_COST: dict[int, float] = {1: 0.001, 2: 0.005, 3: 0.04, 4: 2.5, 5: 7.5}
#: the most record files one upload may hold, and the largest of them (bytes)
MAX_RECORD_FILES = 50
MAX_RECORD_BYTES = 512 * 1024


def game_cost(level: int, opponents: int, seats: int) -> float:
    """Estimated CPU seconds of one game: a bot of ``level`` at one seat and of
    ``opponents`` (0: the same level) at the others (:data:`SEAT_COST`).

    >>> round(game_cost(2, 0, 4), 3), round(game_cost(4, 2, 4), 3)
    (0.02, 2.515)
    """
    dearest = max(SEAT_COST.values())
    other = opponents or level
    return SEAT_COST.get(level, dearest) + (seats - 1) * SEAT_COST.get(other, dearest)


def max_games(level: int, opponents: int, seats: int) -> int:
    """The most games one request simulates: as many as :data:`SIM_BUDGET` pays for at
    :func:`game_cost`, at most :data:`MAX_GAMES` (0: not even one game fits).

    Level 4 among level 2 bots: 5 / (2.5 + 3 · 0.005) = 1.99, so 1; level 4 at every seat:
    5 / 10, so 0; level 5 among level 2 bots: 5 / 7.515, so 0; level 3: 5 / 0.16 = 31.25,
    so 31; level 2: 250, so the page's :data:`MAX_GAMES`.

    >>> [max_games(4, 2, 4), max_games(4, 0, 4), max_games(5, 2, 4), max_games(3, 0, 4)]
    [1, 0, 0, 31]
    >>> max_games(2, 0, 4)
    200
    """
    return min(MAX_GAMES, math.floor(SIM_BUDGET / game_cost(level, opponents, seats) + 1e-9))


def _level_choices() -> list[tuple[int, str]]:
    return [(k, f"{k} ({LEVELS[k]})") for k in sorted(LEVELS)]


class LabForm(forms.Form):
    """What to simulate: seats, games (0: none), the bots' level and their opponents' (0:
    the same level at every seat); the games are bounded by :func:`max_games`. Every field
    is optional: a field left out takes its default (``initial``), so a bad value is the only
    one named (``?seats=9`` names the seats, not the games and level it did not give)."""

    seats = forms.IntegerField(label=gettext_lazy("Seats"), min_value=3, max_value=6,
                               initial=4, required=False)
    games = forms.IntegerField(label=gettext_lazy("Games to simulate"), min_value=0,
                               max_value=MAX_GAMES, initial=0, required=False)
    level = forms.TypedChoiceField(label=gettext_lazy("Bots' level"), coerce=int, initial=2,
                                   required=False, empty_value=None,
                                   choices=_level_choices)
    opponents = forms.TypedChoiceField(
        label=gettext_lazy("At the other seats"), coerce=int, initial=0, required=False,
        choices=lambda: [(0, gettext_lazy("the same level")), *_level_choices()])

    def clean(self) -> dict[str, Any]:
        """The values given, the default of each field left out or empty; more games than one
        request may simulate (:func:`max_games`) refused."""
        data: dict[str, Any] = super().clean() or {}
        for name, field in self.fields.items():
            if name in data and data[name] in (None, ""):
                data[name] = field.initial
        seats, games, level = data.get("seats"), data.get("games"), data.get("level")
        if seats is None or games is None or level is None or not games:
            return data
        most = max_games(level, data.get("opponents") or 0, seats)
        if most == 0:
            self.add_error("games", _(
                "These bots are too slow for the page: one game costs about %(cost).0f CPU "
                "seconds, a request may spend %(budget).0f. Put faster bots at the other "
                "seats, or simulate from the command line: risiko analyse --bots.")
                % {"cost": game_cost(level, data.get("opponents") or 0, seats),
                   "budget": SIM_BUDGET})
        elif games > most:
            self.add_error("games", ngettext(
                "At most %(most)d game with these bots and seats (about %(budget).0f CPU "
                "seconds a request); the command line has no bound: risiko analyse --bots.",
                "At most %(most)d games with these bots and seats (about %(budget).0f CPU "
                "seconds a request); the command line has no bound: risiko analyse --bots.",
                most) % {"most": most, "budget": SIM_BUDGET})
        return data


class MultipleFileInput(forms.ClearableFileInput):
    """A file input that takes several files."""

    allow_multiple_selected = True


class RecordsField(forms.FileField):
    """One or more uploaded files (the list of them)."""

    widget = MultipleFileInput

    def clean(self, data: Any, initial: Any = None) -> Any:
        """Each file checked as a FileField checks one, an empty file named; none is the
        field's required error."""
        if isinstance(data, (list, tuple)) and data:
            out, errors = [], []
            for d in data:
                try:
                    out.append(super().clean(d, initial))
                except forms.ValidationError as e:
                    if e.code != "empty":
                        raise
                    errors.append(forms.ValidationError(
                        _("%(file)s: the file sent is empty.") % {"file": d.name},
                        code="empty"))
            if errors:
                raise forms.ValidationError(errors)
            return out
        return [super().clean(None if isinstance(data, (list, tuple)) else data, initial)]


class RecordsForm(forms.Form):
    """Game records to read for the luck table: up to :data:`MAX_RECORD_FILES` files of at
    most :data:`MAX_RECORD_BYTES` each and the upload limit in all
    (:func:`~risiko.web.core.limits.upload_limit`, refused before it is read by
    :func:`~risiko.web.core.uploads.limit_upload`), read and forgotten (nothing is
    stored)."""

    records = RecordsField(label=gettext_lazy("Game records (.txt)"))

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
            xlabel=_("Closing round"), ylabel=_("Probability"), lang=get_language()))
    return rows, fig


def _bars(rows: list[dict[str, Any]], labels: list[str], title: str, xlabel: str,
          fair: float) -> SafeString:
    return _svg(labplots.bar_chart(
        labels, [r["win_rate"]["value"] for r in rows],
        lows=[r["win_rate"]["low"] for r in rows], highs=[r["win_rate"]["high"] for r in rows],
        title=title, xlabel=xlabel, ylabel=_("Win rate"), lines=[fair], lang=get_language()))


def _luck_svg(rows: Sequence[lab.SeatLuck], title: str, xlabel: str) -> SafeString:
    return _svg(labplots.bar_chart(
        [r.player for r in rows], [r.z for r in rows], title=title, xlabel=xlabel,
        ylabel=_("Luck index (z)"), lines=[-2, 0, 2], lang=get_language()))


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
        fig = _luck_svg(rows, _("Luck of the dice"), _("Player"))
    return rows, len(games), bad, fig


def _lang() -> str:
    return "en" if (get_language() or "it").startswith("en") else "it"


def read_records(files: Sequence[UploadedFile[bytes]]
                 ) -> tuple[list[list[lab.SeatLuck]], list[str]]:
    """The luck of each uploaded record, or the refusals: one line per bad file naming it
    (too large, not UTF-8 text, the same game twice — :func:`risiko.lab.repeated_records`,
    nothing replayed then —, or the line of the record that does not replay and why, in
    the page's language). Nothing is stored; any refusal refuses the whole upload."""
    errors: list[str] = []
    games: list[list[lab.SeatLuck]] = []
    if len(files) > MAX_RECORD_FILES:
        return [], [_("At most %(most)d files at a time, not %(n)d.")
                    % {"most": MAX_RECORD_FILES, "n": len(files)}]
    texts: list[tuple[str, str]] = []
    for f in files:
        name = f.name or "?"
        if (f.size or 0) > MAX_RECORD_BYTES:
            errors.append(_("%(file)s: %(size)s, a record may have at most %(most)s.")
                          % {"file": name, "size": size_text(f.size or 0),
                             "most": size_text(MAX_RECORD_BYTES)})
            continue
        try:
            texts.append((name, f.read().decode("utf-8")))
        except UnicodeDecodeError as e:
            errors.append(_("%(file)s: not UTF-8 text (byte %(at)d); a game record is the "
                            "text file of risiko play --record or of an online table.")
                          % {"file": name, "at": e.start + 1})
    # copies of one game would count it again and again: refused before any is replayed
    errors.extend(_("%(files)s: the same game %(n)d times; a game counts once in the luck "
                    "table (upload each record once).")
                  % {"files": ", ".join(names), "n": len(names)}
                  for names in lab.repeated_records(texts))
    if errors:
        return [], errors
    for name, text in texts:
        try:
            games.append(lab.luck_of_record(text))
        except InvalidInputError as e:  # RecordError: its line and reason
            errors.extend(_("%(file)s, %(reason)s") % {"file": name, "reason": m}
                          for m in e.messages(_lang()))
    return ([] if errors else games), errors


@referee_required
@require_http_methods(["GET", "POST"])
@limit_upload
def lab_page(request: HttpRequest) -> HttpResponseBase:
    """The lab: GET ``seats`` (3..6), ``games`` (0.. :func:`max_games`; 0 = no
    simulation), ``level`` (a bot level), ``opponents`` (0: the same level) — a bad value
    is shown on the form (status 400). POST ``records``: game record files read for their
    luck (nothing stored); a bad file is named with its line (status 400)."""
    form = LabForm(request.GET or None)
    plots = labplots.available()
    seats, games, level, opponents = 4, 0, 2, 0
    if request.GET:
        if not form.is_valid():
            return _render(request, form, plots, 4, 0, 2, 0, status=400)
        seats, games, level = (form.cleaned_data["seats"], form.cleaned_data["games"],
                               form.cleaned_data["level"])
        opponents = form.cleaned_data.get("opponents") or 0
    upload: dict[str, Any] = {}
    if request.method == "POST":
        records_form = RecordsForm(request.POST, request.FILES)
        if not records_form.is_valid():
            return _render(request, form, plots, seats, 0, level, opponents,
                           records_form=records_form, status=400)
        per_game, errors = read_records(request.FILES.getlist("records"))
        if errors:
            return _render(request, form, plots, seats, 0, level, opponents,
                           records_form=records_form, upload={"errors": errors}, status=400)
        rows = lab.merge_luck(per_game)
        upload = {"rows": rows, "games": len(per_game),
                  "swing": lab.mean_seat_swing([r for g in per_game for r in g]),
                  "svg": _luck_svg(rows, _("Luck of the dice: uploaded records"), _("Player"))
                  if plots and rows else None}
    return _render(request, form, plots, seats, games, level, opponents, upload=upload)


def _render(request: HttpRequest, form: LabForm, plots: bool, seats: int, games: int,
            level: int, opponents: int, *, records_form: RecordsForm | None = None,
            upload: dict[str, Any] | None = None, status: int = 200) -> HttpResponse:
    closing, closing_svg = _closing(seats, plots)
    context: dict[str, Any] = {
        "form": form, "plots": plots, "seats": seats, "closing": closing,
        "closing_svg": closing_svg, "games": games, "bot": LEVELS[level],
        "records_form": records_form or RecordsForm(), "upload": upload or {},
        "budget": SIM_BUDGET, "max_record_files": MAX_RECORD_FILES,
        "max_record_kb": MAX_RECORD_BYTES // 1024,
        "max_upload": size_text(upload_limit()),
        "bounds": [{"level": k, "bot": LEVELS[k], "same": max_games(k, 0, seats),
                    "among_heuristic": max_games(k, 2, seats)} for k in sorted(LEVELS)],
    }
    if games and status == 200:
        names = (LEVELS[level],) + (LEVELS[opponents or level],) * (seats - 1)
        mixed = len(set(names)) > 1
        spec = lab.SimSpec(names, new_ruleset(None).label, 8, mixed, 1, luck=True)
        facts = lab.run_games(spec, games, workers=1)  # one process: no pool inside a server
        seat_rows = lab.seats_table(facts)
        obj_rows = lab.objectives_table(facts)
        sim_luck = lab.simulated_luck(facts)
        luck_seats = sorted(sim_luck["seats"], key=lambda r: int(r.player))
        context.update(sim=lab.closing_simulated(facts), seat_rows=seat_rows,
                       obj_rows=obj_rows, ruleset=spec.ruleset,
                       bots=", ".join(names) if mixed else names[0],
                       sim_luck_seats=luck_seats,
                       sim_luck_bots=sim_luck["bots"] if mixed else [])
        if plots:
            context.update(
                seats_svg=_bars(seat_rows, [str(r["seat"]) for r in seat_rows],
                                _("Win rate by seat, with its confidence interval"),
                                _("Seat"), 1 / seats),
                obj_svg=_bars(obj_rows, [str(r["objective"]) for r in obj_rows],
                              _("Win rate by objective, with its confidence interval"),
                              _("Objective"), 1 / seats),
                sim_luck_svg=_luck_svg(luck_seats, _("Luck of the dice by seat (simulated)"),
                                       _("Seat")))
    luck, luck_games, bad, luck_svg = _luck(plots, request_club(request))
    context.update(luck=luck, luck_games=luck_games, luck_bad=bad, luck_svg=luck_svg)
    return render(request, "console/lab.html", context, status=status)
