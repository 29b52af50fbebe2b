"""The examples of the README and the docs run as written (a reader copies them first).

The README's library example is run as Python; the file-mode walk-through of
docs/tournament.md is run command by command in a fresh folder, and its standings are the
scores it typed (Alba 57, Bice 40, Ciro 12: the only table with a result)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RISIKO = Path(sys.executable).with_name("risiko")


def test_the_readme_library_example_runs(capsys) -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
    # the example's refused placement says its code (not held by the seat to act)
    assert capsys.readouterr().out.split()[0] == "game.not_held"


def test_the_file_mode_walk_through_of_docs_tournament_runs(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "tournament.md").read_text(encoding="utf-8")
    lines = [ln.split("  #")[0] for ln in text.splitlines()
             if ln.startswith("risiko tournament --file torneo.json")]
    assert len(lines) >= 5
    out = ""
    for line in lines:
        args = shlex.split(line)[1:]
        done = subprocess.run([str(RISIKO), "--lang", "en", *args, *(["--json"] if
                               args[-1] == "standings" else [])],
                              cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (line, done.stdout, done.stderr)
        out = done.stdout
    import json

    rows = json.loads(out)["standings"]
    assert [(r["player"], r["points"]) for r in rows] == [("Alba", 57), ("Bice", 40),
                                                          ("Ciro", 12)]


def _where_names() -> list[str]:
    """The names in the "where" column of docs/rules.md's table of clauses."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    rows = [ln.split("|") for ln in text.splitlines() if re.match(r"\| R\d", ln)]
    assert len(rows) >= 10
    return [name for row in rows for name in re.findall(r"`([^`]+)`", row[2])]


def test_every_function_docs_rules_names_exists() -> None:
    """``rules.do_trade``, ``game.Game.room``, ``closing``...: each name of the "where"
    column is a module of ``risiko`` or an attribute of one (``Game.new`` (``late=``): a
    keyword argument written apart in the prose), or a command (``risiko legal``)."""
    import importlib
    import inspect

    names = _where_names()
    assert "rules.do_end_turn" in names and "cards.set_value" in names
    for name in names:
        if name.startswith("risiko "):  # a command: `risiko legal`
            from typer.testing import CliRunner

            from risiko.cli.main import app

            assert CliRunner().invoke(app, [*name.split()[1:], "--help"]).exit_code == 0, name
            continue
        if name.endswith("="):  # a keyword argument: `late=`
            assert name[:-1] in inspect.signature(importlib.import_module(
                "risiko.game").Game.new).parameters
            continue
        parts = name.split(".")
        obj = importlib.import_module(f"risiko.{parts[0]}")
        for part in parts[1:]:
            assert hasattr(obj, part), f"docs/rules.md names {name}: no {part} in {obj}"
            obj = getattr(obj, part)


def test_make_run_installs_the_national_extra_and_the_readme_says_so() -> None:
    """The national pages and commands are part of the app: `make run`'s venv (the
    ``$(BIN)/risiko`` rule) installs ``.[web,national]``, and the README says what it
    installs."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    rule = makefile[makefile.index("$(BIN)/risiko: "):]
    rule = rule[:rule.index("\n\n")]
    assert re.findall(r"pip install --quiet -e '([^']*)'", rule) == [".[web,national]"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    line = next(x for x in readme.splitlines() if x.startswith("make run "))
    assert "installs '.[web,national]'" in line
