"""``risiko tournament ...`` (a tournament in the database or in a season file), ``risiko
season FILE`` and ``risiko arrival HH:MM``.

One command family, two stores:

- the database (default): SQLite in the per-user data directory, PostgreSQL when
  ``DATABASE_URL`` is set; every change goes through :mod:`risiko.web.services` (validated,
  atomic, audit-logged, ``--by`` naming who). Needs the web extra.
- a season file, with the group option ``risiko tournament --file SEASON.json COMMAND``: the
  commands take no TOURNAMENT argument (the file is the tournament); reading commands read
  it, writing commands check the change and rewrite the file only with ``--write`` (there is
  no audit log in file mode). Runs without Django.

``risiko season FILE`` is short for ``risiko tournament --file FILE standings``. A refused
change or a bad file prints one line per fault on standard error (in the language of
``risiko --lang``) and exits 1; with ``--json`` the faults are also printed as JSON.
"""

from __future__ import annotations

import json
import sys
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from .. import jsonread
from ..faults import Fault, define, define_words, word
from .common import (
    BAD_JSON,
    CANNOT_READ,
    ByOpt,
    JsonOpt,
    RulesetOpt,
    console,
    emit_json,
    fail,
    fail_faults,
    os_reason,
    ruleset_or_fail,
)
from .tournament_store import DatabaseStore, FileStore, Store, key_values

__all__ = ["ARRIVAL_HELP", "SEASON_HELP", "arrival", "print_report", "register", "season",
           "tournament_app"]

IMPORT_WITH_FILE = define(
    "cli.import_with_file", "",
    "import puts a season file into the database: run it without --file")


def _format_fault(path: Path, error: BaseException) -> Fault:
    """Why the ``--format`` file cannot be read: the file, or where its JSON breaks."""
    if isinstance(error, json.JSONDecodeError):
        return BAD_JSON(path=str(path), line=error.lineno, column=error.colno)
    return CANNOT_READ(path=str(path), reason=os_reason(error))


SEASON_HELP = (
    "Compute a season file: general ranking, semifinal tables, finalists, final standings."
    "\n\n"
    "Ranking (R18 reading): carry-over (R17) + qualifying table scores + ranking penalties "
    "(R13 -25, referees); ties: more RisiKo!, best single table score, fewer penalty points, "
    "then a shared position. Semifinal: table 1 = 1st, 2nd, 8th, 9th, 10th; table 2 = "
    "3rd-7th. A bad file prints one line per fault and exits 1. Short for `risiko "
    "tournament --file FILE standings`."
)
ARRIVAL_HELP = (
    "Classify an arrival under R3: on time (by 21:10), late (21:11-21:20, 3 turns without "
    "reinforcements, moves or attacks) or excluded; a phone notice made by 21:10 admits up "
    "to 21:30 with the same penalty. Times as referees write them: 21:15, 21.15, 21h15, "
    "9:15 pm, 2115."
)
WRITES = " With --file: checked, and written to the file only with --write."


class _TournamentGroup(typer.core.TyperGroup):
    """In file mode (``--file``) the commands' TOURNAMENT argument is the file: the group
    fills it in, so ``risiko tournament --file S.json arrive DATE PLAYER TIME`` reads as the
    database form ``risiko tournament arrive T DATE PLAYER TIME``."""

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name, cmd, rest = super().resolve_command(ctx, args)
        if cmd is not None and ctx.params.get("file") is not None:
            first = next((p for p in cmd.params if p.param_type_name == "argument"), None)
            if first is not None and first.name == "tournament" and not any(
                    a in ("--help",) for a in rest):
                rest = [str(ctx.params["file"]), *rest]
        return name, cmd, rest


tournament_app = typer.Typer(
    cls=_TournamentGroup,
    help="A tournament in the database, or in a season file with --file: players, evenings, "
    "arrivals, tables, results, penalties, appeals, standings, semifinal and final.",
    no_args_is_help=True,
)

TOpt = Annotated[str, typer.Argument(
    help="tournament (slug, name or id); left out with --file", show_default=False)]
