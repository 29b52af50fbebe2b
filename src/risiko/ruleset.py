"""Rulesets: every number of the regulation as frozen, versioned data.

A :class:`Ruleset` holds every choice RULES.md marks [param]. Three presets ship:

- ``club-milano`` (default): the Risiko! Club Milano regulation, clauses R1-R18.
- ``rtu``: the official national tournament rules (box board, table score = border points of
  the objective territories held, closing dice 2..4 widening to 2..7, no roll after more than
  2 conquests, 130 army limit, classic card values, no R7/R8).
- ``classic``: the box rules (box board, classic card values, no army limit, no R7/R8); it
  keeps the club's closing dice and R15/R16 scoring so that a game still ends and scores.

Records, tables, tournaments, positions and sheets store ``name@version``. A bare name
means two things: in anything stored before versions were written (records, sheets, season
files, rows) the version it meant then, @1 (:func:`get_ruleset`); typed to create something
new (a tournament, an online table, a CLI game) the newest version (:func:`new_ruleset`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Literal

from .board import Board, board_by_name
from .faults import Fault, InvalidInputError, define

SetValues = Literal["by_hand_size", "classic"]
Scoring = Literal["club-milano", "border_points"]
LatePenaltyFrom = Literal["start", "arrival"]
#: the readings of R3's count for a seat marked late after the start
#: (:attr:`Ruleset.late_penalty_from`)
LATE_PENALTY_FROM: tuple[str, ...] = ("start", "arrival")
BAD_LATE_PENALTY_FROM = define(
    "ruleset.bad_late_penalty_from", "R3",
    "late_penalty_from is {value!r}: it is one of {known}")


@dataclass(frozen=True)
class Ruleset:
    """One ruleset. Units: armies, points, minutes; clause numbers in comments."""

    name: str = "club-milano"
    version: int = 1
    #: board name: "club-milano" (R6, Egitto - Medio Oriente removed) or "official"
    board_name: str = "club-milano"
    #: initial armies by number of seats (standard game)
    initial_armies: tuple[tuple[int, int], ...] = ((3, 35), (4, 30), (5, 25), (6, 20))
    #: armies placed per step of the initial placement
    setup_step: int = 3
    #: minimum reinforcement per turn, before continents and sets
    min_reinforcement: int = 1
    #: R4: most armies a seat may have on the board (None = no limit)
    army_limit: int | None = 120
    #: R5: table points lost by a seat found over the army limit on a scored board
    army_limit_penalty: int = 7
    #: R7: the attacker must roll at least as many dice as the defender
    dice_parity: bool = True
    #: R8: armies bordering the target must outnumber the defender ...
    army_superiority: bool = True
    #: R8: ... unless the attacking territory holds more than this many armies
    superiority_waiver_above: int = 10
    #: R8: both sides always roll the maximum dice (attacker min(3, a-1), defender min(3, d))
    max_dice_always: bool = True
    #: R9 ("by_hand_size": 8/10/12 by cards in hand) or the classic 4/6/8/10/12
    set_values: SetValues = "by_hand_size"
    #: R9: (cards in hand, value); the largest threshold not above the hand applies
    set_value_by_hand: tuple[tuple[int, int], ...] = ((3, 8), (4, 10), (5, 12))
    #: classic values: 3 cannoni, 3 fanti, 3 cavalieri, one of each, jolly + 2 equal
    classic_set_values: tuple[tuple[str, int], ...] = (
        ("cannone", 4), ("fante", 6), ("cavaliere", 8), ("mixed", 10), ("jolly", 12),
    )
    #: R9: extra armies for each traded card whose territory the seat owns
    owned_card_bonus: int = 2
    #: R9 reading: the owned-card bonus is placed on that territory
    owned_card_bonus_on_territory: bool = True
    #: cards a seat may hold (None = no limit)
    hand_limit: int | None = None
    #: R2: lowest closing sum (sums below never close)
    closing_low: int = 4
    #: R2: highest closing sum of closing round 1
    closing_first: int = 4
    #: R2: the band widens by this much each closing round
    closing_widen_per_round: int = 1
    #: highest closing sum ever (None = keeps widening)
    closing_high_max: int | None = None
    #: R2: a seat that conquered at least this many territories in the turn does not roll
    closing_skip_if_conquered: int = 3
    #: R12: penalised seats still roll the closing dice
    penalised_seats_roll: bool = True
    #: R1: the base score of a completed objective ("RisiKo!")
    objective_score: int = 100
    #: R1: cap of every other seat's base score
    max_base_score: int = 100
    #: table scoring: R15/R16 ("club-milano") or RTU border points
    scoring: Scoring = "club-milano"
    #: R16: points for a territory in / not in the objective
    territory_points_in_objective: int = 4
    territory_points_outside: int = 1
    #: R15: points per territory of a whole continent in the objective, as a fraction
    #: (numerator, denominator) rounded down per continent: 2.5 = (5, 2)
    continent_points_in_objective: tuple[int, int] = (5, 2)
    #: R15: points per territory of a whole continent not in the objective
    continent_points_outside: int = 1
    #: R5 reading: a penalty may make a table score negative
    scores_floor_at_zero: bool = False
    #: R3: turns without reinforcements, sets, attacks or moves for a late seat
    late_penalty_turns: int = 3
    #: R3 reading, a seat marked late after the game started (an online table the referee
    #: started before he came): "start" (the club's reading) penalises the seat's first
    #: ``late_penalty_turns`` turns of the game, those he missed absent among them (R3:
    #: "per i primi tre turni di gioco", the game's first three turns, not "i tre turni dopo
    #: il suo arrivo"); "arrival" counts them from his arrival. Either way the turn under
    #: way, if his, is penalised from then on and counts as one (:func:`risiko.rules.do_late`)
    late_penalty_from: LatePenaltyFrom = "start"
    #: R3 schedule (local time, HH:MM): on time until, late (penalised) until,
    #: admitted with a phone notice until; the notice must be made by ``phone_notice_by``
    on_time_until: str = "21:10"
    late_until: str = "21:20"
    phoned_until: str = "21:30"
    phone_notice_by: str = "21:10"
    #: R3 reading: a phone notice waives the penalty for arrivals up to this time (None: never)
    phone_notice_waives_penalty_until: str | None = None
    #: R2: tables formed, call of the last 2 rounds; R18: start of the final
    tables_formed_at: str = "21:20"
    last_rounds_call_at: str = "23:30"
    final_starts_at: str = "20:30"
    #: R2/R18: the call of the last 2 rounds at the final; None: the final's whole schedule
    #: moves with its earlier start (club-milano@1 reading: 22:40); club-milano@2: "23:30"
    final_last_rounds_call_at: str | None = None
    #: R11: turn time limit a table may switch on, in minutes
    turn_time_limit_minutes: int = 3
    #: R11 reading: a seat whose turn times out still draws its card if it conquered
    timeout_draws_card: bool = True
    #: R13: ranking points lost by a seat that leaves a game without being eliminated
    abandon_ranking_penalty: int = 25
    #: RTU: fewest armies a fortify move may leave on a territory bordering an enemy
    fortify_min_left_on_border: int = 1
    #: R14: cards of an eliminated seat pass to the eliminator, usable from his next turn
    eliminated_cards_to_eliminator: bool = True
    #: free text: where this ruleset comes from
    source: str = field(default="Risiko! Club Milano, PUNTEGGIO E CLASSIFICA GENERALE")

    def __post_init__(self) -> None:
        """InvalidInputError ``ruleset.bad_late_penalty_from`` (R3) for a
        ``late_penalty_from`` that is not one of :data:`LATE_PENALTY_FROM`."""
        if self.late_penalty_from not in LATE_PENALTY_FROM:
            raise InvalidInputError(BAD_LATE_PENALTY_FROM(
                value=self.late_penalty_from, known=list(LATE_PENALTY_FROM)))

    @property
    def board(self) -> Board:
        """The board this ruleset plays on."""
        return board_by_name(self.board_name)

    @property
    def label(self) -> str:
        """``name@version``, as stored in records and tournaments."""
        return f"{self.name}@{self.version}"

    def initial_armies_for(self, seats: int) -> int:
        """Initial armies per seat for ``seats`` seats; ValueError outside 3..6."""
        table = dict(self.initial_armies)
        if seats not in table:
            raise ValueError(f"{seats} seats: a table has {min(table)} to {max(table)} seats")
        return table[seats]

    def closing_band(self, closing_round: int) -> tuple[int, int]:
        """The (lowest, highest) closing sums of closing round ``closing_round`` (1-based, R2)."""
        if closing_round < 1:
            raise ValueError("closing rounds count from 1")
        high = self.closing_first + (closing_round - 1) * self.closing_widen_per_round
        if self.closing_high_max is not None:
            high = min(high, self.closing_high_max)
        return self.closing_low, high

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict of every field."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Ruleset:
        """Build from :meth:`to_dict` output; unknown keys raise ValueError."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown ruleset fields: {', '.join(unknown)}")
        conv: dict[str, Any] = {}
        for k, v in data.items():
            if isinstance(v, list):
                v = tuple(tuple(x) if isinstance(x, list) else x for x in v)
            conv[k] = v
        return cls(**conv)

    def with_changes(self, **changes: Any) -> Ruleset:
        """A copy with some fields changed (a club's own variant)."""
        return replace(self, **changes)


