"""CSV cells a spreadsheet cannot run: the one function every CSV the project writes uses.

A spreadsheet (Excel, LibreOffice Calc, Google Sheets) opening a CSV file runs a text cell
that starts with ``=``, ``+``, ``-`` or ``@`` as a formula, and a leading tab or carriage
return can hide such a start ("CSV injection"): a player registered as
``=HYPERLINK("http://...")`` would become a live link in the referee's spreadsheet.

:func:`safe_cell` neutralises such a text cell by putting an apostrophe (``'``, the
:data:`PREFIX`) in front of it; spreadsheets show a cell typed with a leading apostrophe as
plain text. Numbers stay numbers: an ``int``/``float``/``Decimal`` is written as it is, and so
is a text cell that is nothing but a number (``"-25"``, ``"+3"``, ``"1.5"``).

An Italian spreadsheet splits a CSV on ``;`` as well as on ``,`` (``;`` is the list separator
of the Italian locale), ignoring the quotes of a file written with ``,``: the text after a
``;`` inside a cell becomes a cell of its own, so ``Anna;=HYPERLINK(...)`` would run there
(and the text after a line break inside a cell starts a row). :func:`safe_cell` therefore
also puts the apostrophe right after every ``;`` or line break that is followed (after any
spaces, apostrophes or double quotes) by a formula character: ``Anna;'=HYPERLINK(...)`` is
text in both readings.

The prefix is part of the cell: a program reading the CSV back takes it off with
:func:`restore_cell` (:func:`risiko.sheet.parse_sheet_csv` does, and so should every importer
of the project's CSV files). To keep the round trip exact, a text that already starts with
apostrophes followed by one of the dangerous characters gets one more apostrophe, so
``restore_cell(safe_cell(x)) == x`` for every string ``x``.

>>> safe_cell("=HYPERLINK(\\"http://x\\")")
'\\'=HYPERLINK("http://x")'
>>> safe_cell("-25"), safe_cell(-25), safe_cell("Anna"), safe_cell("-Anna")
('-25', -25, 'Anna', "'-Anna")
>>> restore_cell("'-Anna"), restore_cell("'Ndrangheta"), restore_cell("-25")
('-Anna', "'Ndrangheta", '-25')
>>> safe_cell("Anna;=1+1"), safe_cell("Rossi; Anna"), restore_cell("Anna;'=1+1")
("Anna;'=1+1", 'Rossi; Anna', 'Anna;=1+1')
>>> import io
>>> buf = io.StringIO()
>>> writer(buf, lineterminator="\\n").writerow(["@SUM(A1)", 3, None])
>>> buf.getvalue()
"'@SUM(A1),3,\\n"
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import Any, Protocol

__all__ = ["PREFIX", "TRIGGERS", "restore_cell", "safe_cell", "safe_row", "writer"]

#: What :func:`safe_cell` puts in front of a text cell a spreadsheet would run.
PREFIX = "'"
#: The first characters that make a spreadsheet read a cell as a formula.
TRIGGERS = "=+-@\t\r"

_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_DANGEROUS = re.compile(r"'*[=+\-@\t\r]", re.DOTALL)  # zero or more apostrophes, a trigger
_ESCAPED = re.compile(r"'+[=+\-@\t\r]", re.DOTALL)  # one or more apostrophes, a trigger
#: a ``;`` or a line break followed (after spaces, apostrophes, double quotes) by a trigger:
#: the start of a cell for a reader splitting on ``;`` (it takes quotes literally inside a
#: field, so a line break in a quoted cell starts a row); escaped: the apostrophe right after
_SPLIT = re.compile(r"([;\r\n])(?=[ '\"]*[=+\-@\t\r])")
_SPLIT_ESCAPED = re.compile(r"([;\r\n])'(?=[ '\"]*[=+\-@\t\r])")


def safe_cell(value: Any) -> Any:
    """``value`` as a CSV cell a spreadsheet shows and never runs.

    Text starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return (after any
    apostrophes) gets :data:`PREFIX` in front, unless the whole text is a number; every
    ``;`` or line break followed by one of them gets :data:`PREFIX` after it. Anything that is not a
    ``str`` (numbers, booleans, None) is returned unchanged."""
    if not isinstance(value, str):
        return value
    value = _SPLIT.sub(r"\1" + PREFIX, value)
    if not _DANGEROUS.match(value) or _NUMBER.fullmatch(value):
        return value
    return PREFIX + value


def restore_cell(text: str) -> str:
    """The text :func:`safe_cell` was given: one leading :data:`PREFIX` taken off a cell
    that starts with apostrophes and a formula character, and one after each ``;`` or line
    break followed by apostrophes and one; any other text is unchanged."""
    if _ESCAPED.match(text):
        text = text[len(PREFIX):]
    return _SPLIT_ESCAPED.sub(r"\1", text)


def safe_row(row: Iterable[Any]) -> list[Any]:
    """Every cell of ``row`` through :func:`safe_cell`."""
    return [safe_cell(cell) for cell in row]


class _Writer(Protocol):
    def writerow(self, row: Iterable[Any], /) -> Any: ...


class SafeWriter:
    """A :func:`csv.writer` whose every cell goes through :func:`safe_cell`."""

    def __init__(self, inner: _Writer) -> None:
        self._inner = inner

    def writerow(self, row: Iterable[Any]) -> None:
        """Write one row (cells neutralised)."""
        self._inner.writerow(safe_row(row))

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        """Write every row (cells neutralised)."""
        for row in rows:
            self.writerow(row)


def writer(stream: Any, **kwargs: Any) -> SafeWriter:
    """``csv.writer(stream, **kwargs)`` writing safe cells: the writer every CSV the
    project produces goes through."""
    return SafeWriter(csv.writer(stream, **kwargs))
