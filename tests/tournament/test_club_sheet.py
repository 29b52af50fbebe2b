"""A club's spreadsheet in: ``risiko tournament import-sheet FILE.xlsx|FILE.csv``
(season files here; the database in tests/web/test_import_sheet.py).

The sheet below is how a club keeps its results: one row per player and evening, Italian
headers, day-first dates, a ``Vincitore`` mark where the club broke a tie at the table, a
``RisiKo`` mark. Under the ``win-bonus`` format (+50 to the table's winner, shared by tied
winners; x1.25 at 5-player tables; ties: points, wins, best table score), worked out by hand:

    12/01 table 1 (5): Anna 57 X -> 71.25 + 50 = 121.25, Bruno 41 -> 51.25, Carla 9 ->
          11.25, Dario 0, Elena 0
    12/01 table 2 (4): Fabio 44 X -> 94 (the club gave him the tie), Gina 44, Ivo 12, Luca 0
    19/01 table 1 (4): Gina 62 X -> 112, Anna 30, Carla 20, Luca 18
    19/01 table 2 (5): Bruno 100 RisiKo! -> 125 + 50 = 175, Dario 10 -> 12.5, Elena 25 ->
          31.25, Fabio 5 -> 6.25, Ivo 0

    rank player points wins table-points bonus
      1  Bruno  226.25  1    141         50
      2  Gina   156     1    106         50
      3  Anna   151.25  1     87         50
      4  Fabio  100.25  1     49         50
      5  Elena   31.25  0     25          0   Elena and Carla equal on points and wins:
      6  Carla   31.25  0     29          0   Elena's best table score 25 beats Carla's 20
      7  Luca    18     0     18          0
      8  Dario   12.5   0     10          0
      9  Ivo     12     0     12          0

Without the winner marks Fabio and Gina share the win at 44 (44 + 25 = 69 each): Bruno
226.25, Gina 69 + 112 = 181, Anna 151.25, Fabio 69 + 6.25 = 75.25.
"""

from __future__ import annotations

import datetime as _dt
import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from typer.testing import CliRunner, Result

from risiko.cli.main import app
from risiko.faults import InvalidInputError, RisikoError
from risiko.tournament import get_format
from risiko.tournament.clubsheet import apply_rows, find_columns, read_csv_text, read_rows
from risiko.tournament.commands import new_tournament
from risiko.tournament.ranking import json_number
from risiko.tournament.standings import compute_standings

HEADER = ["Giocatore", "Data", "Tavolo", "Punti", "Vincitore", "RisiKo"]
ROWS: list[list[Any]] = [
    ["Anna", "12/01/2027", 1, 57, "X", ""],
    ["Bruno", "12/01/2027", 1, 41, "", ""],
    ["Carla", "12/01/2027", 1, 9, "", ""],
    ["Dario", "12/01/2027", 1, 0, "", ""],
    ["Elena", "12/01/2027", 1, 0, "", ""],
    ["Fabio", "12/01/2027", 2, 44, "X", ""],
    ["Gina", "12/01/2027", 2, "44,0", "", ""],
    ["Ivo", "12/01/2027", 2, 12, "", ""],
    ["Luca", "12/01/2027", 2, 0, "", ""],
    ["Anna", "19/01/2027", 1, 30, "", ""],
    ["Gina", "19/01/2027", 1, 62, "x", ""],
    ["Carla", "19/01/2027", 1, 20, "", ""],
    ["Luca", "19/01/2027", 1, 18, "", ""],
    ["Bruno", "19/01/2027", 2, 100, "", "sì"],
    ["Dario", "19/01/2027", 2, 10, "", ""],
    ["Elena", "19/01/2027", 2, 25, "", ""],
    ["Fabio", "19/01/2027", 2, 5, "", ""],
    ["Ivo", "19/01/2027", 2, 0, "", ""],
]
PUBLISHED = [
    # rank, player, points, wins, table points, bonus
    (1, "Bruno", 226.25, 1, 141, 50),
    (2, "Gina", 156, 1, 106, 50),
    (3, "Anna", 151.25, 1, 87, 50),
    (4, "Fabio", 100.25, 1, 49, 50),
    (5, "Elena", 31.25, 0, 25, 0),
    (6, "Carla", 31.25, 0, 29, 0),
    (7, "Luca", 18, 0, 18, 0),
    (8, "Dario", 12.5, 0, 10, 0),
    (9, "Ivo", 12, 0, 12, 0),
]


