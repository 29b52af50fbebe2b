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
- ``risiko national publish TOURNAMENT [--to URL]``: a finished tournament of this club
  (or a season file of the file mode, or a report file) published: it waits for the
  national officer's approval. Without ``--to`` on this server; with ``--to`` to a
  national server over HTTPS (plain http only to this machine), as a ``risiko-publish/1``
  envelope signed with the club key (:mod:`risiko.national.publish`), read from
  ``RISIKO_CLUB_KEY`` or ``--key-file`` only, never an argument (it would land in the
  shell's history and in ``ps``), never printed, never in the URL. ``--revision N``
  (default: the time in milliseconds) must be above every revision sent before for the
  tournament. A club's own server has no national register: ``--national-ids FILE`` names
  its players (``name,national id`` a line).
- ``risiko national approve REPORT`` / ``refuse REPORT --reason TEXT``: the officer decides.
- ``risiko national key issue|rotate|revoke CLUB``: the officer's club keys (the key is
  printed once, on stdout, for the club).

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

from ..faults import Fault, RisikoError, current_language, define, define_words, faults_json
from ..figures import percent_text
from .common import (
    CANNOT_READ,
    ByOpt,
    JsonOpt,
    console,
    emit_json,
    err_console,
    fail,
    fail_faults,
    in_file,
    os_reason,
    refusals_in_json,
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
    :class:`~risiko.faults.RisikoError` (the file's faults), ``OSError`` or
    ``UnicodeDecodeError`` (not UTF-8 text: callers say ``cli.cannot_read``)."""
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
        except (OSError, UnicodeDecodeError) as e:
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
        ("win_rate", lambda p: percent_text(p["wins"] / p["games"], 0, current_language())
         if p["games"] else "-")]
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
    """The national list of a year, recomputed from the stored reports; a year without a
    tournament in force is refused naming the years that have one, a year outside the
    calendar (2000 to 2099) as outside it (exit 1, on stderr; with --json also
    ``{"faults": [...]}`` on stdout), as its page answers 404. An empty table whose
    tournaments have only anonymous players says so under it."""
    if json_out and csv_out:
        fail(BOTH_FORMATS())
    start_django()
    from risiko.web.national.services import nobody_listed, year_fault
    from risiko.web.national.services import ranking as compute

    refused = year_fault(year)
    if refused is not None:
        fail_faults([refused], as_json=json_out)

    result = compute(year)
    if json_out:
        emit_json(result.to_json())
    elif csv_out:
        csv.writer(sys.stdout, lineterminator="\n").writerows(result.csv_rows())
    else:
        _table(result.to_json())
        note = nobody_listed(year, result)  # an empty table says why (anonymous players)
        if note is not None:
            console.print(escape(note.message(current_language())))


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
    except (OSError, UnicodeDecodeError) as e:
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


# ----------------------------------------------------------------------------- publishing

PUBLISHED = define("national.cli_published", "",
                   "{tournament}: revision {number} published, waiting for the national "
                   "officer's approval (report {id}: risiko national approve {id})")
PUBLISHED_UNCHANGED = define("national.cli_published_unchanged", "",
                             "{tournament}: already published (revision {number}, "
                             "{revision_status}; report {id}): nothing written")
#: where a report stands (``RevisionStatus``), said in the message's language
define_words("revision_status", ("published", "approved", "refused"))
ANONYMOUS = define("national.cli_anonymous", "",
                   "not in the national register, sent as anonymous: {names}")
#: a file given to publish that is not a report, a workbook nor a season file to publish
#: (not JSON, a bad field): each fault of the file after its name, the path its subject
BAD_FILE = define("national.cli_bad_file", "", "{file} cannot be published: {fault}")
#: ``--category`` or ``--club-name`` given with a report file or a workbook, which names
#: its own club and category (never ignored in silence)
FILE_FIXES = define("national.cli_file_fixes", "",
                    "{option}: {file} is a report, which names its own club and category "
                    "(the option is for a tournament or a season file)")
CLUB_TWICE = define("national.cli_club_twice", "",
                    "{option} {club} names two clubs: {by_key} by its identifier, {by_slug} "
                    "by its URL name (both stored before identifiers and URL names were kept "
                    "apart): name {by_slug} by its identifier, or the officer gives it "
                    "another URL name (admin, Ranking clubs)")
NO_TOURNAMENT = define("national.cli_no_tournament", "",
                       "{tournament}: no such tournament here (and no such report file)")
OTHER_CLUB = define("national.cli_other_club", "",
                    "{tournament} is a tournament of {owner}, not of {option} {club}")
UNKNOWN_CLUB = define("national.cli_unknown_club", "",
                      "{option} {club}: no such club in the national ranking (publish never "
                      "registers one; the officer registers it: risiko national club add "
                      "{club} NAME)")
REPORT_CLUB = define("national.cli_report_club", "",
                     "{file} is a report of club {owner}, not of {option} {club}")
WORKBOOK_CLUB = define("national.cli_workbook_club", "",
                       "{file}: a GestioneTorneo workbook names its club by name only "
                       "({name}), and no one registered club has that name: give the club's "
                       "identifier with --club (risiko national club list)")
REPORT_UNKNOWN_CLUB = define("national.cli_report_unknown_club", "",
                             "{file}: club {club} is not in the national ranking (publish "
                             "never registers one; the officer registers it: risiko "
                             "national club add {club} NAME)")
NO_CLUB_ID = define("national.cli_no_club", "",
                    "--club: the club's identifier in the national ranking (or "
                    "RISIKO_NATIONAL_CLUB_ID)")
NO_KEY = define("national.cli_no_key", "",
                "--to needs the club key: RISIKO_CLUB_KEY or --key-file FILE (never on the "
                "command line)")
NOT_HTTPS = define("national.cli_not_https", "",
                   "--to {url}: the national server is reached over HTTPS only (plain "
                   "http only to this machine)")
UNREACHABLE = define("national.cli_unreachable", "",
                     "{url}: the national server cannot be reached ({reason})")
SERVER_SAID = define("national.cli_server_said", "", "the national server answered {status}")
APPROVED = define("national.cli_approved", "",
                  "{tournament}: revision {number} approved, in force")
REFUSED_REPORT = define("national.cli_refused_report", "",
                        "{tournament}: revision {number} refused: {reason}")
KEY_ISSUED = define("national.cli_key_issued", "",
                    "club {club}: new key {key}; give the club this line (shown once), as "
                    "RISIKO_CLUB_KEY or in a file readable by its server only:")
CLUB_ADDED = define("national.cli_club_added", "",
                    "club {club} registered: {name} (URL name {slug})")
NO_CLUBS = define("national.cli_no_clubs", "", "no club registered yet")
YES = define("national.cli_yes", "", "yes")
CLUB_NEEDS = define("national.cli_club_needs", "",
                    "club add needs the club's identifier and name: risiko national club "
                    "add CLUB NAME")
#: the labels of the parts of a ``national club list`` line (a line a club, never a table:
#: ``roma  ROMA [Roma Club]  (URL name: roma; Official: yes 2020-01-01)``); the catalogue
#: keeps their first ids, ``national.col_club_*``, from when they headed columns
CLUB_LINE_PARTS = {
    "club": define("national.col_club_id", "", "Identifier"),
    "name": define("national.col_club_name", "", "Name"),
    "slug": define("national.col_club_slug", "", "URL name"),
    "official": define("national.col_club_official", "", "Official"),
    "key": define("national.col_club_key", "", "Key in force"),
    "default": define("national.col_club_default", "", "This server's"),
}
NO_SUCH_ACTION = define("national.cli_no_such_action", "", "{action}: one of {known}")
KEY_REVOKED = define("national.cli_key_revoked", "", "club {club}: key {key} revoked")
KEY_FILE_OPEN = define("national.cli_key_file_open", "",
                       "{file}: others can read it; the club key is kept for its owner only "
                       "(chmod 600 {file})")
BAD_IDS = define("national.cli_bad_ids", "",
                 "{file}, line {line}: expected a player's name and his national id "
                 "(name,national id)")


def read_national_ids(path: Path) -> dict[str, int]:
    """The club's list of national ids: one ``name,national id`` a line (``;`` also
    separates; a first line whose id is not a number is a header), names compared as
    :func:`risiko.names.name_key` does. Exits 1 naming every bad line."""
    from ..names import name_key

    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        reason = os_reason(e) if isinstance(e, OSError) else "not UTF-8 text"
        fail(CANNOT_READ(path=str(path), reason=reason), code=1)
    out: dict[str, int] = {}
    faults = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        cells = next(csv.reader([line], delimiter=";" if ";" in line else ","))
        if len(cells) == 2 and cells[0].strip() and cells[1].strip().isdigit():
            out[name_key(cells[0])] = int(cells[1])
        elif number != 1:
            faults.append(BAD_IDS(file=str(path), line=number))
    if faults:
        fail_faults(faults)
    return out


def _club_key(key_file: Path | None) -> str:
    """The club key from ``--key-file`` (its first line; refused when others may read the
    file, as ssh refuses a key's) or ``RISIKO_CLUB_KEY``; never from an argument (shell
    history, ``ps``)."""
    import os

    if key_file is not None:
        try:
            if os.name == "posix" and key_file.stat().st_mode & 0o077:
                fail(KEY_FILE_OPEN(file=str(key_file)), code=2)  # as ssh does a key's
            text = key_file.read_text(encoding="utf-8").strip().splitlines()
        except (OSError, UnicodeDecodeError) as e:
            reason = os_reason(e) if isinstance(e, OSError) else "not UTF-8 text"
            fail(CANNOT_READ(path=str(key_file), reason=reason), code=1)
        return text[0] if text else ""
    value = os.environ.get("RISIKO_CLUB_KEY", "")
    if not value:
        fail(NO_KEY(), code=2)
    return value


def _target(url: str) -> str:
    """The endpoint of the national server at ``url`` (HTTPS; http only to localhost)."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    local = parts.hostname in ("localhost", "127.0.0.1", "::1")
    if parts.scheme != "https" and not (parts.scheme == "http" and local):
        fail(NOT_HTTPS(url=url), code=2)
    if parts.query or parts.fragment or parts.username or parts.password:
        fail(NOT_HTTPS(url=url), code=2)
    base = url.rstrip("/")
    return base if base.endswith("/api/pubblica") else base + "/nazionale/api/pubblica/"


def _send(url: str, body: bytes, key_text: str) -> tuple[int, dict[str, Any]]:
    """POST ``body`` signed with the club key; ``(status, answer JSON)``."""
    import json
    import urllib.error
    import urllib.request

    from ..national.publish import sign, split_club_key

    try:
        key_id, secret = split_club_key(key_text)
    except RisikoError as e:
        fail(e, code=2)
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/json; charset=utf-8", "X-Risiko-Key": key_id,
        "X-Risiko-Signature": sign(body, secret), "Accept-Language": current_language()})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            status, raw = answer.status, answer.read()
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read()
    except (urllib.error.URLError, OSError) as e:
        reason = getattr(e, "reason", e)
        fail(UNREACHABLE(url=url, reason=str(reason)), code=1)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        data = {}
    return status, data if isinstance(data, dict) else {}


