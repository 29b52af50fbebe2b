"""`make unit-compiled` (part of `make test`): the engine's tests and doctests on the compiled
build.

1. A virtual environment of its own (``.venv-compiled``, or ``RISIKO_COMPILED_VENV``) with
   pytest and hypothesis; the pure pass (``.venv``, an editable install of ``src/``) never
   sees a compiled module.
2. The wheel is built from a copy of the project with ``RISIKO_BUILD=compiled`` (mypyc; no
   fallback to pure: a build that fails where a C compiler and Python's headers are present
   FAILS here, loudly) and installed normally (not editable). A machine without them skips
   the check, saying why, unless ``RISIKO_REQUIRE_COMPILED=1`` (CI: ``.ci/run``), which
   fails it.
3. The installed package must be the compiled one: ``risiko --version`` says ``compiled``
   and ``risiko.game`` is a C extension in the environment's site-packages.
4. The engine's tests (:data:`ENGINE_TESTS`) run from a copy of ``tests/`` outside the source
   tree, so they import the installed package, not ``src/``; then the doctests of every
   module of the library (``risiko/*.py``, ``risiko/agents``), read from the sources the
   wheel ships and run against the compiled modules (mypyc keeps no docstrings, so
   :mod:`doctest` cannot find them on the modules themselves).

Prints the seconds each step took (the build is most of it). Standard library only (it runs
with the system Python); ``--doctests`` is the last step, run inside the environment.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from build_backend import why_not_compiled
from install_check import ROOT, copy_project

#: the engine's test files (globs under tests/) and what they need beside them
ENGINE_TESTS = (
    "test_game_*.py", "test_engine_api.py", "test_properties.py", "test_positions.py",
    "test_record.py", "test_agents.py", "test_agents_levels.py", "test_lab_engine.py",
    "test_build.py",
)
TEST_SUPPORT = ("conftest.py", "helpers.py", "pool_watch.py", "golden")
TEST_REQUIREMENTS = ("pytest>=8", "hypothesis>=6.100")


def main() -> int:
    """Build, install and test the compiled build; 0 when all pass."""
    cannot = why_not_compiled()
    if cannot is not None:
        if os.environ.get("RISIKO_REQUIRE_COMPILED") == "1":
            print(f"compiled check FAILED: the compiled build is required "
                  f"(RISIKO_REQUIRE_COMPILED=1) and this machine cannot make it: {cannot}",
                  file=sys.stderr)
            return 1
        print(f"compiled check: skipped, this machine cannot make the compiled build ({cannot})")
        return 0
    venv = Path(os.environ.get("RISIKO_COMPILED_VENV", ROOT / ".venv-compiled"))
    bin_dir = venv / "bin"
    start = time.monotonic()
    if not (bin_dir / "pytest").exists():
        run([sys.executable, "-m", "venv", str(venv)])
        run([str(bin_dir / "pip"), "install", "--quiet", "--disable-pip-version-check",
             *TEST_REQUIREMENTS])
    with tempfile.TemporaryDirectory(prefix="risiko-compiled-") as tmp:
        base = Path(tmp)
        project = copy_project(base / "project")
        built = time.monotonic()
        run([str(bin_dir / "pip"), "wheel", "--quiet", "--disable-pip-version-check",
             "--no-deps", "--wheel-dir", str(base / "dist"), str(project)],
            env={**os.environ, "RISIKO_BUILD": "compiled"})
        built = time.monotonic() - built
        wheel = next((base / "dist").glob("risiko_club-*.whl"))
        run([str(bin_dir / "pip"), "uninstall", "--quiet", "--yes", "risiko-club"],
            check=False)
        run([str(bin_dir / "pip"), "install", "--quiet", "--disable-pip-version-check",
             str(wheel)])
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        version = run([str(bin_dir / "risiko"), "--version"], env=env, cwd=base).stdout
        where = run([str(bin_dir / "python"), "-c",
                     "import risiko.game; print(risiko.game.__file__)"],
                    env=env, cwd=base).stdout.strip()
        site = run([str(bin_dir / "python"), "-c", "import sysconfig; "
                    "print(sysconfig.get_paths()['platlib'])"], env=env, cwd=base).stdout
        if "build compiled" not in version or not where.startswith(site.strip()) \
                or where.endswith(".py"):
            print(f"compiled check FAILED: the installed build is not the compiled one "
                  f"({version.strip()}; risiko.game at {where})", file=sys.stderr)
            return 1
        print(f"compiled check: {wheel.name} built in {built:.0f} s; {version.strip()}",
              flush=True)
        tests = base / "tests"
        tests.mkdir()
        for pattern in (*ENGINE_TESTS, *TEST_SUPPORT):
            for path in sorted((ROOT / "tests").glob(pattern)):
                if path.is_dir():
                    shutil.copytree(path, tests / path.name)
                else:
                    shutil.copy2(path, tests / path.name)
        # no ini file in the copy: pytest's rootdir is the copy, and the project's settings
        # (doctests of src/, Django) do not apply; -p no:cacheprovider writes nothing
        (tests / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
        files = sorted(p.name for pattern in ENGINE_TESTS for p in tests.glob(pattern))
        tested = time.monotonic()
        done = subprocess.run([str(bin_dir / "python"), "-m", "pytest", "-q",
                               "-p", "no:cacheprovider", *files], cwd=tests, env=env,
                              check=False)
        if done.returncode != 0:
            print("compiled check FAILED: the engine's tests on the compiled build",
                  file=sys.stderr)
            return 1
        done = subprocess.run([str(bin_dir / "python"), str(Path(__file__).resolve()),
                               "--doctests"], cwd=tests, env=env, check=False)
        if done.returncode != 0:
            return 1
        tested = time.monotonic() - tested
    print(f"compiled check: build {built:.0f} s, tests and doctests {tested:.0f} s, "
          f"{time.monotonic() - start:.0f} s in all")
    return 0


def run(args: list[str], *, check: bool = True, env: dict[str, str] | None = None,
        cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run a command; on failure (``check``) print its output and exit 1."""
    done = subprocess.run(args, capture_output=True, text=True, env=env, cwd=cwd, check=False)
    if check and done.returncode != 0:
        print(f"compiled check FAILED: {' '.join(args)} (exit {done.returncode})",
              file=sys.stderr)
        print(done.stdout[-3000:], done.stderr[-6000:], sep="\n", file=sys.stderr)
        sys.exit(1)
    return done