CLUB_MILANO = Ruleset()

RTU = Ruleset(
    name="rtu",
    version=1,
    board_name="official",
    army_limit=130,
    dice_parity=False,
    army_superiority=False,
    set_values="classic",
    closing_low=2,
    closing_first=4,
    closing_widen_per_round=1,
    closing_high_max=7,
    closing_skip_if_conquered=3,
    scoring="border_points",
    objective_score=86,
    max_base_score=86,
    fortify_min_left_on_border=2,
    source="Regolamento Torneo Ufficiale (national tournament rules), differences of DOMAIN.md",
)

CLASSIC = Ruleset(
    name="classic",
    version=1,
    board_name="official",
    army_limit=None,
    dice_parity=False,
    army_superiority=False,
    set_values="classic",
    late_penalty_turns=0,
    source="RisiKo! box rules; closing dice and R15/R16 scoring kept so that games end",
)

#: club-milano@2 (the reading settled): the final's earlier start (20:30, R18)
#: moves its arrival times, but the call of the last two rounds stays at 23:30 as R2 says
#: (a parameter: ``final_last_rounds_call_at``). New tournaments get it; @1 stays shipped so
#: stored tournaments keep their rules.
CLUB_MILANO_2 = replace(
    CLUB_MILANO,
    version=2,
    final_last_rounds_call_at="23:30",
    source="Risiko! Club Milano, PUNTEGGIO E CLASSIFICA GENERALE; R2 call at 23:30 at the final",
)

