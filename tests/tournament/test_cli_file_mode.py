"""``risiko tournament --file SEASON.json ...``: the commands of the database on a season file:
reading commands read it, writing commands check the change and rewrite the
file only with ``--write``; no Django, no audit log."""

from __future__ import annotations

import json
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any

from typer.testing import CliRunner, Result

from risiko.cli.main import app


def run(path: Path, *args: str, write: bool = True, lang: str = "en") -> Result:
    group = ["--lang", lang, "tournament", "--file", str(path)]
    return CliRunner().invoke(app, [*group, *(["--write"] if write else []), *args],
                              env={"COLUMNS": "200"})


def ok(path: Path, *args: str, **kw: Any) -> Result:
    result = run(path, *args, **kw)
    assert result.exit_code == 0, result.output
    return result


def test_an_evening_in_a_season_file(tmp_path: Path) -> None:
    path = tmp_path / "torneo.json"
    ok(path, "create", "Torneo di prova")
    assert json.loads(path.read_text())["ruleset"] == "club-milano@2"
    ok(path, "add-players", "Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gino",
       "Luè")
    ok(path, "evening", "2027-03-02")
    # times as written, names however typed (a decomposed accent, capitals)
    late = json.loads(ok(path, "arrive", "2027-03-02", "anna", "9:15 pm", "--json").stdout)
    assert (late["player"], late["class"], late["penalty_turns"]) == ("Anna", "late", 3)
    ok(path, "arrive", "2027-03-02", unicodedata.normalize("NFD", "LUÈ"), "21.05")
    data = json.loads(path.read_text())
    assert data["evenings"][0]["arrivals"] == {"Anna": "21:15", "Luè": "21:05"}

    tables = json.loads(ok(path, "seat-by-hand", "2027-03-02", "Anna,Bruno,Carla,Dario",
                           "Elena,Franco,Gino,Lue\u0300", "--json").stdout)["tables"]
    assert tables == [["Anna", "Bruno", "Carla", "Dario"], ["Elena", "Franco", "Gino", "Luè"]]
    ok(path, "swap", "2027-03-02", "Dario", "Elena")
    ok(path, "scores", "2027-03-02", "1", "Anna=57", "Bruno=40", "Carla=30", "Elena=20")
    ok(path, "scores", "2027-03-02", "2", "Dario=100", "Franco=12", "Gino=8", "luè=5",
       "--risiko", "Dario")
    pen = json.loads(ok(path, "penalty", "2027-03-02", "Bruno", "--points", "-7",
                        "--reason", "insulti", "--unit", "ranking", "--json").stdout)
    assert pen == {"id": 1, "player": "Bruno", "points": -7, "unit": "ranking"}
    ok(path, "appeal", "1", "reduced", "--points", "-3", "--referee", "Luca")
    report = json.loads(ok(path, "standings", "--json", write=False).stdout)
    points = {r["player"]: r["points"] for r in report["standings"]}
    assert points == {"Dario": 100, "Anna": 57, "Bruno": 37, "Carla": 30, "Elena": 20,
                      "Franco": 12, "Gino": 8, "Luè": 5}
    assert report["pending"] == [
        "semifinal: 8 eligible players are ranked; the semifinal needs 10"]
    assert [(f["code"], f["severity"], f["params"]) for f in report["faults"]] == [
        ("stage.too_few_eligible", "warning", {"count": 8, "need": 10})]
    # the same file read by `risiko season`
    season = CliRunner().invoke(app, ["season", str(path), "--json"])
    assert json.loads(season.stdout)["standings"] == report["standings"]


