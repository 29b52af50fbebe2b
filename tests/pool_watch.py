"""Which thread holds each connection taken from psycopg's pool (tests only; PostgreSQL with
``settings.POSTGRES_POOL``).

:func:`watch` wraps ``psycopg_pool.ConnectionPool.getconn``/``putconn`` once per process to
note the thread that took each connection and forget it when it is given back;
:func:`kept_by_ended_threads` names the threads that ended still holding one. Such a
connection is lost to every later test, which would then wait for a free connection (a
hang, not a failure): tests/conftest.py fails the test instead. The pool's own statistics
cannot tell: a connection being returned or opened in the background counts as taken.
"""

from __future__ import annotations

import threading
from typing import Any

#: id of a connection taken from a pool -> the thread that took it
_TAKEN: dict[int, threading.Thread] = {}


def watch() -> None:
    """Note who takes and gives back pooled connections (nothing without psycopg_pool)."""
    try:
        from psycopg_pool import ConnectionPool
    except ImportError:
        return
    if getattr(ConnectionPool, "_watched_by_tests", False):
        return
    get, put = ConnectionPool.getconn, ConnectionPool.putconn

    def getconn(self: Any, *args: Any, **kwargs: Any) -> Any:
        conn = get(self, *args, **kwargs)
        _TAKEN[id(conn)] = threading.current_thread()
        return conn

    def putconn(self: Any, conn: Any) -> None:
        _TAKEN.pop(id(conn), None)
        put(self, conn)

    ConnectionPool.getconn, ConnectionPool.putconn = getconn, putconn  # type: ignore[method-assign]
    ConnectionPool._watched_by_tests = True  # type: ignore[attr-defined]


def kept_by_ended_threads() -> list[str]:
    """The names of the threads that ended holding a pooled connection (one per connection,
    sorted)."""
    return sorted(t.name for t in list(_TAKEN.values()) if not t.is_alive())


def close_pool() -> None:
    """Close this process's pool of the default database and forget its connections: the
    next test gets a fresh pool."""
    from django.db import connections

    connections["default"].close()
    connections["default"].close_pool()
    _TAKEN.clear()
