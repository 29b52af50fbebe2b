"""Template filters of the console: ``{% load console_tags %}``.

``stage|stage_label``, ``class|arrival_label``, ``outcome|outcome_label``,
``level|level_label``, ``unit|unit_label``: the translated names of the domain's codes;
``value|signed``: ``+3`` / ``-7`` / ``0``; ``mapping|lookup:key``; ``fault|fault``: a fault
in the page's language.
"""

from __future__ import annotations

from typing import Any

from django import template

from .. import labels

register = template.Library()


@register.filter
def stage_label(code: str) -> str:
    """``qualifying`` -> ``qualificazione``."""
    return labels.label(labels.STAGES, code)


@register.filter
def arrival_label(code: str) -> str:
    """``on_time`` -> ``in orario``."""
    return labels.label(labels.ARRIVAL_CLASSES, code)


@register.filter
def outcome_label(code: str) -> str:
    """``reduced`` -> ``ridotta``."""
    return labels.label(labels.APPEAL_OUTCOMES, code)


@register.filter
def level_label(code: str) -> str:
    """``warning`` -> ``richiamo``."""
    return labels.label(labels.DISCIPLINE_LEVELS, code)


@register.filter
def unit_label(code: str) -> str:
    """``table`` -> ``punti tavolo``."""
    return labels.label(labels.UNITS, code)


@register.filter
def signed(value: Any) -> str:
    """An integer with its sign (``+3``, ``-7``, ``0``); "" for None."""
    if value is None or value == "":
        return ""
    n = int(value)
    return f"+{n}" if n > 0 else str(n)


@register.filter
def lookup(mapping: Any, key: Any) -> Any:
    """``mapping[key]``, or "" when missing."""
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        return ""


@register.filter
def fault(value: Any) -> str:
    """A fault (a :class:`~risiko.faults.Fault` or its JSON form) in the page's language."""
    from django.utils.translation import get_language

    from risiko.faults import Fault

    f = value if isinstance(value, Fault) else Fault.from_dict(value)
    return f.message(get_language() or "it")
