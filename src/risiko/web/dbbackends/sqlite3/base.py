"""Django's SQLite backend, with two changes.

1. The database file is created ``0600`` (readable by its owner only) before SQLite first
   opens it, whatever the umask: SQLite gives the ``-wal``, ``-shm`` and ``-journal`` files
   the database file's mode, so they are private too. An existing file left readable by an
   older version is tightened. In-memory databases are left alone.
2. Under the ASGI server every request runs in a thread of its own, so Django opens a new
   SQLite connection for each request and closes it at the end (a persistent connection
   would stay behind with its thread). Opening one costs more than answering a cached page
   (the file's checks, the pragmas, Django's SQL functions). With ``RISIKO_SQLITE_KEEP = N``
   (``risiko serve`` sets 8) a closed connection is kept, up to N idle ones per process, and
   the next request's "new" connection is one of them. A connection is kept only with no
   transaction open; it is dropped instead when the database file was replaced since it was
   opened (a restore: another inode) or after ``RISIKO_SQLITE_KEEP_SECONDS`` (300 s).

``ENGINE: "risiko.web.dbbackends.sqlite3"`` (the settings use it for every SQLite database).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db.backends.sqlite3.base import DatabaseWrapper as SQLiteDatabaseWrapper

from risiko.web.private_files import private_sqlite


def is_file_database(name: object) -> bool:
    """True when ``name`` names a database file (not ``:memory:`` nor a ``file:`` URI)."""
    text = str(name or "")
    return bool(text) and text != ":memory:" and not text.startswith("file:")


def _inode(path: str) -> int | None:
    try:
        return os.stat(path).st_ino
    except OSError:
        return None


@dataclass
class _Idle:
    """A closed-by-Django connection kept for the next request of this process."""

    connection: Any  # sqlite3.Connection
    inode: int | None  # the database file's when the connection was opened
    opened: float  # time.monotonic() at opening


class IdleConnections:
    """The idle connections of one process, per database file (thread-safe).

    >>> import sqlite3, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "db.sqlite3")
    >>> idle = IdleConnections()
    >>> conn = sqlite3.connect(path, check_same_thread=False)
    >>> idle.give_back(path, conn, _inode(path), time.monotonic(), keep=2, max_age=300)
    True
    >>> idle.take(path, max_age=300) is conn
    True
    >>> idle.take(path, max_age=300) is None   # nothing idle: the caller opens one
    True
    >>> conn.close()
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._idle: dict[str, list[_Idle]] = {}
        self._opened: dict[int, tuple[int | None, float]] = {}

    def opened(self, path: str, conn: Any) -> None:
        """Note when and on which file ``conn`` (just opened) was opened."""
        with self._lock:
            self._opened[id(conn)] = (_inode(path), time.monotonic())

    def origin(self, conn: Any) -> tuple[int | None, float]:
        """(inode, opening time) of ``conn``; (None, 0.0) for one not noted."""
        with self._lock:
            return self._opened.get(id(conn), (None, 0.0))

    def forget(self, conn: Any) -> None:
        """``conn`` is closed for good."""
        with self._lock:
            self._opened.pop(id(conn), None)

    def take(self, path: str, *, max_age: float) -> Any | None:
        """An idle connection to ``path`` still on the same file and younger than
        ``max_age`` seconds, or None; the stale ones met on the way are closed."""
        inode = _inode(path)
        now = time.monotonic()
        while True:
            with self._lock:
                stack = self._idle.get(path)
                if not stack:
                    return None
                item = stack.pop()
            if item.inode is not None and item.inode == inode and now - item.opened < max_age:
                return item.connection
            self.forget(item.connection)
            with contextlib.suppress(Exception):
                item.connection.close()

    def give_back(self, path: str, conn: Any, inode: int | None, opened: float, *,
                  keep: int, max_age: float) -> bool:
        """Keep ``conn`` idle for ``path`` if there is room, it has no open transaction, the
        file is the one it was opened on and it is younger than ``max_age``; True when kept
        (otherwise the caller closes it)."""
        if conn.in_transaction or inode is None or inode != _inode(path):
            return False
        if time.monotonic() - opened >= max_age:
            return False
        with self._lock:
            stack = self._idle.setdefault(path, [])
            if len(stack) >= keep:
                return False
            stack.append(_Idle(conn, inode, opened))
            return True


IDLE = IdleConnections()


def _keep() -> tuple[int, float]:
    keep = int(getattr(settings, "RISIKO_SQLITE_KEEP", 0) or 0)
    return keep, float(getattr(settings, "RISIKO_SQLITE_KEEP_SECONDS", 300.0))


class DatabaseWrapper(SQLiteDatabaseWrapper):
    """SQLite whose database file is created private (``0600``) and whose connections are
    kept between requests when ``RISIKO_SQLITE_KEEP`` is above 0 (see the module)."""

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        name = conn_params.get("database")
        keep, max_age = _keep()
        if is_file_database(name) and keep > 0:
            conn = IDLE.take(str(name), max_age=max_age)
            if conn is not None:
                return conn
        if is_file_database(name):
            private_sqlite(Path(str(name)))
        conn = super().get_new_connection(conn_params)
        if is_file_database(name) and keep > 0:
            IDLE.opened(str(name), conn)
        return conn

    def _close(self) -> None:
        conn = self.connection
        name = self.settings_dict.get("NAME")
        keep, max_age = _keep()
        if conn is not None and keep > 0 and is_file_database(name):
            inode, opened = IDLE.origin(conn)
            if IDLE.give_back(str(name), conn, inode, opened, keep=keep, max_age=max_age):
                return
            IDLE.forget(conn)
        super()._close()  # type: ignore[misc]  # (not in django-stubs)