DateArg = Annotated[str, typer.Argument(help="evening date YYYY-MM-DD", show_default=False)]
PlayerArg = Annotated[str, typer.Argument(help="player name", show_default=False)]
TableArg = Annotated[int, typer.Argument(help="table number", show_default=False)]


@tournament_app.callback()
def _group(
    ctx: typer.Context,
    file: Annotated[Path | None, typer.Option(
        "--file", metavar="SEASON.json",
        help="work on a season file instead of the database ('-': standard input, read "
        "only)", show_default=False)] = None,
    write: Annotated[bool, typer.Option(
        "--write", help="with --file: rewrite the file with the change (else only checked)")
    ] = False,
    club: Annotated[str | None, typer.Option(
        "--club", metavar="SLUG",
        help="the club whose tournaments are read and written (default: the tournament's "
        "club when only one club has it; a new tournament: the default club)",
        show_default=False)] = None,
) -> None:
    ctx.obj = FileStore(file, write=write) if file is not None else DatabaseStore(club)


def _store(ctx: typer.Context) -> Store:
    store: Store | None = ctx.find_object(FileStore) or ctx.find_object(DatabaseStore)
    return store if store is not None else DatabaseStore()


# --------------------------------------------------------------------------------------------
# the one renderer of a season report


#: every word of the season report and the tournament list, said in ``--lang``
RW = {key: define(f"cli.report_{key}", "", text) for key, text in {
    "title": "{name} - general ranking ({ruleset}, format {format})",
    "rank": "#", "player": "Player", "points": "Points", "games": "Games",
    "risiko": "RisiKo!", "best": "Best", "penalties": "Penalties", "table_points": "Table pts",
    "bonus": "Bonus", "wins": "Wins", "not_eligible": "(not eligible)", "how": "How: {how}",
    "direct": "Straight to the final", "semifinal_table": "Semifinal table {table}",
    "after_semifinal": "After the semifinal", "finalists": "Finalists (seat-choice order)",
    "winner": "Winner of the final: {player}", "final_standings": "Final standings:",
    "id": "id", "slug": "slug", "name": "name", "ruleset": "ruleset", "players": "players",
    "evenings": "evenings",
}.items()}


def _rw(key: str, **params: Any) -> str:
    """The word ``key`` of :data:`RW` in the language of ``--lang``."""
    return RW[key](None, **params).message()


def print_report(report: dict[str, Any]) -> None:
    """The human form of a season report (``risiko season``, ``tournament standings``), in
    the language of ``--lang`` (points with a decimal comma in Italian)."""
    from rich.table import Table

    from ..faults import current_language
    from ..tournament.format import TournamentFormat
    from ..tournament.ranking import format_points
    from ..tournament.standings import describe_format

    lang = current_language()

    def pts(value: Any) -> str:
        return format_points(Decimal(str(value)), lang)

    grid = Table(title=escape(_rw("title", name=report["name"], ruleset=report["ruleset"],
                                  format=report["format"]["name"])), title_justify="left")
    fmt = TournamentFormat.from_dict(report["format"])
    # other formulas than Club Milano's: table points, bonus and wins next to the points
    extra = not fmt.ranking_points.is_table
    columns = [("rank", "right"), ("player", "left"), ("points", "right"), ("games", "right"),
               ("risiko", "right"), ("best", "right"), ("penalties", "right")]
    if extra:
        columns += [("table_points", "right"), ("bonus", "right"), ("wins", "right")]
    for key, justify in columns:
        grid.add_column(_rw(key), justify=justify)  # type: ignore[arg-type]
    for row in report["standings"]:
        mark = "" if row["eligible"] else " " + _rw("not_eligible")
        cells = [str(row["rank"]), escape(row["player"]) + mark, pts(row["points"]),
                 str(row["games"]), str(row["risiko"]),
                 "-" if row["best"] is None else str(row["best"]), pts(row["penalties"])]
        if extra:
            cells += [pts(row["table_points"]), pts(row["bonus"]), str(row["wins"])]
        grid.add_row(*cells)
    console.print(grid)
    console.print(escape(_rw("how", how=describe_format(fmt))), highlight=False)

    def line(label: str, players: list[str]) -> None:
        console.print(f"{escape(label)}: {escape(', '.join(players))}", highlight=False)

    if report["direct_to_final"]:
        line(_rw("direct"), report["direct_to_final"])
    if report["semifinal_tables"] is not None:
        for i, table in enumerate(report["semifinal_tables"], start=1):
            line(_rw("semifinal_table", table=i), table)
    if report["after_semifinal"] is not None:
        line(_rw("after_semifinal"), report["after_semifinal"])
    if report["finalists"] is not None:
        line(_rw("finalists"), report["finalists"])
    if report["final_winner"] is not None:
        console.print(escape(_rw("winner", player=report["final_winner"])), highlight=False)
    if report["final_standings"] is not None:
        console.print(escape(_rw("final_standings")), highlight=False)
        for i, player in enumerate(report["final_standings"], start=1):
            console.print(f"  {i}. {escape(player)}", highlight=False)
    from ..faults import Fault

    notes = [Fault.from_dict(f).message() for f in report.get("faults", [])]  # in --lang
    for note in notes or report["pending"]:
        console.print(f"[dim]{escape(note)}[/dim]", highlight=False)


