"""What may be stored, checked in the services (not only by a form's widget), so that what
is stored can always be read back, on SQLite as on PostgreSQL.

- Text: a string, no NUL character (PostgreSQL refuses it), at most the column's length
  (PostgreSQL refuses more; SQLite would keep it): :func:`check_row` reads the limits from the
  model's fields, so they are the columns' limits by construction.
- Numbers: whole numbers (not ``True``), inside the range of what they are: :data:`RANGES`,
  the one place the ranges live (decimal ranking points extend it with :class:`Range` of
  :class:`decimal.Decimal`), and always inside the column (32-bit or 16-bit integers).
- JSON: at most :data:`MAX_JSON_DEPTH` levels, no NUL in its strings, integers inside 64 bits.
- Uploads: at most ``settings.RISIKO_UPLOAD_MAX_BYTES`` (default :data:`UPLOAD_MAX_BYTES`);
  any other request body at most ``settings.RISIKO_REQUEST_MAX_BYTES`` (default
  :data:`REQUEST_MAX_BYTES`), refused at the server's door (:mod:`risiko.web.asgi`).

Every refusal is a :class:`~risiko.web.core.faults.ServiceError` naming the ``field``.

>>> RANGES["table score"].contains(100)
True
>>> check_number("table score", -1)
Traceback (most recent call last):
...
risiko.web.core.faults.ServiceError: table score: -1 is outside 0..1000
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, TypeVar

from django.db import models

from risiko import jsonread
from risiko.faults import InvalidInputError

from .faults import (
    NOT_JSON,
    NOT_TEXT,
    NOT_WHOLE,
    NUL,
    OUT_OF_RANGE,
    TOO_BIG,
    TOO_DEEP,
    TOO_LONG,
    ServiceError,
    as_faults,
)

#: deepest JSON stored or read (a sheet is 4 levels, a season file 9): the library's
MAX_JSON_DEPTH = jsonread.MAX_DEPTH
#: the default upload limit (bytes); the setting RISIKO_UPLOAD_MAX_BYTES overrides it
UPLOAD_MAX_BYTES = 4 * 1024 * 1024

INT16 = (-(2**15), 2**15 - 1)
INT32 = (-(2**31), 2**31 - 1)
INT64 = (-(2**63), 2**63 - 1)


@dataclass(frozen=True)
class Range:
    """The closed range ``low..high`` of a kind of number (int, or Decimal for decimal
    points)."""

    low: int | Decimal
    high: int | Decimal
    decimal: bool = False

    def contains(self, value: Any) -> bool:
        """True when ``value`` is a number of this kind inside the range."""
        if isinstance(value, bool):
            return False
        ok = isinstance(value, int) or (self.decimal and isinstance(value, Decimal))
        return ok and self.low <= value <= self.high


#: the kinds of numbers the services store, by the name a message gives them
RANGES: dict[str, Range] = {
    "table score": Range(0, 1000),  # table points of a seat (R1: 100 at most in club-milano)
    "penalty points": Range(-1000, -1),  # a penalty is negative (preamble)
    "appeal points": Range(-1000, 0),  # a reduced penalty (between the penalty and 0)
    "carry-over points": Range(-100_000, 100_000),  # ranking points kept (R17)
    "table number": Range(1, 999),
    "seat": Range(1, 6),
    "dice total": Range(2, 12),  # two dice (R2)
    "conquests": Range(0, 42),  # territories conquered in a turn
    "ruleset version": Range(1, 999),
}


def check_number(kind: str, value: Any, field: str | None = None) -> Any:
    """``value`` if it is a number of ``kind`` (a key of :data:`RANGES`) in its range, else
    ServiceError naming ``field`` (default: the kind)."""
    rng = RANGES[kind]
    name = field or kind
    if isinstance(value, bool) or not (
        isinstance(value, int) or (rng.decimal and isinstance(value, Decimal))
    ):
        raise ServiceError(NOT_WHOLE({"field": name}, value=_shown(value)))
    if not rng.contains(value):
        raise ServiceError(OUT_OF_RANGE({"field": name}, value=_shown(value), low=rng.low,
                                        high=rng.high))
    return value


def check_text(field: str, value: Any, limit: int | None) -> str:
    """``value`` if it is text without NUL and at most ``limit`` characters."""
    if not isinstance(value, str):
        raise ServiceError(NOT_TEXT({"field": field}, value=_shown(value)))
    if "\x00" in value:
        raise ServiceError(NUL({"field": field}))
    if limit is not None and len(value) > limit:
        raise ServiceError(TOO_LONG({"field": field}, limit=limit, length=len(value)))
    return value


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def check_json(field: str, value: Any, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``value`` if it is JSON that every database stores and gives back: at most
    ``max_depth`` levels, no NUL in its strings, integers inside 64 bits, finite numbers."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > max_depth:
                raise ServiceError(TOO_DEEP({"field": field}, limit=max_depth))
            children = list(item.items()) if isinstance(item, dict) else list(enumerate(item))
            for key, child in children:
                if isinstance(key, str) and "\x00" in key:
                    raise ServiceError(NUL({"field": field}))
                stack.append((child, depth + 1))
        elif isinstance(item, str):
            if "\x00" in item:
                raise ServiceError(NUL({"field": field}))
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            if not INT64[0] <= item <= INT64[1]:
                raise ServiceError(OUT_OF_RANGE({"field": field}, value=_shown(item),
                                                low=INT64[0], high=INT64[1]))
        elif isinstance(item, float):
            if item != item or item in (float("inf"), float("-inf")):
                raise ServiceError(NOT_JSON({"field": field}, error=repr(item)))
        else:
            raise ServiceError(NOT_JSON({"field": field}, error=type(item).__name__))
    return value


def loads(field: str, text: str | bytes, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """JSON text read safely: ServiceError (naming ``field``) for text that is not JSON, too
    deep (never a RecursionError), or holds what :func:`check_json` refuses. A repeated key
    keeps the last value, as ``json.loads`` does."""
    try:
        value = jsonread.loads(text, max_depth=max_depth)
    except InvalidInputError as err:  # too deep, a number too long: refused before reading
        if any(f.code == jsonread.TOO_DEEP.code for f in err.faults):
            raise ServiceError(TOO_DEEP({"field": field}, limit=max_depth)) from None
        raise ServiceError(*as_faults(err.faults, field=field)) from None
    except (ValueError, UnicodeDecodeError) as err:
        raise ServiceError(NOT_JSON({"field": field}, error=str(err)[:200])) from None
    return check_json(field, value, max_depth)


def upload_limit() -> int:
    """The largest upload accepted, in bytes (``settings.RISIKO_UPLOAD_MAX_BYTES``)."""
    from django.conf import settings

    return int(getattr(settings, "RISIKO_UPLOAD_MAX_BYTES", UPLOAD_MAX_BYTES))


#: the default limit of any other request's body (bytes); RISIKO_REQUEST_MAX_BYTES overrides it
REQUEST_MAX_BYTES = 1024 * 1024
#: room for the form's other fields and the multipart boundaries around an uploaded file
UPLOAD_OVERHEAD = 64 * 1024


def request_limit() -> int:
    """The largest request body accepted by a view that takes no file, in bytes
    (``settings.RISIKO_REQUEST_MAX_BYTES``, default 1 MiB): refused before it is read
    (:class:`risiko.web.asgi.BodyLimit`)."""
    from django.conf import settings

    return int(getattr(settings, "RISIKO_REQUEST_MAX_BYTES", REQUEST_MAX_BYTES))


def upload_request_limit() -> int:
    """The largest request body accepted by a view that takes a file, in bytes: the
    upload limit and :data:`UPLOAD_OVERHEAD` for the rest of the form."""
    return upload_limit() + UPLOAD_OVERHEAD


def size_text(size: int, lang: str | None = None) -> str:
    """A size in bytes as people read it, in ``lang`` (default: the active language):
    bytes below 1 KB, whole KB below 1 MB, MB with one decimal (a comma in Italian) above,
    rounded down so a limit is never said larger than it is (1 KB = 1024 bytes).

    >>> size_text(612888, "it"), size_text(524288, "it"), size_text(10, "it")
    ('598 KB', '512 KB', '10 byte')
    >>> size_text(4259840, "it"), size_text(4259840, "en"), size_text(1048576, "en")
    ('4 MB', '4 MB', '1 MB')
    >>> size_text(26 * 1024 * 1024 + 700 * 1024, "it")
    '26,6 MB'
    """
    from django.utils.translation import get_language

    from risiko.figures import decimal_text

    lang = lang or ("en" if (get_language() or "it").startswith("en") else "it")
    if size < 1024:
        return f"{size} {'bytes' if lang == 'en' else 'byte'}"
    if size < 1024 * 1024:
        return f"{size // 1024} KB"
    tenths = size * 10 // (1024 * 1024)
    mb = decimal_text(tenths / 10, 0 if tenths % 10 == 0 else 1, lang)
    return f"{mb} MB"


def check_size(field: str, size: int) -> None:
    """ServiceError when ``size`` bytes are more than :func:`upload_limit`."""
    limit = upload_limit()
    if size > limit:
        raise ServiceError(TOO_BIG({"field": field}, size=size, limit=limit))


_INT_RANGES: dict[type[models.Field[Any, Any]], tuple[int, int]] = {
    models.SmallIntegerField: INT16,
    models.PositiveSmallIntegerField: (0, INT16[1]),
    models.IntegerField: INT32,
    models.PositiveIntegerField: (0, INT32[1]),
    models.BigIntegerField: INT64,
}


def check_row(model: type[models.Model], values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` (field name -> value) checked against ``model``'s columns: text length and
    NUL, integer width, JSON depth. Returns them as a dict; ServiceError naming the field."""
    out = dict(values)
    for name, value in values.items():
        try:
            f = model._meta.get_field(name)
        except Exception:
            continue
        label = f"{model._meta.model_name}.{name}"
        if value is None:
            continue
        if isinstance(f, models.CharField | models.TextField):
            check_text(label, value, f.max_length)
        elif isinstance(f, models.JSONField):
            check_json(label, value)
        elif isinstance(f, models.IntegerField) and not isinstance(f, models.AutoField):
            low, high = next((r for cls, r in _INT_RANGES.items() if type(f) is cls), INT32)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ServiceError(NOT_WHOLE({"field": label}, value=_shown(value)))
            if not low <= value <= high:
                raise ServiceError(OUT_OF_RANGE({"field": label}, value=_shown(value),
                                                low=low, high=high))
    return out


_M = TypeVar("_M", bound=models.Model)


def create(model: type[_M], **values: Any) -> _M:
    """``model.objects.create(**values)`` after :func:`check_row`."""
    return model._default_manager.create(**check_row(model, values))