def _is_season(path: Path) -> bool:
    """Whether ``path`` holds a season file (``risiko tournament``'s file mode) rather than
    a report: a JSON object with ``evenings``."""
    import json

    from ..national.report import FORMAT

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    return isinstance(data, dict) and "evenings" in data and data.get("format") != FORMAT


def _season_report(path: Path, club_id: str, club_name: str | None, category: Any,
                   ids: dict[str, int] | None) -> Any:
    """The report of a finished tournament kept as a season file (file mode), its players
    named by ``ids`` (else anonymous: a file has no register)."""
    import os

    from ..names import name_key
    from ..national.publish import tournament_report
    from ..tournament.finals import compute_stages
    from ..tournament.season import load_season

    tournament = load_season(path)
    listed = ids or {}

    def register(name: str) -> Any:
        number = listed.get(name_key(name))
        if number is None:
            return None
        first, _sep, rest = name.partition(" ")
        return (number, first, rest or "-", None)

    name = club_name or os.environ.get("RISIKO_CLUB_NAME") or club_id
    return tournament_report(tournament, compute_stages(tournament), club_id=club_id,
                             club_name=name, category=category, register=register)


def _file_faults(path: Path, error: RisikoError) -> list[Fault]:
    """The faults of ``error``, raised reading the file ``path`` to publish, each said
    after the file (``national.cli_bad_file``: ``bad.json cannot be published: not valid
    JSON (line 1, column 2)``), the path in its subjects (``{"file": path}``, beside the
    fault's own)."""
    return [BAD_FILE({**f.subjects, "file": str(path)}, f.severity, file=str(path),
                     fault=f.to_dict()) for f in error.faults]


