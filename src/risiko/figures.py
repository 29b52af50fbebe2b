"""Numbers as people read them: a decimal comma in Italian, a point in English.

The one convention of every page and of the command line under ``--lang it``: ``777,60``
points, ``10,7`` skill, ``29,4 %`` (a space before the sign); English keeps the point and
``29.4%``. Machine formats (JSON, CSV) never go through here: they keep the point.
"""

from __future__ import annotations

from decimal import Decimal

__all__ = ["decimal_text", "percent_text"]


def _italian(lang: str | None) -> bool:
    return (lang or "").lower().startswith("it")


def decimal_text(value: float | int | Decimal, places: int | None, lang: str | None) -> str:
    """``value`` with ``places`` decimals, a decimal comma when ``lang`` is Italian
    (``"it"``, ``"it-it"``); ``places`` >= 0, or None for the value's own digits (an int or
    a Decimal as ``str`` writes it, a float to six significant digits as ``:g`` does, never
    with an exponent: a float of seven or more whole digits keeps them, rounded to a unit).

    >>> decimal_text(777.6, 2, "it"), decimal_text(Decimal("777.6"), 2, "en")
    ('777,60', '777.60')
    >>> decimal_text(-3.25, 1, "it")
    '-3,2'
    >>> decimal_text(Decimal("424.75"), None, "it"), decimal_text(0.25, None, "it")
    ('424,75', '0,25')
    >>> decimal_text(1000, None, "it"), decimal_text(1 / 3, None, "en")
    ('1000', '0.333333')
    >>> decimal_text(1234567.5, None, "it"), decimal_text(0.00001, None, "it")
    ('1234568', '0,00001')
    """
    if places is None:
        if isinstance(value, float):
            text = f"{value:g}"
            if "e" in text:  # :g's exponent (1e+06, 1e-05): the digits written out
                text = f"{value:.0f}" if abs(value) >= 1 else format(Decimal(text), "f")
        else:
            text = str(value)
    else:
        text = f"{value:.{places}f}"
    return text.replace(".", ",") if _italian(lang) else text


def percent_text(fraction: float, places: int, lang: str | None) -> str:
    """A share (0..1) as a percentage with ``places`` decimals: ``29,4 %`` in Italian,
    ``29.4%`` in English.

    >>> percent_text(0.294, 1, "it"), percent_text(0.294, 1, "en"), percent_text(1, 0, "it")
    ('29,4 %', '29.4%', '100 %')
    """
    number = decimal_text(100 * fraction, places, lang)
    return f"{number} %" if _italian(lang) else f"{number}%"
