"""``risiko serve``/``backup``/``restore`` (web_commands) on a fresh Typer app, and the LAN
address helper (fakes only: no traffic)."""

from __future__ import annotations

import json
import shutil
import socket
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner, Result

from risiko.cli import web_commands
from risiko.web.site import lan


def run(*args: str) -> Result:
    app = typer.Typer()

    @app.callback()
    def _root() -> None:
        """Test root."""

    web_commands.register(app)
    return CliRunner(env={"COLUMNS": "250"}).invoke(app, list(args))


# --- serve ----------------------------------------------------------------------------------


def test_serve_help():
    result = run("serve", "--help")
    assert result.exit_code == 0, result.output
    for option in ("--host", "--port", "--dev"):
        assert option in result.output
    assert "Serve the club's web app" in result.output


def test_serve_on_all_interfaces_allows_the_lan_address(monkeypatch):
    monkeypatch.delenv("RISIKO_ALLOWED_HOSTS", raising=False)
    monkeypatch.delenv("RISIKO_DEBUG", raising=False)
    monkeypatch.setattr(socket, "gethostname", lambda: "laptop")
    urls = web_commands.prepare_environment("0.0.0.0", 8765, dev=False, lan_ip="192.168.1.20")
    assert urls == ["http://192.168.1.20:8765/", "http://127.0.0.1:8765/"]
    import os

    hosts = os.environ["RISIKO_ALLOWED_HOSTS"].split(",")
    assert hosts == ["localhost", "127.0.0.1", "[::1]", "192.168.1.20", "laptop", "laptop.local"]
    assert "RISIKO_DEBUG" not in os.environ


def test_serve_dev_and_one_address(monkeypatch):
    import os

    monkeypatch.setenv("RISIKO_ALLOWED_HOSTS", "club.example")
    monkeypatch.delenv("RISIKO_DEBUG", raising=False)
    urls = web_commands.prepare_environment("10.0.0.5", 8000, dev=True)
    assert urls == ["http://10.0.0.5:8000/"]
    assert os.environ["RISIKO_ALLOWED_HOSTS"] == "club.example,10.0.0.5"
    assert os.environ["RISIKO_DEBUG"] == "1"
    web_commands.prepare_environment("127.0.0.1", 8000, dev=False)
    assert os.environ["RISIKO_ALLOWED_HOSTS"] == "club.example,10.0.0.5,127.0.0.1"


# --- LAN address ----------------------------------------------------------------------------


class _FakeSocket:
    """Records what is done with it; fails the test on any send."""

    def __init__(self, *args: object, address: str = "192.168.1.20", fail: bool = False):
        self.address, self.fail, self.connected = address, fail, None

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def connect(self, target):
        if self.fail:
            raise OSError("Network is unreachable")
        self.connected = target

    def getsockname(self):
        return (self.address, 40000)

    def send(self, *args):  # pragma: no cover - must never happen
        raise AssertionError("the probe must not send")

    sendto = sendall = send


def test_route_probe_sends_nothing():
    made: list[_FakeSocket] = []

    def factory(*args):
        made.append(_FakeSocket(*args))
        return made[-1]

    assert lan.route_probe(factory) == "192.168.1.20"
    assert made[0].connected == lan._ROUTE_PROBE
    assert lan.route_probe(lambda *a: _FakeSocket(fail=True)) is None


def test_hostname_i_parsing_prefers_private_ipv4():
    out = "172.17.0.1 8.8.4.4 fe80::1 127.0.0.1 169.254.3.3 192.168.1.20 \n"
    assert lan.parse_hostname_i(out) == ["172.17.0.1", "192.168.1.20", "8.8.4.4"]
    assert lan.parse_hostname_i("") == []


def test_lan_address_takes_the_first_usable_probe():
    assert lan.lan_address([lambda: None, lambda: "127.0.1.1", lambda: "10.0.0.7"]) == "10.0.0.7"
    assert lan.lan_address([lambda: "0.0.0.0", lambda: None]) is None
    assert not lan.usable("::1") and not lan.usable("nonsense") and lan.usable("10.1.2.3")


# --- backup and restore of the SQLite file --------------------------------------------------


def _make_db(path: Path, value: str) -> None:
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE django_migrations (id INTEGER PRIMARY KEY, app TEXT)")
        conn.execute("CREATE TABLE note (text TEXT)")
        conn.execute("INSERT INTO note VALUES (?)", (value,))
        conn.commit()


def _value(path: Path) -> str:
    with closing(sqlite3.connect(path)) as conn:
        return str(conn.execute("SELECT text FROM note").fetchone()[0])


def _set(path: Path, value: str) -> None:
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("UPDATE note SET text = ?", (value,))
        conn.commit()


