"""A PostgreSQL database copied with ``pg_dump`` (custom format, put back with
``pg_restore``) into a file only its owner can read, from the first byte. Used by
``risiko backup FILE`` on PostgreSQL and by the data migration ``core 0002`` before it
resolves duplicates (standard library only: it runs inside a migration).

The connection comes from a Django ``DATABASES`` entry (``NAME``, ``USER``, ``PASSWORD``,
``HOST``, ``PORT``, ``OPTIONS["sslmode"]``), given to ``pg_dump`` in its environment
(``PGDATABASE``, ``PGPASSWORD``, ...), never on its command line where ``ps`` would show the
password; ``pg_dump`` never asks for a password (``--no-password``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from risiko.web.private_files import FILE_MODE

#: the settings' keys and the environment variables libpq reads them from
_ENVIRONMENT = (("NAME", "PGDATABASE"), ("USER", "PGUSER"), ("PASSWORD", "PGPASSWORD"),
                ("HOST", "PGHOST"), ("PORT", "PGPORT"))


def pg_dump_path() -> str | None:
    """Where ``pg_dump`` is on ``PATH``, or None."""
    return shutil.which("pg_dump")


def _environment(settings: Mapping[str, Any]) -> dict[str, str]:
    env = dict(os.environ)  # what the settings leave out libpq takes from there, as psycopg
    for key, var in _ENVIRONMENT:
        if settings.get(key):
            env[var] = str(settings[key])
    sslmode = (settings.get("OPTIONS") or {}).get("sslmode")
    if sslmode:
        env["PGSSLMODE"] = str(sslmode)
    return env


def pg_dump(settings: Mapping[str, Any], dest: Path) -> int:
    """Dump the database of ``settings`` into ``dest`` (created ``0600`` before the first
    byte; it must not exist) in ``pg_dump``'s custom format; return the bytes written.

    Raises FileNotFoundError when ``pg_dump`` is not on ``PATH``, FileExistsError when
    ``dest`` exists, OSError when it cannot be created, ValueError with ``pg_dump``'s own
    words when the dump fails (``dest`` is then removed)."""
    exe = pg_dump_path()
    if exe is None:
        raise FileNotFoundError("pg_dump is not on PATH")
    fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    try:
        with os.fdopen(fd, "wb") as out:
            done = subprocess.run(
                [exe, "--format=custom", "--no-password"], stdout=out,
                stderr=subprocess.PIPE, env=_environment(settings), check=False,
            )
        if done.returncode != 0:
            words = done.stderr.decode("utf-8", "replace").strip() or f"exit {done.returncode}"
            raise ValueError(f"pg_dump failed: {words}")
    except BaseException:
        dest.unlink(missing_ok=True)
        raise
    return dest.stat().st_size
