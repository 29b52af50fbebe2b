"""Template filters of the public pages: ``{% load public_tags %}``.

``stage``, ``arrival``, ``appeal`` (domain words in the page's language), ``pending`` (a
pending line of the season report, translated), ``longdate``, ``shortdate``, ``signed``
(+5, −5, 0), ``getitem``.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

from django import template
from django.utils.safestring import SafeString

from .. import texts

register = template.Library()


@register.filter
def stage(value: str) -> str:
    """``{{ e.stage|stage }}``: Qualificazione, Semifinale, Finale."""
    return texts.stage_label(value)


@register.filter
def arrival(value: str) -> str:
    """``{{ a.arrival_class|arrival }}``: in orario, in ritardo, escluso."""
    return texts.arrival_label(value)


@register.filter
def appeal(value: str) -> str:
    """``{{ p.appeal|appeal }}``: the outcome of an appeal."""
    return texts.appeal_label(value)


@register.filter
def pending(value: Any) -> SafeString:
    """``{{ fault|pending }}``: what the season report waits for (a value of its ``faults``
    list), in the page's language."""
    return texts.pending_line(value)


@register.filter
def longdate(value: _dt.date) -> str:
    """``{{ e.date|longdate }}``: 9 Marzo 2027 / March 9, 2027."""
    return texts.long_date(value)


@register.filter
def shortdate(value: _dt.date) -> str:
    """``{{ e.date|shortdate }}``: 9 Mar 2027."""
    return texts.short_date(value)


@register.filter
def signed(value: int | None) -> str:
    """``+5``, ``−5`` (minus sign), ``0``; "" for None."""
    if value is None:
        return ""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"\u2212{-value}"
    return "0"


@register.filter
def getitem(mapping: Any, key: Any) -> Any:
    """``{{ mapping|getitem:key }}`` (None when missing)."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None