def _refuse_fixed_options(path: Path, given: dict[str, str | None]) -> None:
    """A report file (or a workbook) names its own club and category: each option of
    ``given`` (flag -> its value, None when not given) that was given ends the command,
    one fault each (``national.cli_file_fixes``, the option and the file its subjects;
    exit 2), never ignored in silence."""
    faults = [FILE_FIXES({"option": option, "file": str(path)}, option=option,
                         file=str(path))
              for option, value in given.items() if value is not None]
    if faults:
        fail(faults, code=2)


def _club_not_twice(club: str, option: str) -> None:
    """``--club`` (or ``RISIKO_NATIONAL_CLUB_ID``: ``option``) names a club by its
    identifier, else by its URL name; two clubs stored before the two were kept apart (one's
    identifier the other's URL name, docs/national.md) are both named by ``club``: that
    ends the command naming both (``national.cli_club_twice``, exit 2), never one picked in
    silence. One query."""
    from django.db.models import Q

    from risiko.web.national.models import Club

    named = list(Club.objects.filter(Q(key=club) | Q(slug=club)).order_by("pk")[:2])
    if len(named) == 2:
        by_key, by_slug = sorted(named, key=lambda c: c.key != club)
        fail(CLUB_TWICE({"clubs": [by_key.key, by_slug.key]}, option=option, club=club[:60],
                        by_key=f"{by_key.key} ({by_key.name})",
                        by_slug=f"{by_slug.key} ({by_slug.name})"), code=2)


