"""Template tags of the site: ``{% load site_tags %}``.

- ``{% nav_link "url_name" _("Label") arg ... %}``: a nav item ``<li><a ...>`` marked
  ``aria-current="page"`` on its own page (an unknown URL name is an error, as with
  ``{% url %}``: a link to nothing is never rendered silently).
- ``user|is_referee``, ``user|is_committee``: the permission helpers as filters.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from .. import permissions

register = template.Library()


@register.simple_tag(takes_context=True)
def nav_link(context: template.Context, name: str, label: str, *args: Any) -> SafeString:
    """A nav item linking to URL ``name`` (NoReverseMatch for a name that does not exist)."""
    href = reverse(name, args=[a for a in args if a is not None] or None)
    request = context.get("request")
    path = getattr(request, "path", "")
    current = path == href or (href != "/" and path.startswith(href))
    if current:
        return format_html('<li><a href="{}" aria-current="page">{}</a></li>', href, label)
    return format_html('<li><a href="{}">{}</a></li>', href, label)


@register.filter
def is_referee(user: Any) -> bool:
    """``{% if user|is_referee %}``."""
    return permissions.is_referee(user)


@register.filter
def is_committee(user: Any) -> bool:
    """``{% if user|is_committee %}``."""
    return permissions.is_committee(user)
