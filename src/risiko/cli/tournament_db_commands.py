"""``risiko tournament ...``: the tournament kept in the database (Django ORM).

SQLite in the per-user data directory by default, PostgreSQL (or any database Django knows)
when ``DATABASE_URL`` is set; migrations run on first use. Every change is made through
:mod:`risiko.web.services` (validated, atomic, audit-logged) with ``--by`` naming who made it.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table as RichTable

from risiko import csvcells

from .common import console, emit_json, err_console, fail

tournament_app = typer.Typer(
    help="The tournament in the database: players, evenings, arrivals, tables, results, "
    "penalties, appeals, standings, semifinal and final.",
    no_args_is_help=True,
)

TOpt = Annotated[str, typer.Argument(help="tournament (slug, name or id)")]
DateArg = Annotated[str, typer.Argument(help="evening date YYYY-MM-DD")]
ByOpt = Annotated[str, typer.Option("--by", help="who makes the change (audit log)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="machine-readable output")]


def _setup() -> Any:
    """Start Django (migrations on first use) and return the services module."""
    from risiko.web.bootstrap import setup

    try:
        setup()
    except Exception as e:  # a database that cannot be reached, a bad DATABASE_URL
        fail(f"database: {e}", code=1)
    from risiko.web import services

    return services


def _run(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Call a service; a ServiceError becomes one line per fault and exit 1."""
    services = _setup()
    try:
        return fn(services, *args, **kwargs)
    except services.ServiceError as e:
        for line in str(e).splitlines():
            err_console.print(f"[bold red]error:[/] {line}", highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None


def _default_by() -> str:
    import getpass

    try:
        return getpass.getuser()
    except Exception:
        return "cli"


@tournament_app.command("create")
def create(
    name: Annotated[str, typer.Argument(help="tournament name")],
    ruleset: Annotated[str, typer.Option(help="ruleset preset")] = "club-milano",
    format_file: Annotated[
        Path | None, typer.Option("--format", help="JSON file of the tournament format")
    ] = None,
    previous: Annotated[str | None, typer.Option(help="the tournament it follows (R17)")] = None,
    by: ByOpt = "",
    json_out: JsonOpt = False,
) -> None:
    """Create a tournament."""
    fmt = None
    if format_file is not None:
        try:
            fmt = json.loads(format_file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            fail(f"--format {format_file}: {e}")

    def go(s: Any) -> Any:
        prev = s.get_tournament(previous) if previous else None
        return s.create_tournament(name, ruleset=ruleset, format=fmt, previous=prev,
                                   who=by or _default_by())

    t = _run(go)
    if json_out:
        emit_json({"id": t.pk, "slug": t.slug, "name": t.name,
                   "ruleset": f"{t.ruleset_name}@{t.ruleset_version}"})
    else:
        console.print(f"created {t.name} (slug {t.slug}, {t.ruleset_name}@{t.ruleset_version})")


@tournament_app.command("list")
def list_tournaments(json_out: JsonOpt = False) -> None:
    """List the tournaments in the database."""
    _setup()
    from risiko.web.tournaments.models import Tournament

    rows = [{"id": t.pk, "slug": t.slug, "name": t.name,
             "ruleset": f"{t.ruleset_name}@{t.ruleset_version}",
             "players": t.entries.count(), "evenings": t.evenings.count()}
            for t in Tournament.objects.order_by("created")]
    if json_out:
        emit_json(rows)
        return
    table = RichTable("id", "slug", "name", "ruleset", "players", "evenings")
    for r in rows:
        table.add_row(*(str(r[k]) for k in ("id", "slug", "name", "ruleset", "players",
                                             "evenings")))
    console.print(table)


@tournament_app.command("current")
def set_current(tournament: TOpt, by: ByOpt = "") -> None:
    """Make a tournament the one the public pages show (the current tournament)."""
    t = _run(lambda s: s.set_current(s.get_tournament(tournament), who=by or _default_by()))
    console.print(f"{t.name} is the current tournament")


@tournament_app.command("add-players")
def add_players(tournament: TOpt,
                names: Annotated[list[str], typer.Argument(help="player names")],
                by: ByOpt = "") -> None:
    """Register players in a tournament (created if new)."""
    players = _run(lambda s: s.add_players(s.get_tournament(tournament), names,
                                           who=by or _default_by()))
    console.print(f"{len(players)} players registered")


@tournament_app.command("import")
def import_season(file: Annotated[Path, typer.Argument(help="season file (JSON)")],
                  name: Annotated[str | None, typer.Option(help="another name")] = None,
                  by: ByOpt = "") -> None:
    """Create a tournament from a season file (every fact; nothing written if it is bad)."""
    try:
        data = json.loads(Path(file).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        fail(f"{file}: {e}", code=1)
    t = _run(lambda s: s.import_season(data, who=by or _default_by(), name=name))
    console.print(f"imported {t.name} (slug {t.slug})")


@tournament_app.command("export")
def export_season(tournament: TOpt,
                  file: Annotated[Path | None, typer.Argument(help="output (default stdout)")]
                  = None) -> None:
    """Write a tournament as a season file (``risiko season`` reads it)."""
    data = _run(lambda s: s.export_season(s.get_tournament(tournament)))
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if file is None:
        sys.stdout.write(text)
    else:
        file.write_text(text, encoding="utf-8")
        console.print(f"written {file}")


@tournament_app.command("evening")
def open_evening(tournament: TOpt, date: DateArg,
                 stage: Annotated[str, typer.Option(help="qualifying, semifinal, final")]
                 = "qualifying",
                 chief: Annotated[str, typer.Option(help="chief referee of the evening")] = "",
                 by: ByOpt = "") -> None:
    """Open an evening."""
    e = _run(lambda s: s.open_evening(s.get_tournament(tournament), date, stage=stage,
                                      chief_referee=chief, who=by or _default_by()))
    console.print(f"evening {e.date} ({e.stage}) opened")


@tournament_app.command("arrive")
def arrive(tournament: TOpt, date: DateArg,
           player: Annotated[str, typer.Argument(help="player name")],
           at: Annotated[str, typer.Argument(help="arrival time HH:MM")],
           phoned: Annotated[bool, typer.Option(help="lateness phoned in (R3)")] = False,
           phoned_at: Annotated[str | None, typer.Option(
               help="when the phone notice was made, HH:MM (a notice after 21:10 does not "
               "count, R3)")] = None,
           by: ByOpt = "", json_out: JsonOpt = False) -> None:
    """Record (or correct) an arrival (R3) and show its class."""
    def go(s: Any) -> Any:
        t = s.get_tournament(tournament)
        return s.record_arrival(s.get_evening(t, date), player, at,
                                phoned=phoned or phoned_at is not None, phoned_at=phoned_at,
                                who=by or _default_by())

    _, ruling = _run(go)
    if json_out:
        emit_json({"player": player, **ruling.to_dict()})
    else:
        console.print(f"{player} {ruling.to_dict()['at']}: {ruling.arrival_class}"
                      f" ({ruling.penalty_turns} penalty turns) — {ruling.reason}")


def _print_tables(tables: list[list[str]]) -> None:
    for i, seats in enumerate(tables, start=1):
        console.print(f"table {i}: " + ", ".join(f"{k}. {p}" for k, p in enumerate(seats, 1)))


def _tables_of(evening: Any) -> list[list[str]]:
    return [[s.player.name for s in tb.seats.order_by("position")]
            for tb in evening.tables.order_by("number")]


@tournament_app.command("seat")
def seat(tournament: TOpt, date: DateArg,
         seed: Annotated[str | None, typer.Option(help="seed of the seating draw")] = None,
         by: ByOpt = "", json_out: JsonOpt = False) -> None:
    """Seat a qualifying evening from its admitted arrivals (optimiser: tables of 5 and 4,
    fewest repeat opponents, rotating first seats)."""
    def go(s: Any) -> Any:
        e = s.get_evening(s.get_tournament(tournament), date)
        s.seat_evening(e, seed=seed, who=by or _default_by())
        return _tables_of(e)

    tables = _run(go)
    if json_out:
        emit_json({"tables": tables})
    else:
        _print_tables(tables)


@tournament_app.command("swap")
def swap(tournament: TOpt, date: DateArg, a: str, b: str, by: ByOpt = "") -> None:
    """Swap two seated players by hand."""
    def go(s: Any) -> Any:
        e = s.get_evening(s.get_tournament(tournament), date)
        s.swap_seats(e, a, b, who=by or _default_by())
        return _tables_of(e)

    _print_tables(_run(go))


@tournament_app.command("stage")
def seat_stage(tournament: TOpt, stage: Annotated[str, typer.Argument(help="semifinal|final")],
               date: DateArg, by: ByOpt = "", json_out: JsonOpt = False) -> None:
    """Open and seat the semifinal or the final from the ranking (R18)."""
    def go(s: Any) -> Any:
        e = s.seat_stage(s.get_tournament(tournament), date, stage, who=by or _default_by())
        return _tables_of(e)

    tables = _run(go)
    if json_out:
        emit_json({"stage": stage, "tables": tables})
    else:
        _print_tables(tables)


@tournament_app.command("sheet")
def enter_sheet(tournament: TOpt, date: DateArg, table: int,
                file: Annotated[Path, typer.Argument(help="end-of-game sheet (JSON or CSV)")],
                abandoned: Annotated[list[str] | None, typer.Option(
                    help="a player who left the game (R13); repeatable")] = None,
                by: ByOpt = "") -> None:
    """Enter (or correct) a table's result from an end-of-game sheet."""
    from risiko.sheet import SheetError, load_sheet

    try:
        sheet = load_sheet(file).to_dict()
    except SheetError as e:
        for f in e.faults:
            err_console.print(f"[bold red]error:[/] {f}", highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None
    except OSError as e:
        fail(f"{file}: {e}", code=1)

    def go(s: Any) -> Any:
        e = s.get_evening(s.get_tournament(tournament), date)
        return s.enter_sheet(s.get_table(e, table), sheet, abandoned=abandoned or [],
                             who=by or _default_by())

    _run(go)
    console.print(f"table {table}: sheet recorded")


@tournament_app.command("scores")
def enter_scores(tournament: TOpt, date: DateArg, table: int,
                 scores: Annotated[list[str], typer.Argument(help="PLAYER=POINTS ...")],
                 risiko: Annotated[list[str] | None, typer.Option(
                     help="a player who completed the objective; repeatable")] = None,
                 abandoned: Annotated[list[str] | None, typer.Option(
                     help="a player who left the game (R13); repeatable")] = None,
                 by: ByOpt = "") -> None:
    """Enter (or correct) a table's scores directly: ``Anna=57 Bruno=40 ...``."""
    values: dict[str, int] = {}
    for item in scores:
        name, sep, pts = item.rpartition("=")
        if not sep or not name:
            fail(f"{item!r}: write PLAYER=POINTS")
        try:
            values[name] = int(pts)
        except ValueError:
            fail(f"{item!r}: the points must be a whole number")

    def go(s: Any) -> Any:
        e = s.get_evening(s.get_tournament(tournament), date)
        return s.enter_scores(s.get_table(e, table), values, risiko=risiko or [],
                              abandoned=abandoned or [], who=by or _default_by())

    _run(go)
    console.print(f"table {table}: scores recorded")


@tournament_app.command("penalty")
def penalty(tournament: TOpt, date: DateArg, player: str,
            points: Annotated[int, typer.Option(help="negative points, e.g. --points -7")],
            reason: Annotated[str, typer.Option(help="why")],
            unit: Annotated[str, typer.Option(help="table or ranking points")] = "table",
            referee: Annotated[str, typer.Option(help="referee who gave it")] = "",
            by: ByOpt = "", json_out: JsonOpt = False) -> None:
    """A referee penalty in table points (on the player's table) or ranking points."""
    def go(s: Any) -> Any:
        e = s.get_evening(s.get_tournament(tournament), date)
        return s.add_penalty(e, player, points, unit=unit, reason=reason,
                             referee=referee or by or _default_by(), who=by or _default_by())

    row = _run(go)
    if json_out:
        emit_json({"id": row.pk, "player": player, "points": points, "unit": unit})
    else:
        console.print(f"penalty {row.pk}: {player} {points} {unit} points")


@tournament_app.command("appeal")
def appeal(tournament: TOpt, penalty_id: int,
           outcome: Annotated[str, typer.Argument(help="upheld, reduced or annulled")],
           points: Annotated[int | None, typer.Option(help="the reduced penalty")] = None,
           referee: Annotated[str, typer.Option(help="chief referee deciding")] = "",
           reason: Annotated[str, typer.Option(help="why")] = "",
           by: ByOpt = "") -> None:
    """Decide an appeal on a penalty (preamble)."""
    def go(s: Any) -> Any:
        from risiko.web.results.models import Penalty

        t = s.get_tournament(tournament)
        pen = Penalty.objects.filter(pk=penalty_id, evening__tournament=t).first()
        if pen is None:
            raise s.ServiceError(f"{t.name}: no penalty {penalty_id}")
        return s.decide_appeal(pen, outcome, points=points,
                               referee=referee or by or _default_by(), reason=reason,
                               who=by or _default_by())

    _run(go)
    console.print(f"penalty {penalty_id}: appeal {outcome}")


@tournament_app.command("discipline")
def discipline(tournament: TOpt, date: DateArg, player: str,
               level: Annotated[str, typer.Argument(help="warning, table, tournament, club")],
               reason: Annotated[str, typer.Option(help="why")],
               referee: Annotated[str, typer.Option(help="referee")] = "",
               table: Annotated[int | None, typer.Option(help="table number")] = None,
               by: ByOpt = "") -> None:
    """A disciplinary record (R10)."""
    _run(lambda s: s.add_discipline(
        s.get_evening(s.get_tournament(tournament), date), player, level, reason=reason,
        referee=referee or by or _default_by(), table_number=table, who=by or _default_by()))
    console.print(f"{player}: {level} recorded")


@tournament_app.command("carry-over")
def carry_over(tournament: TOpt, player: str, points: int,
               referee: Annotated[str, typer.Option(help="referee confirming")] = "",
               by: ByOpt = "") -> None:
    """R17: confirm a new member's points carried over from the previous tournament."""
    _run(lambda s: s.set_carry_over(s.get_tournament(tournament), player, points,
                                    referee=referee or by or _default_by(),
                                    who=by or _default_by()))
    console.print(f"{player}: {points} points carried over")


@tournament_app.command("draw")
def draw(tournament: TOpt, stage: Annotated[str, typer.Argument(help="semifinal or final")],
         order: Annotated[list[str], typer.Argument(help="players as drawn, best first")],
         referee: Annotated[str, typer.Option(help="referee")] = "",
         by: ByOpt = "") -> None:
    """Record a draw of lots among tied players at a cut (R18 reading)."""
    _run(lambda s: s.record_draw(s.get_tournament(tournament), stage, order,
                                 referee=referee or by or _default_by(),
                                 who=by or _default_by()))
    console.print(f"draw recorded: {', '.join(order)}")


@tournament_app.command("standings")
def standings(tournament: TOpt, json_out: JsonOpt = False,
              csv_out: Annotated[bool, typer.Option("--csv", help="CSV output")] = False
              ) -> None:
    """The general ranking, semifinal and final as far as the results go."""
    def go(s: Any) -> Any:
        from risiko.web import selectors

        return selectors.season_report_of(s.get_tournament(tournament))

    report = _run(go)
    if json_out:
        emit_json(report)
        return
    rows = report["standings"]
    if csv_out:
        buf = io.StringIO()
        writer = csvcells.writer(buf)  # names never run as formulas in a spreadsheet
        writer.writerow(["rank", "player", "points", "games", "risiko", "best", "penalties",
                         "eligible"])
        for r in rows:
            writer.writerow([r["rank"], r["player"], r["points"], r["games"], r["risiko"],
                             "" if r["best"] is None else r["best"], r["penalties"],
                             r["eligible"]])
        sys.stdout.write(buf.getvalue())
        return
    table = RichTable("#", "player", "points", "games", "RisiKo!", "best", "penalties",
                      title=f"{report['name']} — classifica generale")
    for r in rows:
        table.add_row(str(r["rank"]), r["player"], str(r["points"]), str(r["games"]),
                      str(r["risiko"]), "" if r["best"] is None else str(r["best"]),
                      str(r["penalties"]))
    console.print(table)
    for key, label in (("semifinal_tables", "semifinal"), ("finalists", "finalists"),
                       ("final_standings", "final standings")):
        if report.get(key):
            console.print(f"{label}: {report[key]}")
    for p in report.get("pending", []):
        console.print(f"[dim]{p}[/]")


@tournament_app.command("log")
def audit_log(tournament: TOpt,
              limit: Annotated[int, typer.Option(help="most recent entries")] = 50,
              json_out: JsonOpt = False) -> None:
    """The audit log: who changed what and when."""
    def go(s: Any) -> Any:
        from risiko.web.auditlog.models import AuditEntry

        t = s.get_tournament(tournament)
        from django.utils import timezone

        return [{"when": timezone.localtime(a.when).isoformat(), "who": a.who,
                 "action": a.action,
                 "target": a.target, "summary": a.summary}
                for a in AuditEntry.objects.filter(tournament=t.name)[:limit]]

    rows = _run(go)
    if json_out:
        emit_json(rows)
        return
    for r in rows:
        console.print(f"{r['when'][:16]} {r['who']}: {r['action']} — {r['summary']}",
                      highlight=False)


def register(app: typer.Typer) -> None:
    """Add the ``tournament`` command group to ``app``."""
    app.add_typer(tournament_app, name="tournament")