#: The presets by name: the version a bare name means (club-milano: @1, as every record,
#: sheet and season file written before @2 means it).
PRESETS: dict[str, Ruleset] = {r.name: r for r in (CLUB_MILANO, RTU, CLASSIC)}

#: Every shipped version of every preset: name -> {version: ruleset}.
VERSIONS: dict[str, dict[int, Ruleset]] = {
    "club-milano": {1: CLUB_MILANO, 2: CLUB_MILANO_2},
    "rtu": {1: RTU},
    "classic": {1: CLASSIC},
}

#: The newest shipped version of every preset: what a bare name typed to create something
#: NEW (a tournament, an online table, a CLI game) means (:func:`new_ruleset`).
NEWEST: dict[str, Ruleset] = {name: shipped[max(shipped)] for name, shipped in VERSIONS.items()}

#: The ruleset a new tournament gets (the newest club-milano).
NEW_TOURNAMENT_RULESET = NEWEST["club-milano"].label

UNKNOWN_RULESET = define("ruleset.unknown", "", "unknown ruleset {name!r} (known: {known})",
                         located=True)
UNKNOWN_VERSION = define("ruleset.unknown_version", "",
                         "ruleset {base} has no version {version} (shipped: {shipped})",
                         located=True)


#: What a person reads for each shipped version (by its label ``name@version``): a human
#: name and one line on what it means, English here, Italian in the catalogue
#: (``locale/it/LC_MESSAGES/ruleset.po``, contexts ``ruleset.title.<label>`` and
#: ``ruleset.meaning.<label>``); forms offer the name, the code stays the value stored.
_DESCRIPTIONS: dict[str, tuple[str, str]] = {
    "club-milano@1": ("Club Milano (first version)",
                      "at the final the call of the last two rounds moves earlier with the "
                      "start (22:40)"),
    "club-milano@2": ("Club Milano 2026",
                      "at the final the call of the last two rounds stays at 23:30"),
    "rtu@1": ("National tournament rules (RTU)",
              "at most 130 armies, no dice parity, classic card set values, border points"),
    "classic@1": ("Box rules (classic)",
                  "no army limit, classic card set values; the club's closing dice and "
                  "scoring so that a game ends"),
}
_TITLES = {label: define(f"ruleset.title.{label}", "", title)
           for label, (title, _m) in _DESCRIPTIONS.items()}
