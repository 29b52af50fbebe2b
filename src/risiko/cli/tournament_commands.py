"""``risiko season FILE`` and ``risiko arrival HH:MM`` (the tournament, without a database).

``season`` checks and computes a season file (see :mod:`risiko.tournament.season`): the
general ranking, the semifinal tables (R18), the order after the semifinal, the finalists in
seat-choice order and the final standings. A bad file prints one line per fault on standard
error, no standings, and exits with code 1.

``arrival`` classifies an arrival time under R3: ``on_time``, ``late`` (3 penalty turns) or
``excluded``; ``--phoned`` for a phone notice made by 21:10; ``--final`` for the final's
schedule (R18: 50 minutes earlier).
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from ..tournament.model import clock_name
from ..tournament.schedule import classify_arrival
from ..tournament.season import SeasonError, load_season, season_report
from .common import console, emit_json, fail, ruleset_or_fail

JsonOpt = Annotated[bool, typer.Option("--json", help="machine-readable output")]


SEASON_HELP = (
    "Compute a season file: general ranking, semifinal tables, finalists, final standings."
    "\n\n"
    "Ranking (R18 reading): carry-over (R17) + qualifying table scores + ranking penalties "
    "(R13 -25, referees); ties: more RisiKo!, best single table score, fewer penalty points, "
    "then a shared position. Semifinal: table 1 = 1st, 2nd, 8th, 9th, 10th; table 2 = "
    "3rd-7th. A bad file prints one line per fault and exits 1."
)
ARRIVAL_HELP = (
    "Classify an arrival under R3: on time (by 21:10), late (21:11-21:20, 3 turns without "
    "reinforcements, moves or attacks) or excluded; a phone notice made by 21:10 admits up "
    "to 21:30 with the same penalty."
)


def register(app: typer.Typer) -> None:
    """Add the ``season`` and ``arrival`` commands to ``app``."""
    app.command("season", help=SEASON_HELP)(season)
    app.command("arrival", help=ARRIVAL_HELP)(arrival)


def season(
    file: Annotated[
        str,
        typer.Argument(metavar="FILE", help="Season file (JSON); '-' reads stdin.",
                       show_default=False),
    ],
    as_json: JsonOpt = False,
) -> None:
    """Compute a season file: general ranking, semifinal tables, finalists, final standings.

    Ranking (R18 reading): carry-over (R17) + qualifying table scores + ranking penalties
    (R13 -25, referees); ties: more RisiKo!, best single table score, fewer penalty points,
    then a shared position. Semifinal: table 1 = 1st, 2nd, 8th, 9th, 10th; table 2 = 3rd-7th.
    """
    try:
        tournament = load_season(sys.stdin if file == "-" else file)
    except SeasonError as e:
        for fault in e.faults:
            typer.echo(fault, err=True)
        raise typer.Exit(1) from None
    report = season_report(tournament)
    if as_json:
        emit_json(report)
        return
    _print_season(report)


def _print_season(report: dict[str, Any]) -> None:
    grid = Table(title=f"{escape(report['name'])} - general ranking ({report['ruleset']}, "
                 f"format {escape(report['format']['name'])})", title_justify="left")
    for name, justify in (("#", "right"), ("Player", "left"), ("Points", "right"),
                          ("Games", "right"), ("RisiKo!", "right"), ("Best", "right"),
                          ("Penalties", "right")):
        grid.add_column(name, justify=justify)  # type: ignore[arg-type]
    for row in report["standings"]:
        mark = "" if row["eligible"] else " (not eligible)"
        grid.add_row(str(row["rank"]), escape(row["player"]) + mark, str(row["points"]),
                     str(row["games"]), str(row["risiko"]),
                     "-" if row["best"] is None else str(row["best"]), str(row["penalties"]))
    console.print(grid)

    def line(label: str, players: list[str]) -> None:
        console.print(f"{label}: {escape(', '.join(players))}", highlight=False)

    if report["direct_to_final"]:
        line("Straight to the final", report["direct_to_final"])
    if report["semifinal_tables"] is not None:
        for i, table in enumerate(report["semifinal_tables"], start=1):
            line(f"Semifinal table {i}", table)
    if report["after_semifinal"] is not None:
        line("After the semifinal", report["after_semifinal"])
    if report["finalists"] is not None:
        line("Finalists (seat-choice order)", report["finalists"])
    if report["final_winner"] is not None:
        console.print(f"Winner of the final: [bold]{escape(report['final_winner'])}[/bold]",
                      highlight=False)
    if report["final_standings"] is not None:
        console.print("Final standings:", highlight=False)
        for i, player in enumerate(report["final_standings"], start=1):
            console.print(f"  {i}. {escape(player)}", highlight=False)
    for note in report["pending"]:
        console.print(f"[dim]{escape(note)}[/dim]", highlight=False)


def arrival(
    time: Annotated[
        str,
        typer.Argument(metavar="HH:MM", help="Arrival time, local (seconds are dropped).",
                       show_default=False),
    ],
    phoned: Annotated[
        bool, typer.Option("--phoned", help="A phone notice of lateness was made by 21:10.")
    ] = False,
    phoned_at: Annotated[
        str | None,
        typer.Option("--phoned-at", metavar="HH:MM",
                     help="When the phone notice was made (implies --phoned).",
                     show_default=False),
    ] = None,
    final: Annotated[
        bool, typer.Option("--final", help="Use the final's schedule (starts at 20:30, R18).")
    ] = False,
    ruleset: Annotated[
        str | None, typer.Option("--ruleset", help="club-milano (default), rtu or classic")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Classify an arrival under R3: on time (by 21:10), late (21:11-21:20, 3 turns without
    reinforcements, moves or attacks) or excluded; a phone notice made by 21:10 admits up to
    21:30 with the same penalty."""
    rs = ruleset_or_fail(ruleset)
    try:
        ruling = classify_arrival(rs, time, phoned or phoned_at is not None,
                                  phoned_at=phoned_at, stage="final" if final else "qualifying")
    except ValueError as e:
        fail(str(e))
    if as_json:
        data = ruling.to_dict()
        data["stage"] = "final" if final else "qualifying"
        data["ruleset"] = rs.label
        emit_json(data)
        return
    label = {"on_time": "[green]on time[/green]", "late": "[yellow]late[/yellow]",
             "excluded": "[red]excluded[/red]"}[ruling.arrival_class]
    turns = f", {ruling.penalty_turns} penalty turns" if ruling.penalty_turns else ""
    console.print(f"{clock_name(ruling.at)}: {label}{turns}", highlight=False)
    console.print(escape(ruling.reason), highlight=False)