def test_without_write_the_file_is_only_checked(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    ok(path, "create", "T")
    ok(path, "add-players", "Anna", "Bruno", "Carla")
    before = path.read_text()
    checked = ok(path, "add-players", "Dario", write=False)
    assert "add --write" in checked.stdout
    assert path.read_text() == before


def test_a_refused_change_says_why_and_leaves_the_file(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    ok(path, "create", "T")
    ok(path, "add-players", "Anna", "Bruno", "Carla", "Dario")
    ok(path, "evening", "2027-03-02")
    before = path.read_text()
    bare = run(path, "arrive", "2027-03-02", "Anna", "9:15")
    assert bare.exit_code == 1
    assert bare.stderr.splitlines() == [
        "evening 2027-03-02 (qualifying), arrivals: Anna: '9:15' would be a morning time: "
        "did you mean 21:15?"]
    italian = run(path, "arrive", "2027-03-02", "Zeno", "21:00", lang="it")
    assert italian.exit_code == 1
    assert italian.stderr.splitlines() == [
        "serata 2027-03-02 (qualificazione), arrivi: giocatore sconosciuto 'Zeno' (non è "
        "in 'players')"]
    twice = run(path, "seat-by-hand", "2027-03-02", "Anna,Bruno,Carla", "anna,Dario,Bruno")
    assert twice.exit_code == 1
    assert "evening 2027-03-02 (qualifying), table 2: 2 seats (3 to 6)" not in twice.stderr
    assert "Anna is seated twice" in twice.stderr
    assert path.read_text() == before


def test_file_mode_runs_without_django(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    ok(path, "create", "T")
    code = (
        "import sys\n"
        "sys.modules['django'] = None  # no web extra\n"
        "from risiko.cli.main import app\n"
        f"sys.argv = ['risiko', 'tournament', '--file', {str(path)!r}, '--write',\n"
        "            'add-players', 'Anna', 'Bruno', 'Carla']\n"
        "try:\n    app()\nexcept SystemExit as e:\n    assert e.code in (0, None), e.code\n"
        f"sys.argv = ['risiko', 'tournament', 'list']\n"
        "try:\n    app()\nexcept SystemExit as e:\n    print('exit', e.code)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert json.loads(path.read_text())["players"] == ["Anna", "Bruno", "Carla"]
    assert "exit 1" in done.stdout
    assert done.stderr.count("\n") == 1 and "web extra" in done.stderr


def test_add_players_counts_only_the_new_ones(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    ok(path, "create", "T")
    assert ok(path, "add-players", "Anna", "Bruno").stdout.strip() == \
        "2 players registered: Anna and Bruno"
    assert ok(path, "add-players", "ANNA").stdout.strip() == \
        "no player registered; already registered: Anna"
    assert ok(path, "add-players", "Carla", "anna", "Bruno", lang="it").stdout.strip() == \
        "1 giocatore iscritto: Carla; già iscritti: Anna e Bruno"
    assert json.loads(path.read_text())["players"] == \
        ["Anna", "Bruno", "Carla"]


def test_what_a_command_did_is_said_in_italian(tmp_path: Path) -> None:
    # issue 18 §2: `risiko --lang it` said "created ...", "evening ... opened" in English
    path = tmp_path / "torneo.json"
    created = ok(path, "create", "Torneo 2028", lang="it").stdout.strip()
    assert created.startswith("creato Torneo 2028 (slug ") and "club-milano@2" in created
    ok(path, "add-players", "Alba", "Bice", "Ciro", "Dora", lang="it")
    assert ok(path, "evening", "2028-03-07", lang="it").stdout.strip() == (
        "serata 2028-03-07 (qualificazione) aperta")
    ok(path, "seat-by-hand", "2028-03-07", "Alba,Bice,Ciro,Dora", lang="it")
    said = ok(path, "scores", "2028-03-07", "1", "Alba=57", "Bice=40", "Ciro=12", "Dora=30",
              lang="it").stdout.strip()
    assert said == "tavolo 1: punteggi registrati"
    again = ok(path, "scores", "2028-03-07", "1", "Alba=57", "Bice=40", "Ciro=12", "Dora=30",
               lang="it").stdout.strip()
    assert again == "tavolo 1: già registrato, nulla è cambiato"
    english = ok(path, "scores", "2028-03-07", "1", "Alba=57", "Bice=40", "Ciro=12", "Dora=30")
    assert english.stdout.strip() == "table 1: already recorded, nothing changed"


def test_arrive_and_seat_are_said_in_italian_and_json_keeps_its_codes(tmp_path: Path) -> None:
    # issue: `--lang it tournament arrive` said "on_time (0 penalty turns)" (a raw code and
    # English), `seat` said "table 1: ..."
    path = tmp_path / "torneo.json"
    ok(path, "create", "Torneo", lang="it")
    ok(path, "add-players", "Anna", "Bruno", "Carla", "Dario", lang="it")
    ok(path, "evening", "2027-02-01", lang="it")
    # R3: 21:00 is by 21:10, on time; 21:15 is late, 3 turns without reinforcements
    assert ok(path, "arrive", "2027-02-01", "Anna", "21:00", lang="it").stdout.strip() == (
        "Anna 21:00: in orario (0 turni di penalità) — arrivato entro le 21:10: in orario (R3)")
    late = ok(path, "arrive", "2027-02-01", "Bruno", "21:15", lang="it").stdout.strip()
    assert late.startswith("Bruno 21:15: in ritardo (3 turni di penalità) — arrivato dopo")
    data = json.loads(ok(path, "arrive", "2027-02-01", "Carla", "21:05", "--json",
                         lang="it").stdout)
    assert (data["player"], data["class"], data["penalty_turns"]) == ("Carla", "on_time", 0)
    ok(path, "arrive", "2027-02-01", "Dario", "21:01", lang="it")
    said = ok(path, "seat-by-hand", "2027-02-01", "Anna,Bruno,Carla,Dario",
              lang="it").stdout.strip()
    assert said == "tavolo 1: 1. Anna, 2. Bruno, 3. Carla, 4. Dario"
    assert ok(path, "seat-by-hand", "2027-02-01", "Anna,Bruno,Carla,Dario", "--reason", "x"
              ).stdout.strip() == "table 1: 1. Anna, 2. Bruno, 3. Carla, 4. Dario"
