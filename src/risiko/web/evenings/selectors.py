"""Reads of the evenings app."""

from __future__ import annotations

from typing import Any

from risiko.tournament.schedule import Schedule

from .models import Arrival, Evening


def schedule_of(evening: Evening, ruleset: Any) -> Schedule:
    """The evening's schedule: the ruleset's for its stage, with the evening's own times."""
    base = Schedule.from_ruleset(ruleset, evening.stage)  # type: ignore[arg-type]
    return base.with_times(evening.schedule) if evening.schedule else base


def current_arrival(evening: Evening, player_id: int) -> Arrival | None:
    """The arrival that counts for a player at ``evening`` (not superseded), or None."""
    found: Arrival | None = evening.arrivals.current().filter(player_id=player_id).first()
    return found
