"""CSV cells a spreadsheet would run as a formula are neutralised."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from risiko.csvcells import _NUMBER, PREFIX, restore_cell, safe_cell, writer
from risiko.sheet import parse_sheet, parse_sheet_csv

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_formula_starts_get_the_apostrophe():
    for text in ("=1+1", "+39 333", "-Anna", "@SUM(A1:A9)", "\tx", "\r1",
                 '=HYPERLINK("http://x";"y")', "=", "-"):
        assert safe_cell(text) == "'" + text, text
    # a carriage return then "=": the start, and the row a line-splitting reader begins there
    assert safe_cell("\r=1") == "'\r'=1"


def test_other_text_and_numbers_stay_as_they_are():
    for value in ("Anna", "Dora Bianchi", "", " =spazio", "a=b", "25", "-25", "+3", "1.5",
                  "-0.5", "1e3", -25, 0, 3.5, None, True):
        assert safe_cell(value) == value, value


def test_apostrophes_before_a_trigger_get_one_more():
    assert safe_cell("'=x") == "''=x"
    assert safe_cell("'Ndrangheta") == "'Ndrangheta"
    assert restore_cell("''=x") == "'=x"
    assert restore_cell("'Ndrangheta") == "'Ndrangheta"
    assert restore_cell("'") == "'"


@given(st.text())
def test_restore_undoes_safe(text):
    assert restore_cell(safe_cell(text)) == text


@given(st.text())
def test_no_written_text_cell_starts_a_formula(text):
    cell = safe_cell(text)
    assert not cell[:1] or cell[0] not in "=+-@\t\r" or (
        cell == text and text.lstrip("+-").replace(".", "", 1).replace("e", "", 1)
        .replace("E", "", 1).lstrip("+-").isdigit()
    )


def test_the_writer_neutralises_every_cell():
    buf = io.StringIO()
    w = writer(buf, lineterminator="\n")
    w.writerow(["rank", "player", "points"])
    w.writerows([[1, "=cmd|' /C calc'!A0", -25], [2, "@Anna", "-25"]])
    rows = list(csv.reader(io.StringIO(buf.getvalue())))
    assert rows == [["rank", "player", "points"], ["1", "'=cmd|' /C calc'!A0", "-25"],
                    ["2", "'@Anna", "-25"]]
    assert PREFIX == "'"


def test_a_sheet_round_trips_with_a_formula_name():
    data = json.loads((EXAMPLES / "sheet-5-seats.json").read_text(encoding="utf-8"))
    data["seats"][0]["player"] = "=Anna"
    data["seats"][1]["player"] = "-Bruno"
    data["seats"][2]["player"] = "'@Carla"
    sheet = parse_sheet(data)
    text = sheet.to_csv()
    players = {row[1] for row in list(csv.reader(io.StringIO(text)))[1:]}
    assert {"'=Anna", "'-Bruno", "''@Carla"} <= players
    assert not players & {"=Anna", "-Bruno", "'@Carla"}
    assert parse_sheet_csv(text) == sheet


# --- an Italian spreadsheet also splits on ";" ---------------------------------------------

TRIGGERS = "=+-@\t\r"


def _italian_cells(text: str) -> list[str]:
    """The cells an Italian spreadsheet makes of a comma-separated file it splits on ``;``:
    quotes inside a field taken literally, a line break starting a row."""
    return [piece for line in text.splitlines() for piece in line.split(";")]


def _read_back(text: str) -> list[str]:
    """The first row as the comma reader (our importers) gets it back."""
    return [restore_cell(c) for c in next(csv.reader(io.StringIO(text, newline="")))]


def _runs(cell: str) -> bool:
    """A spreadsheet runs a cell starting (after spaces and double quotes) with a trigger."""
    return cell.lstrip(' "')[:1] in tuple(TRIGGERS)


def test_a_semicolon_does_not_start_a_formula_for_an_italian_reader():
    names = ['Anna;=HYPERLINK("http://x";"clic")', "Rossi;+39 333", 'Bea; "=1+1"', "Ugo;-2",
             "a\n=b", "Rossi; Anna"]
    buf = io.StringIO()
    writer(buf, lineterminator="\n").writerow(names)
    # worked by hand: the apostrophe goes right after each ";" or line break that a formula
    # character follows (after spaces and quotes); ';"clic"' and "Rossi; Anna" are left alone
    assert [safe_cell(n) for n in names] == [
        'Anna;\'=HYPERLINK("http://x";"clic")', "Rossi;'+39 333", "Bea;' \"=1+1\"", "Ugo;'-2",
        "a\n'=b", "Rossi; Anna"]
    assert not [c for c in _italian_cells(buf.getvalue()) if _runs(c)]
    # the comma reader gets the cells back exactly
    assert _read_back(buf.getvalue()) == names


@given(st.lists(st.text(alphabet=";,\r\n'\" =+-@\tAa1", max_size=12), min_size=1, max_size=4))
def test_no_piece_runs_for_a_semicolon_reader_and_the_round_trip_holds(row):
    buf = io.StringIO(newline="")
    writer(buf).writerow(row)  # "\r\n": the csv module quotes a cell with "\r" then
    # the first piece is the first cell, read as a proper quoted field by both readers (the
    # leading apostrophe's rule, tested above); every other piece starts after a ";" or a
    # line break inside a cell, where quotes count for nothing
    for cell in _italian_cells(buf.getvalue())[1:]:
        stripped = cell.lstrip(' "')
        # a cell that runs is only a number a spreadsheet reads as one ("-1", "+1")
        assert not _runs(cell) or _NUMBER.fullmatch(stripped.rstrip('"')), (row, cell)
    assert _read_back(buf.getvalue()) == row
