"""``risiko serve``, ``risiko backup`` and ``risiko restore``: the club's web app.

They need the ``web`` extra (``pip install 'risiko-club[web]'``); without it each says so in
one line and exits 1 (:func:`risiko.cli.common.require_web`).

``serve`` runs the Django app (ASGI) with uvicorn in this process: it applies pending
migrations first (:func:`risiko.web.bootstrap.setup`), serves static files through WhiteNoise
straight from the apps (nothing to collect), and uses the production settings unless
``--dev``. With ``--host 0.0.0.0`` it prints the address phones on the same network should
open, with a QR code of it, and allows that host for the process.

``backup FILE`` / ``restore FILE --yes``: the SQLite database file, copied with SQLite's online
backup (safe while the server runs); the backup (its ``.part`` file while it is written) and a
restored database are created ``0600``, readable by their owner only. On PostgreSQL ``backup
FILE`` runs ``pg_dump`` (custom format, the same writer as the data migration's backup) when
it is on ``PATH``; ``restore`` is ``pg_restore``'s. ``FILE.json`` is a season file (one
tournament), for any database.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from ..faults import Fault, InvalidInputError, define, define_words
from .common import (
    AT_LEAST_ONE,
    CANNOT_READ,
    ByOpt,
    ClubOpt,
    JsonOpt,
    console,
    emit_json,
    fail,
    fail_faults,
    os_reason,
    require_web,
    start_django,
    who,
)

ALL_INTERFACES = ("0.0.0.0", "::", "")
DEFAULT_ALLOWED_HOSTS = "localhost,127.0.0.1,[::1]"

#: how ``serve`` runs uvicorn (besides the address, workers and logging): the client's address
#: behind a proxy is RISIKO_TRUSTED_PROXIES, read by the app
#: (risiko.web.site.middleware.TrustedProxyMiddleware), not uvicorn's own guess; the lifespan
#: starts the online tables' deadline scheduler; the WebSockets of the ``websockets`` package
#: (uvicorn[standard]), not compressed: permessage-deflate compressed each table's small
#: messages once per connection, a quarter of a worker's CPU per action (docs/benchmarks.md)
UVICORN_OPTIONS: dict[str, Any] = {"proxy_headers": False, "lifespan": "on",
                                   "ws": "websockets-sansio", "ws_per_message_deflate": False}


def uvicorn_log_config() -> dict[str, Any]:
    """uvicorn's own logging configuration with a filter on each of its handlers that blanks
    the secret tokens of the paths it logs (the access log, a WebSocket's accepted line:
    :class:`risiko.web.core.redact.RedactSecrets`, docs/online.md)."""
    import copy

    from uvicorn.config import LOGGING_CONFIG

    config: dict[str, Any] = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["secrets"] = {
        "()": "risiko.web.core.redact.RedactSecrets"}
    for handler in config["handlers"].values():
        handler["filters"] = [*handler.get("filters", []), "secrets"]
    return config


# --- serve ----------------------------------------------------------------------------------


def _host_for_url(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def prepare_environment(
    host: str, port: int, dev: bool, lan_ip: str | None = None
) -> list[str]:
    """Set the process environment for the settings (before Django starts) and return the
    addresses to open, the one for phones first.

    ``--dev`` sets ``RISIKO_DEBUG=1``. Serving on all interfaces adds ``lan_ip`` and this
    machine's name to ``RISIKO_ALLOWED_HOSTS``; serving on one address adds that address.
    """
    import socket

    if dev:
        os.environ["RISIKO_DEBUG"] = "1"
    hosts = [
        h.strip()
        for h in os.environ.get("RISIKO_ALLOWED_HOSTS", DEFAULT_ALLOWED_HOSTS).split(",")
        if h.strip()
    ]
    urls: list[str] = []
    extra: list[str] = []
    if host in ALL_INTERFACES:
        if lan_ip:
            extra.append(lan_ip)
            urls.append(f"http://{lan_ip}:{port}/")
        name = socket.gethostname()
        if name:
            extra += [name, f"{name}.local"]
        urls.append(f"http://127.0.0.1:{port}/")
    else:
        extra.append(_host_for_url(host))
        urls.append(f"http://{_host_for_url(host)}:{port}/")
    for h in extra:
        if h not in hosts:
            hosts.append(h)
    os.environ["RISIKO_ALLOWED_HOSTS"] = ",".join(hosts)
    return urls


def _print_qr(url: str) -> None:
    import segno

    segno.make(url).terminal(compact=True)


# --- backup and restore ---------------------------------------------------------------------


def _database_url_config() -> dict[str, Any] | None:
    """The database of ``DATABASE_URL`` as a Django ``DATABASES`` entry, None without it."""
    url = os.environ.get("DATABASE_URL")
    if not url:
        return None
    import dj_database_url

    return dict(dj_database_url.parse(url))


def postgres_settings() -> dict[str, Any] | None:
    """The PostgreSQL database of ``DATABASE_URL`` (a Django ``DATABASES`` entry), or None
    when the database is not PostgreSQL."""
    config = _database_url_config()
    if config is None or "postgresql" not in str(config.get("ENGINE", "")):
        return None
    return config


def sqlite_database_path() -> Path | None:
    """The SQLite database file the settings would use (from ``DATABASE_URL`` or the data
    directory), or None when the database is not SQLite."""
    config = _database_url_config()
    if config is not None:
        if not str(config.get("ENGINE", "")).endswith("sqlite3"):
            return None
        name = str(config.get("NAME") or "")
        if not name or name == ":memory:":
            return None
        return Path(name)
    from risiko.web.settings import data_dir

    return data_dir() / "risiko.sqlite3"


def _connect_read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)


def check_folder(dest: Path) -> None:
    """``InvalidInputError`` (a ValueError, ``cli.backup_no_folder``) naming the folder when
    ``dest``'s folder does not exist (a backup never creates folders: a mistyped path would
    hide the backup where nobody looks for it)."""
    folder = dest.parent
    if not folder.is_dir():
        raise InvalidInputError(BACKUP_NO_FOLDER(folder=str(folder)))


def backup_sqlite(database: Path, dest: Path) -> int:
    """Copy ``database`` to ``dest`` with SQLite's online backup; return the bytes written."""
    if not database.is_file():
        raise ValueError(f"no database at {database} (run `risiko serve` once to create it)")
    if dest.exists() and dest.resolve() == database.resolve():
        raise ValueError(f"{dest} is the database itself")
    from risiko.web.private_files import create_private_file

    check_folder(dest)
    part = dest.with_name(dest.name + ".part")
    part.unlink(missing_ok=True)
    # the club's data, readable by its owner only from the first byte (like secret.key):
    # the .part file is created 0600 and empty, SQLite writes into it, then it is renamed
    if not create_private_file(part):
        raise ValueError(f"{part} appeared while the backup started: another backup running?")
    try:
        with (
            closing(_connect_read_only(database)) as source,
            closing(sqlite3.connect(part)) as target,
        ):
            source.backup(target)
        os.replace(part, dest)
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    return dest.stat().st_size


