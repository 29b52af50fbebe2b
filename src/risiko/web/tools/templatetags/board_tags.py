"""``{% load board_tags %}``: the SVG board as an include others can reuse.

- ``{% board_svg "club-milano" %}``: the empty board (territories coloured by continent).
- ``{% board_svg board_name sheet=result.sheet %}``: coloured by the sheet's seats (seat 1 =
  the sheet's first seat), armies shown; ``interactive=True`` makes territories focusable
  buttons (the board entry page).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.translation import get_language

from risiko.board import UnknownTerritoryError, parse_territory

from ..board_layout import FONT_SIZE, drawing

register = template.Library()


def owners_from_sheet(sheet: Mapping[str, Any] | None) -> dict[int, tuple[int, int | None]]:
    """``{territory: (seat number 1.., armies)}`` from a sheet in JSON form (loose: unknown
    names and bad counts are skipped, the first holder wins)."""
    out: dict[int, tuple[int, int | None]] = {}
    if not isinstance(sheet, Mapping):
        return out
    seats = sheet.get("seats")
    if not isinstance(seats, list):
        return out
    for number, seat in enumerate(seats, start=1):
        armies = seat.get("armies") if isinstance(seat, Mapping) else None
        if not isinstance(armies, Mapping):
            continue
        for name, count in armies.items():
            try:
                t = parse_territory(str(name))
            except UnknownTerritoryError:
                continue
            n = count if isinstance(count, int) and not isinstance(count, bool) else None
            out.setdefault(t, (number, n))
    return out


def board_context(
    board_name: str = "club-milano",
    *,
    sheet: Mapping[str, Any] | None = None,
    interactive: bool = False,
    lang: str | None = None,
) -> dict[str, Any]:
    """The context of ``tools/_board.html``."""
    lang = lang or get_language() or "it"
    d = drawing(board_name if board_name in ("official", "club-milano") else "club-milano",
                "en" if lang.startswith("en") else "it")
    owners = owners_from_sheet(sheet)
    territories = []
    for shape in d.shapes:
        owner, armies = owners.get(shape.index, (None, None))
        territories.append({
            "shape": shape,
            "owner": owner,
            "armies": armies,
            "badge_text_y": round(shape.badge_y + 3.5, 1),
        })
    return {
        "drawing": d,
        "territories": territories,
        "interactive": interactive,
        "font_size": FONT_SIZE,
    }


@register.inclusion_tag("tools/_board.html", takes_context=True)
def board_svg(
    context: template.Context,
    board_name: str = "club-milano",
    sheet: Mapping[str, Any] | None = None,
    interactive: bool = False,
) -> dict[str, Any]:
    """The SVG board ``board_name`` (``official`` | ``club-milano``), optionally coloured
    by a sheet. The page's Content-Security-Policy nonce goes to the board's ``<style>``
    (an inclusion tag's template does not see the page's context otherwise)."""
    out = board_context(board_name, sheet=sheet, interactive=interactive)
    out["csp_nonce"] = context.get("csp_nonce", "")
    return out
