"""The migration tests' two moves: the database taken to named migrations (the models as
they were there, to fill it as an old data dir was) and back to the newest."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(targets: list[tuple[str, str]]) -> Any:
    """Migrate (forwards or backwards) to ``targets``; returns the apps of that state."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def latest() -> list[tuple[str, str]]:
    """The newest migration of every app."""
    return MigrationExecutor(connection).loader.graph.leaf_nodes()
