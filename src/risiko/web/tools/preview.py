"""The board entry's live score: a sheet checked and scored while it is still incomplete.

The page posts its state (:func:`parse_state`): for each seat of the table (by position) the
objective, the "left the game" flag (R13) and the armies on each territory it holds. The
library checks it (:func:`risiko.sheet.check_sheet`, the same checks as ``risiko score`` and
the results service, but returning every fault with its subjects and severity while the sheet
is incomplete) and scores each seat as far as it goes. This module only turns the posted
state into a sheet and the faults into the page's language: territories nobody holds, a
territory held by two seats, a seat without an objective, two seats with the same objective,
army counts that are not whole numbers >= 1 block saving; over the army limit (R4/R5) is a
warning, as the sheet is still valid and the score carries the penalty.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from risiko.board import UnknownTerritoryError, parse_territory, territory_name
from risiko.faults import Fault
from risiko.objectives import OBJECTIVES, Objective
from risiko.ruleset import Ruleset
from risiko.scoring import SeatScore
from risiko.sheet import SheetCheck, check_sheet


@dataclass
class SeatState:
    """One seat as posted: position, player (from the database), objective number or None,
    abandoned flag, armies per territory (raw counts, checked later), and the names posted
    that are no territory."""

    position: int
    player: str
    objective: int | None = None
    abandoned: bool = False
    armies: dict[int, Any] = field(default_factory=dict)
    bad_territories: list[str] = field(default_factory=list)


@dataclass
class SeatPreview:
    """A seat's line of the live score: its state, objective and score (None without an
    objective)."""

    state: SeatState
    objective: Objective | None
    score: SeatScore | None
    territories: int
    armies: int


def _count(raw: Any) -> int | None:
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, str) and raw.strip().lstrip("+-").isdigit():
        return int(raw.strip())
    return None


def _territories_of(fault: Fault) -> list[int]:
    """The territories a fault names (its subject, or the missing ones)."""
    names = [fault.subjects["territory"]] if "territory" in fault.subjects else []
    if fault.code in ("sheet.missing", "sheet.missing_one"):
        names = list(fault.params.get("territories", ()))
    out = []
    for name in names:
        try:
            out.append(parse_territory(name))
        except UnknownTerritoryError:
            continue
    return out


@dataclass
class Preview:
    """The live score of the board: seats and the library's check (``faults`` as
    :class:`~risiko.faults.Fault` values); ``complete`` when the sheet can be saved (no
    blocking fault), with ``sheet`` its JSON form for the results service; ``lang`` the
    language the page says the faults in."""

    seats: list[SeatPreview]
    check: SheetCheck
    lang: str = "it"
    sheet: dict[str, Any] | None = None

    @property
    def faults(self) -> list[Fault]:
        """Every fault, errors and warnings."""
        return list(self.check.faults)

    @property
    def complete(self) -> bool:
        """No blocking fault: the sheet can be saved."""
        return self.sheet is not None and self.check.complete

    @property
    def fault_territories(self) -> list[int]:
        """Territories named by a blocking fault (missing, held twice, bad armies)."""
        return sorted({t for f in self.check.faults if f.is_error for t in _territories_of(f)})

    @property
    def fault_rows(self) -> list[dict[str, Any]]:
        """The faults for the page: ``message`` (in :attr:`lang`), ``blocking``, and the
        territories and seat positions they name."""
        position = {s.state.player: s.state.position for s in self.seats}
        return [
            {**f.to_dict(self.lang), "blocking": f.is_error,
             "territories": _territories_of(f),
             "seats": sorted({position[p] for p in self._players(f) if p in position})}
            for f in self.check.faults
        ]

    @staticmethod
    def _players(f: Fault) -> list[str]:
        found = [f.subjects["player"]] if "player" in f.subjects else []
        return found + [p for p in f.params.get("players", ()) if isinstance(p, str)]

    @property
    def held(self) -> int:
        """Territories held by some seat."""
        return self.check.held

    @property
    def abandoned(self) -> list[str]:
        """Players who left the game (R13)."""
        return [s.state.player for s in self.seats if s.state.abandoned]

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``seats`` (position, player, objective, territories, armies and the
        score breakdown of :meth:`SeatScore.to_dict`, or None), ``faults`` (each fault's
        JSON form, its message in :attr:`lang`, with ``blocking``, ``territories`` and
        ``seats``), ``complete``, ``held``."""
        return {
            "complete": self.complete,
            "held": self.held,
            "seats": [
                {
                    "position": s.state.position,
                    "player": s.state.player,
                    "objective": s.objective.number if s.objective else None,
                    "abandoned": s.state.abandoned,
                    "territories": s.territories,
                    "armies": s.armies,
                    "score": s.score.to_dict() if s.score else None,
                }
                for s in self.seats
            ],
            "faults": self.fault_rows,
        }


