"""The cells of a club's spreadsheet file: xlsx (openpyxl) or CSV (standard library).

:func:`sheet_cells` gives the rows of cell values that
:func:`risiko.tournament.clubsheet.read_rows` reads: for an xlsx workbook the values of its
first worksheet (or the one named), as the spreadsheet last computed them (numbers, dates,
text; a formula's cached value); for a CSV file its text cells, in UTF-8 (with or without a
byte order mark) or, failing that, Windows-1252 (what Excel writes in Italy), separated by
``;`` or ``,`` (:func:`~risiko.tournament.clubsheet.read_csv_text`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..faults import define
from .common import CANNOT_READ, fail, os_reason

__all__ = ["sheet_cells"]

XLSX = (".xlsx", ".xlsm")
CSV = (".csv", ".txt")

SHEET_KIND = define("cli.sheet_kind", "",
                    "{path}: a sheet is an .xlsx or a .csv file (save an .xls or .ods as one "
                    "of them)")
WORKSHEET_CSV = define("cli.worksheet_csv", "",
                       "--worksheet names a worksheet of an .xlsx file; a CSV file has one")
NOT_XLSX = define("cli.not_xlsx", "", "{path}: not a readable xlsx workbook")
TOO_MANY_ROWS = define("cli.xlsx_too_many_rows", "",
                       "{path}: more than {limit} rows: a club sheet has fewer (split it)")
MEMBER_TOO_BIG = define("cli.xlsx_member_too_big", "",
                        "{path}: {member} is {size} bytes uncompressed, more than the "
                        "{limit} bytes a club sheet needs: not read")
WORKSHEET_UNKNOWN = define("cli.worksheet_unknown", "",
                           "--worksheet {worksheet}: the workbook's worksheets are {names}")


def sheet_cells(path: Path, worksheet: str | None = None) -> list[list[Any]]:
    """The rows of cell values of ``path`` (an ``.xlsx`` or ``.csv`` file); an unreadable
    file, an unknown worksheet or another kind of file ends the command (exit 1)."""
    from ..tournament.clubsheet import read_csv_text

    suffix = path.suffix.lower()
    if suffix in XLSX:
        return _xlsx_cells(path, worksheet)
    if suffix not in CSV:
        fail(SHEET_KIND(path=str(path)))
    if worksheet is not None:
        fail(WORKSHEET_CSV())
    try:
        raw = path.read_bytes()
    except OSError as e:
        fail(CANNOT_READ(path=str(path), reason=os_reason(e)))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("cp1252", errors="replace")
    return read_csv_text(text)


#: the most bytes one member of an xlsx file may hold uncompressed (a worksheet of 100,000
#: rows of a club sheet is about 15 MB): a small file that inflates to gigabytes is refused
#: before it is opened
MAX_MEMBER_BYTES = 64 * 1024 * 1024
#: the most rows read (with the empty rows a sheet skips to, as the workbook numbers them)
MAX_ROWS = 500_000
#: the columns read of each row (a club sheet has half a dozen; a cell in column XFD does
#: not make every row 16,384 cells)
MAX_COLUMNS = 64

#: what a damaged or hostile workbook raises while it is read (zip, XML, openpyxl's reading)
_BAD_WORKBOOK = (KeyError, ValueError, TypeError, AttributeError, IndexError, SyntaxError,
                 EOFError, LookupError, NotImplementedError)


def _check_members(path: Path) -> None:
    """Refuse a workbook with a member larger than :data:`MAX_MEMBER_BYTES` uncompressed
    (the size its zip directory declares: reading stops there anyway)."""
    import zipfile

    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            if info.file_size > MAX_MEMBER_BYTES:
                fail(MEMBER_TOO_BIG(path=str(path), member=info.filename[:200],
                                    size=info.file_size, limit=MAX_MEMBER_BYTES))


def _xlsx_cells(path: Path, worksheet: str | None) -> list[list[Any]]:
    import zipfile
    import zlib

    import openpyxl
    from openpyxl.utils.exceptions import InvalidFileException

    try:
        _check_members(path)
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except OSError as e:
        fail(CANNOT_READ(path=str(path), reason=os_reason(e)))
    except (InvalidFileException, zipfile.BadZipFile, zlib.error, *_BAD_WORKBOOK):
        fail(NOT_XLSX(path=str(path)))
    try:
        if worksheet is None:
            if not book.worksheets:
                fail(NOT_XLSX(path=str(path)))
            sheet = book.worksheets[0]
        elif worksheet in book.sheetnames:
            sheet = book[worksheet]
        else:
            fail(WORKSHEET_UNKNOWN(worksheet=worksheet, names=list(book.sheetnames)))
        # read-only: the rows stream from the zip member, never the whole tree in memory;
        # the size the sheet declares (A1:XFD1048576 in a 5 kB file) is not believed
        sheet.reset_dimensions()
        rows: list[list[Any]] = []
        for row in sheet.iter_rows(values_only=True):
            if len(rows) == MAX_ROWS:
                fail(TOO_MANY_ROWS(path=str(path), limit=MAX_ROWS))
            rows.append(list(row[:MAX_COLUMNS]))  # an empty row stays empty, not padded
        return rows
    except (zipfile.BadZipFile, zlib.error, *_BAD_WORKBOOK):
        fail(NOT_XLSX(path=str(path)))
    finally:
        book.close()