def print_tables(tables: list[list[str]]) -> None:
    """``table 1: 1. Anna, 2. Bruno, ...`` (seat order = turn order), in ``--lang``."""
    for i, seats in enumerate(tables, start=1):
        _said(SAID_TABLE(table=i, seats=", ".join(f"{k}. {p}"
                                                   for k, p in enumerate(seats, 1))).message())


#: the counted nouns of a summary, singular and plural, said in the message's language
COUNTED = ("row", "rows", "evening", "evenings", "table", "tables", "new player",
           "new players")
define_words("counted", COUNTED)


def _many(count: int, noun: str) -> str:
    """``1 evening``, ``2 evenings`` (``1 serata``, ``2 serate``): a count with its noun in
    the right number, in the message's language."""
    return f"{count} {word('counted', noun if count == 1 else noun + 's')}"


PLAYERS_ADDED_NONE = define("cli.players_added_none", "", "no player registered")
PLAYERS_ADDED_ONE = define("cli.players_added_one", "", "1 player registered: {players}")
PLAYERS_ADDED = define("cli.players_added", "", "{count} players registered: {players:and}")
PLAYERS_ALREADY_ONE = define("cli.players_already_one", "", "already registered: {players}")
PLAYERS_ALREADY = define("cli.players_already", "", "already registered: {players:and}")

# what a command did, said in the message's language (``risiko --lang it``)
SAID_CREATED = define("cli.said_created", "", "created {name} (slug {slug}, {ruleset})")
SAID_CURRENT = define("cli.said_current", "", "{name} is the current tournament")
SAID_IMPORTED = define("cli.said_imported", "", "imported {name} (slug {slug})")
SAID_WRITTEN = define("cli.said_written", "", "written {file}")
SAID_OPENED = define("cli.said_opened", "", "evening {date} ({stage}) opened")
SAID_AGAIN = define("cli.said_again", "", "table {table}: already recorded, nothing changed")
SAID_SHEET = define("cli.said_sheet", "", "table {table}: sheet recorded")
SAID_SCORES = define("cli.said_scores", "", "table {table}: scores recorded")
SAID_PENALTY = define("cli.said_penalty", "", "penalty {id}: {player} {points} {unit} points")
SAID_APPEAL = define("cli.said_appeal", "", "penalty {id}: appeal {outcome}")
SAID_DISCIPLINE = define("cli.said_discipline", "", "{player}: {discipline} recorded")
SAID_CARRIED = define("cli.said_carried", "", "{player}: {points} points carried over")
SAID_DRAW = define("cli.said_draw", "", "draw recorded: {players}")
SAID_MERGED = define("cli.said_merged", "", "{twin} merged into {player}")
SAID_TABLE = define("cli.said_table", "", "table {table}: {seats}")
SAID_SHEET_IMPORTED = define("cli.said_sheet_imported", "",
                             "{rows}: {evenings} ({dates}), {tables}, {new_players}")
