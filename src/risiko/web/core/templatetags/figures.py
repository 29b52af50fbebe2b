"""Numbers in the page's language: ``{% load figures %}``.

- ``value|percent:1``: a share (0..1) as a percentage, ``29,4 %`` in Italian, ``29.4%`` in
  English (:func:`risiko.figures.percent_text`); ``None`` or a non-number stays as it is.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import get_language

from risiko.figures import percent_text

register = template.Library()


@register.filter
def percent(value: Any, places: int = 1) -> Any:
    """``{{ share|percent:1 }}``: ``0.294`` is ``29,4 %`` on an Italian page."""
    try:
        share = float(value)
    except (TypeError, ValueError):
        return value
    return percent_text(share, int(places), get_language())
