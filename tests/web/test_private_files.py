"""Data at rest: the data folder is 0700 and the database (with its -wal and
-shm files), the secret key, a backup's .part file, a backup and a restored database are
0600 from the first byte - created with that mode, never made private after (``chmod`` is
made to fail while they are created) - whatever the umask."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys
import threading
from contextlib import closing
from pathlib import Path

import pytest

from risiko.cli import web_commands
from risiko.web.private_files import (
    create_private_file,
    mode_of,
    private_dir,
    private_sqlite,
    write_private_once,
)


@pytest.fixture
def loose_umask():
    old = os.umask(0o022)  # the usual umask: files 0644, folders 0755 unless told otherwise
    yield
    os.umask(old)


@pytest.fixture
def no_chmod(monkeypatch):
    """Any chmod while this is active fails the test: modes must come from creation."""
    def refuse(*args, **kwargs):
        raise AssertionError(f"chmod called: {args}")

    monkeypatch.setattr(os, "chmod", refuse)
    monkeypatch.setattr(Path, "chmod", refuse)


FRESH_SERVER = r"""
import os, json, sys
from pathlib import Path
os.umask(0o022)
def refuse(*a, **k):
    raise AssertionError(f"chmod called: {a}")
os.chmod = refuse
Path.chmod = refuse
from risiko.web import bootstrap
bootstrap.setup()  # settings (data folder, secret key), the database, the migrations
from django.db import connection
with connection.cursor() as cur:
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("CREATE TABLE probe (x INTEGER)")
    cur.execute("INSERT INTO probe VALUES (1)")
    data = Path(os.environ["RISIKO_DATA_DIR"])
    modes = {p.name: oct(p.stat().st_mode & 0o777) for p in [data, *data.iterdir()]
             if p.name != "static"}