def italian_csv(header: list[str] = HEADER, rows: list[list[Any]] = ROWS) -> bytes:
    """The sheet as Excel saves a CSV in Italy: ';' separated, Windows-1252."""
    lines = [";".join(header)] + [";".join(str(c) for c in r) for r in rows]
    return ("\r\n".join(lines) + "\r\n").encode("cp1252")


def cli(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def new_season(tmp_path: Path, fmt: str = "win-bonus") -> Path:
    path = tmp_path / "season.json"
    fmt_file = tmp_path / "format.json"
    fmt_file.write_text(json.dumps(get_format(fmt).to_dict()), encoding="utf-8")
    res = cli("tournament", "--file", str(path), "--write", "create", "Torneo del circolo",
              "--format", str(fmt_file))
    assert res.exit_code == 0, res.output
    return path


def standings(path: Path) -> list[tuple[Any, ...]]:
    res = cli("season", str(path), "--json")
    assert res.exit_code == 0, res.output
    return [(r["rank"], r["player"], r["points"], r["wins"], r["table_points"], r["bonus"])
            for r in json.loads(res.output)["standings"]]


# --- the command, on a season file -----------------------------------------------------------


def test_an_italian_csv_gives_the_standings_the_club_publishes(tmp_path: Path) -> None:
    season = new_season(tmp_path)
    sheet = tmp_path / "risultati.csv"
    sheet.write_bytes(italian_csv())
    res = cli("tournament", "--file", str(season), "--write", "import-sheet", str(sheet))
    assert res.exit_code == 0, res.output
    assert "18 rows: 2 evenings (2027-01-12, 2027-01-19), 4 tables, 9 new players" in res.output
    (tmp_path / "it").mkdir()  # the same sheet said in Italian (issue: it was English)
    italian = cli("--lang", "it", "tournament", "--file", str(new_season(tmp_path / "it")),
                  "import-sheet", str(sheet))
    assert "18 righe: 2 serate (2027-01-12, 2027-01-19), 4 tavoli, 9 nuovi giocatori" \
        in italian.output, italian.output
    assert standings(season) == PUBLISHED
    data = json.loads(season.read_text(encoding="utf-8"))
    first = data["evenings"][0]
    # no arrival times: everyone on time, no arrivals recorded; the winner mark is kept
    assert first.get("arrivals", []) == []
    assert first["tables"][1]["seats"] == ["Fabio", "Gina", "Ivo", "Luca"]
    assert first["tables"][1]["winners"] == ["Fabio"]
    assert data["evenings"][1]["tables"][1]["risiko"] == ["Bruno"]


def test_an_xlsx_workbook_gives_the_same_standings(tmp_path: Path) -> None:
    season = new_season(tmp_path)
    book = openpyxl.Workbook()
    book.active.title = "Note"
    sheet = book.create_sheet("Serate")
    sheet.append(["Nome", "Data serata", "Tav.", "Punteggio", "Vinto", "Obiettivo"])
    for r in ROWS:
        day = _dt.datetime.strptime(r[1], "%d/%m/%Y")  # a date cell, as Excel keeps it
        score = int(str(r[3]).replace(",0", ""))
        sheet.append([r[0], day, r[2], score, r[4] or None, r[5] or None])
    path = tmp_path / "risultati.xlsx"
    book.save(path)
    res = cli("tournament", "--file", str(season), "--write", "import-sheet", str(path),
              "--worksheet", "Serate")
    assert res.exit_code == 0, res.output
    assert standings(season) == PUBLISHED
    res = cli("tournament", "--file", str(season), "import-sheet", str(path),
              "--worksheet", "Foglio1")
    assert res.exit_code == 2 and "the workbook's worksheets are Note, Serate" in res.output


def test_without_winner_marks_tied_winners_share_the_bonus(tmp_path: Path) -> None:
    season = new_season(tmp_path)
    sheet = tmp_path / "risultati.csv"
    sheet.write_bytes(italian_csv([*HEADER[:4], "RisiKo"], [[*r[:4], r[5]] for r in ROWS]))
    res = cli("tournament", "--file", str(season), "--write", "import-sheet", str(sheet))
    assert res.exit_code == 0, res.output
    got = {p: pts for _rank, p, pts, *_ in standings(season)}
    assert (got["Gina"], got["Fabio"], got["Bruno"]) == (181, 75.25, 226.25)


def test_columns_named_on_the_command_line(tmp_path: Path) -> None:
    season = new_season(tmp_path)
    sheet = tmp_path / "risultati.csv"
    header = ["Socio", "Quando", "Tavolo", "Totale", "Vincitore", "RisiKo"]
    sheet.write_bytes(italian_csv(header))
    res = cli("tournament", "--file", str(season), "import-sheet", str(sheet))
    assert res.exit_code == 1
    assert ("no column for the player (headers: Socio, Quando, Tavolo, Totale, Vincitore, "
            "RisiKo); name it with --column player=HEADER") in res.output
    assert "no column for the date" in res.output and "no column for the score" in res.output
    res = cli("tournament", "--file", str(season), "--write", "import-sheet", str(sheet),
              "--column", "player=Socio", "--column", "date=quando",
              "--column", "score=Totale")
    assert res.exit_code == 0, res.output
    assert standings(season) == PUBLISHED


def test_every_bad_row_is_named_and_nothing_is_written(tmp_path: Path) -> None:
    season = new_season(tmp_path)
    before = season.read_text(encoding="utf-8")
    rows = [list(r) for r in ROWS]
    rows[2][3] = "52,5"          # sheet row 4: a decimal table score
    rows[5][1] = "31/02/2027"    # row 7: no such day
    rows[7][0] = ""              # row 9: no player
    rows[10][4] = "forse"        # row 12: not a mark
    sheet = tmp_path / "risultati.csv"
    sheet.write_bytes(italian_csv(HEADER, rows))
    res = cli("tournament", "--file", str(season), "--write", "import-sheet", str(sheet))
    assert res.exit_code == 1
    lines = res.output.strip().splitlines()
    assert lines == [
        "Punti, row 4: '52,5' is not a table score: table points are whole numbers",
        "Data, row 7: '31/02/2027' is not a date (DD/MM/YYYY or YYYY-MM-DD)",
        "Giocatore, row 9: no player",
        "Vincitore, row 12: 'forse' is not a mark for the winner (x, sì, 1 or an empty cell)",
    ]
    assert season.read_text(encoding="utf-8") == before
    italian = cli("--lang", "it", "tournament", "--file", str(season), "import-sheet",
                  str(sheet))
    assert italian.output.strip().splitlines()[0] == (
        "Punti, riga 4: '52,5' non è un punteggio al tavolo: i punti tavolo sono numeri "
        "interi")
    assert "Giocatore, riga 9: cella vuota (giocatore)" in italian.output


def test_a_row_dated_outside_the_club_years_is_named_and_nothing_is_written(
        tmp_path: Path) -> None:
    season = new_season(tmp_path)
    before = season.read_text(encoding="utf-8")
    rows = [list(r) for r in ROWS]
    rows[5][1] = "31/12/9999"    # sheet row 7
    sheet = tmp_path / "risultati.csv"
    sheet.write_bytes(italian_csv(HEADER, rows))
    res = cli("tournament", "--file", str(season), "--write", "import-sheet", str(sheet))
    assert res.exit_code == 1
    assert res.output.strip().splitlines() == [
        "Data, row 7: an evening falls in the years 2000 to 2099, not on 9999-12-31"]
    assert season.read_text(encoding="utf-8") == before


def test_the_formula_guard_of_our_own_csv_is_taken_off(tmp_path: Path) -> None:
    season = new_season(tmp_path)
    rows = [list(r) for r in ROWS]
    rows[7][0] = "'-Ivo"    # our CSV export writes a name starting with '-' this way
    rows[16][0] = "'=Fabio"  # ... and one starting with '='
    rows[5][0] = "'=Fabio"
    rows[17][0] = "'-Ivo"
    sheet = tmp_path / "risultati.csv"
    sheet.write_bytes(italian_csv(HEADER, rows))
    res = cli("tournament", "--file", str(season), "--write", "import-sheet", str(sheet))
    assert res.exit_code == 0, res.output
    names = {p for _rank, p, *_ in standings(season)}
    assert {"-Ivo", "=Fabio"} <= names and "'-Ivo" not in names


# --- the library -------------------------------------------------------------------------------


def test_headers_are_guessed_in_italian_and_english() -> None:
    assert find_columns(["Player", "Evening", "Table", "Table score", "Winner"]) == {
        "player": 0, "date": 1, "table": 2, "score": 3, "winner": 4}
    assert find_columns(["Nominativo", "Giorno", "N. tavolo", "Punti tavolo"]) == {
        "player": 0, "date": 1, "table": 2, "score": 3}
    with pytest.raises(InvalidInputError) as err:
        find_columns(["Giocatore", "Data", "Tavolo", "Punti", "Punteggio"])
    assert [f.code for f in err.value.faults] == ["import.two_columns"]


def test_csv_separator_and_numbers() -> None:
    assert read_csv_text("\ufeffGiocatore,Punti\nAnna,44\n") == [["Giocatore", "Punti"],
                                                                   ["Anna", "44"]]
    rows = read_rows([["Giocatore", "Data", "Tavolo", "Punti"],
                      ["Anna", "2027-01-12", "1", "−7"], ["Bruno", "12.01.27", 1.0, 44.0]])
    assert [(r.player, r.date.isoformat(), r.table, r.score) for r in rows] == [
        ("Anna", "2027-01-12", 1, -7), ("Bruno", "2027-01-12", 1, 44)]


def _tournament_with(rows: list[list[Any]]) -> Any:
    t = new_tournament("T", ruleset="club-milano@2", format=get_format("win-bonus").to_dict())
    return apply_rows(t, read_rows([HEADER, *rows]))


def test_the_tournament_faults_name_their_rows() -> None:
    t = _tournament_with(ROWS)
    assert [r.player for r in compute_standings(t).rows][:2] == ["Bruno", "Gina"]
    with pytest.raises(RisikoError) as err:  # the same evening again
        apply_rows(t, read_rows([HEADER, *ROWS[:4]]))
    # one kind for "an evening on that date exists" at every door; the old code an alias
    assert [(f.code, f.subjects["row"]) for f in err.value.faults] == [
        ("tournament.evening_exists", 2)]
    assert "import.evening_exists" in err.value.faults[0].to_dict()["aliases"]
    rows = [list(r) for r in ROWS]
    rows[3][0] = "anna"       # row 5: Anna twice at the evening of 12/01 (however typed)
    with pytest.raises(RisikoError) as err:
        _tournament_with(rows)
    assert [(f.code, f.subjects.get("row")) for f in err.value.faults] == [
        ("import.played_twice", 5)]
    rows = [list(r) for r in ROWS]
    rows[7][2] = rows[8][2] = 3  # rows 9, 10: a table of 2
    with pytest.raises(RisikoError) as err:
        _tournament_with(rows)
    assert {(f.code, f.subjects.get("row"), f.subjects.get("table"))
            for f in err.value.faults} >= {("tournament.table_size", 9, 3)}
    rows = [list(r) for r in ROWS]
    rows[1][4] = "X"  # row 3: Bruno (41) marked a winner of a table Anna won with 57
    with pytest.raises(RisikoError) as err:
        _tournament_with(rows)
    assert [(f.code, f.subjects["row"], f.subjects["player"]) for f in err.value.faults] == [
        ("ranking.winner_not_top", 3, "Bruno")]
    rows = [list(r) for r in ROWS]
    rows[2][2] = rows[3][2] = rows[4][2] = 4  # rows 4-6: tables 1, 2 and 4
    with pytest.raises(RisikoError) as err:
        _tournament_with(rows)
    assert [(f.code, f.params["numbers"]) for f in err.value.faults] == [
        ("import.table_numbers", [1, 2, 4])]


def test_json_numbers_of_the_published_sheet() -> None:
    rows = compute_standings(_tournament_with(ROWS)).rows
    assert [(r.rank, r.player, json_number(r.points), r.wins, r.table_points,
             json_number(r.bonus)) for r in rows] == PUBLISHED