def _registered_club(club: str, option: str, own: Any) -> str:
    """The identifier of the registered club ``club`` names (its identifier or its URL
    name; ``option`` the flag or variable that gave it, for the refusal): a season file
    published on this server is published for a club of the ranking only; naming none
    ends the command (``national.cli_unknown_club``: publish never registers a club, so a
    typo never becomes one). ``own``: the server's own club (the caller's
    :func:`risiko.web.clubs.default_club`, made from RISIKO_CLUB_ID on its first need)."""
    from risiko.web.national.models import Club

    if club == own.key:
        return str(own.key)
    found = (Club.objects.filter(key=club).first()
             or Club.objects.filter(slug=club).first())
    if found is None:
        fail(UNKNOWN_CLUB(option=option, club=club[:60]), code=2)
    return str(found.key)


def _check_report_club(report: Any, path: Path, club: str, option: str, own_club: Any, *,
                       remote: bool) -> None:
    """A report file is published for the club it names: ``club`` (``--club``, else
    ``RISIKO_NATIONAL_CLUB_ID``: ``option``) naming another club ends the command
    (``national.cli_report_club``: never a silent choice of one of the two); on this server
    its club must be registered (``national.cli_report_unknown_club``). A GestioneTorneo
    workbook names its club by name only: ``club`` gives its identifier, else the one club
    registered with that name (none or two: ``national.cli_workbook_club``; the clubs of
    that name are asked only when no club has the report's identifier). With ``--to`` the
    national server checks the club against the key. ``own_club``: the server's own club
    (the caller's :func:`risiko.web.clubs.default_club`)."""
    from risiko.web.national.models import Club

    own = (own_club if report.club_id == own_club.key
           else Club.objects.filter(key=report.club_id).first())
    if own is None:
        named = list(Club.objects.filter(name=report.club_name)[:2])
        if len(named) == 1:
            own = named[0]
    workbook = path.suffix.lower() == ".xls"
    if club and club != report.club_id and (own is None or club not in (own.key, own.slug)):
        fail(REPORT_CLUB(file=path.name, owner=report.club_id[:60], option=option,
                         club=club[:60]), code=2)
    if not remote and own is None:
        if workbook and not club:
            fail(WORKBOOK_CLUB(file=path.name, name=report.club_name[:120]), code=2)
        fail(REPORT_UNKNOWN_CLUB(file=path.name, club=report.club_id[:60]), code=2)


