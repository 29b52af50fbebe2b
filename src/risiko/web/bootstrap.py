"""Start Django outside a server (the ``risiko`` command, scripts, tests).

:func:`setup` configures Django with :mod:`risiko.web.settings` and, unless told not to,
applies the migrations that are not applied yet ("migrations run on first use").
"""

from __future__ import annotations

import os
import threading

_lock = threading.Lock()
_ready = False


def setup(migrate: bool = True) -> None:
    """Configure Django once per process; run pending migrations when ``migrate``."""
    global _ready
    with _lock:
        if _ready:
            return
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "risiko.web.settings")
        import django

        django.setup()
        if migrate:
            migrate_if_needed()
        _ready = True


def migrate_if_needed() -> bool:
    """Apply pending migrations quietly; True when something was applied."""
    from django.core.management import call_command
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if not plan:
        return False
    call_command("migrate", interactive=False, verbosity=0)
    return True
