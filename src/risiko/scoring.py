"""Table score of a seat from the end board (R1, R5, R15, R16), as data with a breakdown.

Club-milano (R15 + R16 read together): base = sum over owned territories (4 if in the
objective, 1 otherwise) + sum over whole continents held (floor(2.5 x n) if the continent is in
the objective, n otherwise), capped at 100 (R1); a completed objective ("RisiKo!") is 100.
Penalty: -7 table points for more than 120 armies on the board (R5). An eliminated seat or a
seat that left the game (R13) scores 0.

Worked example (R16): objective 13 (Nord America + Asia), owns all of Nord America and Perù,
Brasile, Argentina: 9 x 4 + 22 + 3 x 1 = 61.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .board import (
    CONTINENT_MASKS,
    CONTINENT_SIZES,
    NUM_CONTINENTS,
    Mask,
    continent_name,
)
from .faults import Fault, Severity, define, faults_json
from .objectives import Objective
from .ruleset import Ruleset

LEFT = define("score.left", "R13", "left the game (R13): 0")
ELIMINATED = define("score.eliminated", "", "eliminated: 0")
RISIKO = define("score.risiko", "R1", "objective completed (RisiKo!, R1)")
CAPPED = define("score.capped", "R1", "base {raw} capped at {base} (R1)")
OVER_LIMIT = define("score.over_limit", "R5", "{armies} armies > {limit}: {penalty} (R5)")

@dataclass(frozen=True)
class ContinentHeld:
    """A whole continent held: its name, whether it is in the objective, points (R15)."""

    name: str
    in_objective: bool
    points: int

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"name": self.name, "in_objective": self.in_objective, "points": self.points}


@dataclass(frozen=True)
class SeatScore:
    """The breakdown of one seat's table score.

    ``territories`` and ``armies`` are counts on the end board; ``objective_territories`` the
    territories held that are in the objective; ``territory_points`` and ``continents`` the
    parts of the base (R16, R15); ``base`` is capped at ``max_base_score`` (R1); ``penalty``
    is <= 0 (R5); ``score`` = base + penalty; ``risiko`` is True for a completed objective.
    """

    player: str
    objective: int
    territories: int
    armies: int
    objective_territories: int
    territory_points: int
    continents: tuple[ContinentHeld, ...]
    base: int
    penalty: int
    score: int
    risiko: bool
    status: str = "in_play"  # in_play | eliminated | abandoned
    notes: tuple[Fault, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """JSON form (field names are a contract of ``risiko score --json``): ``notes`` in
        English, and the same as values in the sibling list ``faults`` (severity warning)."""
        return {
            "player": self.player,
            "objective": self.objective,
            "territories": self.territories,
            "armies": self.armies,
            "objective_territories": self.objective_territories,
            "territory_points": self.territory_points,
            "continents": [c.to_dict() for c in self.continents],
            "base": self.base,
            "penalty": self.penalty,
            "score": self.score,
            "risiko": self.risiko,
            "status": self.status,
            "notes": [n.message("en") for n in self.notes],
            "faults": faults_json(self.notes),
        }


def _continent_points(ruleset: Ruleset, c: int, in_objective: bool) -> int:
    n = CONTINENT_SIZES[c]
    if in_objective:
        num, den = ruleset.continent_points_in_objective
        return (n * num) // den  # rounded down per continent (R15)
    return n * ruleset.continent_points_outside


def score_seat(
    ruleset: Ruleset,
    player: str,
    objective: Objective,
    owned: Mask,
    armies: int,
    *,
    risiko: bool | None = None,
    eliminated: bool = False,
    abandoned: bool = False,
) -> SeatScore:
    """Score one seat: ``owned`` is its territory mask, ``armies`` its armies on the board.

    ``risiko`` None means "decide from the board" (all objective territories held). A seat
    that left the game (R13) or was eliminated scores 0 whatever it holds.
    """
    territories = owned.bit_count()
    in_obj = owned & objective.mask
    obj_terr = in_obj.bit_count()
    if risiko is None:
        risiko = not eliminated and not abandoned and in_obj == objective.mask
    notes: list[Fault] = []
    who = {"player": player}
    status = "abandoned" if abandoned else "eliminated" if eliminated else "in_play"
    continents: list[ContinentHeld] = []
    if ruleset.scoring == "border_points":
        board = ruleset.board
        territory_points = board.border_points(in_obj)
    else:
        territory_points = (
            obj_terr * ruleset.territory_points_in_objective
            + (territories - obj_terr) * ruleset.territory_points_outside
        )
        for c in range(NUM_CONTINENTS):
            if owned & CONTINENT_MASKS[c] == CONTINENT_MASKS[c]:
                inside = c in objective.continents
                continents.append(
                    ContinentHeld(continent_name(c), inside, _continent_points(ruleset, c, inside))
                )
    raw = territory_points + sum(c.points for c in continents)
    if status != "in_play":
        base = 0
        notes.append((LEFT if abandoned else ELIMINATED)(who, Severity.WARNING))
        risiko = False
    elif risiko:
        base = ruleset.objective_score
        notes.append(RISIKO(who, Severity.WARNING))
    else:
        base = min(raw, ruleset.max_base_score)
        if raw > base:
            notes.append(CAPPED(who, Severity.WARNING, raw=raw, base=base))
    penalty = 0
    if ruleset.army_limit is not None and armies > ruleset.army_limit and status == "in_play":
        penalty = -ruleset.army_limit_penalty
        notes.append(OVER_LIMIT(who, Severity.WARNING, armies=armies, limit=ruleset.army_limit,
                                penalty=penalty))
    score = base + penalty
    if ruleset.scores_floor_at_zero:
        score = max(score, 0)
    return SeatScore(
        player=player,
        objective=objective.number,
        territories=territories,
        armies=armies,
        objective_territories=obj_terr,
        territory_points=territory_points,
        continents=tuple(continents),
        base=base,
        penalty=penalty,
        score=score,
        risiko=bool(risiko),
        status=status,
        notes=tuple(notes),
    )


def ranking(scores: list[SeatScore]) -> list[str]:
    """Players by score, highest first; equal scores keep seat order."""
    order = sorted(range(len(scores)), key=lambda i: (-scores[i].score, i))
    return [scores[i].player for i in order]
