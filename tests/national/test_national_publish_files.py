"""``risiko national publish FILE``: what a file given to publish is refused with (the
newcomer's trial of the national command line)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from risiko.faults import use_language

pytestmark = [pytest.mark.db, pytest.mark.django_db]


def publish(*args: str, lang: str = "en") -> Any:
    """``risiko national publish ARGS`` run in ``lang`` (a typer result)."""
    import typer
    from typer.testing import CliRunner

    from risiko.cli import national_commands

    app = typer.Typer()
    national_commands.register(app)
    with use_language(lang):
        return CliRunner().invoke(app, ["national", "publish", *args, "--by", "arb"])


def test_a_file_that_is_no_report_is_refused_naming_the_file(tmp_path: Path) -> None:
    """``publish bad.json`` said "not valid JSON (line 1, column 2)" and no file. Now each
    fault comes after the file's name, the path a subject of the fault
    (``national.cli_bad_file``). ``{bad``: the JSON breaks at its 2nd character, line 1."""
    from risiko.web.national.models import TournamentRevision

    bad = tmp_path / "bad.json"
    bad.write_text("{bad", encoding="utf-8")
    said = publish(str(bad))
    assert said.exit_code == 2, said.output
    assert said.stderr.splitlines() == [
        f"{bad} cannot be published: not valid JSON (line 1, column 2)"]
    as_json = publish(str(bad), "--json")
    assert as_json.exit_code == 2
    (fault,) = json.loads(as_json.stdout)["faults"]
    assert (fault["code"], fault["subjects"]) == ("national.cli_bad_file", {"file": str(bad)})
    assert fault["params"]["fault"]["code"] == "national.report_not_json"
    # valid JSON, no report: every missing field after the file's name, in Italian too
    other = tmp_path / "altro.json"
    other.write_text('{"format": "risiko-report/1"}', encoding="utf-8")
    italian = publish(str(other), lang="it")
    assert italian.exit_code == 2
    assert italian.stderr.splitlines()[0] == f"{other} non si può pubblicare: club: manca"
    assert TournamentRevision.objects.count() == 0