def backup_postgres(settings: dict[str, Any], dest: Path) -> int:
    """Dump the PostgreSQL database of ``settings`` to ``dest`` with ``pg_dump`` (custom
    format, for ``pg_restore``), through ``dest.part`` created ``0600`` (the same writer as
    the data migration's backup, :mod:`risiko.web.core.pgdump`); return the bytes written.
    FileNotFoundError without ``pg_dump``, ValueError with its words when it fails."""
    from risiko.web.core.pgdump import pg_dump

    check_folder(dest)
    part = dest.with_name(dest.name + ".part")
    part.unlink(missing_ok=True)
    try:
        pg_dump(settings, part)
    except FileExistsError:
        raise ValueError(f"{part} appeared while the backup started: "
                         "another backup running?") from None
    os.replace(part, dest)
    return dest.stat().st_size


BACKUP_NO_FOLDER = define("cli.backup_no_folder", "",
                          "no folder {folder}: create it first, or give a file in an existing "
                          "folder (nothing was written)")
BACKUP_WRITTEN = define("cli.backup_written", "", "backup written to {file}")
BACKUP_NO_FILE = define("cli.backup_no_file", "", "{path}: no such file")
BACKUP_NOT_SQLITE = define("cli.backup_not_sqlite", "", "{path}: not an SQLite database")
BACKUP_DAMAGED = define("cli.backup_damaged", "", "{path}: damaged database ({detail})")
BACKUP_NOT_OURS = define("cli.backup_not_ours", "",
                         "{path}: not a database of this app (no django_migrations table)")
