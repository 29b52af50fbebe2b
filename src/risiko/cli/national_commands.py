"""``risiko national``: the national ranking: import reports, print the list.

- ``risiko national import FILE...``: each file a ``risiko-report/1`` report (JSON) or a
  GestioneTorneo workbook (``.xls``, the ``national`` extra); each file is imported whole
  or not at all, every bad file or row named (exit 1 when any file was refused). The same
  tournament again (same club, name and first date) becomes a new revision; the same report
  again writes nothing.
- ``risiko national ranking --year YYYY [--json | --csv]``: the year's list recomputed from
  the database. JSON: ``{"year", "rules", "players": [{"position", "national_id", "name",
  "club", "points", "by_category", "tournaments", "played", "games", "wins"}]}``; CSV: the
  same columns, one per category (``points_<category>``).
- ``risiko national workbook REPORT -o FILE.xls``: a report as a GestioneTorneo workbook.

Messages are Italian or English (``risiko --lang``); JSON and CSV are English.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from ..faults import Fault, RisikoError, current_language, define, faults_json
from .common import (
    CANNOT_READ,
    ByOpt,
    JsonOpt,
    console,
    emit_json,
    err_console,
    fail,
    in_file,
    os_reason,
    start_django,
    who,
)

IMPORTED_NEW = define("national.cli_imported_new", "",
                      "{file}: {tournament}, new, revision {number}")
IMPORTED = define("national.cli_imported", "",
                  "{file}: {tournament}, revision {number} now in force")
UNCHANGED = define("national.cli_unchanged", "",
                   "{file}: {tournament}, already imported (revision {number}): nothing written")
REFUSED = define("national.cli_refused", "",
                 "{count} of {total} files refused: nothing imported from them")
BOTH_FORMATS = define("national.cli_json_or_csv", "", "--json or --csv, not both")
NATIONAL_EXTRA = define("national.cli_extra", "",
                        "GestioneTorneo workbooks need the national extra: "
                        "pip install 'risiko-club[national]'")
WORKBOOK_WRITTEN = define("national.cli_workbook_written", "", "written {file}")
COLUMNS = {
    "position": define("national.col_position", "", "Pos."),
    "national_id": define("national.col_national_id", "", "ID"),
    "name": define("national.col_name", "", "Player"),
    "club": define("national.col_club", "", "Club"),
    "points": define("national.col_points", "", "Points"),
    "tournaments": define("national.col_tournaments", "", "Counted"),
    "played": define("national.col_played", "", "Played"),
    "games": define("national.col_games", "", "Games"),
    "wins": define("national.col_wins", "", "Wins"),
    "win_rate": define("national.col_win_rate", "", "Win %"),
}

national_app = typer.Typer(
    help="The national ranking: import tournament reports and GestioneTorneo workbooks, "
    "print a year's list.",
    no_args_is_help=True,
)


def _say(fault: Fault) -> str:
    return fault.message(current_language())


def read_file(path: Path, club_id: str | None = None, resolve: Any = None) -> Any:
    """The report in ``path``: a ``risiko-report/1`` JSON file, or a GestioneTorneo
    workbook (``.xls``) read into one (``club_id``: its club's id, default its organiser;
    ``resolve``: finds the national id of a player given with a birth date only). Raises
    :class:`~risiko.faults.RisikoError` (the file's faults) or ``OSError``."""
    if path.suffix.lower() == ".xls":
        data = path.read_bytes()  # a missing file is said before a missing extra
        try:
            from ..national.workbook import read_workbook
        except ImportError:
            fail(NATIONAL_EXTRA(), code=1)
        return read_workbook(data, source=path.name, club_id=club_id, resolve=resolve)
    from ..national.report import parse_report

    return parse_report(path.read_text(encoding="utf-8"))


@national_app.command("import")
def import_files(
    files: Annotated[list[Path], typer.Argument(
        metavar="FILE...", help="reports (JSON) or GestioneTorneo workbooks (.xls)",
        show_default=False)],
    club: Annotated[str | None, typer.Option(
        "--club", help="the club's id for workbooks (default: the workbook's organiser)")
    ] = None,
    by: ByOpt = "",
    json_out: JsonOpt = False,
) -> None:
    """Import tournament reports: each file whole or not at all, every bad field named."""
    start_django()
    from risiko.web.national.services import find_player, import_report

    author = who(by)
    done: list[dict[str, Any]] = []
    refused = 0
    for path in files:
        try:
            report = read_file(path, club, find_player)
            outcome = import_report(report, source=path.name, by=author)
        except OSError as e:
            faults = [CANNOT_READ(path=str(path), reason=os_reason(e))]
        except RisikoError as e:
            faults = in_file(path, e)
        else:
            kind = (UNCHANGED if outcome.unchanged else IMPORTED_NEW if outcome.new
                    else IMPORTED)
            done.append({"file": str(path), "tournament": outcome.tournament,
                         "revision": outcome.number, "new": outcome.new,
                         "unchanged": outcome.unchanged})
            if not json_out:
                said = kind(file=str(path), tournament=outcome.tournament,
                            number=outcome.number)
                console.print(escape(_say(said)), highlight=False, soft_wrap=True)
            continue
        refused += 1
        done.append({"file": str(path), "faults": faults_json(faults)})
        for fault in faults:
            err_console.print(escape(_say(fault)), highlight=False, soft_wrap=True)
    if json_out:
        emit_json({"files": done})
    if refused:
        err_console.print(escape(_say(REFUSED(count=refused, total=len(files)))),
                          highlight=False, soft_wrap=True)
        raise typer.Exit(1)


def _points(value: float) -> str:
    text = f"{value:.2f}"
    return text.replace(".", ",") if current_language() == "it" else text


#: the columns left out, in this order, while the list does not fit the terminal (the
#: points per category, then the win rate, the tournaments played, the national id)
OPTIONAL = ("categories", "win_rate", "played", "national_id")


def _table(data: dict[str, Any]) -> None:
    """The year's list as a Rich table as wide as the terminal allows: no header or value
    is cut (names and clubs wrap); columns of :data:`OPTIONAL` are left out while it does
    not fit (``--json``/``--csv`` have them all)."""
    from rich.measure import Measurement

    lang = current_language()
    categories = list(data["rules"]["categories"])
    title = (f"Ranking nazionale {data['year']}" if lang == "it"
             else f"National ranking {data['year']}")
    for dropped in range(len(OPTIONAL) + 1):
        table = _ranking_table(data, categories, set(OPTIONAL[:dropped]), title)
        wide = console.options.update_width(10_000)  # measured unclamped
        if Measurement.get(console, wide, table).minimum <= console.width:
            break
    console.print(table)


def _ranking_table(data: dict[str, Any], categories: list[str], left_out: set[str],
                   title: str) -> Table:
    lang = current_language()
    table = Table(title=title)
    columns: list[tuple[str, Any]] = [
        ("position", lambda p: str(p["position"])),
        ("national_id", lambda p: str(p["national_id"])),
        ("name", lambda p: escape(p["name"])),
        ("club", lambda p: escape(p["club"])),
        ("points", lambda p: _points(p["points"]))]
    if "categories" not in left_out:
        columns += [(c, lambda p, c=c: _points(p["by_category"][c])) for c in categories]
    columns += [
        ("tournaments", lambda p: str(p["tournaments"])),
        ("played", lambda p: str(p["played"])),
        ("games", lambda p: str(p["games"])),
        ("wins", lambda p: str(p["wins"])),
        ("win_rate", lambda p: f"{100 * p['wins'] / p['games']:.0f}%" if p["games"] else "-")]
    shown = [(key, cell) for key, cell in columns if key not in left_out]
    for key, _cell in shown:
        header = COLUMNS[key]().message(lang) if key in COLUMNS else key
        table.add_column(header)
    for p in data["players"]:
        table.add_row(*(cell(p) for _key, cell in shown))
    return table


@national_app.command("ranking")
def ranking(
    year: Annotated[int, typer.Option("--year", help="the year (YYYY)", min=1900, max=9999)],
    json_out: JsonOpt = False,
    csv_out: Annotated[bool, typer.Option("--csv", help="CSV on stdout")] = False,
) -> None:
    """The national list of a year, recomputed from the stored reports."""
    if json_out and csv_out:
        fail(BOTH_FORMATS())
    start_django()
    from risiko.web.national.services import ranking as compute

    result = compute(year)
    if json_out:
        emit_json(result.to_json())
    elif csv_out:
        csv.writer(sys.stdout, lineterminator="\n").writerows(result.csv_rows())
    else:
        _table(result.to_json())


@national_app.command("workbook")
def workbook(
    report_file: Annotated[Path, typer.Argument(metavar="REPORT",
                                                help="a risiko-report/1 file")],
    output: Annotated[Path, typer.Option("-o", "--output", help="the .xls to write")],
) -> None:
    """Write a report as a GestioneTorneo workbook (ModuloTorneo.xls's sheets)."""
    try:
        from ..national.workbook import write_workbook
    except ImportError:
        fail(NATIONAL_EXTRA(), code=1)
    try:
        report = read_file(report_file)
    except OSError as e:
        fail(CANNOT_READ(path=str(report_file), reason=os_reason(e)))
    except RisikoError as e:
        fail(in_file(report_file, e), code=1)
    try:
        output.write_bytes(write_workbook(report))
    except OSError as e:
        fail(CANNOT_READ(path=str(output), reason=os_reason(e)))
    console.print(escape(_say(WORKBOOK_WRITTEN(file=str(output)))), highlight=False,
                  soft_wrap=True)


def register(app: typer.Typer) -> None:
    """Add the ``national`` group to ``app``."""
    app.add_typer(national_app, name="national")