def _own_club_tournament(tournament: str, club: str, option: str) -> Any:
    """The stored tournament ``tournament`` (issue 21 item 1: a tournament is published for
    the club that owns it). ``club`` (``--club``, else ``RISIKO_NATIONAL_CLUB_ID``:
    ``option``) naming a club with tournaments on this server (its identifier or slug)
    picks that club's tournament, and ends the command naming the owner when that club
    does not have it (``national.cli_other_club``); naming any other club it picks nothing
    (a club's own server, whose local club may be named otherwise: :func:`_owner_id`
    decides). A name that two clubs share, not told apart, ends the command naming them
    (``cli.club_ambiguous``)."""
    from .tournament_store import CLUB_AMBIGUOUS, clubs_having

    having = clubs_having(tournament)
    if club:
        mine = [(o, f) for o, f in having if club in (o.key, o.slug)]
        if mine:
            having = mine
    if len(having) > 1:
        fail(CLUB_AMBIGUOUS(tournament=tournament[:80],
                            clubs=", ".join(f"{o.slug} ({o.name})" for o, _ in having)), code=2)
    if not having:
        fail(NO_TOURNAMENT(tournament=tournament), code=2)
    return having[0][1]


def _owner_id(found: Any, club: str, option: str, *, remote: bool) -> str:
    """The national identifier ``found`` (a stored tournament) is published under: always
    its owning club's on this server (docs/national.md); ``club`` (``--club``, else
    ``RISIKO_NATIONAL_CLUB_ID``: ``option``, named by the refusal) naming another
    registered club ends the command naming the owner (``national.cli_other_club``),
    naming no registered club it ends naming how to register one
    (``national.cli_unknown_club``): a typo never becomes a new club nor a new national
    tournament. With ``--to`` (``remote``), a club's own server whose local club is named
    otherwise: ``club`` is its identifier at the national server, which checks it against
    the club key."""
    from django.db.models import Q

    from risiko.web.national.models import Club

    owner = found.club
    if remote:
        return club if club and club not in (owner.key, owner.slug) else str(owner.key)
    if club and club not in (owner.key, owner.slug):
        if Club.objects.filter(Q(key=club) | Q(slug=club)).exists():
            fail(OTHER_CLUB(tournament=found.name[:80], option=option, club=club[:60],
                            owner=f"{owner.key} ({owner.name})"), code=2)
        fail(UNKNOWN_CLUB(option=option, club=club[:60]), code=2)
    return str(owner.key)


