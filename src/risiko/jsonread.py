"""JSON text read without letting its shape exhaust the reader: the one JSON reader of the
library, the command line and the web app (sheets, season files, positions, records).

``json.loads`` recurses once per level of nesting: 100,000 ``[`` raise ``RecursionError``
(a traceback, not a refusal), and an integer of thousands of digits costs time to convert.
:func:`loads` refuses both before (or instead of) that work, as faults:

- ``json.too_deep``: nested deeper than :data:`MAX_DEPTH` levels (a sheet is 4 levels deep,
  a season file 9), found by a scan of the brackets outside strings before ``json.loads``;
- ``json.long_number``: an integer of more than :data:`MAX_INT_DIGITS` digits (64-bit
  integers have 19).

Text that is not JSON at all raises ``json.JSONDecodeError`` as ``json.loads`` does (the
callers turn it into their own fault with the line and column).

``json.loads`` keeps the last value of a key given twice, silently; a document whose reader
must refuse that (a sheet, a season file: ``"Bruno"`` twice in a table's scores) is read by
:func:`loads_keeping_duplicates`, every object a :class:`JsonObject` that remembers its pairs.

>>> loads('{"seats": [{"player": "Anna", "score": 72}]}')["seats"][0]["score"]
72
>>> loads("[" * 100_000 + "]" * 100_000)
Traceback (most recent call last):
...
risiko.faults.InvalidInputError: the JSON is nested deeper than 24 levels
>>> loads("[" + "9" * 50 + "]")
Traceback (most recent call last):
...
risiko.faults.InvalidInputError: the JSON holds a number of 50 digits (at most 20)
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from .faults import InvalidInputError, define, define_words

__all__ = ["MAX_DEPTH", "MAX_INT_DIGITS", "JsonObject", "check_depth", "duplicate_keys",
           "loads", "loads_keeping_duplicates"]

#: deepest JSON read (a sheet is 4 levels, a season file 9)
MAX_DEPTH = 24
#: longest integer read, in digits (a 64-bit integer has 19; a sign is not a digit)
MAX_INT_DIGITS = 20

#: the reasons Python's ``json`` gives (``JSONDecodeError.msg``): a fault's param ``reason``
#: carrying one is said in the message's language (``word.reason`` in the catalogues)
JSON_ERRORS = (
    "Expecting value", "Expecting property name enclosed in double quotes",
    "Expecting ':' delimiter", "Expecting ',' delimiter", "Unterminated string starting at",
    "Invalid control character at", "Invalid \\escape", "Invalid \\uXXXX escape",
    "Extra data", "Illegal trailing comma before end of object",
    "Illegal trailing comma before end of array",
)
define_words("reason", JSON_ERRORS)
TOO_DEEP = define("json.too_deep", "", "the JSON is nested deeper than {limit} levels")
LONG_NUMBER = define("json.long_number", "",
                     "the JSON holds a number of {digits} digits (at most {limit})")

# a string (skipped whole, escapes included) or one bracket
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


def check_depth(text: str | bytes, max_depth: int = MAX_DEPTH) -> None:
    """Refuse (``InvalidInputError``, ``json.too_deep``) JSON text nested deeper than
    ``max_depth`` levels, counting ``[`` and ``{`` outside strings; text that is not JSON
    passes (``json.loads`` says what is wrong with it).

    >>> check_depth('{"a": "[[[[[[["}', max_depth=1)
    >>> check_depth('[[1]]', max_depth=1)
    Traceback (most recent call last):
    ...
    risiko.faults.InvalidInputError: the JSON is nested deeper than 1 levels
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if text.count("[") + text.count("{") <= max_depth:
        return
    depth = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth > max_depth:
                raise InvalidInputError(TOO_DEEP(limit=max_depth))
        elif token in ("]", "}"):
            depth -= 1


def _whole(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise InvalidInputError(LONG_NUMBER(digits=digits, limit=MAX_INT_DIGITS))
    return int(text)


def loads(text: str | bytes, *, max_depth: int = MAX_DEPTH,
          object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None) -> Any:
    """``json.loads(text)`` after :func:`check_depth`, integers longer than
    :data:`MAX_INT_DIGITS` refused (``json.long_number``); ``object_pairs_hook`` as in
    :func:`json.loads`. Raises ``InvalidInputError`` for those faults and
    ``json.JSONDecodeError`` (a ``ValueError``) for text that is not JSON."""
    check_depth(text, max_depth)
    try:
        return json.loads(text, parse_int=_whole, object_pairs_hook=object_pairs_hook)
    except RecursionError:  # never reached after check_depth; kept as a refusal, not a crash
        raise InvalidInputError(TOO_DEEP(limit=max_depth)) from None


class JsonObject(dict[str, Any]):
    """A JSON object as :func:`loads_keeping_duplicates` reads it: the last value of each key
    (as ``json.loads``), and :attr:`pairs`, every ``(key, value)`` as written, a key given
    twice included."""

    pairs: list[tuple[str, Any]]

    def duplicate_keys(self) -> list[str]:
        """The keys given more than once, in the order of their second appearance."""
        seen: set[str] = set()
        dups: list[str] = []
        for k, _ in self.pairs:
            if k in seen and k not in dups:
                dups.append(k)
            seen.add(k)
        return dups


def _object(pairs: list[tuple[str, Any]]) -> JsonObject:
    obj = JsonObject(pairs)
    obj.pairs = pairs
    return obj


def duplicate_keys(value: Any) -> list[str]:
    """The keys given more than once in ``value`` when it is a :class:`JsonObject` (else
    none: a dict has no repeated key)."""
    return value.duplicate_keys() if isinstance(value, JsonObject) else []


def loads_keeping_duplicates(text: str | bytes, *, max_depth: int = MAX_DEPTH) -> Any:
    """:func:`loads` with every object a :class:`JsonObject` (same faults and errors).

    >>> data = loads_keeping_duplicates('{"scores": {"Bruno": 40, "Bruno": 12, "Ciro": 7}}')
    >>> data["scores"]["Bruno"], duplicate_keys(data["scores"]), duplicate_keys(data)
    (12, ['Bruno'], [])
    """
    return loads(text, max_depth=max_depth, object_pairs_hook=_object)
