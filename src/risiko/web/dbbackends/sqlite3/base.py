"""Django's SQLite backend, but the database file is created ``0600`` (readable by its owner
only) before SQLite first opens it, whatever the umask: SQLite gives the ``-wal``, ``-shm``
and ``-journal`` files the database file's mode, so they are private too. An existing file
left readable by an older version is tightened. In-memory databases are left alone.

``ENGINE: "risiko.web.dbbackends.sqlite3"`` (the settings use it for every SQLite database).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.db.backends.sqlite3.base import DatabaseWrapper as SQLiteDatabaseWrapper

from risiko.web.private_files import private_sqlite


def is_file_database(name: object) -> bool:
    """True when ``name`` names a database file (not ``:memory:`` nor a ``file:`` URI)."""
    text = str(name or "")
    return bool(text) and text != ":memory:" and not text.startswith("file:")


class DatabaseWrapper(SQLiteDatabaseWrapper):
    """SQLite whose database file is created private (``0600``)."""

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        name = conn_params.get("database")
        if is_file_database(name):
            private_sqlite(Path(str(name)))
        return super().get_new_connection(conn_params)