@national_app.command("publish")
@refusals_in_json
def publish(
    tournament: Annotated[str, typer.Argument(
        metavar="TOURNAMENT", help="a finished tournament of this club (id, slug or name), "
        "a season file (file mode) or a risiko-report/1 file")],
    to: Annotated[str | None, typer.Option(
        "--to", help="the national server's address (https://...); default: this server")
    ] = None,
    club: Annotated[str | None, typer.Option(
        "--club", help="the club's identifier in the national ranking (default "
        "RISIKO_NATIONAL_CLUB_ID, else the club that owns the tournament; a club of this "
        "server must be the tournament's own)")] = None,
    club_name: Annotated[str | None, typer.Option(
        "--club-name", help="the club's name as clubs write it (default: the registered "
        "club's, else RISIKO_CLUB_NAME); not with a report file, which names its own")
    ] = None,
    category: Annotated[str | None, typer.Option(
        "--category", help="the tournament's category (name or GestioneTorneo code; "
        "default: campionato); not with a report file, which names its own",
        show_default=False)] = None,
    revision: Annotated[int | None, typer.Option(
        "--revision", min=1, help="with --to: this report's revision number, above every "
        "one sent before (default: the time in milliseconds)")] = None,
    key_file: Annotated[Path | None, typer.Option(
        "--key-file", help="with --to: a file holding the club key (else RISIKO_CLUB_KEY)")
    ] = None,
    national_ids: Annotated[Path | None, typer.Option(
        "--national-ids", help="the players' national ids: a CSV file of lines "
        "'name,national id' (else the national register on this server)")] = None,
    by: ByOpt = "",
    json_out: JsonOpt = False,
) -> None:
    """Publish a finished tournament to the national ranking (waits for approval).

    With --to, to a national server over HTTPS, signed with the club key (RISIKO_CLUB_KEY
    or --key-file, never an argument)."""
    import os
    import time

    from ..national.categories import parse_category
    from ..national.publish import envelope

    try:
        chosen = parse_category(category or "campionato")
    except RisikoError as e:
        fail(e, code=2)
    key_text = _club_key(key_file) if to else ""  # said before any work
    url = _target(to) if to else ""
    ids = read_national_ids(national_ids) if national_ids else None
    start_django()
    from risiko.web.clubs import default_club
    from risiko.web.national.models import Club
    from risiko.web.national.publishing import (
        anonymous_players,
        anonymous_said,
        club_report,
        publish_report,
    )
    from risiko.web.tournaments.models import Tournament

    club_id = club or os.environ.get("RISIKO_NATIONAL_CLUB_ID", "")
    option = "--club" if club else "RISIKO_NATIONAL_CLUB_ID"  # what a refusal names
    path = Path(tournament)
    found = Tournament.objects.by_key(tournament)
    if club_id and (found is not None or not to):  # a club of this server
        _club_not_twice(club_id, option)
    try:
        if found is None and path.suffix.lower() == ".json" and _is_season(path):
            if not club_id:
                fail(NO_CLUB_ID(), code=2)
            if not to:
                club_id = _registered_club(club_id, option, default_club())
            report = _season_report(path, club_id, club_name, chosen, ids)
        elif found is None and path.suffix.lower() in (".json", ".xls") and path.exists():
            _refuse_fixed_options(path, {"--category": category, "--club-name": club_name})
            # a workbook names its club by name only: --club gives its identifier
            report = read_file(path, club_id=club_id or None)
            _check_report_club(report, path, club_id, option, default_club(),
                               remote=bool(to))
        elif found is None:
            fail(NO_TOURNAMENT(tournament=tournament), code=2)
        else:
            found = _own_club_tournament(tournament, club_id, option)
            club_id = _owner_id(found, club_id, option, remote=bool(to))
            registered = Club.objects.filter(key=club_id).first()
            name = club_name or (registered.name if registered else found.club.name)
            report = club_report(found, club_id=club_id, club_name=name, category=chosen,
                                 national_ids=ids)
    except (OSError, UnicodeDecodeError) as e:
        fail(CANNOT_READ(path=str(path), reason=os_reason(e)), code=1)
    except RisikoError as e:  # a file's faults name the file, a stored tournament's not
        fail_faults(e if found is not None else _file_faults(path, e), code=2)
    anonymous = anonymous_players(report, "en")  # JSON is English
    if not json_out and (unnamed := anonymous_said(report)):
        err_console.print(escape(_say(ANONYMOUS(names=", ".join(unnamed)))),
                          highlight=False, soft_wrap=True)
    if to:
        number = revision or time.time_ns() // 1_000_000
        status, answer = _send(url, envelope(report, number), key_text)
        if status >= 400 or "faults" in answer:
            lang = current_language()
            faults = answer.get("faults") or []
            if json_out:
                emit_json({"status": status, **answer})
            for f in faults:
                words = f.get("messages", {}).get(lang) or f.get("message", "")
                err_console.print(escape(str(words)), highlight=False, soft_wrap=True)
            if not faults:
                err_console.print(escape(_say(SERVER_SAID(status=status))), highlight=False)
            raise typer.Exit(2 if faults else 1)  # refused (2), or the server's own fault
        label, done_number = answer.get("tournament", ""), answer.get("revision", 0)
        unchanged, state = bool(answer.get("unchanged")), answer.get("status", "")
        report_id = answer.get("id", "")
        result = {"revision_sent": number, **answer}
    else:
        try:
            done = publish_report(report, by=who(by), source=f"cli {tournament}"[:300])
        except RisikoError as e:
            fail_faults(e, code=2)
        label, done_number, unchanged, state = done.label, done.number, done.unchanged, \
            done.status
        report_id = done.id
        result = done.to_json()
    if json_out:
        emit_json({**result, "anonymous": anonymous})
        return
    said = (PUBLISHED_UNCHANGED(tournament=label, number=done_number, revision_status=state,
                                id=report_id)
            if unchanged else PUBLISHED(tournament=label, number=done_number, id=report_id))
    console.print(escape(_say(said)), highlight=False, soft_wrap=True)


