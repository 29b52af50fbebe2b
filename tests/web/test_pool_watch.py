"""The check of tests/conftest.py on PostgreSQL's pool: a thread that ends holding a pooled
connection is named; one that closes its connections is not."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

import pool_watch

pytestmark = [pytest.mark.db, pytest.mark.django_db(transaction=True)]


def _in_thread(name: str, close: bool) -> None:
    def query() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        if close:
            connections.close_all()

    thread = threading.Thread(target=query, name=name)
    thread.start()
    thread.join()


def test_a_thread_ending_with_a_pooled_connection_is_named():
    if connection.vendor != "postgresql" or not connection.pool:
        pytest.skip("psycopg's pool (PostgreSQL)")
    pool_watch.watch()
    _in_thread("closes-its-connection", close=True)
    assert pool_watch.kept_by_ended_threads() == []
    _in_thread("keeps-its-connection", close=False)
    try:
        assert pool_watch.kept_by_ended_threads() == ["keeps-its-connection"]
    finally:
        pool_watch.close_pool()
    assert pool_watch.kept_by_ended_threads() == []
