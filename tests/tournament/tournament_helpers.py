"""Helpers for the tournament tests: season files as dicts, built from direct scores."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from risiko.tournament import Tournament, parse_season
from risiko.tournament.finals import Stages, compute_stages

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

#: 13 players named so that alphabetical order is never the ranking order by accident
NAMES = ["Pia", "Ugo", "Teo", "Sara", "Remo", "Ora", "Noa", "Max", "Lea", "Ivo", "Gil",
         "Eva", "Ada"]


def table(scores: dict[str, int], **extra: Any) -> dict[str, Any]:
    """A table whose seats are the score keys, in that order, with direct scores."""
    return {"seats": list(scores), "scores": dict(scores), **extra}


def evening(date: str, *tables: dict[str, Any], stage: str = "qualifying",
            **extra: Any) -> dict[str, Any]:
    """An evening of ``stage`` with ``tables``."""
    return {"date": date, "stage": stage, "tables": list(tables), **extra}


def season(*evenings: dict[str, Any], players: list[str] | None = None,
           **top: Any) -> dict[str, Any]:
    """A season file; ``players`` defaults to every name seated or scored."""
    if players is None:
        seen: list[str] = []
        for e in evenings:
            for t in e.get("tables", []):
                for p in t["seats"]:
                    if p not in seen:
                        seen.append(p)
        players = seen
    return {"name": "Test", "players": players, "evenings": list(evenings), **top}


def ranked(points: list[int], names: list[str] | None = None) -> dict[str, Any]:
    """One qualifying evening (2027-01-05) giving ``names[i]`` ``points[i]`` table points,
    seated in tables of 5 and 4 in the given order (so 13 points -> 5 + 4 + 4)."""
    from risiko.tournament.seating import table_sizes

    who = (names or NAMES)[: len(points)]
    tables = []
    start = 0
    for size in table_sizes(len(points)):
        tables.append(table({p: s for p, s in zip(who[start:start + size],
                                                   points[start:start + size], strict=True)}))
        start += size
    return evening("2027-01-05", *tables)


def compute(data: dict[str, Any]) -> tuple[Tournament, Stages]:
    """Parse (raising SeasonError on faults) and compute the stages."""
    t = parse_season(data)
    return t, compute_stages(t)
