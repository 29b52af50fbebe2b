"""``risiko tournament import-sheet`` with bad workbooks: a fault and exit 2 for each, never
a traceback; a member that inflates past the limit is refused before it is opened."""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
from test_club_sheet import ROWS, cli, new_season

from risiko.cli import sheetfile


def _good_xlsx() -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["Nome", "Data serata", "Tav.", "Punteggio"])
    for r in ROWS:
        sheet.append(r[:4])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _rezip(data: bytes, change) -> bytes:
    """``data`` (an xlsx) with each member's bytes passed through ``change(name, bytes)``
    (None drops the member)."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            body = change(info.filename, src.read(info.filename))
            if body is not None:
                z.writestr(info.filename, body)
    return out.getvalue()


def _sheet_xml(name: str) -> bool:
    return name.startswith("xl/worksheets/")


BAD = {
    "not_a_zip": lambda: b"PK\x03\x04 this is not a workbook",
    "text": lambda: b"Nome;Data\n",
    "truncated": lambda: _good_xlsx()[:700],
    "no_workbook_part": lambda: _rezip(_good_xlsx(),
                                       lambda n, b: None if n == "xl/workbook.xml" else b),
    "broken_sheet_xml": lambda: _rezip(_good_xlsx(),
                                       lambda n, b: b[: len(b) // 2] if _sheet_xml(n) else b),
    "garbage_sheet_xml": lambda: _rezip(_good_xlsx(),
                                        lambda n, b: b"<<<\x00>>>" if _sheet_xml(n) else b),
    "no_styles_or_types": lambda: _rezip(_good_xlsx(), lambda n, b: None if n in (
        "[Content_Types].xml", "xl/styles.xml") else b),
}


@pytest.mark.parametrize("kind", sorted(BAD))
def test_a_bad_workbook_is_a_fault_not_a_traceback(tmp_path: Path, kind: str) -> None:
    season = new_season(tmp_path)
    before = season.read_bytes()
    book = tmp_path / "serate.xlsx"
    book.write_bytes(BAD[kind]())
    res = cli("tournament", "--file", str(season), "--write", "import-sheet", str(book))
    assert res.exit_code == 2, (kind, res.output)  # bad input, as an unreadable file
    assert res.exception is None or isinstance(res.exception, SystemExit), (
        kind, repr(res.exception))
    assert "Traceback" not in res.output and "serate.xlsx" in res.output, res.output
    assert season.read_bytes() == before  # nothing written


def test_a_member_larger_than_the_limit_is_refused_before_it_is_opened(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The limit is each member's uncompressed size as the zip directory declares it; here
    lowered to 1,000 bytes, below the worksheet of this sheet."""
    season = new_season(tmp_path)
    book = tmp_path / "serate.xlsx"
    book.write_bytes(_good_xlsx())
    size = max(i.file_size for i in zipfile.ZipFile(book).infolist())
    monkeypatch.setattr(sheetfile, "MAX_MEMBER_BYTES", 1000)
    opened: list[str] = []
    monkeypatch.setattr(openpyxl, "load_workbook", lambda *a, **k: opened.append("x"))
    res = cli("tournament", "--file", str(season), "--write", "import-sheet", str(book))
    assert res.exit_code == 2 and not opened
    assert f"{size} bytes uncompressed" in res.output and "1000" in res.output
    monkeypatch.undo()
    res = cli("tournament", "--file", str(season), "--write", "import-sheet", str(book))
    assert res.exit_code == 0, res.output


def _declaring(last_row: int, sheet_ref: bytes = b"A1:XFD1048576") -> bytes:
    """The good sheet claiming the size ``sheet_ref`` and holding one more cell, in column
    XFD (the last, 16,384th) of row ``last_row``: a few kB that a reader believing the
    declared size turns into 17 billion cells."""
    far = (b'<row r="%d"><c r="XFD%d" t="inlineStr"><is><t>x</t></is></c></row>'
           % (last_row, last_row))

    def change(name: str, body: bytes) -> bytes:
        if not _sheet_xml(name):
            return body
        body = re.sub(rb'<dimension ref="[^"]*" ?/>', b'<dimension ref="%s"/>' % sheet_ref,
                      body)
        return body.replace(b"</sheetData>", far + b"</sheetData>")

    return _rezip(_good_xlsx(), change)


def test_a_sheet_declaring_a_million_rows_is_refused_not_read(tmp_path: Path) -> None:
    """Before: a 5 kB workbook like this one made the reader fill 1,048,576 rows of 16,384
    cells (gigabytes, then a MemoryError traceback). The declared size is not believed, a
    row keeps its first 64 cells, and past 500,000 rows the reading stops."""
    season = new_season(tmp_path)
    book = tmp_path / "serate.xlsx"
    book.write_bytes(_declaring(1_048_576))
    assert book.stat().st_size < 10_000
    res = cli("tournament", "--file", str(season), "--write", "import-sheet", str(book))
    assert res.exit_code == 2, res.output
    assert f"more than {sheetfile.MAX_ROWS} rows" in res.output


def test_a_cell_in_the_last_column_does_not_widen_every_row(tmp_path: Path) -> None:
    """The same cell in column XFD of row 20 (a few empty rows below the sheet): the rows
    are read to their 64th cell, the row holding only that far cell is empty and skipped,
    the sheet's 18 rows are imported (2 evenings)."""
    season = new_season(tmp_path)
    book = tmp_path / "serate.xlsx"
    book.write_bytes(_declaring(20))
    res = cli("tournament", "--file", str(season), "--write", "import-sheet", str(book),
              "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["evenings"] == ["2027-01-12", "2027-01-19"]
