"""Test settings shared by every test.

Every test starts in English, whatever the machine's LANG (faults are said in the language of
``risiko --lang`` / ``LANG``; a test that wants Italian asks for it).

The SQLite test database is a file (in a temporary folder), opened with the production
options (WAL, IMMEDIATE transactions, busy timeout): an in-memory test database would share
one connection between the threads of a live server and prove nothing about concurrent
requests (tests/web/concurrency_kit.py).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from risiko.faults import set_language


@pytest.fixture(autouse=True)
def _english_faults(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    set_language(None)
    yield
    set_language(None)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None,
                                 tmp_path_factory: pytest.TempPathFactory) -> None:
    from django.conf import settings

    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        path = tmp_path_factory.mktemp("database") / "test-risiko.sqlite3"
        db.setdefault("TEST", {})["NAME"] = str(path)


@pytest.fixture(autouse=True)
def _no_connection_kept_from_the_pool(request: pytest.FixtureRequest) -> Iterator[None]:
    """On PostgreSQL (psycopg's pool, settings.POSTGRES_POOL): after each test, a connection
    still taken from the pool by a thread that ended without giving it back (a test's own
    thread querying the database) would be lost to every later test, which would then wait for
    a free connection (a hang, not a failure). Such a pool is closed after the test, with a
    warning naming the test, so the next test gets a fresh one."""
    yield
    import sys
    import warnings

    if "django.db" not in sys.modules:
        return
    from django.db import connections

    wrapper = type(connections["default"])
    pools = getattr(wrapper, "_connection_pools", None)
    if not pools or "default" not in pools:
        return
    stats = pools["default"].get_stats()
    held = stats.get("pool_size", 0) - stats.get("pool_available", 0)
    mine = 1 if connections["default"].connection is not None else 0
    if held > mine:
        warnings.warn(f"{request.node.nodeid}: {held - mine} pooled connection(s) not given "
                      "back; the pool is closed", stacklevel=1)
        connections["default"].close()
        connections["default"].close_pool()
