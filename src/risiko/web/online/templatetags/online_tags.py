"""``{% load online_tags %}``: links to the replays of finished online tables.

- ``{% online_replays player_name %}``: a player's finished online games (his page);
- ``{% online_evening_replays tournament_slug evening_date %}``: the online tables of an
  evening (its page);
- ``{% bot_levels as levels %}``: the bot levels (the lobby's form);
- ``{% online_waiting_results evening %}``: the console's evening page: each online result
  waiting beside the referee's, both shown side by side, and the form that keeps one.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import template

from ..models import OnlineTable
from ..services import waiting_results

register = template.Library()


@register.simple_tag
def bot_levels() -> list[int]:
    """``{% bot_levels as levels %}``: the bot levels the lobby offers, weakest first (read
    from :data:`risiko.agents.levels.LEVELS` on every page)."""
    from risiko.agents.levels import LEVELS

    return sorted(LEVELS)


@register.inclusion_tag("online/_replays.html")
def online_replays(player: str) -> dict[str, Any]:
    """The finished online tables where ``player`` held a seat, newest first."""
    tables = OnlineTable.objects.filter(status="over", seat_set__player__name=str(player))
    return {"tables": list(tables.distinct().order_by("-finished")[:30])}


@register.inclusion_tag("online/_replays.html")
def online_evening_replays(tournament: str, date: dt.date | str) -> dict[str, Any]:
    """The finished online tables of a tournament's evening (``tournament``: its slug)."""
    tables = OnlineTable.objects.filter(status="over", game_table__evening__date=date,
                                        game_table__evening__tournament__slug=tournament)
    return {"tables": list(tables.order_by("game_table__number"))}


@register.inclusion_tag("online/_waiting_results.html", takes_context=True)
def online_waiting_results(context: template.Context, evening: Any) -> dict[str, Any]:
    """The online results of ``evening`` waiting for the referee (issue 20 item 4), each
    beside the table's current result, scored the same way (the console's breakdown)."""
    from risiko.web.console.common import read_result
    from risiko.web.results.models import TableResult
    from risiko.web.results.selectors import current_result

    waiting = []
    for row in waiting_results(evening):
        gt = row.game_table
        standing = current_result(gt)
        online = TableResult(table=gt, sheet=row.sheet, abandoned=row.abandoned,
                             entered_by=f"online:{row.table.code}")
        waiting.append({"row": row, "online": read_result(gt, online),
                        "referee": read_result(gt, standing) if standing else None})
    # the request: each form's one-time token is bound to its session ({% once_token %})
    return {"waiting": waiting, "csrf_token": context.get("csrf_token"),
            "request": context.get("request")}