@pytest.fixture
def data_dir(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("RISIKO_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    return tmp_path / "data"


def test_backup_and_restore_in_the_data_dir(data_dir, tmp_path):
    data_dir.mkdir()
    live = data_dir / "risiko.sqlite3"
    _make_db(live, "before")
    backup = tmp_path / "saved" / "club.sqlite3"
    missing = run("backup", str(backup))  # a backup never creates folders
    assert missing.exit_code == 2 and f"no folder {tmp_path / 'saved'}" in missing.output
    assert not (tmp_path / "saved").exists()
    (tmp_path / "saved").mkdir()

    result = run("backup", str(backup), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["database"] == str(live) and report["kind"] == "sqlite"
    assert report["bytes"] == backup.stat().st_size > 0
    assert _value(backup) == "before"

    _set(live, "after")
    refused = run("restore", str(backup))
    assert refused.exit_code == 2 and "--yes" in refused.output
    assert _value(live) == "after"

    done = run("restore", str(backup), "--yes", "--json")
    assert done.exit_code == 0, done.output
    report = json.loads(done.output)
    assert _value(live) == "before"
    previous = Path(report["previous_copy"])
    assert previous.parent == data_dir and _value(previous) == "after"


def test_backup_with_a_database_url(tmp_path, monkeypatch):
    live = tmp_path / "club.sqlite3"
    _make_db(live, "x")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{live}")
    result = run("backup", str(tmp_path / "b.sqlite3"))
    assert result.exit_code == 0, result.output
    assert _value(tmp_path / "b.sqlite3") == "x"
    assert run("backup", str(live)).exit_code == 2  # not over the database itself


def test_backup_needs_a_database(data_dir, tmp_path):
    result = run("backup", str(tmp_path / "b.sqlite3"))
    assert result.exit_code == 2 and "no database" in result.output


def test_restore_refuses_what_is_not_a_backup(data_dir, tmp_path):
    data_dir.mkdir()
    _make_db(data_dir / "risiko.sqlite3", "live")
    text = tmp_path / "notes.txt"
    text.write_text("hello", encoding="utf-8")
    other = tmp_path / "other.sqlite3"
    with closing(sqlite3.connect(other)) as conn:
        conn.execute("CREATE TABLE t (x)")
    for bad, why in ((text, "not an SQLite database"), (other, "not a database of this app"),
                     (tmp_path / "missing.sqlite3", "no such file")):
        result = run("restore", str(bad), "--yes")
        assert result.exit_code == 2 and why in result.output, result.output
    assert _value(data_dir / "risiko.sqlite3") == "live"


def test_backup_into_a_missing_folder_is_refused_and_writes_nothing(data_dir, tmp_path):
    data_dir.mkdir()
    _make_db(data_dir / "risiko.sqlite3", "live")
    for name in ("x.sqlite3", "season.json"):
        dest = tmp_path / "nonexistent" / "dir" / name
        result = run("backup", str(dest))
        assert result.exit_code == 2, result.output
        assert f"no folder {dest.parent}" in result.output and "nothing was written" in \
            result.output
    assert not (tmp_path / "nonexistent").exists()


def test_restore_of_a_season_file_nested_too_deep_is_a_fault(data_dir, tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    result = run("restore", str(deep), "--yes")
    assert result.exit_code != 0 and isinstance(result.exception, SystemExit), result.exception
    assert "nested deeper than 24 levels" in result.output
    assert not data_dir.exists()  # nothing written, not even the database


def test_backup_of_postgres_without_pg_dump_points_to_its_own_tools(tmp_path, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgres://u@127.0.0.1:5/none")
    monkeypatch.setenv("PATH", str(tmp_path))  # no pg_dump
    result = run("backup", str(tmp_path / "b.sqlite3"))
    assert result.exit_code == 2 and "its own tools (pg_dump)" in result.output
    assert list(tmp_path.iterdir()) == []


def test_backup_of_postgres_that_pg_dump_cannot_reach_writes_nothing(tmp_path, monkeypatch):
    if shutil.which("pg_dump") is None:
        pytest.skip("pg_dump is not on PATH")
    monkeypatch.setenv("DATABASE_URL", "postgres://u@127.0.0.1:5/none")  # nobody on port 5
    result = run("backup", str(tmp_path / "b.dump"))
    assert result.exit_code == 2 and "pg_dump failed: " in result.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.db
@pytest.mark.django_db
def test_backup_of_postgres_is_a_private_pg_dump(tmp_path, monkeypatch):
    from django.db import connection

    if connection.vendor != "postgresql" or shutil.which("pg_restore") is None:
        pytest.skip("pg_dump of a PostgreSQL database")
    db = connection.settings_dict
    monkeypatch.setenv("DATABASE_URL", f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@"
                       f"{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}")
    dest = tmp_path / "club.dump"
    result = run("backup", str(dest), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report == {"backup": str(dest), "kind": "pg_dump", "database": db["NAME"],
                      "bytes": dest.stat().st_size}
    assert dest.stat().st_mode & 0o777 == 0o600 and not dest.with_suffix(".dump.part").exists()
    listing = subprocess.run(["pg_restore", "--list", str(dest)], capture_output=True,
                             text=True, check=True).stdout
    assert "TABLE DATA public players_player" in listing


# --- the season file (FILE.json) ------------------------------------------------------------


@pytest.mark.db
@pytest.mark.django_db
def test_season_file_backup_and_restore(tmp_path):
    from risiko.web import services
    from risiko.web.tournaments.models import Tournament

    t = services.create_tournament("Torneo di prova", who="test")
    services.add_players(t, ["Alba", "Bice", "Ciro"], who="test")
    season = tmp_path / "season.json"
    result = run("backup", str(season), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["tournament"] == t.slug
    assert json.loads(season.read_text(encoding="utf-8"))["name"] == "Torneo di prova"

    assert run("restore", str(season)).exit_code == 2
    done = run("restore", str(season), "--yes", "--name", "Copia", "--by", "luca")
    assert done.exit_code == 0, done.output
    copy = Tournament.objects.get(name="Copia")
    assert copy.entries.count() == 3


@pytest.mark.db
@pytest.mark.django_db
def test_season_file_backup_is_private_from_the_first_byte(tmp_path, monkeypatch):
    # docs/web.md: backups are 0600 from the first byte, the season file too, whatever the
    # umask (the usual 022 gives 0644) and with chmod refused (never made private after)
    import os

    from risiko.web import services
    from risiko.web.private_files import mode_of

    def refuse(*a, **k):
        raise AssertionError(f"chmod called: {a}")

    monkeypatch.setattr(os, "chmod", refuse)
    monkeypatch.setattr(Path, "chmod", refuse)
    old = os.umask(0o022)
    try:
        t = services.create_tournament("Torneo riservato", who="test")
        season = tmp_path / "season.json"
        assert run("backup", str(season), "--tournament", t.slug).exit_code == 0
        assert mode_of(season) == 0o600
        season.unlink()
        season.write_text("{}", encoding="utf-8")  # an older backup, left 0644
        assert mode_of(season) == 0o644
        assert run("backup", str(season), "--tournament", t.slug).exit_code == 0
        assert mode_of(season) == 0o600  # replaced by a file private from its creation
        assert json.loads(season.read_text(encoding="utf-8"))["name"] == "Torneo riservato"
        assert [p.name for p in tmp_path.iterdir()] == ["season.json"]  # no temporary left
    finally:
        os.umask(old)


def test_serve_on_a_busy_port_says_so_in_one_italian_line(monkeypatch):
    # issue 18 §3: `make run PORT=...`; a port in use is one line, not uvicorn's English error
    with closing(socket.socket(socket.AF_INET, socket.SOCK_STREAM)) as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen(1)
        port = holder.getsockname()[1]
        monkeypatch.setenv("LANG", "it_IT.UTF-8")
        for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
            monkeypatch.delenv(var, raising=False)
        result = run("serve", "--port", str(port))
        assert result.exit_code == 2
        lines = result.output.strip().splitlines()
        assert lines == [f"errore: la porta {port} è già in uso (un altro risiko serve?): "
                         f"scegline un'altra con --port {port + 1} (make run PORT={port + 1})"]
    assert web_commands.port_free("127.0.0.1", port)  # free again once the holder closed


def test_make_run_takes_the_port_and_the_club_language():
    make = shutil.which("make")
    if make is None:
        pytest.skip("make is not installed")
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([make, "-n", "-C", str(root), "run", "PORT=8123"], capture_output=True,
                         text=True, check=True, timeout=60).stdout
    assert "risiko --lang it serve --port 8123" in out


def test_add_players_help_points_at_create():
    from risiko.cli.main import app

    result = CliRunner(env={"COLUMNS": "250"}).invoke(app, ["tournament", "add-players",
                                                           "--help"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "risiko tournament create" in text and "created if new" not in text


def test_serve_says_its_lines_in_italian(monkeypatch):
    # issue 18 §2: what `make run` prints first (the club, the addresses) is Italian too
    from types import SimpleNamespace

    from risiko.faults import use_language

    settings = SimpleNamespace(DEBUG=False, RISIKO_CLUB_NAME="Risiko! Club Milano",
                               DATABASES={"default": {"NAME": "/dati/risiko.sqlite3"}},
                               RISIKO_ALLOW_REMOTE_SETUP=False)
    urls = ["http://192.168.1.20:8000/", "http://127.0.0.1:8000/"]
    with use_language("it"):
        lines = web_commands._serve_lines(settings, "0.0.0.0", 8000, urls, "192.168.1.20", True)
    assert lines == [
        "[bold]Risiko! Club Milano - impostazioni di produzione[/]",
        "database: /dati/risiko.sqlite3",
        "I telefoni sulla stessa Wi-Fi aprono: http://192.168.1.20:8000/",
        web_commands.QR_HERE,
        "Su questa macchina: http://127.0.0.1:8000/",
        "Nessun utente ancora: apri http://127.0.0.1:8000/ su questa macchina (o avvia con "
        "--allow-remote-setup) e crea il primo arbitro.",
        "Per fermare: Ctrl+C.",
    ]
