"""``{% load online_tags %}``: links to the replays of finished online tables.

- ``{% online_replays player_name %}``: a player's finished online games (his page);
- ``{% online_evening_replays tournament_slug evening_date %}``: the online tables of an
  evening (its page).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import template

from ..models import OnlineTable

register = template.Library()


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