@national_app.command("approve")
def approve(
    revision_id: Annotated[int, typer.Argument(metavar="REPORT", help="the report's id")],
    by: ByOpt = "",
) -> None:
    """The national officer approves a waiting report: it is in force at once."""
    start_django()
    from risiko.web.national.publishing import approve as do

    try:
        done = do(revision_id, by=who(by))
    except RisikoError as e:
        fail_faults(e)
    console.print(escape(_say(APPROVED(tournament=str(done.tournament),
                                       number=done.number))), highlight=False, soft_wrap=True)


@national_app.command("refuse")
def refuse(
    revision_id: Annotated[int, typer.Argument(metavar="REPORT", help="the report's id")],
    reason: Annotated[str, typer.Option("--reason", help="why")],
    by: ByOpt = "",
) -> None:
    """The national officer refuses a waiting report, with a reason."""
    start_django()
    from risiko.web.national.publishing import refuse as do

    try:
        done = do(revision_id, by=who(by), reason=reason)
    except RisikoError as e:
        fail_faults(e)
    console.print(escape(_say(REFUSED_REPORT(tournament=str(done.tournament),
                                             number=done.number, reason=done.reason))),
                  highlight=False, soft_wrap=True)


@national_app.command("club")
@refusals_in_json
def club_register(
    action: Annotated[str, typer.Argument(
        metavar="add|list", help="add a club, or list the registered ones")],
    club: Annotated[str, typer.Argument(
        metavar="CLUB", help="add: the club's identifier in the national ranking (a "
        "report's club.id), e.g. milano")] = "",
    name: Annotated[str, typer.Argument(
        metavar="NAME", help='add: the club\'s name as clubs write it, e.g. "MILANO [Club '
        'Milano]"')] = "",
    slug: Annotated[str, typer.Option(
        "--slug", help="its URL name (/nazionale/<year>/club/<slug>/); default: from CLUB")
    ] = "",
    by: ByOpt = "",
    json_out: JsonOpt = False,
) -> None:
    """Register a club of the national ranking (``add``: the step before ``national key
    issue``; also in the admin, "Ranking clubs"), or list the registered clubs (``list``:
    identifier, name, URL name, official dates, the key in force, this server's own)."""
    start_django()
    from risiko.web.clubs import default_club
    from risiko.web.national import publishing

    own = default_club()  # the server's own club, made from RISIKO_CLUB_ID on its first need
    if action == "list":
        _list_clubs(json_out)
        return
    if action != "add":
        fail(NO_SUCH_ACTION(action=action, known="add, list"))
    if not club or not name:
        fail(CLUB_NEEDS(), code=2)
    try:
        done = publishing.register_club(club, name, by=who(by), slug=slug, own=own)
    except RisikoError as e:
        fail_faults(e, code=2)
    console.print(escape(_say(CLUB_ADDED(club=done.key, name=done.name, slug=done.slug))),
                  highlight=False, soft_wrap=True)