def docstrings(tree: ast.Module) -> list[tuple[str, str, int]]:
    """(qualified name, docstring, line) of the module and of every class and function in
    it, methods included, in source order."""
    out: list[tuple[str, str, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}{child.name}"
                doc = ast.get_docstring(child, clean=False)
                if doc is not None:
                    out.append((name, doc, child.body[0].lineno))
                visit(child, f"{name}.")

    doc = ast.get_docstring(tree, clean=False)
    if doc is not None:
        out.append(("", doc, 1))
    visit(tree, "")
    return out


def run_doctests() -> int:
    """The doctests of the installed library's sources, run with the globals of the modules
    as imported (compiled ones where the build compiled them); 0 when all pass."""
    import risiko
    from risiko._build import build

    package = Path(risiko.__file__).parent
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)  # pytest's default flags
    sources = sorted(package.glob("*.py")) + sorted(package.glob("agents/*.py"))
    found = 0
    for path in sources:
        parts = path.relative_to(package.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        module = importlib.import_module(name)
        for qualname, doc, line in docstrings(ast.parse(path.read_text(encoding="utf-8"))):
            test = parser.get_doctest(doc, dict(vars(module)),
                                      f"{name}.{qualname}".rstrip("."), str(path), line)
            if test.examples:
                found += 1
                runner.run(test)
    failed, tried = runner.summarize(verbose=False)
    print(f"doctests on the {build()} build: {found} docstrings of {len(sources)} modules, "
          f"{tried} examples, {failed} failed")
    return 1 if failed or not tried else 0


if __name__ == "__main__":
    sys.exit(run_doctests() if "--doctests" in sys.argv[1:] else main())