NOT_SQLITE = define("cli.database_not_sqlite", "",
                    "the database is not SQLite: {action} it with its own tools ({tool}), "
                    "or give FILE.json for the season file")
define_words("action", ("back up", "restore"))
RESTORE_SEASON_YES = define("cli.restore_season_yes", "",
                            "restore creates a tournament from {path}: run again with --yes")
RESTORE_DATABASE_YES = define(
    "cli.restore_database_yes", "",
    "restore replaces the database {database} with {path}: run again with --yes")
NO_TOURNAMENT = define("cli.no_tournament", "",
                       "no tournament in the database: nothing to write in a season file")
SERVE_MODE = define("cli.serve_mode", "", "{club} - {mode} settings")
define_words("mode", ("development (DEBUG on)", "production"))
SERVE_DATABASE = define("cli.serve_database", "", "database: {database}")
SERVE_PHONES = define("cli.serve_phones", "", "Phones on the same Wi-Fi open: {url}")
SERVE_NO_ADDRESS = define("cli.serve_no_address", "",
                          "Could not find this machine's network address; phones open "
                          "http://<this machine's address>:{port}/")
SERVE_HERE = define("cli.serve_here", "", "On this machine: {url}")
SERVE_FIRST = define("cli.serve_first", "",
                     "No user yet: open {url} on this machine (or serve with "
                     "--allow-remote-setup) and create the first referee.")
SERVE_FIRST_REMOTE = define("cli.serve_first_remote", "",
                            "No user yet: open the address and create the first referee.")
SERVE_STOP = define("cli.serve_stop", "", "Stop with Ctrl+C.")
#: in :func:`_serve_lines`: the place of the QR code (the very object, compared with ``is``)
QR_HERE = "\x00qr"
PORT_BUSY = define("cli.port_busy", "",
                   "port {port} is already in use (another risiko serve?): choose another "
                   "with --port {other} (make run PORT={other})")
REDIS_NEEDED = define("cli.redis_needed", "",
                      "--workers above 1 needs REDIS_URL (the online tables' messages must "
                      "cross the workers): see docs/online.md")


def _serve_lines(settings: Any, host: str, port: int, urls: list[str], lan_ip: str | None,
                 first_run: bool) -> list[str]:
    """What ``risiko serve`` says before serving, in the message's language (Rich markup,
    the values escaped); :data:`QR_HERE` where the QR code of the phones' address goes."""
    mode = "development (DEBUG on)" if settings.DEBUG else "production"
    heading = SERVE_MODE(club=settings.RISIKO_CLUB_NAME, mode=mode).message()
    database = SERVE_DATABASE(database=str(settings.DATABASES["default"]["NAME"])).message()
    lines = [f"[bold]{escape(heading)}[/]", escape(database)]
    if host in ALL_INTERFACES:
        if lan_ip:
            lines += [escape(SERVE_PHONES(url=urls[0]).message()), QR_HERE]
        else:
            lines.append(f"[yellow]{escape(SERVE_NO_ADDRESS(port=port).message())}[/]")
    lines.append(escape(SERVE_HERE(url=urls[-1]).message()))
    if first_run:
        first = (SERVE_FIRST_REMOTE() if settings.RISIKO_ALLOW_REMOTE_SETUP
                 else SERVE_FIRST(url=urls[-1]))
        lines.append(escape(first.message()))
    lines.append(escape(SERVE_STOP().message()))
    return lines


