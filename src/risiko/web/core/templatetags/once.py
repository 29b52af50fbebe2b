"""``{% once_token action %}``: the hidden one-time token of a form (:mod:`risiko.web.core.tokens`).

Put it beside ``{% csrf_token %}`` in every form that writes (``{% load once %}``), with the
URL the form posts to (its ``action``, or ``hx-post``); without one, the page's own path."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from risiko.web.core.tokens import FIELD, token_for

register = template.Library()


@register.simple_tag(takes_context=True)
def once_token(context: dict[str, Any], action: str = "") -> SafeString:
    """A new token each time the form is rendered, bound to the session and to ``action``."""
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD,
                       token_for(context["request"], str(action or "")))