print(json.dumps(modes))
"""


def test_a_fresh_data_folder_is_private_from_the_first_byte(tmp_path):
    data = tmp_path / "home" / "risiko-club"  # neither exists yet
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "RISIKO_SECRET_KEY", "DJANGO_SETTINGS_MODULE")}
    env["RISIKO_DATA_DIR"] = str(data)
    out = subprocess.run([sys.executable, "-c", FRESH_SERVER], env=env, capture_output=True,
                         text=True, timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    modes = json.loads(out.stdout.strip().splitlines()[-1])
    assert modes == {
        "risiko-club": "0o700",
        "secret.key": "0o600",
        "risiko.sqlite3": "0o600",
        "risiko.sqlite3-wal": "0o600",
        "risiko.sqlite3-shm": "0o600",
    }
    # the parent folder made on the way is not ours to lock: the usual mode
    assert mode_of(tmp_path / "home") == 0o755
    # an os.stat from this process agrees
    assert stat.S_IMODE(os.stat(data / "risiko.sqlite3").st_mode) == 0o600


def test_files_and_folders_are_created_private(tmp_path, loose_umask, no_chmod):
    folder = private_dir(tmp_path / "data")
    assert mode_of(folder) == 0o700
    assert create_private_file(folder / "a") is True
    assert mode_of(folder / "a") == 0o600
    assert create_private_file(folder / "a") is False  # never truncates what exists
    db = private_sqlite(folder / "club.sqlite3")
    assert mode_of(db) == 0o600 and db.stat().st_size == 0
    with closing(sqlite3.connect(db)) as conn:  # SQLite writes into the empty file
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE t (x)")
        conn.execute("INSERT INTO t VALUES (1)")
        conn.commit()
        assert mode_of(Path(f"{db}-wal")) == 0o600
        assert mode_of(Path(f"{db}-shm")) == 0o600
    assert mode_of(db) == 0o600
    assert write_private_once(folder / "secret.key", "s3cret") == "s3cret"
    assert mode_of(folder / "secret.key") == 0o600
    assert write_private_once(folder / "secret.key", "other") == "s3cret"
    assert sorted(p.name for p in folder.iterdir() if p.name.startswith(".")) == []


def test_concurrent_first_starts_share_one_secret_key(tmp_path, loose_umask):
    barrier = threading.Barrier(8)
    seen: list[str] = []

    def start(i: int) -> None:
        barrier.wait()
        seen.append(write_private_once(tmp_path / "secret.key", f"key-{i}"))

    threads = [threading.Thread(target=start, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(seen) == 8 and len(set(seen)) == 1
    assert (tmp_path / "secret.key").read_text() == seen[0]
    assert mode_of(tmp_path / "secret.key") == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["secret.key"]  # no temporary left


def test_what_an_older_version_left_readable_is_tightened(tmp_path, loose_umask):
    folder = tmp_path / "data"
    folder.mkdir(mode=0o755)
    (folder / "risiko.sqlite3").write_bytes(b"")
    (folder / "risiko.sqlite3-wal").write_bytes(b"")
    (folder / "secret.key").write_text("old")
    assert mode_of(folder / "secret.key") == 0o644
    private_dir(folder)
    private_sqlite(folder / "risiko.sqlite3")
    assert write_private_once(folder / "secret.key", "new") == "old"
    assert mode_of(folder) == 0o700
    assert mode_of(folder / "risiko.sqlite3") == 0o600
    assert mode_of(folder / "risiko.sqlite3-wal") == 0o600
    assert mode_of(folder / "secret.key") == 0o600


def _make_db(path: Path, value: str) -> None:
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE django_migrations (id INTEGER PRIMARY KEY)")
        conn.execute("CREATE TABLE probe (v TEXT)")
        conn.execute("INSERT INTO probe VALUES (?)", (value,))
        conn.commit()


def test_backup_part_file_backup_and_restore_are_private(tmp_path, loose_umask, monkeypatch):
    live = tmp_path / "live.sqlite3"
    _make_db(live, "x")
    assert mode_of(live) == 0o644  # made by plain sqlite3 under the umask
    seen: dict[str, int] = {}
    real_connect = sqlite3.connect

    def watch(database, *args, **kwargs):
        path = Path(str(database))
        if path.name.endswith(".part") or path.name == "restored.sqlite3":
            seen[path.name] = mode_of(path)  # before SQLite writes a byte
        return real_connect(database, *args, **kwargs)

    monkeypatch.setattr(web_commands.sqlite3, "connect", watch)

    def refuse(*a, **k):
        raise AssertionError(f"chmod called: {a}")

    monkeypatch.setattr(os, "chmod", refuse)
    monkeypatch.setattr(Path, "chmod", refuse)

    (tmp_path / "saved").mkdir()  # a backup goes into an existing folder (never makes one)
    dest = tmp_path / "saved" / "club.sqlite3"
    assert web_commands.backup_sqlite(live, dest) > 0
    assert seen == {"club.sqlite3.part": 0o600}
    assert mode_of(dest) == 0o600
    assert not Path(f"{dest}.part").exists()

    restored = tmp_path / "restored.sqlite3"  # restore into a missing database
    assert web_commands.restore_sqlite(dest, restored) is None
    assert seen["restored.sqlite3"] == 0o600
    assert mode_of(restored) == 0o600
    previous = web_commands.restore_sqlite(dest, restored)  # over an existing one
    assert previous is not None and mode_of(previous) == 0o600
    assert mode_of(restored) == 0o600


def test_a_failed_backup_leaves_no_part_file(tmp_path, monkeypatch):
    live = tmp_path / "live.sqlite3"
    _make_db(live, "x")

    def broken(*a, **k):
        raise sqlite3.OperationalError("disk full")

    monkeypatch.setattr(web_commands, "_connect_read_only", broken)
    dest = tmp_path / "b.sqlite3"
    with pytest.raises(sqlite3.OperationalError):
        web_commands.backup_sqlite(live, dest)
    assert list(tmp_path.iterdir()) == [live]
