"""The board entry's live score: a sheet checked and scored while it is still incomplete.

The page posts its state (:func:`parse_state`): for each seat of the table (by position) the
objective, the "left the game" flag (R13) and the armies on each territory it holds. A
complete sheet is checked by :func:`risiko.sheet.parse_sheet` and scored by
:func:`risiko.sheet.score_sheet`, as ``risiko score`` and the results service do. While the
sheet is incomplete, ``parse_sheet`` would refuse it as a whole, so each seat is scored on
its own: a sheet made of that seat plus a filler seat holding every other territory (a seat's
table score depends only on its own territories, objective and armies, so this is exact).

Faults are listed for the page (translated): territories nobody holds, a territory held by
two seats, a seat without an objective, two seats with the same objective, army counts that
are not whole numbers >= 1; over the army limit (R4/R5) is a warning, as the sheet is still
valid and the score carries the penalty.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from risiko.board import (
    NUM_TERRITORIES,
    UnknownTerritoryError,
    parse_territory,
    territory_name,
)
from risiko.objectives import OBJECTIVES, Objective
from risiko.ruleset import Ruleset
from risiko.scoring import SeatScore
from risiko.sheet import SheetError, parse_sheet, score_sheet

#: the filler seat's name: never a player's (players' names are stripped of spaces)
_FILLER = " filler "


@dataclass(frozen=True)
class Fault:
    """One fault: ``code`` (missing, twice, no_objective, duplicate_objective, bad_armies,
    army_limit, sheet), the translated message, the territories and seat positions concerned.
    ``blocking`` False for a warning (the sheet can still be saved)."""

    code: str
    message: str
    territories: tuple[int, ...] = ()
    seats: tuple[int, ...] = ()
    blocking: bool = True


@dataclass
class SeatState:
    """One seat as posted: position, player (from the database), objective number or None,
    abandoned flag, armies per territory (raw counts, checked later)."""

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


@dataclass
class Preview:
    """The live score of the board: seats, faults; ``complete`` when the sheet can be saved
    (no blocking fault), with ``sheet`` its JSON form for the results service."""

    seats: list[SeatPreview]
    faults: list[Fault]
    sheet: dict[str, Any] | None = None

    @property
    def complete(self) -> bool:
        """No blocking fault: the sheet can be saved."""
        return self.sheet is not None and not any(f.blocking for f in self.faults)

    @property
    def fault_territories(self) -> list[int]:
        """Territories named by a blocking fault (missing, held twice, bad armies)."""
        return sorted({t for f in self.faults if f.blocking for t in f.territories})

    @property
    def held(self) -> int:
        """Territories held by some seat."""
        return len({t for s in self.seats for t in s.state.armies})

    @property
    def abandoned(self) -> list[str]:
        """Players who left the game (R13)."""
        return [s.state.player for s in self.seats if s.state.abandoned]

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``seats`` (position, player, objective, territories, armies and the
        score breakdown of :meth:`SeatScore.to_dict`, or None), ``faults``, ``complete``."""
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
            "faults": [
                {"code": f.code, "message": f.message, "territories": list(f.territories),
                 "seats": list(f.seats), "blocking": f.blocking}
                for f in self.faults
            ],
        }


def _count(raw: Any) -> int | None:
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, str) and raw.strip().lstrip("+-").isdigit():
        return int(raw.strip())
    return None


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


def _names(ts: Sequence[int], lang: str) -> str:
    return ", ".join(territory_name(t, lang) for t in ts)


def _seat_score(seat: SeatState, counts: dict[int, int], ruleset: Ruleset) -> SeatScore:
    """The seat's score from a sheet of that seat plus a filler holding the rest."""
    assert seat.objective is not None
    other = 1 if seat.objective != 1 else 2
    rest = {territory_name(t): 1 for t in range(NUM_TERRITORIES) if t not in counts}
    sheet = {
        "seats": [
            {"player": seat.player, "objective": seat.objective,
             "armies": {territory_name(t): n for t, n in sorted(counts.items())},
             "abandoned": seat.abandoned},
            {"player": _FILLER, "objective": other, "armies": rest},
        ]
    }
    return score_sheet(parse_sheet(sheet, ruleset=ruleset.name), ruleset).seats[0]


