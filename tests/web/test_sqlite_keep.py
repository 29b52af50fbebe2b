"""SQLite connections kept between requests (risiko.web.dbbackends.sqlite3):
with RISIKO_SQLITE_KEEP above 0 a connection Django closes is kept idle and the next
"new" connection of the process is that one, with its pragmas; one closed inside a
transaction, one on a database file since replaced (a restore) or an old one is not."""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path

import pytest
from django.conf import settings
from django.db.utils import ConnectionHandler
from django.test import override_settings

from risiko.web.dbbackends.sqlite3 import base


def _wrapper(path: Path):
    handler = ConnectionHandler({"default": {"ENGINE": "risiko.web.dbbackends.sqlite3",
                                       "NAME": str(path),
                                       "OPTIONS": dict(settings.SQLITE_OPTIONS)}})
    return handler["default"]


@pytest.fixture(autouse=True)
def _own_database(django_db_blocker):
    """These tests open their own database files, not the test database."""
    with django_db_blocker.unblock():
        yield


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    path = tmp_path / "club.sqlite3"
    w = _wrapper(path)
    with w.cursor() as c:
        c.execute("CREATE TABLE fact (n integer)")
        c.execute("INSERT INTO fact VALUES (1)")
    w.close()
    return path


def _raw(w):
    w.ensure_connection()
    return w.connection


@override_settings(RISIKO_SQLITE_KEEP=2)
def test_a_closed_connection_serves_the_next_request_with_its_pragmas(db_path):
    first = _wrapper(db_path)
    raw = _raw(first)
    first.close()
    result: list[object] = []

    def request() -> None:  # another request, in another thread
        second = _wrapper(db_path)
        result.append(_raw(second))
        with second.cursor() as c:
            c.execute("PRAGMA foreign_keys")
            result.append(c.fetchone()[0])
            c.execute("PRAGMA journal_mode")
            result.append(c.fetchone()[0])
            c.execute("SELECT n FROM fact")
            result.append(c.fetchone()[0])
        second.close()

    t = threading.Thread(target=request)
    t.start()
    t.join()
    assert result == [raw, 1, "wal", 1]
    # autocommit restored on the kept connection: a write outside atomic is committed
    third = _wrapper(db_path)
    with third.cursor() as c:
        c.execute("INSERT INTO fact VALUES (2)")
    third.close()
    with sqlite3.connect(db_path) as other:
        assert other.execute("SELECT COUNT(*) FROM fact").fetchone()[0] == 2


@override_settings(RISIKO_SQLITE_KEEP=2)
def test_a_connection_closed_inside_a_transaction_is_not_kept(db_path):
    w = _wrapper(db_path)
    raw = _raw(w)
    w.set_autocommit(False)
    with w.cursor() as c:
        c.execute("INSERT INTO fact VALUES (3)")
    assert raw.in_transaction
    w.close()  # Django closes it (the request failed half-way): the write is not kept
    again = _wrapper(db_path)
    assert _raw(again) is not raw
    with again.cursor() as c:
        c.execute("SELECT COUNT(*) FROM fact")
        assert c.fetchone()[0] == 1
    again.close()


@override_settings(RISIKO_SQLITE_KEEP=2)
def test_a_replaced_database_file_is_never_read_through_an_old_connection(db_path, tmp_path):
    w = _wrapper(db_path)
    raw = _raw(w)
    w.close()
    restored = tmp_path / "restored.sqlite3"
    with sqlite3.connect(restored) as conn:
        conn.execute("CREATE TABLE fact (n integer)")
        conn.executemany("INSERT INTO fact VALUES (?)", [(7,), (8,)])
    conn.close()
    os.replace(restored, db_path)  # what a restore does to the file
    again = _wrapper(db_path)
    assert _raw(again) is not raw
    with again.cursor() as c:
        c.execute("SELECT SUM(n) FROM fact")
        assert c.fetchone()[0] == 15
    again.close()


@override_settings(RISIKO_SQLITE_KEEP=1, RISIKO_SQLITE_KEEP_SECONDS=0.0)
def test_an_old_connection_is_closed_not_kept(db_path):
    w = _wrapper(db_path)
    raw = _raw(w)
    w.close()
    again = _wrapper(db_path)
    assert _raw(again) is not raw
    again.close()
    with pytest.raises(sqlite3.ProgrammingError):  # closed for good
        raw.execute("SELECT 1")


@override_settings(RISIKO_SQLITE_KEEP=1)
def test_no_more_idle_connections_than_the_setting(db_path):
    a, b = _wrapper(db_path), _wrapper(db_path)
    raw_a, raw_b = _raw(a), _raw(b)
    a.close()
    b.close()  # one idle already: this one is closed
    with pytest.raises(sqlite3.ProgrammingError):
        raw_b.execute("SELECT 1")
    c = _wrapper(db_path)
    assert _raw(c) is raw_a
    c.close()


@override_settings(RISIKO_SQLITE_KEEP=0)
def test_without_the_setting_every_connection_is_closed(db_path):
    w = _wrapper(db_path)
    raw = _raw(w)
    w.close()
    with pytest.raises(sqlite3.ProgrammingError):
        raw.execute("SELECT 1")
    assert base.IDLE.take(str(db_path), max_age=300) is None