def port_free(host: str, port: int) -> bool:
    """True when this machine can listen on ``host``:``port`` now (checked by binding it
    for a moment, as the server will); False when another program holds it."""
    import socket

    address = host or "0.0.0.0"
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    with closing(socket.socket(family, socket.SOCK_STREAM)) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind((address, port))
        except OSError:
            return False
    return True


def sqlite_backup_faults(path: Path) -> list[Fault]:
    """Why ``path`` is not a backup of the club database (empty list: it is one)."""
    if not path.is_file():
        return [BACKUP_NO_FILE(path=str(path))]
    with path.open("rb") as fh:
        if fh.read(16) != b"SQLite format 3\x00":
            return [BACKUP_NOT_SQLITE(path=str(path))]
    try:
        with closing(_connect_read_only(path)) as conn:
            check = conn.execute("PRAGMA quick_check").fetchone()
            tables = {
                row[0]
                for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
    except sqlite3.DatabaseError as e:
        return [BACKUP_DAMAGED(path=str(path), detail=str(e))]
    faults = []
    if not check or check[0] != "ok":
        faults.append(BACKUP_DAMAGED(path=str(path), detail=check[0] if check else "-"))
    if "django_migrations" not in tables:
        faults.append(BACKUP_NOT_OURS(path=str(path)))
    return faults


def restore_sqlite(backup: Path, database: Path) -> Path | None:
    """Copy ``backup`` over ``database`` with SQLite's online backup, after keeping the
    current database as ``<name>.before-restore-<time>``; return that copy's path (None when
    there was no database)."""
    faults = sqlite_backup_faults(backup)
    if faults:
        raise InvalidInputError(faults)
    if database.exists() and backup.resolve() == database.resolve():
        raise ValueError(f"{backup} is the database itself")
    previous = None
    if database.is_file():
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        previous = database.with_name(f"{database.name}.before-restore-{stamp}")
        backup_sqlite(database, previous)
    from risiko.web.private_files import private_sqlite

    private_sqlite(database)  # created 0600 when missing, before SQLite opens it
    with (
        closing(_connect_read_only(backup)) as source,
        closing(sqlite3.connect(database)) as target,
    ):
        source.backup(target)
    return previous


def _service_call(services: Any, fn: Any) -> Any:
    """Run ``fn()``; a refusal prints its faults, one line each, and exits 1."""
    try:
        return fn()
    except services.ServiceError as e:
        fail_faults(e)


def export_season_file(path: Path, tournament: str | None, club: str | None = None) -> str:
    """Write the season file of ``tournament`` (default: the current one) of club ``club``
    (a slug; see :class:`~risiko.cli.tournament_store.DatabaseStore`) to ``path``, private
    (``0600``) from its first byte; return the tournament's slug."""
    from .tournament_store import DatabaseStore

    with DatabaseStore(club).acting(tournament):
        return _export_season_file(path, tournament)


def _export_season_file(path: Path, tournament: str | None) -> str:
    services = start_django()
    from risiko.web.tournaments.selectors import current_or_newest

    if tournament:
        t = _service_call(services, lambda: services.get_tournament(tournament))
    else:
        t = current_or_newest()
        if t is None:
            fail(NO_TOURNAMENT())
    data = _service_call(services, lambda: services.export_season(t))
    from risiko.web.private_files import write_private

    # the club's data (names, results), like every backup: 0600 from the first byte
    write_private(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return str(t.slug)


def import_season_file(path: Path, name: str | None, by: str, club: str | None = None) -> str:
    """Create a tournament of club ``club`` (a slug; default: the default club) from the
    season file ``path`` (a key given twice is refused; a bad file touches no database);
    return its slug."""
    from risiko.tournament.season import read_season_json

    from .tournament_store import DatabaseStore

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        fail(CANNOT_READ(path=str(path), reason=os_reason(e)), code=1)
    try:
        data = read_season_json(text)
    except ValueError as e:
        fail_faults(e)
    with DatabaseStore(club).acting():
        services = start_django()
        t = _service_call(services, lambda: services.import_season(data, who=by, name=name))
    return str(t.slug)


# --- commands -------------------------------------------------------------------------------


def register(app: typer.Typer) -> None:
    """Add serve, backup and restore to ``app``."""

    @app.command()
    def serve(
        host: Annotated[
            str, typer.Option(help="address to listen on; 0.0.0.0 for phones on the network")
        ] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="TCP port")] = 8000,
        dev: Annotated[
            bool, typer.Option("--dev", help="development settings (DEBUG on, RISIKO_DEBUG=1)")
        ] = False,
        allow_remote_setup: Annotated[
            bool, typer.Option("--allow-remote-setup",
                               help="let the first referee be created from another device "
                                    "(default: from this machine only)")
        ] = False,
        trusted_proxy: Annotated[
            list[str] | None, typer.Option(
                "--trusted-proxy",
                help="address or network of a reverse proxy whose X-Forwarded-For and "
                     "X-Forwarded-Proto are believed (repeatable; RISIKO_TRUSTED_PROXIES)")
        ] = None,
        https: Annotated[
            bool, typer.Option("--https", help="browsers reach the app over HTTPS (through "
                               "the proxy): Secure cookies and HSTS (RISIKO_HTTPS=1)")
        ] = False,
        workers: Annotated[
            int, typer.Option(help="server processes; more than 1 needs REDIS_URL (online "
                              "tables' channel layer) and a database server (PostgreSQL)")
        ] = 1,
    ) -> None:
        """Serve the club's web app (migrations applied on first use)."""
        require_web("serve")

        if workers < 1:
            fail(AT_LEAST_ONE(option="--workers", value=workers))
        if workers > 1 and not os.environ.get("REDIS_URL"):
            fail(REDIS_NEEDED())
        if not port_free(host, port):
            fail(PORT_BUSY(port=port, other=port + 1))
        from risiko.web.site.lan import lan_address

        if allow_remote_setup:
            os.environ["RISIKO_ALLOW_REMOTE_SETUP"] = "1"
        if trusted_proxy:
            from risiko.web.site.proxy import parse_networks

            try:
                parse_networks(trusted_proxy)
            except ValueError as e:
                fail(e)
            os.environ["RISIKO_TRUSTED_PROXIES"] = ",".join(trusted_proxy)
        if https:
            os.environ["RISIKO_HTTPS"] = "1"

        # SQLite: keep idle connections between requests (each request runs in a thread of
        # its own under the ASGI server; opening a connection costs more than a cached page)
        os.environ.setdefault("RISIKO_SQLITE_KEEP", "8")
        # phones get the standings from before a change while a thread computes the new ones
        os.environ.setdefault("RISIKO_PUBLIC_BACKGROUND", "1")
        lan_ip = lan_address() if host in ALL_INTERFACES else None
        urls = prepare_environment(host, port, dev, lan_ip)

        from risiko.web import bootstrap

        bootstrap.setup()
        from django.conf import settings
        from django.db import connections

        from risiko.web.site.middleware import no_user_yet

        Path(settings.STATIC_ROOT).mkdir(parents=True, exist_ok=True)
        first_run = no_user_yet()
        connections.close_all()

        for line in _serve_lines(settings, host, port, urls, lan_ip, first_run):
            if line is QR_HERE:
                _print_qr(urls[0])
            else:
                console.print(line, highlight=False)

        import warnings

        import uvicorn

        # WhiteNoise answers with a synchronous file iterator, which Django's ASGI handler
        # reads in a worker thread (correct) while warning about it: not for the referee.
        warnings.filterwarnings(
            "ignore", message="StreamingHttpResponse must consume synchronous iterators"
        )
        uvicorn.run(
            "risiko.web.asgi:application",
            host=host or "0.0.0.0",
            port=port,
            workers=workers,
            log_level="info",
            access_log=bool(settings.DEBUG),
            log_config=uvicorn_log_config(),
            **UVICORN_OPTIONS,
        )

    @app.command()
    def backup(
        file: Annotated[Path, typer.Argument(help="backup file; FILE.json: the season file")],
        tournament: Annotated[
            str | None,
            typer.Option(help="FILE.json: the tournament (slug, name or id; default current)"),
        ] = None,
        club: ClubOpt = None,
        json_out: JsonOpt = False,
    ) -> None:
        """Back up the SQLite database (online, safe while serving) or a season file, into
        an existing folder."""
        require_web("backup")
        try:
            check_folder(file)
        except ValueError as e:
            fail(e)  # its fault, in --lang
        if file.suffix.lower() == ".json":
            slug = export_season_file(file, tournament, club)
            report: dict[str, Any] = {"backup": str(file), "kind": "season", "tournament": slug}
        else:
            from risiko.web.core.pgdump import pg_dump_path

            database = sqlite_database_path()
            postgres = postgres_settings() if database is None else None
            if database is None and (postgres is None or pg_dump_path() is None):
                fail(NOT_SQLITE(action="back up", tool="pg_dump"))
            try:
                if postgres is not None:
                    size = backup_postgres(postgres, file)
                    report = {"backup": str(file), "kind": "pg_dump",
                              "database": str(postgres.get("NAME", "")), "bytes": size}
                else:
                    assert database is not None
                    size = backup_sqlite(database, file)
                    report = {"backup": str(file), "kind": "sqlite",
                              "database": str(database), "bytes": size}
            except (ValueError, sqlite3.Error, OSError) as e:
                fail(e)
        if json_out:
            emit_json(report)
        else:
            console.print(escape(BACKUP_WRITTEN(file=str(file)).message()), highlight=False)

    @app.command()
    def restore(
        file: Annotated[Path, typer.Argument(help="a file made by `risiko backup`")],
        yes: Annotated[
            bool, typer.Option("--yes", help="confirm: the database is replaced by FILE")
        ] = False,
        name: Annotated[
            str | None, typer.Option(help="FILE.json: create the tournament under this name")
        ] = None,
        club: ClubOpt = None,
        by: ByOpt = "",
        json_out: JsonOpt = False,
    ) -> None:
        """Put a backup back in place of the database, or create a tournament from a season
        file (needs --yes)."""
        require_web("restore")
        if file.suffix.lower() == ".json":
            if not yes:
                fail(RESTORE_SEASON_YES(path=str(file)))
            slug = import_season_file(file, name, who(by), club)
            report: dict[str, Any] = {"restored_from": str(file), "kind": "season",
                                      "tournament": slug}
        else:
            database = sqlite_database_path()
            if database is None:
                fail(NOT_SQLITE(action="restore", tool="pg_restore"))
            faults = sqlite_backup_faults(file)
            if faults:
                fail(faults)
            if not yes:
                fail(RESTORE_DATABASE_YES(database=str(database), path=str(file)))
            try:
                previous = restore_sqlite(file, database)
            except (ValueError, sqlite3.Error, OSError) as e:
                fail(e)
            report = {"restored_from": str(file), "kind": "sqlite", "database": str(database),
                      "previous_copy": str(previous) if previous else None}
        if json_out:
            emit_json(report)
        else:
            console.print(f"restored from {file}", highlight=False)
            if report.get("previous_copy"):
                console.print(f"the replaced database is kept in {report['previous_copy']}",
                              highlight=False)
