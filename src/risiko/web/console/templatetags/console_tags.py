"""Template filters of the console: ``{% load console_tags %}``.

``stage|stage_label``, ``class|arrival_label``, ``outcome|outcome_label``,
``level|level_label``, ``unit|unit_label``: the translated names of the domain's codes;
``value|signed``: ``+3`` / ``-7`` / ``0``; ``name|search_key``: ``Érica`` -> ``erica``;
``mapping|lookup:key``; ``fault|fault``: a fault in the page's language; ``{% refusals %}``:
the refused forms' errors at the page's top.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.forms import BaseForm

from risiko import names
from risiko.web.core import choices

register = template.Library()


@register.filter
def stage_label(code: str) -> str:
    """``qualifying`` -> ``qualificazione``."""
    return choices.label(choices.Stage, code)


@register.filter
def arrival_label(code: str) -> str:
    """``on_time`` -> ``in orario``."""
    return choices.label(choices.ArrivalClass, code)


@register.filter
def outcome_label(code: str) -> str:
    """``reduced`` -> ``ridotta``."""
    return choices.label(choices.AppealOutcome, code)


@register.filter
def level_label(code: str) -> str:
    """``warning`` -> ``richiamo``."""
    return choices.label(choices.DisciplineLevel, code)


@register.filter
def unit_label(code: str) -> str:
    """``table`` -> ``punti tavolo``."""
    return choices.label(choices.PenaltyUnit, code)


@register.filter
def search_key(name: str) -> str:
    """A name as the "find a player" box compares it (:func:`risiko.names.search_key`):
    ``Érica`` -> ``erica``."""
    return names.search_key(str(name))


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


@register.inclusion_tag("console/_refusals.html", takes_context=True)
def refusals(context: Any) -> dict[str, Any]:
    """The errors of every refused form of the page, at its top, each a link to its field
    (a form's own errors: to its first field), so a refusal is seen where the page opens.
    The forms are the context's values, the items of its lists and their ``form`` (an
    attribute or a key)."""
    items: list[dict[str, str]] = []
    seen: set[int] = set()
    for value in context.flatten().values():
        for item in value if isinstance(value, (list, tuple)) else (value,):
            form = item if isinstance(item, BaseForm) else (
                item.get("form") if isinstance(item, dict) else getattr(item, "form", None))
            if not isinstance(form, BaseForm) or id(form) in seen or not form.is_bound:
                continue
            seen.add(id(form))
            if not form.errors:
                continue
            fields = [f for f in form.visible_fields()]
            first = fields[0].id_for_label if fields else ""
            for message in form.non_field_errors():
                items.append({"target": first, "label": "", "message": str(message)})
            for field in fields:
                for message in field.errors:
                    items.append({"target": field.id_for_label, "label": str(field.label),
                                  "message": str(message)})
    return {"refusals": items}