def parse_state(raw: str | Mapping[str, Any] | None, seated: Sequence[tuple[int, str]]
                ) -> list[SeatState]:
    """The posted state for the table's seats ``[(position, player), ...]``.

    ``raw`` is JSON text or a dict: ``{"seats": [{"position": 1, "objective": 7,
    "abandoned": false, "armies": {"0": 3, "Perù": 2}}]}`` (territories by number 0..41 or
    name). Seats not at the table are ignored; a seat missing from the state is empty.
    Anything unreadable counts as empty (the page always posts well-formed state).
    """
    data: Any = raw
    if isinstance(raw, str):
        try:
            data = json.loads(raw) if raw.strip() else {}
        except ValueError:
            data = {}
    posted: dict[int, Mapping[str, Any]] = {}
    if isinstance(data, Mapping) and isinstance(data.get("seats"), list):
        for seat in data["seats"]:
            if isinstance(seat, Mapping):
                pos = _count(seat.get("position"))
                if pos is not None:
                    posted.setdefault(pos, seat)
    out = []
    for position, player in seated:
        s = SeatState(position, player)
        seat = posted.get(position, {})
        obj = _count(seat.get("objective"))
        s.objective = obj if obj is not None and 1 <= obj <= len(OBJECTIVES) else None
        s.abandoned = seat.get("abandoned") is True
        armies = seat.get("armies")
        if isinstance(armies, Mapping):
            for key, value in armies.items():
                try:
                    t = parse_territory(int(key) if str(key).isdigit() else str(key))
                except (UnknownTerritoryError, ValueError):
                    s.bad_territories.append(str(key))
                    continue
                s.armies[t] = value
        out.append(s)
    return out


def sheet_of(seats: Sequence[SeatState], ruleset: Ruleset) -> dict[str, Any]:
    """The posted seats as a sheet in JSON form (names posted that are no territory kept,
    so the check names them)."""
    return {
        "ruleset": ruleset.label,
        "seats": [
            {"player": s.player, "objective": s.objective,
             "armies": {**{territory_name(t): n for t, n in sorted(s.armies.items())},
                        **{name: 1 for name in s.bad_territories}},
             **({"abandoned": True} if s.abandoned else {})}
            for s in seats
        ],
    }


def preview(seats: Sequence[SeatState], ruleset: Ruleset, lang: str = "it") -> Preview:
    """Check and score the board as far as it goes (see the module docstring)."""
    data = sheet_of(seats, ruleset)
    check = check_sheet(data, ruleset)
    lines = []
    for seat, score in zip(seats, check.seats, strict=True):
        counts = [_count(n) for n in seat.armies.values()]
        lines.append(SeatPreview(
            seat, OBJECTIVES[seat.objective - 1] if seat.objective else None, score,
            len(seat.armies), sum(n if n is not None and n >= 1 else 1 for n in counts)))
    sheet = check.sheet.to_dict() if check.sheet is not None else None
    if sheet is not None:
        sheet["ruleset"] = ruleset.label
    return Preview(lines, check, lang, sheet)
