"""`make install-check` (part of `make test`): `pip install .` alone gives the library and
working game commands, and the web commands fail with one clear line.

In a fresh virtual environment outside the source tree (a temporary directory): a copy of
the project (``pyproject.toml``, ``README.md``, ``setup.py``, the build backend, ``src``) is
installed without extras, as the pure build (``RISIKO_BUILD=pure``: the compiled build is
``tools/compiled_check.py``'s), then

- ``risiko --version`` says the pure build;
- Django is not there (the library and the CLI do not need it);
- ``risiko odds``, ``play`` (with a record), ``replay``, ``analyse luck|closing``,
  ``position``, ``legal``, ``score`` and ``tournament --file`` work; ``analyse --plots``
  names ``risiko-club[lab]``;
- ``risiko serve``, ``backup``, ``restore`` and ``tournament`` on the database exit non-zero
  with exactly one line on standard error naming ``risiko-club[web]``.

Standard library only (it runs with the system Python). Prints the seconds it took; exits 1
naming the first check that failed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    """Run every check; 0 when all pass."""
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="risiko-install-") as tmp:
        base = Path(tmp)
        copy = copy_project(base / "project")
        venv = base / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        bin_dir = venv / "bin"
        # the pure build (RISIKO_BUILD=pure): this check is about the extras and the
        # commands, and stays fast; the compiled build has its own pass (compiled_check.py)
        pip = subprocess.run(
            [str(bin_dir / "pip"), "install", "--quiet", "--disable-pip-version-check",
             str(copy)], capture_output=True, text=True, check=False,
            env={**os.environ, "RISIKO_BUILD": "pure"})
        if pip.returncode != 0:
            return failed("pip install . (no extras)", pip)
        installed = time.monotonic() - start
        env = {**os.environ, "RISIKO_DATA_DIR": str(base / "data"), "COLUMNS": "200"}
        env.pop("DATABASE_URL", None)

        def run(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run([str(bin_dir / "risiko"), *args], capture_output=True,
                                  text=True, cwd=base, env=env, check=False)

        no_django = subprocess.run(
            [str(bin_dir / "python"), "-c", "import django"], capture_output=True, text=True,
            cwd=base, check=False)
        if no_django.returncode == 0:
            return failed("Django must not come with `pip install .`", no_django)
        done = run("--version")
        if done.returncode != 0 or "build pure" not in done.stdout:
            return failed("risiko --version says the pure build", done)
        rec = base / "game.txt"
        pos = base / "pos.json"
        checks: list[tuple[str, list[str]]] = [
            ("odds", ["odds", "3", "2", "--json"]),
            ("play", ["play", "--seed", "1", "--seats", "4", "--bots", "random",
                      "--record", str(rec), "--json"]),
            ("replay", ["replay", str(rec), "--json"]),
            ("analyse luck", ["analyse", "luck", str(rec), "--json"]),
            ("analyse closing", ["analyse", "closing", "--games", "0", "--json"]),
            ("score", ["score", str(ROOT / "examples" / "sheet-5-seats.json"), "--json"]),
            ("tournament --file", ["tournament", "--file",
                                   str(ROOT / "examples" / "season-2027.json"), "standings",
                                   "--json"]),
        ]
        for label, args in checks:
            done = run(*args)
            if done.returncode != 0:
                return failed(f"risiko {label}", done)
            json.loads(done.stdout)
        done = run("position", str(rec), "--ply", "50", "--json")
        if done.returncode != 0:
            return failed("risiko position", done)
        pos.write_text(done.stdout, encoding="utf-8")
        done = run("legal", str(pos), "--explain", "--json")
        if done.returncode != 0 or not json.loads(done.stdout)["actions"]:
            return failed("risiko legal", done)
        done = run("analyse", "closing", "--games", "0", "--plots", str(base / "plots"))
        if done.returncode == 0 or "risiko-club[lab]" not in done.stderr:
            return failed("risiko analyse --plots without the lab extra names risiko-club[lab]",
                          done)
        for args in (["serve"], ["backup", str(base / "b.sqlite3")],
                     ["restore", str(base / "b.sqlite3"), "--yes"], ["tournament", "list"]):
            done = run(*args)
            lines = done.stderr.splitlines()
            if done.returncode == 0 or len(lines) != 1 or "risiko-club[web]" not in lines[0]:
                return failed(f"risiko {' '.join(args[:1])} without the web extra: one line "
                              "naming risiko-club[web], exit non-zero", done)
    total = time.monotonic() - start
    print(f"install check: pip install . (no extras) in {installed:.1f} s; game commands "
          f"work, web commands say risiko-club[web]; {total:.1f} s in all")
    return 0


#: what a build of the project needs: the build backend (tools/build_backend.py), setup.py
#: (the compiled build), the metadata and the sources
PROJECT_FILES = ("pyproject.toml", "README.md", "setup.py", "MANIFEST.in",
                 "tools/build_backend.py")


def copy_project(copy: Path) -> Path:
    """A copy of what ``pip install .`` reads (no caches, no built extensions) at ``copy``."""
    (copy / "tools").mkdir(parents=True)
    for name in PROJECT_FILES:
        shutil.copy2(ROOT / name, copy / name)
    shutil.copytree(ROOT / "src", copy / "src", ignore=shutil.ignore_patterns(
        "__pycache__", "*.egg-info", "*.pyc", "*.so"))
    return copy


def failed(what: str, done: subprocess.CompletedProcess[str]) -> int:
    """Print the failed check with its output; 1."""
    print(f"install check FAILED: {what} (exit {done.returncode})", file=sys.stderr)
    print(done.stdout[-2000:], done.stderr[-2000:], sep="\n", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