def preview(seats: Sequence[SeatState], ruleset: Ruleset, lang: str = "it") -> Preview:
    """Check and score the board as far as it goes (see the module docstring)."""
    faults: list[Fault] = []
    holders: dict[int, list[SeatState]] = {}
    counts_of: dict[int, dict[int, int]] = {}
    for seat in seats:
        counts: dict[int, int] = {}
        bad: list[int] = []
        for t, raw in sorted(seat.armies.items()):
            holders.setdefault(t, []).append(seat)
            n = _count(raw)
            if n is None or n < 1:
                bad.append(t)
                n = 1  # scored as 1 army meanwhile
            counts[t] = n
        counts_of[seat.position] = counts
        if bad:
            faults.append(Fault(
                "bad_armies",
                _("%(player)s: the armies on %(territories)s must be a whole number, "
                  "at least 1") % {"player": seat.player, "territories": _names(bad, lang)},
                tuple(bad), (seat.position,),
            ))
        if seat.bad_territories:
            faults.append(Fault(
                "bad_armies",
                _("%(player)s: unknown territories %(names)s")
                % {"player": seat.player, "names": ", ".join(seat.bad_territories)},
                (), (seat.position,),
            ))
        if seat.objective is None:
            faults.append(Fault(
                "no_objective",
                _("%(player)s: choose the objective") % {"player": seat.player},
                (), (seat.position,),
            ))
    missing = [t for t in range(NUM_TERRITORIES) if t not in holders]
    if missing:
        faults.append(Fault(
            "missing",
            ngettext(
                "%(count)d territory has no owner: %(territories)s",
                "%(count)d territories have no owner: %(territories)s",
                len(missing),
            ) % {"count": len(missing), "territories": _names(missing, lang)},
            tuple(missing),
        ))
    for t, who in sorted(holders.items()):
        if len(who) > 1:
            faults.append(Fault(
                "twice",
                _("%(territory)s is held by %(players)s: only one seat may hold it")
                % {"territory": territory_name(t, lang),
                   "players": ", ".join(s.player for s in who)},
                (t,), tuple(s.position for s in who),
            ))
    by_objective: dict[int, list[SeatState]] = {}
    for seat in seats:
        if seat.objective is not None:
            by_objective.setdefault(seat.objective, []).append(seat)
    for number, who in sorted(by_objective.items()):
        if len(who) > 1:
            faults.append(Fault(
                "duplicate_objective",
                _("Objective %(number)d (%(name)s) is chosen by %(players)s: each seat has "
                  "its own")
                % {"number": number, "name": OBJECTIVES[number - 1].name,
                   "players": ", ".join(s.player for s in who)},
                (), tuple(s.position for s in who),
            ))
    limit = ruleset.army_limit
    lines: list[SeatPreview] = []
    for seat in seats:
        counts = counts_of[seat.position]
        total = sum(counts.values())
        if limit is not None and total > limit:
            faults.append(Fault(
                "army_limit",
                _("%(player)s has %(armies)d armies on the board, more than %(limit)d: "
                  "%(penalty)d points (R5)")
                % {"player": seat.player, "armies": total, "limit": limit,
                   "penalty": -ruleset.army_limit_penalty},
                (), (seat.position,), blocking=False,
            ))
        objective = OBJECTIVES[seat.objective - 1] if seat.objective else None
        score = _seat_score(seat, counts, ruleset) if objective else None
        lines.append(SeatPreview(seat, objective, score, len(counts), total))
    result = Preview(lines, faults)
    if not any(f.blocking for f in faults):
        sheet = {
            "ruleset": ruleset.name,
            "seats": [
                {"player": s.player, "objective": s.objective,
                 "armies": {territory_name(t): n for t, n in sorted(counts_of[s.position].items())},
                 **({"abandoned": True} if s.abandoned else {})}
                for s in seats
            ],
        }
        try:
            scored = score_sheet(parse_sheet(sheet, ruleset=ruleset.name), ruleset)
        except SheetError as err:  # a fault the checks above do not know
            result.faults.extend(Fault("sheet", f) for f in err.faults)
        else:
            for line, full in zip(lines, scored.seats, strict=True):
                line.score = full
            result.sheet = sheet
    return result
