"""Every CSV the project writes keeps a spreadsheet from running a name as a formula:
the console's standings export and ``risiko tournament standings --csv``
put an apostrophe before a text cell starting with =, +, -, @, and numbers stay numbers."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse
from typer.testing import CliRunner

from risiko.cli.main import app
from risiko.tournament.season import compute_season
from risiko.web import services

pytestmark = [pytest.mark.db, pytest.mark.django_db]

SEASON = Path(__file__).parents[2] / "examples" / "season-2027.json"
RENAMED = {"Alba": "=Alba", "Bice": "+Bice", "Ciro": "-Ciro", "Dora": "@Dora"}


def _season() -> dict:
    text = SEASON.read_text(encoding="utf-8")
    for old, new in RENAMED.items():
        text = text.replace(json.dumps(old), json.dumps(new))
    return json.loads(text)


def _check(text: str, season: dict) -> None:
    expected = compute_season(season)["standings"]
    rows = list(csv.reader(io.StringIO(text)))
    # table_points, bonus and wins added at the end
    assert rows[0] == ["rank", "player", "points", "games", "risiko", "best", "penalties",
                       "eligible", "table_points", "bonus", "wins"]
    by_cell = {row[1]: row for row in rows[1:]}
    # each renamed player appears with the apostrophe in front, never bare
    for new in RENAMED.values():
        assert "'" + new in by_cell, new
        assert new not in by_cell
    assert "Fede" in by_cell  # an ordinary name is written as it is
    # numbers are numbers, negative ones included (no apostrophe)
    for row, exp in zip(rows[1:], expected, strict=True):
        assert row[0] == str(exp["rank"])
        assert row[2] == str(exp["points"])
        assert row[6] == str(exp["penalties"])
    assert any(int(row[6]) < 0 for row in rows[1:])  # the season has penalties
    for row in rows[1:]:
        for cell in row:
            assert not cell or cell[0] not in "=+@\t\r" or cell.lstrip("+").isdigit()
            assert not cell.startswith("-") or cell.lstrip("-").isdigit()


def test_console_csv_neutralises_formula_names():
    season = _season()
    t = services.import_season(season, who="test")
    user = User.objects.create_user("arbitro", password="x-tavolo-42")
    user.groups.add(Group.objects.get_or_create(name="referee")[0])
    c = Client()
    c.force_login(user)
    r = c.get(reverse("console_standings_csv", args=[t.slug]))
    assert r.status_code == 200
    _check(r.content.decode(), season)


def test_cli_csv_neutralises_formula_names():
    season = _season()
    t = services.import_season(season, who="test")
    res = CliRunner().invoke(app, ["tournament", "standings", t.slug, "--csv"])
    assert res.exit_code == 0, res.output
    _check(res.stdout, season)
