"""``risiko tournament import-sheet`` with bad workbooks: a fault and exit 2 for each, never
a traceback; a member that inflates past the limit is refused before it is opened."""

from __future__ import annotations

import io
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