_MEANINGS = {label: define(f"ruleset.meaning.{label}", "", meaning)
             for label, (_t, meaning) in _DESCRIPTIONS.items()}


def ruleset_words(label: str, lang: str | None = None) -> tuple[str, str]:
    """A shipped version's human name and one line on what it means, in ``lang`` (default:
    :func:`~risiko.faults.current_language`); ``label`` is ``name@version`` (a bare name is
    :func:`get_ruleset`'s version). Raises :class:`~risiko.faults.InvalidInputError` as
    :func:`get_ruleset`.

    >>> ruleset_words("club-milano@2", "it")
    ('Club Milano 2026', 'in finale la chiamata degli ultimi due turni resta alle 23:30')
    """
    code = get_ruleset(label).label
    return (Fault(_TITLES[code].code).message(lang), Fault(_MEANINGS[code].code).message(lang))


def get_ruleset(name: str | None = None) -> Ruleset:
    """A preset by name (``club-milano`` when None; ``name@version`` accepted: every shipped
    version, see :data:`VERSIONS`; a bare name is :data:`PRESETS`' version).

    Raises :class:`~risiko.faults.InvalidInputError` (a ValueError) naming the known presets
    for an unknown name or a version not shipped.

    >>> get_ruleset("club-milano@2").final_last_rounds_call_at
    '23:30'
    >>> get_ruleset("club-milano").label
    'club-milano@1'
    """
    if name is None:
        return CLUB_MILANO
    base, _, version = name.partition("@")
    rs = PRESETS.get(base.strip().lower())
    if rs is None:
        raise InvalidInputError(UNKNOWN_RULESET(name=name, known=list(PRESETS)))
    if version:
        shipped = VERSIONS[rs.name]
        found = shipped.get(int(version)) if version.strip().isdigit() else None
        if found is None:
            raise InvalidInputError(UNKNOWN_VERSION(base=base, version=version,
                                                    shipped=sorted(shipped)))
        return found
    return rs


def new_ruleset(name: str | None = None) -> Ruleset:
    """The ruleset of something created now (a tournament, an online table, a CLI game)
    from a name typed: ``name@version`` as given; a bare name is the NEWEST shipped version
    (:data:`NEWEST`), not the one a bare name in a stored record, sheet, season file or row
    means (:func:`get_ruleset`: @1); None is the newest club-milano.

    Raises :class:`~risiko.faults.InvalidInputError` as :func:`get_ruleset`.

    >>> new_ruleset("club-milano").label, new_ruleset("club-milano@1").label
    ('club-milano@2', 'club-milano@1')
    >>> new_ruleset().label, new_ruleset("RTU").label
    ('club-milano@2', 'rtu@1')
    """
    rs = get_ruleset("club-milano" if name is None else name)
    return rs if name is not None and "@" in name else NEWEST[rs.name]


def sheet_ruleset(name: str, version: int) -> str:
    """The ruleset a tournament's table sheets are read under (``parse_sheet(...,
    ruleset=)``): the bare name for version 1 (what the stored sheets of @1 tournaments
    always said, so a result sent again is still the same), ``name@version`` otherwise.

    >>> sheet_ruleset("club-milano", 1), sheet_ruleset("club-milano", 2)
    ('club-milano', 'club-milano@2')
    """
    return name if version == 1 else f"{name}@{version}"