def _list_clubs(json_out: bool) -> None:
    """``national club list``: every registered club, by identifier; ``--json`` a list of
    ``{"club", "name", "slug", "region", "official", "official_from", "official_to",
    "key", "default"}`` (``key``: the public id of the key in force, or null; the server's
    own club made by the caller)."""
    from risiko.web.national.models import Club, ClubKey

    keys = dict(ClubKey.objects.filter(revoked__isnull=True).values_list("club_id", "key_id"))
    rows: list[dict[str, Any]] = [
        {"club": c.key, "name": c.name, "slug": c.slug, "region": c.region,
         "official": c.official,
         "official_from": c.official_from.isoformat() if c.official_from else None,
         "official_to": c.official_to.isoformat() if c.official_to else None,
         "key": keys.get(c.pk), "default": c.is_default}
        for c in Club.objects.order_by("key")]
    if json_out:
        emit_json(rows)
        return
    if not rows:
        console.print(escape(_say(NO_CLUBS())), highlight=False)
        return
    lang = current_language()

    def label(field: str) -> str:
        return CLUB_LINE_PARTS[field]().message(lang)

    yes = YES().message(lang)
    for row in rows:  # a line a club, never cut: the identifier and the key are typed again
        said = [f"{label('slug')}: {row['slug']}"]
        if row["official"]:
            dates = " - ".join(str(d) for d in (row["official_from"], row["official_to"])
                               if d)
            said.append(f"{label('official')}: {yes} {dates}".strip())
        if row["key"]:
            said.append(f"{label('key')}: {row['key']}")
        if row["default"]:
            said.append(label("default"))
        console.print(escape(f"{row['club']}  {row['name']}  ({'; '.join(said)})"),
                      highlight=False, soft_wrap=True)


@national_app.command("key")
def club_key(
    action: Annotated[str, typer.Argument(
        metavar="issue|rotate|revoke",
        help="issue the club's key, rotate it (a new key replaces it) or revoke it")],
    club: Annotated[str, typer.Argument(metavar="CLUB", help="the club's identifier")],
    by: ByOpt = "",
) -> None:
    """The national officer issues, rotates or revokes a club's key.

    On issue and rotate the key is printed once, for the club."""
    start_django()
    from risiko.web.national import publishing

    from ..national.publish import club_key_text

    try:
        if action == "revoke":
            key = publishing.revoke_key(club, by=who(by))
            console.print(escape(_say(KEY_REVOKED(club=club, key=key.key_id))),
                          highlight=False, soft_wrap=True)
            return
        if action not in ("issue", "rotate"):
            fail(NO_SUCH_ACTION(action=action, known="issue, rotate, revoke"))
        make = publishing.issue_key if action == "issue" else publishing.rotate_key
        key, secret = make(club, by=who(by))
    except RisikoError as e:
        fail_faults(e, code=2)
    console.print(escape(_say(KEY_ISSUED(club=club, key=key.key_id))), highlight=False,
                  soft_wrap=True)
    print(club_key_text(key.key_id, secret))