ARRIVAL = define("cli.arrival", "R3", "{at}: {arrival_class}")
ARRIVAL_TURNS = define("cli.arrival_turns", "R3", "{at}: {arrival_class}, {turns} penalty turns")
ARRIVED = define("cli.arrived", "R3",
                 "{player} {at}: {arrival_class} ({turns} penalty turns) — {why}")


def players_added_message(added: list[str], already: list[str]) -> str:
    """What ``add-players`` did, in the message's language, the nouns in the right number:
    ``2 players registered: Anna and Bruno; already registered: Carla``."""
    if not added:
        said = PLAYERS_ADDED_NONE().message()
    elif len(added) == 1:
        said = PLAYERS_ADDED_ONE(players=added).message()
    else:
        said = PLAYERS_ADDED(count=len(added), players=added).message()
    if already:
        kind = PLAYERS_ALREADY_ONE if len(already) == 1 else PLAYERS_ALREADY
        said += "; " + kind(players=already).message()
    return said


def _said(message: str) -> None:
    console.print(escape(message), highlight=False)


# --------------------------------------------------------------------------------------------
# top-level short forms


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
    report = FileStore(Path(file)).report()
    if as_json:
        emit_json(report)
        return
    print_report(report)


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
    ruleset: RulesetOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Classify an arrival under R3: on time (by 21:10), late (21:11-21:20, 3 turns without
    reinforcements, moves or attacks) or excluded; a phone notice made by 21:10 admits up to
    21:30 with the same penalty."""
    from ..tournament.dates import clock_name
    from ..tournament.schedule import classify_arrival

    rs = ruleset_or_fail(ruleset)
    try:
        ruling = classify_arrival(rs, time, phoned or phoned_at is not None,
                                  phoned_at=phoned_at, stage="final" if final else "qualifying")
    except ValueError as e:
        fail_faults(e, code=2)
    if as_json:
        data = ruling.to_dict()
        data["stage"] = "final" if final else "qualifying"
        data["ruleset"] = rs.label
        emit_json(data)
        return
    colour = {"on_time": "green", "late": "yellow", "excluded": "red"}[ruling.arrival_class]
    kind = ARRIVAL_TURNS if ruling.penalty_turns else ARRIVAL
    said = kind(at=clock_name(ruling.at), arrival_class=ruling.arrival_class,
                turns=ruling.penalty_turns).message()  # in --lang
    console.print(f"[{colour}]{escape(said)}[/{colour}]", highlight=False)
    console.print(escape(ruling.note.message()), highlight=False)  # in --lang


# --------------------------------------------------------------------------------------------
# the tournament family


@tournament_app.command("create")
def create(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="tournament name")],
    ruleset: Annotated[str | None, typer.Option(
        help="ruleset preset (default: the newest club-milano)")] = None,
    format_file: Annotated[
        Path | None, typer.Option("--format", help="JSON file of the tournament format")
    ] = None,
    previous: Annotated[str | None, typer.Option(help="the tournament it follows (R17)")] = None,
    by: ByOpt = "",
    json_out: JsonOpt = False,
) -> None:
    """Create a tournament (with --file: a new season file, written with --write)."""
    fmt = None
    if format_file is not None:
        try:
            fmt = jsonread.loads(format_file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            fail(_format_fault(format_file, e))
    data = _store(ctx).create(name, ruleset=ruleset, format=fmt, previous=previous, by=by)
    if json_out:
        emit_json(data)
    else:
        _said(SAID_CREATED(name=data["name"], slug=data["slug"], ruleset=data["ruleset"]).message())


@tournament_app.command("list")
def list_tournaments(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """List the tournaments in the database (with --file: the file's one)."""
    from rich.table import Table

    rows = _store(ctx).tournaments()
    if json_out:
        emit_json(rows)
        return
    table = Table(*(_rw(k) for k in ("id", "slug", "name", "ruleset", "players", "evenings")))
    for r in rows:
        table.add_row(*(escape(str(r[k])) for k in ("id", "slug", "name", "ruleset", "players",
                                                     "evenings")))
    console.print(table)


@tournament_app.command("current")
def set_current(ctx: typer.Context, tournament: TOpt, by: ByOpt = "") -> None:
    """Make a tournament the one the public pages show (the current tournament)."""
    name = _store(ctx).set_current(tournament, by=by)
    _said(SAID_CURRENT(name=name).message())


@tournament_app.command("add-players")
def add_players(ctx: typer.Context, tournament: TOpt,
                names: Annotated[list[str], typer.Argument(help="player names")],
                by: ByOpt = "") -> None:
    """Register players in a tournament that exists (make it first with `risiko tournament
    create`; a tournament not found is refused)."""
    added, already = _store(ctx).add_players(tournament, names, by=by)
    _said(players_added_message(added, already))


@tournament_app.command("import")
def import_season(ctx: typer.Context,
                  file: Annotated[Path, typer.Argument(help="season file (JSON)")],
                  name: Annotated[str | None, typer.Option(help="another name")] = None,
                  by: ByOpt = "") -> None:
    """Create a tournament in the database from a season file (every fact; nothing written if
    it is bad)."""
    store = _store(ctx)
    if not isinstance(store, DatabaseStore):
        fail(IMPORT_WITH_FILE())
    data = store.import_file(file, name=name, by=by)
    _said(SAID_IMPORTED(name=data["name"], slug=data["slug"]).message())


@tournament_app.command("import-sheet")
def import_sheet(ctx: typer.Context, tournament: TOpt,
                 sheet: Annotated[Path, typer.Argument(
                     metavar="FILE.xlsx|FILE.csv",
                     help="the club's results: one row per player and evening")],
                 column: Annotated[list[str] | None, typer.Option(
                     "--column", metavar="FIELD=HEADER",
                     help="the header of a column where the guess fails: player, date, "
                     "table, score, winner, risiko (e.g. --column score=Punti)")] = None,
                 worksheet: Annotated[str | None, typer.Option(
                     help="the worksheet of an xlsx file (default: the first)")] = None,
                 by: ByOpt = "", json_out: JsonOpt = False) -> None:
    """Add a club's spreadsheet of results as qualifying evenings: one row per player and
    evening (player, evening date, table, table score, optional winner and RisiKo! marks).

    Columns are found by their Italian or English headers (Giocatore, Data, Tavolo, Punti,
    Vincitore ...) or named with --column. Italian CSV (';' separated, decimal comma) is read
    as such; dates are YYYY-MM-DD or day first (2/3/2027); with no arrival times everyone
    arrived on time. Every fault names its row; nothing is written if one row is bad. With
    --file: checked, and written to the file only with --write."""
    from ..faults import RisikoError
    from ..names import key_values as name_values
    from ..tournament.clubsheet import read_rows
    from .sheetfile import sheet_cells

    try:
        columns = name_values(column or [])
    except RisikoError as e:
        fail_faults(e, code=2)
    try:
        rows = read_rows(sheet_cells(sheet, worksheet), columns)
    except RisikoError as e:
        fail_faults(e, as_json=json_out)
    summary = _store(ctx).import_sheet(tournament, rows, by=by)
    if json_out:
        emit_json(summary)
        return
    _said(SAID_SHEET_IMPORTED(rows=_many(summary["rows"], "row"),
                              evenings=_many(len(summary["evenings"]), "evening"),
                              dates=", ".join(summary["evenings"]),
                              tables=_many(summary["tables"], "table"),
                              new_players=_many(summary["new_players"], "new player")
                              ).message())


@tournament_app.command("export")
def export_season(ctx: typer.Context, tournament: TOpt,
                  file: Annotated[Path | None, typer.Argument(help="output (default stdout)")]
                  = None) -> None:
    """Write a tournament as a season file (``risiko season`` reads it)."""
    data = _store(ctx).export(tournament)
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if file is None:
        sys.stdout.write(text)
    else:
        file.write_text(text, encoding="utf-8")
        _said(SAID_WRITTEN(file=str(file)).message())


@tournament_app.command("evening")
def open_evening(ctx: typer.Context, tournament: TOpt, date: DateArg,
                 stage: Annotated[str, typer.Option(help="qualifying, semifinal, final")]
                 = "qualifying",
                 chief: Annotated[str, typer.Option(help="chief referee of the evening")] = "",
                 by: ByOpt = "") -> None:
    """Open an evening."""
    day, opened = _store(ctx).open_evening(tournament, date, stage=stage, chief=chief, by=by)
    _said(SAID_OPENED(date=day, stage=opened).message())


@tournament_app.command("arrive")
def arrive(ctx: typer.Context, tournament: TOpt, date: DateArg,
           player: Annotated[str, typer.Argument(help="player name")],
           at: Annotated[str, typer.Argument(help="arrival time (21:15, 21.15, 9:15 pm)")],
           phoned: Annotated[bool, typer.Option(help="lateness phoned in (R3)")] = False,
           phoned_at: Annotated[str | None, typer.Option(
               help="when the phone notice was made, HH:MM (a notice after 21:10 does not "
               "count, R3)")] = None,
           by: ByOpt = "", json_out: JsonOpt = False,
           reason: Annotated[str, typer.Option(
               help="why, for a correction (history and audit log)")] = "") -> None:
    """Record (or correct, saying why with --reason) an arrival (R3) and show its class."""
    name, ruling = _store(ctx).arrive(tournament, date, player, at,
                                      phoned=phoned or phoned_at is not None,
                                      phoned_at=phoned_at, by=by, reason=reason)
    if json_out:
        emit_json({"player": name, **ruling})
    else:
        from ..faults import Fault

        why = Fault.from_dict(ruling["faults"][0]).message()  # in --lang
        _said(ARRIVED(player=name, at=ruling["at"], arrival_class=ruling["class"],
                      turns=ruling["penalty_turns"], why=why).message())


@tournament_app.command("seat")
def seat(ctx: typer.Context, tournament: TOpt, date: DateArg,
         seed: Annotated[str | None, typer.Option(help="seed of the seating draw")] = None,
         by: ByOpt = "", json_out: JsonOpt = False) -> None:
    """Seat a qualifying evening from its admitted arrivals (optimiser: tables of 5 and 4, a
    table of 6 or 3 only when nothing else fits: 11 players -> 6+5; fewest repeat opponents,
    rotating first seats)."""
    tables = _store(ctx).seat(tournament, date, seed=seed, by=by)
    if json_out:
        emit_json({"tables": tables})
    else:
        print_tables(tables)


@tournament_app.command("seat-by-hand")
def seat_by_hand(ctx: typer.Context, tournament: TOpt, date: DateArg,
                 tables: Annotated[list[str], typer.Argument(
                     help="one argument per table: its players in seat order, comma "
                     "separated (\"Anna,Bruno,Carla,Dario\")", show_default=False)],
                 by: ByOpt = "", json_out: JsonOpt = False,
                 reason: Annotated[str, typer.Option(
                     help="why, for a change of seating (audit log)")] = "") -> None:
    """Seat an evening by hand: each table's players in seat order (= turn order), 3 to 6
    per table, every player once."""
    plan = [[n.strip() for n in t.split(",") if n.strip()] for t in tables]
    result = _store(ctx).seat_by_hand(tournament, date, plan, by=by, reason=reason)
    if json_out:
        emit_json({"tables": result})
    else:
        print_tables(result)


@tournament_app.command("swap")
def swap(ctx: typer.Context, tournament: TOpt, date: DateArg,
         a: Annotated[str, typer.Argument(help="a seated player")],
         b: Annotated[str, typer.Argument(help="the seated player to swap with")],
         by: ByOpt = "",
         reason: Annotated[str, typer.Option(help="why (audit log)")] = "") -> None:
    """Swap two seated players by hand."""
    print_tables(_store(ctx).swap(tournament, date, a, b, by=by, reason=reason))


@tournament_app.command("stage")
def seat_stage(ctx: typer.Context, tournament: TOpt,
               stage: Annotated[str, typer.Argument(help="semifinal|final")],
               date: DateArg, by: ByOpt = "", json_out: JsonOpt = False) -> None:
    """Open and seat the semifinal or the final from the ranking (R18)."""
    tables = _store(ctx).seat_stage(tournament, stage, date, by=by)
    if json_out:
        emit_json({"stage": stage, "tables": tables})
    else:
        print_tables(tables)


@tournament_app.command("sheet")
def enter_sheet(ctx: typer.Context, tournament: TOpt, date: DateArg, table: TableArg,
                file: Annotated[Path, typer.Argument(help="end-of-game sheet (JSON or CSV)")],
                abandoned: Annotated[list[str] | None, typer.Option(
                    help="a player who left the game (R13); repeatable")] = None,
                by: ByOpt = "",
                reason: Annotated[str, typer.Option(
                    help="why, for a correction (history and audit log)")] = "") -> None:
    """Enter (or correct, saying why with --reason) a table's result from an end-of-game
    sheet."""
    from ..sheet import SheetError, load_sheet

    try:
        sheet = load_sheet(file).to_dict()
    except SheetError as e:
        fail_faults(e)
    again = _store(ctx).enter_sheet(tournament, date, table, sheet, abandoned=abandoned or [],
                                    by=by, reason=reason)
    _said((SAID_AGAIN if again else SAID_SHEET)(table=table).message())


@tournament_app.command("scores")
def enter_scores(ctx: typer.Context, tournament: TOpt, date: DateArg, table: TableArg,
                 scores: Annotated[list[str], typer.Argument(help="PLAYER=POINTS ...")],
                 risiko: Annotated[list[str] | None, typer.Option(
                     help="a player who completed the objective; repeatable")] = None,
                 abandoned: Annotated[list[str] | None, typer.Option(
                     help="a player who left the game (R13); repeatable")] = None,
                 by: ByOpt = "",
                 reason: Annotated[str, typer.Option(
                     help="why, for a correction (history and audit log)")] = "") -> None:
    """Enter (or correct, saying why with --reason) a table's scores directly: ``Anna=57
    Bruno=40 ...``."""
    values = key_values(scores)
    again = _store(ctx).enter_scores(tournament, date, table, values, risiko=risiko or [],
                                     abandoned=abandoned or [], by=by, reason=reason)
    _said((SAID_AGAIN if again else SAID_SCORES)(table=table).message())


@tournament_app.command("penalty")
def penalty(ctx: typer.Context, tournament: TOpt, date: DateArg, player: PlayerArg,
            points: Annotated[int, typer.Option(help="negative points, e.g. --points -7")],
            reason: Annotated[str, typer.Option(help="why")],
            unit: Annotated[str, typer.Option(help="table or ranking points")] = "table",
            referee: Annotated[str, typer.Option(help="referee who gave it")] = "",
            by: ByOpt = "", json_out: JsonOpt = False) -> None:
    """A referee penalty in table points (on the player's table) or ranking points."""
    pid, name = _store(ctx).penalty(tournament, date, player, points, unit=unit, reason=reason,
                                    referee=referee, by=by)
    if json_out:
        emit_json({"id": pid, "player": name, "points": points, "unit": unit})
    else:
        _said(SAID_PENALTY(id=pid, player=name, points=points, unit=unit).message())


@tournament_app.command("appeal")
def appeal(ctx: typer.Context, tournament: TOpt,
           penalty_id: Annotated[int, typer.Argument(
               help="the penalty's number, as `tournament penalty` said it")],
           outcome: Annotated[str, typer.Argument(help="upheld, reduced or annulled")],
           points: Annotated[int | None, typer.Option(help="the reduced penalty")] = None,
           referee: Annotated[str, typer.Option(help="chief referee deciding")] = "",
           reason: Annotated[str, typer.Option(help="why")] = "",
           by: ByOpt = "") -> None:
    """Decide an appeal on a penalty (preamble). With --file, penalties are numbered in the
    file's order (evenings by date; each evening's table penalties, then its ranking ones)."""
    _store(ctx).appeal(tournament, penalty_id, outcome, points=points, referee=referee,
                       reason=reason, by=by)
    _said(SAID_APPEAL(id=penalty_id, outcome=outcome).message())


@tournament_app.command("discipline")
def discipline(ctx: typer.Context, tournament: TOpt, date: DateArg, player: PlayerArg,
               level: Annotated[str, typer.Argument(help="warning, table, tournament, club")],
               reason: Annotated[str, typer.Option(help="why")],
               referee: Annotated[str, typer.Option(help="referee")] = "",
               table: Annotated[int | None, typer.Option(help="table number")] = None,
               by: ByOpt = "") -> None:
    """A disciplinary record (R10)."""
    name = _store(ctx).discipline(tournament, date, player, level, reason=reason,
                                  referee=referee, table=table, by=by)
    _said(SAID_DISCIPLINE(player=name, discipline=level).message())


@tournament_app.command("carry-over")
def carry_over(ctx: typer.Context, tournament: TOpt, player: PlayerArg,
               points: Annotated[int, typer.Argument(
                   help="points carried over from the previous tournament")],
               referee: Annotated[str, typer.Option(help="referee confirming")] = "",
               by: ByOpt = "") -> None:
    """R17: confirm a new member's points carried over from the previous tournament."""
    name = _store(ctx).carry_over(tournament, player, points, referee=referee, by=by)
    _said(SAID_CARRIED(player=name, points=points).message())


@tournament_app.command("draw")
def draw(ctx: typer.Context, tournament: TOpt,
         stage: Annotated[str, typer.Argument(help="semifinal or final")],
         order: Annotated[list[str], typer.Argument(help="players as drawn, best first")],
         referee: Annotated[str, typer.Option(help="referee")] = "",
         by: ByOpt = "") -> None:
    """Record a draw of lots among tied players at a cut (R18 reading)."""
    names = _store(ctx).draw(tournament, stage, order, referee=referee, by=by)
    _said(SAID_DRAW(players=names).message())


@tournament_app.command("merge-players")
def merge_players(ctx: typer.Context,
                  keep: Annotated[str, typer.Argument(help="the player who stays")],
                  twin: Annotated[str, typer.Argument(
                      help="the same person registered again (e.g. LUÈ for Luè)")],
                  by: ByOpt = "") -> None:
    """Merge two players who are one person: every fact of TWIN becomes KEEP's (committee;
    audit-logged). Refused when both arrived or sat on the same evening."""
    name = _store(ctx).merge_players(keep, twin, by=by)
    _said(SAID_MERGED(twin=twin, player=name).message())


@tournament_app.command("standings")
def standings(ctx: typer.Context, tournament: TOpt, json_out: JsonOpt = False,
              csv_out: Annotated[bool, typer.Option("--csv", help="CSV output")] = False
              ) -> None:
    """The general ranking, semifinal and final as far as the results go."""
    report = _store(ctx).report(tournament)
    if json_out:
        emit_json(report)
        return
    if csv_out:
        import io

        from .. import csvcells

        buf = io.StringIO()
        writer = csvcells.writer(buf)  # names never run as formulas in a spreadsheet
        writer.writerow(["rank", "player", "points", "games", "risiko", "best", "penalties",
                         "eligible", "table_points", "bonus", "wins"])
        for r in report["standings"]:
            writer.writerow([r["rank"], r["player"], r["points"], r["games"], r["risiko"],
                             "" if r["best"] is None else r["best"], r["penalties"],
                             r["eligible"], r["table_points"], r["bonus"], r["wins"]])
        sys.stdout.write(buf.getvalue())
        return
    print_report(report)


@tournament_app.command("log")
def audit_log(ctx: typer.Context, tournament: TOpt,
              limit: Annotated[int, typer.Option(help="most recent entries")] = 50,
              json_out: JsonOpt = False) -> None:
    """The audit log: who changed what and when (the database only)."""
    rows = _store(ctx).log(tournament, limit)
    if json_out:
        emit_json(rows)
        return
    for r in rows:
        _said(f"{r['when'][:16]} {r['who']}: {r['action']} — {r['summary']}")


def register(app: typer.Typer) -> None:
    """Add ``season``, ``arrival`` and the ``tournament`` group to ``app``."""
    app.command("season", help=SEASON_HELP)(season)
    app.command("arrival", help=ARRIVAL_HELP)(arrival)
    app.add_typer(tournament_app, name="tournament")

