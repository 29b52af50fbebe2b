"""Template filters of the public pages: ``{% load public_tags %}``.

``stage``, ``arrival``, ``appeal``, ``penalty_unit`` (domain words in the page's language),
``pending`` (a pending line of the season report, translated), ``longdate``, ``shortdate``,
``signed`` (+5, −5, 0), ``points`` (598,5 in Italian), ``ranking_line`` (how the standings are
computed), ``getitem``; ``{% snapshotfragment %}`` (a part of a page rendered once per
change of the facts).
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

from django import template
from django.utils import translation
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
def penalty_unit(value: str) -> str:
    """``{{ "table"|penalty_unit }}``: punti tavolo, punti classifica."""
    return texts.unit_label(value)


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
def points(value: Any) -> str:
    """``{{ r.points|points }}``: a ranking figure, ``598,5`` in Italian, ``598.5`` in
    English, whole numbers without decimals; "" for None."""
    return texts.points_text(value)


@register.filter
def ranking_line(fmt: Any) -> str:
    """``{{ report.format|ranking_line }}``: how the standings are computed (formula,
    discards), in the page's language."""
    return texts.ranking_line(fmt)


@register.filter
def getitem(mapping: Any, key: Any) -> Any:
    """``{{ mapping|getitem:key }}`` (None when missing)."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None


class _SnapshotFragment(template.Node):
    def __init__(self, nodelist: template.NodeList, snap: template.base.FilterExpression,
                 name: template.base.FilterExpression,
                 vary: list[template.base.FilterExpression]) -> None:
        self.nodelist, self.snap, self.name, self.vary = nodelist, snap, name, vary

    def render(self, context: template.Context) -> str:
        snap = self.snap.resolve(context)
        remember = getattr(snap, "fragment", None)
        if remember is None:  # not a snapshot: render as usual
            return str(self.nodelist.render(context))
        key = (str(self.name.resolve(context)), translation.get_language() or "",
               *(str(v.resolve(context)) for v in self.vary))
        return str(remember(key, lambda: self.nodelist.render(context)))


@register.tag("snapshotfragment")
def snapshotfragment(parser: template.base.Parser, token: template.base.Token) -> template.Node:
    """``{% snapshotfragment snap "name" var ... %}...{% endsnapshotfragment %}``: the
    enclosed part rendered once per :class:`~risiko.web.public.data.Snapshot`, page
    language and values of ``var ...`` (everything else it shows must come from the
    snapshot), then served from the snapshot until the next change. The standings table
    (the page and its live partial, polled by every phone) costs nothing after the first
    phone asks."""
    bits = token.split_contents()
    if len(bits) < 3:
        raise template.TemplateSyntaxError(
            "{% snapshotfragment snap \"name\" [var ...] %} needs a snapshot and a name")
    nodelist = parser.parse(("endsnapshotfragment",))
    parser.delete_first_token()
    return _SnapshotFragment(nodelist, parser.compile_filter(bits[1]),
                             parser.compile_filter(bits[2]),
                             [parser.compile_filter(b) for b in bits[3:]])
