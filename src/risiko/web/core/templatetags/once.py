"""``{% once_token %}``: the hidden one-time token of a form (:mod:`risiko.web.core.tokens`).

Put it beside ``{% csrf_token %}`` in every form that writes (``{% load once %}``)."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from risiko.web.core.tokens import FIELD, new_token

register = template.Library()


@register.simple_tag
def once_token() -> SafeString:
    """A new token each time the form is rendered."""
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, new_token())
