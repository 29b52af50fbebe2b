"""Files only their owner may read, private from the first byte (standard library only, so
the settings can use it before Django starts).

The club's data folder holds the database (names, results, session keys), the secret key
that signs sessions, and backups: another user of the same machine must not read any of them.
Each is *created* with its final mode - a folder ``0700``, a file ``0600`` - by ``os.open``
/ ``mkdir`` with that mode (the umask can only take bits away), never written first and
made private after (a reader could open it in between and keep the open file). SQLite gives
a database's ``-wal``, ``-shm`` and ``-journal`` files the mode of the database file itself,
so a database created ``0600`` keeps them ``0600`` too.

Folders and files left by an older version with looser modes are tightened when found
(:func:`tighten`): that is a repair of what exists, not how anything new is made.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

DIR_MODE = 0o700
FILE_MODE = 0o600
#: Files SQLite keeps beside a database (same mode as the database file).
SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")


def tighten(path: Path, mode: int) -> None:
    """Take away the group and other bits of an existing ``path`` that has any (a folder
    or file made by an older version); nothing when it is missing or not ours."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return
    if st.st_mode & 0o077 and st.st_uid == os.getuid():
        os.chmod(path, mode)


def private_dir(path: Path) -> Path:
    """``path`` as a folder only its owner can enter (``0700``), created with that mode if
    missing (missing parents get the usual mode: they hold nothing of ours)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        path.mkdir(mode=DIR_MODE)
    tighten(path, DIR_MODE)
    return path


def create_private_file(path: Path) -> bool:
    """Create ``path`` empty with mode ``0600`` unless it exists; True when created. An
    empty file is a valid empty SQLite database: SQLite then writes into it, keeping the
    mode."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        return False
    os.close(fd)
    return True


def private_sqlite(path: Path) -> Path:
    """The SQLite database ``path`` created empty ``0600`` before SQLite first opens it;
    an existing database and its side files from an older version are tightened."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not create_private_file(path):
        tighten(path, FILE_MODE)
        for suffix in SQLITE_SIDE_FILES:
            tighten(path.with_name(path.name + suffix), FILE_MODE)
    return path


def write_private_once(path: Path, text: str) -> str:
    """Write ``text`` to ``path`` unless it exists, private from the first byte, and return
    what ``path`` holds: the text is written to a ``0600`` temporary file in the same folder,
    then linked to ``path`` in one step, so a process starting at the same moment either
    finds the whole file or creates it itself (the first link wins, every process reads the
    same text)."""
    if not path.exists():
        tmp = _private_temp(path, text)
        try:
            with contextlib.suppress(FileExistsError):
                os.link(tmp, path)
        finally:
            os.unlink(tmp)
    else:
        tighten(path, FILE_MODE)
    return path.read_text(encoding="utf-8")


def write_private(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path``, private from the first byte: into a ``0600``
    temporary file in the same folder, then renamed over ``path`` in one step (a reader sees
    the old file or the whole new one; a file left there ``0644`` by an older version is
    replaced by the ``0600`` one). Raises what the file system raises (``OSError``), leaving
    no temporary file."""
    tmp = _private_temp(path, text)
    try:
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _private_temp(path: Path, text: str) -> str:
    """A ``0600`` temporary file beside ``path`` holding ``text``; its name."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")  # mode 0600
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
    except BaseException:
        os.unlink(tmp)
        raise
    return tmp


def mode_of(path: Path) -> int:
    """The permission bits of ``path`` (``0o600``, ``0o700``, ...)."""
    return stat.S_IMODE(path.stat().st_mode)
