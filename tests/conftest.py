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

import pool_watch
from risiko.faults import set_language


@pytest.fixture(autouse=True)
def _english_faults(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    set_language(None)
    yield
    set_language(None)


@pytest.fixture(autouse=True)
def _background_threads_stopped(request: pytest.FixtureRequest) -> Iterator[None]:
    """After a test, the threads that read the database on their own are stopped before its
    database is emptied: the live pages' hub (:meth:`risiko.web.live.hub.Hub.stop`), whose
    look at the change key deadlocked with PostgreSQL's ``TRUNCATE`` of the next flush (a
    CI run's error at the teardown of an online test). The database fixture is set up first
    so that this teardown runs before its flush."""
    import sys

    if request.node.get_closest_marker("django_db") is not None:
        request.getfixturevalue("_django_db_helper")
    yield
    hub = sys.modules.get("risiko.web.live.hub")
    if hub is None:
        return
    from risiko.web.live.groups import REGISTRY

    REGISTRY.clear()
    assert hub.HUB.stop(), "the live pages' hub thread did not stop within 10 s"


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
    """On PostgreSQL (psycopg's pool, settings.POSTGRES_POOL): a test whose threads ended
    without giving back a connection taken from the pool (a test's own thread querying the
    database, a worker thread of the code under test) FAILS, naming the threads; the pool is
    closed so the next test gets a fresh one (tests/pool_watch.py). A thread gives its
    connection back with ``django.db.connections.close_all()`` before it ends."""
    pool_watch.watch()
    yield
    kept = pool_watch.kept_by_ended_threads()
    if kept:
        pool_watch.close_pool()
        pytest.fail(f"{request.node.nodeid}: {len(kept)} pooled connection(s) kept by threads "
                    f"that ended ({', '.join(kept)}): close them in the thread "
                    "(django.db.connections.close_all()); the pool is closed", pytrace=False)
