"""``risiko score SHEET``: check and score an end-of-game sheet (R1, R4/R5, R13, R15, R16).

SHEET is a JSON or CSV sheet (see :mod:`risiko.sheet`) or ``-`` for standard input. The
output is a Rich table with each seat's breakdown and the ranking, or with ``--json`` the
:meth:`risiko.sheet.TableScore.to_dict` document (top-level ``seats`` and ``ranking``).
A bad sheet prints one line per fault on standard error, no scores, and exits with code 1.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer
from rich import box
from rich.console import Console, JustifyMethod
from rich.markup import escape
from rich.table import Table

from ..objectives import get_objective
from ..scoring import SeatScore
from ..sheet import SheetError, TableScore, load_sheet, score_sheet
from .common import fail_faults


def register(app: typer.Typer) -> None:
    """Add the ``score`` command to ``app``."""
    app.command("score")(score)


def score(
    sheet: Annotated[
        str,
        typer.Argument(
            metavar="SHEET",
            help="End-of-game sheet, JSON or CSV (one row per territory); '-' reads stdin.",
            show_default=False,
        ),
    ],
    ruleset: Annotated[
        str | None,
        typer.Option(
            "--ruleset",
            "-r",
            help="Ruleset preset (club-milano, rtu, classic); overrides the sheet's own.",
            show_default=False,
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the scores as JSON (seats, ranking).")
    ] = False,
) -> None:
    """Check an end-of-game sheet and print each seat's table score and the ranking.

    Club-milano scoring: 4 points per territory in the objective, 1 per other territory
    (R16); a whole continent in the objective floor(2.5 x territories), any other whole
    continent 1 x territories (R15); capped at 100, RisiKo! = 100 (R1); more than 120 armies
    -7 (R5); a seat that left the game (R13) or was eliminated scores 0.
    """
    try:
        parsed = load_sheet(sys.stdin if sheet == "-" else sheet, ruleset=ruleset)
        table = score_sheet(parsed)
    except SheetError as e:
        fail_faults(e)
    if as_json:
        typer.echo(json.dumps(table.to_dict(), ensure_ascii=False, indent=2))
        return
    _print_table(table)


def _continents_cell(seat: SeatScore) -> str:
    """Whole continents held with their points; ``*`` marks one in the objective (R15)."""
    parts = [f"{c.name} {c.points}{'*' if c.in_objective else ''}" for c in seat.continents]
    return "\n".join(parts) or "-"


def _positions(table: TableScore) -> list[tuple[int, SeatScore]]:
    """Ranking with shared positions for equal scores (1, 1, 3 ...)."""
    out: list[tuple[int, SeatScore]] = []
    for i, player in enumerate(table.ranking):
        seat = table.seat(player)
        if out and out[-1][1].score == seat.score:
            out.append((out[-1][0], seat))
        else:
            out.append((i + 1, seat))
    return out


def _print_table(table: TableScore) -> None:
    """Rich table of the breakdown (fits 80 columns), then notes, objectives and ranking."""
    console = Console()
    grid = Table(
        title=f"Table scores ({table.ruleset.label})",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        collapse_padding=True,
    )
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("Player", "left"), ("Obj", "right"), ("Terr", "right"), ("Armies", "right"),
        ("In obj", "right"), ("Pts", "right"), ("Continents", "left"),
        ("Base", "right"), ("Pen", "right"), ("Score", "right"),
    )
    for name, justify in columns:
        grid.add_column(name, justify=justify, no_wrap=name in ("Player", "Continents"))
    for seat in table.seats:
        grid.add_row(
            escape(seat.player),
            str(seat.objective),
            str(seat.territories),
            str(seat.armies),
            str(seat.objective_territories),
            str(seat.territory_points),
            _continents_cell(seat),
            str(seat.base),
            str(seat.penalty),
            f"[bold]{seat.score}[/bold]",
        )
    console.print(grid)
    console.print("Pts: territory points (R16; RTU: border points). *: continent in the "
                  "objective (R15).", highlight=False)
    for seat in table.seats:
        for note in seat.notes:
            console.print(f"  {escape(seat.player)}: {escape(note.message())}",
                          highlight=False)
    console.print("Objectives:", highlight=False)
    for seat in table.seats:
        obj = get_objective(seat.objective)
        console.print(f"  {obj.number} {obj.name}: {escape(seat.player)}", highlight=False)
    console.print("Ranking:", highlight=False)
    for pos, seat in _positions(table):
        console.print(f"  {pos}. {escape(seat.player)} {seat.score}", highlight=False)
