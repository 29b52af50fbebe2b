"""Ranking points: how one table's scores become points of the general ranking, as data.

Club Milano ranks on table points (R18 reading): the ``table`` formula, ranking points = table
points. Many other Italian clubs rank on *ranking points*: the table score plus a bonus for
the table's winner, sometimes with a factor at 5-player tables, or a wholly different scale.
A format names its formula in ``ranking_points`` (:class:`RankingPoints`), e.g.
``{"formula": "win_bonus", "win_bonus": 50, "five_seat_factor": 1.25}``.

Vocabulary (every formula):

- *table points* (``score``): the seat's table score after table penalties (R1, R5, R15, R16,
  referees), an integer;
- the *winner(s)* of a table: the seats with the highest table score, never a seat that left
  the game (R13); a table may name them instead (``winners``, where the club breaks a tie at
  the table otherwise), checked against the scores by :func:`winner_faults`;
- *ranking points* (``points``): what the formula gives, a :class:`~decimal.Decimal` computed
  exactly and rounded once to the formula's ``precision`` (decimal places) with its
  ``rounding`` (``half_up`` unless the formula says otherwise);
- *bonus*: ranking points minus the scaled table points part (the share of a win bonus, the
  +1 of a Master win, the placement bonus of Torneo Gufo ...): what the formula added.

The formulas (:data:`FORMULAS`), each a function documented with its source and a worked
example: ``table`` (Club Milano), ``win_bonus`` (bonus to the winner, shared by tied winners;
GestioneTorneo's "Raduno / Open / Nazionale"), ``thousandths`` (GestioneTorneo's "Master /
Victory"), ``placement_bonus`` (GestioneTorneo's "Torneo Gufo"), ``winner_gap``
(GestioneTorneo's "Campionato Gufo / Spartac") and ``placement`` (points by table size and
place, GestioneTorneo's board-game tournaments). GestioneTorneo is the open-source desktop
program written for Italian RisiKo! clubs (github.com/Vjger/GestioneTorneo, its
``scoreplayer`` classes); these are our own readings of what its classes compute, with every
detail that is not settled there made a parameter.

Numbers: :func:`number` gives an ``int`` for a whole value (``57``, not ``57.0``),
:func:`json_number` the JSON form, :func:`format_points` the text (a comma in Italian:
``598,5``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, ROUND_UP, Decimal
from typing import TYPE_CHECKING, Any

from ..faults import Fault, InvalidInputError, current_language, define
from ..figures import decimal_text

if TYPE_CHECKING:
    from .model import SeatResult

__all__ = [
    "FORMULAS",
    "Formula",
    "Number",
    "RankingPoints",
    "TableRanking",
    "format_points",
    "json_number",
    "number",
    "rank_table",
    "table_winners",
    "winner_faults",
]

#: a ranking figure: an int when whole, else an exact Decimal
Number = int | Decimal

ROUNDINGS: dict[str, str] = {
    "half_up": ROUND_HALF_UP,
    "half_even": ROUND_HALF_EVEN,
    "up": ROUND_UP,
    "down": ROUND_DOWN,
}

# ---------------------------------------------------------------------------- faults

UNKNOWN_FORMULA = define(
    "format.unknown_formula", "",
    "format {format}: unknown ranking_points formula {formula} (known: {known})", located=True)
UNKNOWN_PARAMETER = define(
    "format.unknown_ranking_parameter", "",
    "format {format}: the {formula} formula has no parameter {parameter} (its parameters: "
    "{known})", located=True)
BAD_PARAMETER = define(
    "format.bad_ranking_parameter", "",
    "format {format}: ranking_points {parameter} must be {expected}, not {value}", located=True)
WINNER_NOT_SEATED = define(
    "ranking.winner_not_seated", "",
    "{player} is named among the winners but is not seated at this table", located=True)
WINNER_LEFT = define(
    "ranking.winner_left", "R13",
    "{player} left the game (R13) and cannot be the table's winner", located=True)
WINNER_NOT_TOP = define(
    "ranking.winner_not_top", "",
    "{player} is named among the winners with {score} table points, but the highest table "
    "score is {top}", located=True)
WINNER_WITHOUT_RESULT = define(
    "ranking.winners_without_result", "",
    "winners are named but the table has no result", located=True)
ELIMINATED_NOT_SEATED = define(
    "ranking.eliminated_not_seated", "",
    "{player} is listed in the order of elimination but is not seated at this table", located=True)
ELIMINATED_TWICE = define(
    "ranking.eliminated_twice", "",
    "{player} is listed {count} times in the order of elimination", located=True)
ELIMINATED_WINNER = define(
    "ranking.eliminated_winner", "",
    "{player} is listed as eliminated and named among the winners", located=True)
ELIMINATION_ORDER_MISSING = define(
    "ranking.elimination_order_missing", "",
    "the sheet marks {player} eliminated; the {formula} formula needs the order of "
    "elimination: list every eliminated player in 'eliminated', first out first", located=True)


# ---------------------------------------------------------------------------- numbers


def number(value: Decimal | int) -> Number:
    """``value`` as an ``int`` when it is whole, else as a Decimal without trailing zeros.

    >>> number(Decimal("57.00")), number(Decimal("424.750")), number(3)
    (57, Decimal('424.75'), 3)
    """
    if isinstance(value, int):
        return value
    if value == value.to_integral_value():
        return int(value)
    return value.normalize()


def json_number(value: Decimal | int | None) -> int | float | None:
    """The JSON form of a ranking figure: an int when whole (``57``), else the float whose
    shortest text is the exact decimal (``598.5``); None stays None.

    >>> json_number(Decimal("69.0")), json_number(Decimal("598.50")), json_number(None)
    (69, 598.5, None)
    """
    if value is None:
        return None
    n = number(value)
    return n if isinstance(n, int) else float(n)


def format_points(value: Decimal | int | None, lang: str = "en") -> str:
    """A ranking figure as text: whole numbers without decimals, a decimal comma in Italian,
    a minus sign for negative figures; ``""`` for None.

    >>> format_points(Decimal("598.5"), "it"), format_points(Decimal("424.75")), format_points(57)
    ('598,5', '424.75', '57')
    """
    if value is None:
        return ""
    text = str(number(value))
    return text.replace(".", ",") if lang.lower().startswith("it") else text


def _round(value: Decimal, precision: int, rounding: str) -> Decimal:
    return value.quantize(Decimal(1).scaleb(-precision), rounding=ROUNDINGS[rounding])


# ---------------------------------------------------------------------------- parameters


@dataclass(frozen=True)
class Param:
    """A formula parameter: ``kind`` ``decimal`` | ``int`` | ``bool`` | ``rounding`` |
    ``decimals`` (a list of numbers) | ``by_size`` (``{"4": [..], "5": [..]}``) |
    ``choice``; ``default``;
    ``optional`` when null is allowed; ``choices`` for ``choice``; ``low`` and ``high`` the
    range of a number (each number of a list), ends included: the decimal arithmetic stays
    exact and a bonus is never negative (a divisor is at least ``low`` 1, never 0)."""

    kind: str
    default: Any
    help: str
    optional: bool = False
    choices: tuple[str, ...] = ()
    low: Decimal = Decimal(0)
    high: Decimal = Decimal(1000)


@dataclass(frozen=True)
class TableRanking:
    """One seat's ranking at one table: ``points`` (ranking points, exact), ``bonus`` (what
    the formula added to the scaled table points), ``won`` (a winner of the table; a shared
    win is a win for each), ``place`` (1-based place at the table, shared by ties)."""

    player: str
    score: int
    points: Decimal
    bonus: Decimal
    won: bool
    place: int


@dataclass(frozen=True)
class TableInput:
    """What a formula sees of one table: the seats' results in seat order, the winners, the
    order of elimination (first out first)."""

    seats: tuple[SeatResult, ...]
    winners: frozenset[str]
    eliminated: tuple[str, ...]

    @property
    def size(self) -> int:
        """Seats at the table (3 to 6)."""
        return len(self.seats)


Compute = Callable[[TableInput, "RankingPoints"], dict[str, tuple[Decimal, Decimal]]]


@dataclass(frozen=True)
class Formula:
    """A named formula: its ``params`` (name -> :class:`Param`), its ``compute(table,
    ranking_points) -> {player: (points, bonus)}``, ``needs_elimination_order`` and a one
    line ``summary(ranking_points, lang)`` for the standings' header, in ``lang``."""

    name: str
    params: dict[str, Param]
    compute: Compute
    summary: Callable[[RankingPoints, str], str]
    needs_elimination_order: bool = False


def _freeze(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), _freeze(v)) for k, v in value.items()))
    return value


@dataclass(frozen=True)
class RankingPoints:
    """A format's ``ranking_points``: the ``formula`` name (a key of :data:`FORMULAS`) and
    the parameters given (``params``, name -> value; the others take the formula's
    defaults). Build it with :meth:`from_dict`; :meth:`to_dict` gives it back.

    >>> rp = RankingPoints.from_dict({"formula": "win_bonus", "win_bonus": 50,
    ...                               "five_seat_factor": 1.25})
    >>> rp.get("five_seat_factor"), rp.get("precision"), rp.to_dict()["five_seat_factor"]
    (Decimal('1.25'), 2, 1.25)
    """

    formula: str = "table"
    params: tuple[tuple[str, Any], ...] = field(default=())

    @property
    def spec(self) -> Formula:
        """The :class:`Formula` (KeyError for an unknown name; :meth:`from_dict` refuses)."""
        return FORMULAS[self.formula]

    @property
    def is_table(self) -> bool:
        """True for the Club Milano default (ranking points = table points)."""
        return self.formula == "table"

    def get(self, name: str) -> Any:
        """The value of parameter ``name``: the one given, else the formula's default."""
        for key, value in self.params:
            if key == name:
                return value
        return self.spec.params[name].default

    def summary(self, lang: str | None = None) -> str:
        """How the points are computed, in one line in ``lang`` (default: the current
        language; numbers with a decimal comma in Italian).

        >>> rp = RankingPoints.from_dict({"formula": "win_bonus", "five_seat_factor": 1.25})
        >>> rp.summary("en")
        'table points, x1.25 at 5-player tables + 50 to the winner, shared by tied winners'
        >>> rp.summary("it")
        'punti tavolo, x1,25 ai tavoli da 5 + 50 al vincitore, divisi tra i vincitori a pari merito'
        """
        return self.spec.summary(self, lang or current_language())

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``{"formula": name, parameter: value ...}`` with the parameters given
        (decimals as JSON numbers)."""
        out: dict[str, Any] = {"formula": self.formula}
        for key, value in self.params:
            out[key] = _json_param(value)
        return out

    def all_params(self) -> dict[str, Any]:
        """Every parameter of the formula with its value (given or default), JSON form."""
        return {name: _json_param(self.get(name)) for name in self.spec.params}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | str | None, format_name: str = "?"
                  ) -> RankingPoints:
        """Check and build from the JSON form (a formula name alone is accepted).

        Raises :class:`risiko.faults.InvalidInputError` with every fault
        (``format.unknown_formula``, ``format.unknown_ranking_parameter``,
        ``format.bad_ranking_parameter``).
        """
        faults = ranking_points_faults(data, format_name)
        if faults:
            raise InvalidInputError(*faults)
        if data is None:
            return cls()
        if isinstance(data, str):
            return cls(data)
        spec = FORMULAS[str(data.get("formula", "table"))]
        params = tuple((k, _freeze(_convert(spec.params[k], v)))
                       for k, v in data.items() if k != "formula")
        return cls(spec.name, tuple(sorted(params)))


def _json_param(value: Any) -> Any:
    if isinstance(value, Decimal):
        return json_number(value)
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):
        return {k: _json_param(v) for k, v in value}
    if isinstance(value, tuple):
        return [_json_param(v) for v in value]
    return value


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float | Decimal) and not isinstance(value, bool)


def _in_range(p: Param, value: Any) -> bool:
    """``value`` a finite number between ``p.low`` and ``p.high``."""
    if not _is_number(value):
        return False
    try:
        number = _decimal(value)
    except ArithmeticError:
        return False
    return number.is_finite() and p.low <= number <= p.high


def _decimal(value: Any) -> Decimal:
    return value if isinstance(value, Decimal) else Decimal(str(value))


def _convert(p: Param, value: Any) -> Any:
    if value is None:
        return None
    if p.kind == "decimal":
        return _decimal(value)
    if p.kind == "decimals":
        return [_decimal(v) for v in value]
    if p.kind == "by_size":
        return {str(k): [_decimal(v) for v in vs] for k, vs in value.items()}
    return value


def _param_fault(p: Param, value: Any) -> str | None:
    """What is wrong with ``value`` for ``p`` (the expected shape), or None."""
    if value is None:
        return None if p.optional else "a value"
    within = f"from {p.low} to {p.high}"
    if p.kind == "decimal":
        return None if _in_range(p, value) else f"a number {within}"
    if p.kind == "int":
        ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 6
        return None if ok else "a whole number from 0 to 6"
    if p.kind == "rounding":
        return None if value in ROUNDINGS else f"one of {', '.join(ROUNDINGS)}"
    if p.kind == "bool":
        return None if isinstance(value, bool) else "true or false"
    if p.kind == "choice":
        return None if value in p.choices else f"one of {', '.join(p.choices)}"
    if p.kind == "decimals":
        ok = isinstance(value, list | tuple) and all(_in_range(p, v) for v in value)
        return None if ok else f"a list of numbers {within}"
    if p.kind == "by_size":
        ok = isinstance(value, Mapping) and all(
            str(k).isdigit() and 2 <= int(str(k)) <= 6 and isinstance(vs, list | tuple)
            and len(vs) == int(str(k)) and all(_in_range(p, v) for v in vs)
            for k, vs in value.items())
        return None if ok else ("an object from table size (\"3\" to \"6\") to that many "
                                f"numbers {within}, one per place")
    return None


def ranking_points_faults(data: Any, format_name: str = "?") -> list[Fault]:
    """Every fault of a ``ranking_points`` value ([] when usable)."""
    subjects = {"format": format_name}
    if data is None:
        return []
    if isinstance(data, str):
        data = {"formula": data}
    if not isinstance(data, Mapping):
        return [BAD_PARAMETER(subjects, parameter="ranking_points",
                              expected="an object with a formula", value=repr(data))]
    name = data.get("formula", "table")
    if name not in FORMULAS:
        return [UNKNOWN_FORMULA(subjects, formula=repr(name), known=", ".join(FORMULAS))]
    spec = FORMULAS[name]
    out: list[Fault] = []
    for key, value in data.items():
        if key == "formula":
            continue
        if key not in spec.params:
            out.append(UNKNOWN_PARAMETER(subjects, formula=name, parameter=key,
                                         known=", ".join(spec.params) or "none"))
            continue
        problem = _param_fault(spec.params[key], value)
        if problem:
            out.append(BAD_PARAMETER(subjects, parameter=key, expected=problem,
                                     value=repr(value)))
    return out


# ---------------------------------------------------------------------------- winners


def table_winners(seats: Sequence[SeatResult], named: Iterable[str] = ()) -> frozenset[str]:
    """The winners of a played table: ``named`` when the table names them, else every seat
    with the highest table score that did not leave the game (R13); none when every seat
    left.

    Named players not seated or who left are ignored (:func:`winner_faults` reports them).

    >>> from risiko.tournament.model import SeatResult as S
    >>> sorted(table_winners([S("A", 44, 0, 44, False, False), S("B", 44, 0, 44, False, False),
    ...                       S("C", 12, 0, 12, False, False)]))
    ['A', 'B']
    """
    stayed = [s for s in seats if not s.abandoned]
    chosen = frozenset(named) & {s.player for s in stayed}
    if chosen:
        return chosen
    if not stayed:
        return frozenset()
    top = max(s.score for s in stayed)
    return frozenset(s.player for s in stayed if s.score == top)


def winner_faults(seats: Sequence[SeatResult], winners: Iterable[str],
                  eliminated: Sequence[str], played: bool = True,
                  where: Mapping[str, Any] | None = None) -> list[Fault]:
    """Faults of a table's named ``winners`` and order of ``eliminated`` against its
    ``seats`` (their results when ``played``; any placeholder scores otherwise): winners
    without a result, a winner not seated, who left the game (R13), or below the highest
    table score; an eliminated player not seated, listed twice, or named a winner.
    ``where`` (the subjects ``evening``, ``stage``, ``table``) is added to each fault.

    >>> from risiko.tournament.model import SeatResult as S
    >>> seats = [S("A", 44, 0, 44, False, False), S("B", 40, 0, 40, False, False),
    ...          S("C", 0, 0, 0, False, True)]
    >>> for f in winner_faults(seats, ["B", "C"], ["A", "A"]):
    ...     print(f.code, f.subjects["player"], f.params)
    ranking.winner_not_top B {'score': 40, 'top': 44}
    ranking.winner_left C {}
    ranking.eliminated_twice A {'count': 2}
    """
    out: list[Fault] = []
    at = dict(where or {})
    named = sorted(set(winners))
    by_player = {s.player: s for s in seats}
    if named and not played:
        out.append(WINNER_WITHOUT_RESULT(at))
    stayed = [s.score for s in seats if not s.abandoned]
    top = max(stayed) if stayed and played else None
    for p in named:
        seat = by_player.get(p)
        if seat is None:
            out.append(WINNER_NOT_SEATED({**at, "player": p}))
        elif seat.abandoned:
            out.append(WINNER_LEFT({**at, "player": p}))
        elif top is not None and seat.score != top:
            out.append(WINNER_NOT_TOP({**at, "player": p}, score=seat.score, top=top))
    for p in sorted(set(eliminated)):
        if p not in by_player:
            out.append(ELIMINATED_NOT_SEATED({**at, "player": p}))
        if eliminated.count(p) > 1:
            out.append(ELIMINATED_TWICE({**at, "player": p}, count=eliminated.count(p)))
        if p in named:
            out.append(ELIMINATED_WINNER({**at, "player": p}))
    return out


def rank_table(seats: Sequence[SeatResult], ranking_points: RankingPoints,
               winners: Iterable[str] = (), eliminated: Sequence[str] = ()
               ) -> dict[str, TableRanking]:
    """Every seat's :class:`TableRanking` under ``ranking_points`` (seat order kept).

    ``winners`` names the table's winners where the club says so (else the highest table
    score, see :func:`table_winners`); ``eliminated`` is the order of elimination, first out
    first. Expects faults already refused (:func:`winner_faults`).

    >>> from risiko.tournament.model import SeatResult as S
    >>> seats = [S("A", 44, 0, 44, False, False), S("B", 44, 0, 44, False, False),
    ...          S("C", 12, 0, 12, False, False), S("D", 0, 0, 0, False, False)]
    >>> r = rank_table(seats, RankingPoints.from_dict({"formula": "win_bonus"}))
    >>> [(p, str(t.points), t.won) for p, t in r.items()]
    [('A', '69.00', True), ('B', '69.00', True), ('C', '12.00', False), ('D', '0.00', False)]
    """
    won = table_winners(seats, winners)
    table = TableInput(tuple(seats), won, tuple(eliminated))
    computed = ranking_points.spec.compute(table, ranking_points)
    places = _places(table)
    return {s.player: TableRanking(s.player, s.score, computed[s.player][0],
                                   computed[s.player][1], s.player in won,
                                   places[s.player]) for s in seats}


def _places(table: TableInput) -> dict[str, int]:
    """Places at the table (1 = best, shared by equal scores: 1, 1, 3): the seats still in
    the game by table score, then the eliminated ones (the last out first), then the seats
    that left the game (R13)."""
    out_order = list(table.eliminated)
    gone = [s.player for s in table.seats if s.abandoned]
    alive = [s for s in table.seats if s.player not in out_order and not s.abandoned]
    alive.sort(key=lambda s: (s.player not in table.winners, -s.score))
    places: dict[str, int] = {}
    for i, s in enumerate(alive):
        prev = alive[i - 1] if i else None
        same = prev is not None and prev.score == s.score and (
            (prev.player in table.winners) == (s.player in table.winners))
        places[s.player] = places[prev.player] if same and prev else i + 1
    nxt = len(alive) + 1
    for p in reversed([p for p in out_order if p not in gone]):
        if p in places or p not in {s.player for s in table.seats}:
            continue
        places[p] = nxt
        nxt += 1
    for p in gone:
        places[p] = nxt
        nxt += 1
    for s in table.seats:
        places.setdefault(s.player, nxt)
    return places


# ---------------------------------------------------------------------------- formulas

_PRECISION = Param("int", 2, "decimal places of the ranking points")
_ROUNDING = Param("rounding", "half_up", "rounding to the precision: half_up, half_even, "
                  "up (away from zero), down (towards zero)")


def _factor(table: TableInput, rp: RankingPoints) -> Decimal:
    if table.size == 5 and "five_seat_factor" in rp.spec.params:
        return _decimal(rp.get("five_seat_factor"))
    if table.size == 3 and "three_seat_factor" in rp.spec.params:
        return _decimal(rp.get("three_seat_factor"))
    return Decimal(1)


def _scaled(score: int, table: TableInput, rp: RankingPoints, won: bool = True) -> Decimal:
    """Table points times the table-size factor, capped at ``cap`` when the formula has
    one; with ``cap_players`` ``winners`` only a winner's (``won``) points are capped."""
    value = Decimal(score) * _factor(table, rp)
    cap = rp.get("cap") if "cap" in rp.spec.params else None
    if "cap_players" in rp.spec.params and rp.get("cap_players") == "winners" and not won:
        cap = None
    if cap is not None and value > cap:
        value = _decimal(cap)
    return value


def _share(bonus: Decimal, winners: int, rp: RankingPoints) -> Decimal:
    if winners == 0:
        return Decimal(0)
    limit = rp.get("max_sharing")
    if limit is not None and winners > limit:
        return Decimal(0)
    mode = rp.get("share")
    return bonus if mode == "full" else bonus / winners


def table_formula(table: TableInput, rp: RankingPoints) -> dict[str, tuple[Decimal, Decimal]]:
    """``table``: ranking points = table points (Club Milano, R18 reading; the default).

    Source: the regulation of the Risiko! Club Milano (the general ranking adds table
    scores). Example: a table 57, 30, 13, 0 gives 57, 30, 13, 0 ranking points, bonus 0.

    >>> from risiko.tournament.model import SeatResult as S
    >>> r = rank_table([S("A", 57, 0, 57, False, False), S("B", 30, 0, 30, False, False),
    ...                 S("C", 13, 0, 13, False, False)], RankingPoints())
    >>> [(p, t.points, t.bonus, t.won) for p, t in r.items()]
    [('A', Decimal('57'), Decimal('0'), True), ('B', Decimal('30'), Decimal('0'), False), \
('C', Decimal('13'), Decimal('0'), False)]
    """
    return {s.player: (Decimal(s.score), Decimal(0)) for s in table.seats}


def win_bonus(table: TableInput, rp: RankingPoints) -> dict[str, tuple[Decimal, Decimal]]:
    """``win_bonus``: table points (times ``five_seat_factor`` at a 5-player table,
    ``three_seat_factor`` at a 3-player one, capped at ``cap``) plus ``win_bonus`` to the
    winner; tied winners share it equally (``share`` ``equal``; ``full`` gives each the
    whole bonus), and with ``max_sharing`` N more than N tied winners get nothing. The
    share is rounded to ``precision`` (2) decimal places with ``rounding`` (half up).
    ``cap_players`` says whose points the ``cap`` limits: ``winners`` (the table's
    winners only, as GestioneTorneo's ``ScorePlayerOpen.trascodificaPunteggio``: ``if
    (partita.isVincitore(giocatore) && punteggio > 80f)`` at a 5-player table, nobody
    else) or ``all`` (every seat: the reading of formats stored before this parameter
    existed, which the tournaments' migration 0005 writes into them so their standings do
    not change). The default is ``winners``.

    Sources: clubs' published rankings (50 to a sole winner, two tied at 44 both shown 69,
    x1.25 at 5-player tables); GestioneTorneo's ``ScorePlayerRaduno`` and
    ``ScorePlayerNazionaleRisiko`` (+50 to a sole winner, +25 to each of two tied winners,
    nothing to three or more: ``max_sharing`` 2; no factor at 5-player tables) and
    ``ScorePlayerOpen`` (x1.25 at 5, x0.75 at 3, a 5-player *winner* above 80 counted 100:
    ``cap`` 100 with ``cap_players`` ``winners``).

    Worked example (bonus 50, factor 1.25 at 5): at a 5-player table 80, 44, 20, 10, 0 the
    winner gets 80 x 1.25 + 50 = 150, the others 55, 25, 12.5, 0; three tied at 30 at a
    4-player table share 50 as 16.67 each (50/3 = 16.666.. rounded half up), 46.67 each.

    >>> from risiko.tournament.model import SeatResult as S
    >>> rp = RankingPoints.from_dict({"formula": "win_bonus", "five_seat_factor": 1.25})
    >>> five = [S(p, v, 0, v, False, False) for p, v in zip("ABCDE", (80, 44, 20, 10, 0))]
    >>> [str(t.points) for t in rank_table(five, rp).values()]
    ['150.00', '55.00', '25.00', '12.50', '0.00']
    >>> tied = [S(p, v, 0, v, False, False) for p, v in zip("ABCD", (30, 30, 30, 10))]
    >>> [(str(t.points), str(t.bonus)) for t in rank_table(tied, rp).values()][:2]
    [('46.67', '16.67'), ('46.67', '16.67')]

    With ``cap`` 100 at a 5-player table 84, 82, 0, 0, 0: the winner 84 x 1.25 = 105 is
    counted 100, + 50 = 150; the second's 82 x 1.25 = 102.5 stays (he did not win), unless
    ``cap_players`` is ``all`` (100).

    >>> capped = [S(p, v, 0, v, False, False) for p, v in zip("ABCDE", (84, 82, 0, 0, 0))]
    >>> rp = RankingPoints.from_dict({"formula": "win_bonus", "five_seat_factor": 1.25,
    ...                               "cap": 100})
    >>> [str(t.points) for t in rank_table(capped, rp).values()][:2]
    ['150.00', '102.50']
    >>> rp = RankingPoints.from_dict({"formula": "win_bonus", "five_seat_factor": 1.25,
    ...                               "cap": 100, "cap_players": "all"})
    >>> [str(t.points) for t in rank_table(capped, rp).values()][:2]
    ['150.00', '100.00']
    """
    precision, rounding = rp.get("precision"), rp.get("rounding")
    share = _round(_share(_decimal(rp.get("win_bonus")), len(table.winners), rp),
                   precision, rounding)
    out = {}
    for s in table.seats:
        base = _round(_scaled(s.score, table, rp, s.player in table.winners),
                      precision, rounding)
        bonus = share if s.player in table.winners else Decimal(0)
        out[s.player] = (base + bonus, bonus)
    return out


def thousandths(table: TableInput, rp: RankingPoints) -> dict[str, tuple[Decimal, Decimal]]:
    """``thousandths``: table points (x ``five_seat_factor`` 1.25 at a 5-player table,
    capped at ``cap`` 100; a RisiKo! counts as the cap) divided by ``divisor`` (1000), plus
    ``win_point`` (1) to each winner (``share`` ``full``: tied winners each get it),
    rounded to ``precision`` 3 with ``rounding`` ``up`` (away from zero), so the most one
    table gives is 1.100.

    Source: GestioneTorneo's ``ScorePlayerQualificazioniNazionale`` (the "Master" and
    "Victory" tournaments: a 5-player table score of 80 or more counts 100, otherwise
    x1.25; winner 1 + points/1000, others points/1000, rounded up to thousandths).

    Worked example: at a 5-player table 57 (winner), 41, 9, 0, 0 give 1 + 71.25/1000 =
    1.07125, rounded up 1.072; 41 x 1.25 = 51.25 -> 0.052; 9 x 1.25 = 11.25 -> 0.012. A
    RisiKo! gives 1.100.

    >>> from risiko.tournament.model import SeatResult as S
    >>> rp = RankingPoints.from_dict({"formula": "thousandths"})
    >>> five = [S(p, v, 0, v, False, False) for p, v in zip("ABCDE", (57, 41, 9, 0, 0))]
    >>> [str(t.points) for t in rank_table(five, rp).values()]
    ['1.072', '0.052', '0.012', '0.000', '0.000']
    >>> four = [S("A", 100, 0, 100, True, False), S("B", 30, 0, 30, False, False),
    ...         S("C", 20, 0, 20, False, False), S("D", 5, 0, 5, False, False)]
    >>> str(rank_table(four, rp)["A"].points)
    '1.100'
    """
    precision, rounding = rp.get("precision"), rp.get("rounding")
    divisor = _decimal(rp.get("divisor"))
    cap = rp.get("cap")
    win = _round(_share(_decimal(rp.get("win_point")), len(table.winners), rp),
                 precision, rounding)
    out = {}
    for s in table.seats:
        scaled = _scaled(s.score, table, rp)
        if s.risiko and cap is not None:
            scaled = _decimal(cap)
        base = _round(scaled / divisor, precision, rounding)
        bonus = win if s.player in table.winners else Decimal(0)
        out[s.player] = (base + bonus, bonus)
    return out


def placement_bonus(table: TableInput, rp: RankingPoints
                    ) -> dict[str, tuple[Decimal, Decimal]]:
    """``placement_bonus``: a bonus for the place at the table (``placement_bonus`` 12, 7,
    5, 3, 2 for the 1st to 5th place; equal scores share the better place) plus table
    points / ``divisor`` (100), x ``five_seat_factor`` 1.25 at 5 and x ``three_seat_factor``
    0.75 at 3. An eliminated player gets no table-points part and ``eliminated_bonus``
    (3, 2, 1, 0): with ``eliminated_by`` ``place`` (the default) the value of his place
    among the 2nd, 3rd, 4th, 5th (eliminated players are placed below those still in the
    game, the last out first); with ``order`` the last out gets the first value, the one
    before the second, and so on. A seat that left the game (R13) is placed last, with no
    bonus. Places beyond the lists get 0. Rounded to ``precision`` 4.

    Source: GestioneTorneo's ``ScorePlayerTorneoGufo`` ("Torneo Gufo": placement bonus
    12/7/5/3/2, 3/2/1/0 for players out of the game, points/100 with the factors at 5 and
    3). The table needs the order of elimination (``eliminated``).

    Worked example: a 4-player table where C is eliminated first and D second, A 60 and B
    40 still in: A 12 + 0.60 = 12.6, B 7 + 0.40 = 7.4, D (3rd place) 2, C (4th) 1.

    >>> from risiko.tournament.model import SeatResult as S
    >>> seats = [S("A", 60, 0, 60, False, False), S("B", 40, 0, 40, False, False),
    ...          S("C", 0, 0, 0, False, False), S("D", 0, 0, 0, False, False)]
    >>> rp = RankingPoints.from_dict({"formula": "placement_bonus"})
    >>> r = rank_table(seats, rp, eliminated=["C", "D"])
    >>> [(p, number(t.points), t.place) for p, t in r.items()]
    [('A', Decimal('12.6'), 1), ('B', Decimal('7.4'), 2), ('C', 1, 4), ('D', 2, 3)]
    """
    precision, rounding = rp.get("precision"), rp.get("rounding")
    places = _places(table)
    alive_list = [_decimal(v) for v in rp.get("placement_bonus")]
    out_list = [_decimal(v) for v in rp.get("eliminated_bonus")]
    divisor = _decimal(rp.get("divisor"))
    by_order = rp.get("eliminated_by") == "order"
    out_last_first = list(reversed(table.eliminated))
    out: dict[str, tuple[Decimal, Decimal]] = {}
    for s in table.seats:
        place = places[s.player]
        if s.abandoned:
            bonus, part = Decimal(0), Decimal(0)
        elif s.player in table.eliminated:
            index = out_last_first.index(s.player) if by_order else place - 2
            bonus = out_list[index] if 0 <= index < len(out_list) else Decimal(0)
            part = Decimal(0)
        else:
            bonus = alive_list[place - 1] if place <= len(alive_list) else Decimal(0)
            part = Decimal(max(s.score, 0)) * _factor(table, rp) / divisor
        out[s.player] = (_round(bonus + part, precision, rounding), bonus)
    return out


def winner_gap(table: TableInput, rp: RankingPoints) -> dict[str, tuple[Decimal, Decimal]]:
    """``winner_gap``: the winner gets ``base`` (100) + his table points (x
    ``five_seat_factor`` 1.25 at a 5-player table); every other seat gets ``base`` minus its
    gap to the winner's table points. When the winner completed his objective (RisiKo!) or
    scored ``full_gap_from`` (86) or more, the gap is measured from ``base`` instead.
    Tied winners each get ``base`` + their points. Rounded to ``precision`` 2. With
    ``risiko_points`` N a winner who completed his objective counts N table points
    (before the factor) whatever his seat scored; null (the default, the reading of
    formats stored before this parameter) counts his own table points.

    Source: GestioneTorneo's ``ScorePlayerCampionatoGufo`` ("Campionato Gufo", "Spartac").
    Its manual (ManualeGestioneTorneo V2.4, "Campionato Gufo") says a RisiKo!, "anche
    indicando 100 punti sulla scheda partita", gives 186; its code gives 200: a RisiKo! is
    written 100 on GestioneTorneo's sheet ("per il RisiKo deve essere indicato 100 come
    punteggio") and ``trascodificaPunteggio`` gives a winner ``100+punteggio``
    (``punteggio*1.25f`` first at a 5-player table), so 200 (225 at 5). We follow the
    code: the ``campionato-gufo@2`` preset sets ``risiko_points`` 100; the losers' gap is
    measured from 100 (``punteggioVinc < 86 ? punteggioVinc : 100``) either way.

    Worked example: a 4-player table 62, 50, 31, 0: 162, 88, 69, 38. A RisiKo! (86 under
    rtu scoring) with 40, 20, 10 at the table: 186, 40, 20, 10 by default; 200, 40, 20, 10
    with ``risiko_points`` 100.

    >>> from risiko.tournament.model import SeatResult as S
    >>> rp = RankingPoints.from_dict({"formula": "winner_gap"})
    >>> four = [S(p, v, 0, v, False, False) for p, v in zip("ABCD", (62, 50, 31, 0))]
    >>> [number(t.points) for t in rank_table(four, rp).values()]
    [162, 88, 69, 38]
    >>> rk = [S("A", 86, 0, 86, True, False)] + [S(p, v, 0, v, False, False)
    ...                                          for p, v in zip("BCD", (40, 20, 10))]
    >>> [number(t.points) for t in rank_table(rk, rp).values()]
    [186, 40, 20, 10]
    >>> rp = RankingPoints.from_dict({"formula": "winner_gap", "risiko_points": 100})
    >>> [number(t.points) for t in rank_table(rk, rp).values()]
    [200, 40, 20, 10]
    """
    precision, rounding = rp.get("precision"), rp.get("rounding")
    base = _decimal(rp.get("base"))
    full_from = rp.get("full_gap_from")
    seats = {s.player: s for s in table.seats}
    winners = [seats[p] for p in table.winners if p in seats]
    out: dict[str, tuple[Decimal, Decimal]] = {}
    if not winners:
        return {s.player: (Decimal(s.score), Decimal(0)) for s in table.seats}
    top = max(w.score for w in winners)
    full = any(w.risiko for w in winners) or (full_from is not None and top >= full_from)
    reference = base if full else Decimal(top)
    risiko_points = rp.get("risiko_points")
    for s in table.seats:
        if s.player in table.winners:
            counted = (_decimal(risiko_points) if s.risiko and risiko_points is not None
                       else Decimal(s.score))
            scaled = _round(counted * _factor(table, rp), precision, rounding)
            out[s.player] = (base + scaled, base)
        else:
            points = _round(base - (reference - s.score), precision, rounding)
            out[s.player] = (points, points - s.score)
    return out


def placement(table: TableInput, rp: RankingPoints) -> dict[str, tuple[Decimal, Decimal]]:
    """``placement``: points by table size and place (``points_by_size``; default 3: 100,
    55, 10; 4: 100, 60, 40, 20; 5: 100, 65, 50, 30, 15; 6: 100, 70, 55, 40, 25, 10); players
    sharing a place share the average of the places they cover (rounded to ``precision`` 2
    with ``rounding`` ``down``); with ``table_share`` true, each also adds his table points
    divided by the table's total (rounded down to thousandths).

    Source: GestioneTorneo's ``ScorePlayerTorneoBGL`` (placement points by table size; its
    extra "ghost" seat at 3-player tables is not reproduced).

    Worked example: a 4-player table 70, 40, 40, 10: 100, (60 + 40) / 2 = 50, 50, 20.

    >>> from risiko.tournament.model import SeatResult as S
    >>> rp = RankingPoints.from_dict({"formula": "placement"})
    >>> four = [S(p, v, 0, v, False, False) for p, v in zip("ABCD", (70, 40, 40, 10))]
    >>> [number(t.points) for t in rank_table(four, rp).values()]
    [100, 50, 50, 20]
    """
    precision, rounding = rp.get("precision"), rp.get("rounding")
    by_size = dict(rp.get("points_by_size"))
    row = [_decimal(v) for v in by_size.get(str(table.size), ())]
    places = _places(table)
    total = sum(max(s.score, 0) for s in table.seats)
    out: dict[str, tuple[Decimal, Decimal]] = {}
    for s in table.seats:
        place = places[s.player]
        covered = sum(1 for q in places.values() if q == place)
        values = [row[i] if i < len(row) else Decimal(0)
                  for i in range(place - 1, place - 1 + covered)]
        bonus = _round(sum(values, Decimal(0)) / covered, precision, rounding)
        part = Decimal(0)
        if rp.get("table_share") and total > 0:
            part = _round(Decimal(max(s.score, 0)) / total, 3, "down")
        out[s.player] = (bonus + part, bonus)
    return out


def _params(**params: Param) -> dict[str, Param]:
    return params


#: the one line on how each formula computes the ranking points (the standings' header)
HOW = {key: define(f"format.how_{key}", "", text) for key, text in {
    "table": "ranking points = table points",
    "win_bonus_equal": "table points{factors} + {bonus} to the winner, shared by tied winners",
    "win_bonus_full": "table points{factors} + {bonus} to the winner, to each tied winner",
    "thousandths": "{point} to the winner + table points / {divisor}{factors}",
    "placement_bonus": "placement bonus {bonus} (eliminated {eliminated}) + table points / "
                       "{divisor}{factors}",
    "winner_gap": "winner {base} + table points, others {base} minus the gap to the winner",
    "placement": "points by place at the table (by table size)",
    "factor": "x{factor} at {seats}-player tables",
}.items()}


def _num(value: Any, lang: str) -> str:
    """A number of a formula as the language writes it (a decimal comma in Italian), its
    own digits (:func:`number`: ``0,5``, ``1000``)."""
    return decimal_text(number(value), None, lang)


def _with_factor(rp: RankingPoints, lang: str) -> str:
    parts = []
    names = rp.spec.params
    for seats, name in ((5, "five_seat_factor"), (3, "three_seat_factor")):
        factor = rp.get(name) if name in names else None
        if factor is not None and factor != 1:
            parts.append(HOW["factor"](factor=_num(factor, lang), seats=seats).message(lang))
    return (", " + ", ".join(parts)) if parts else ""


def _how(key: str, lang: str, **params: Any) -> str:
    return HOW[key](**params).message(lang)


_FIVE = Param("decimal", Decimal(1), "factor on table points at a 5-player table",
               high=Decimal(10))
_THREE = Param("decimal", Decimal(1), "factor on table points at a 3-player table",
               high=Decimal(10))
#: a divisor's range: never 0 (the ranking points would be infinite)
_DIVISOR_LOW, _DIVISOR_HIGH = Decimal(1), Decimal(1_000_000)

#: The formulas by name.
FORMULAS: dict[str, Formula] = {f.name: f for f in (
    Formula("table", {}, table_formula,
            lambda rp, lang: _how("table", lang)),
    Formula("win_bonus", _params(
        win_bonus=Param("decimal", Decimal(50), "bonus to the table's winner"),
        five_seat_factor=_FIVE, three_seat_factor=_THREE,
        cap=Param("decimal", None, "most table points counted (after the factor)",
                  optional=True),
        cap_players=Param("choice", "winners", "whose points the cap limits: the table's "
                          "winners or all seats", choices=("winners", "all")),
        share=Param("choice", "equal", "tied winners: equal shares or each the full bonus",
                    choices=("equal", "full")),
        max_sharing=Param("int", None, "more tied winners than this get no bonus",
                          optional=True),
        precision=_PRECISION, rounding=_ROUNDING), win_bonus,
        lambda rp, lang: _how("win_bonus_" + ("equal" if rp.get("share") == "equal"
                                              else "full"), lang,
                              factors=_with_factor(rp, lang),
                              bonus=_num(rp.get("win_bonus"), lang))),
    Formula("thousandths", _params(
        win_point=Param("decimal", Decimal(1), "added to each winner"),
        five_seat_factor=Param("decimal", Decimal("1.25"), _FIVE.help, high=Decimal(10)),
        cap=Param("decimal", Decimal(100), "most table points counted (a RisiKo! counts "
                  "this)", optional=True),
        divisor=Param("decimal", Decimal(1000), "table points are divided by this",
                      low=_DIVISOR_LOW, high=_DIVISOR_HIGH),
        share=Param("choice", "full", "tied winners: each the full point or equal shares",
                    choices=("full", "equal")),
        max_sharing=Param("int", None, "more tied winners than this get nothing",
                          optional=True),
        precision=Param("int", 3, _PRECISION.help),
        rounding=Param("rounding", "up", _ROUNDING.help)), thousandths,
        lambda rp, lang: _how("thousandths", lang, point=_num(rp.get("win_point"), lang),
                              divisor=_num(rp.get("divisor"), lang),
                              factors=_with_factor(rp, lang))),
    Formula("placement_bonus", _params(
        placement_bonus=Param("decimals", [Decimal(v) for v in (12, 7, 5, 3, 2)],
                              "bonus by place at the table, 1st first"),
        eliminated_bonus=Param("decimals", [Decimal(v) for v in (3, 2, 1, 0)],
                               "bonus of eliminated players (places 2nd.. or last out "
                               "first)"),
        eliminated_by=Param("choice", "place", "eliminated bonus by place at the table or "
                            "by order of elimination", choices=("place", "order")),
        divisor=Param("decimal", Decimal(100), "table points are divided by this",
                      low=_DIVISOR_LOW, high=_DIVISOR_HIGH),
        five_seat_factor=Param("decimal", Decimal("1.25"), _FIVE.help, high=Decimal(10)),
        three_seat_factor=Param("decimal", Decimal("0.75"), _THREE.help, high=Decimal(10)),
        precision=Param("int", 4, _PRECISION.help), rounding=_ROUNDING), placement_bonus,
        lambda rp, lang: _how(
            "placement_bonus", lang,
            bonus="/".join(_num(v, lang) for v in rp.get("placement_bonus")),
            eliminated="/".join(_num(v, lang) for v in rp.get("eliminated_bonus")),
            divisor=_num(rp.get("divisor"), lang), factors=_with_factor(rp, lang)),
        needs_elimination_order=True),
    Formula("winner_gap", _params(
        base=Param("decimal", Decimal(100), "the winner's base; the others' base"),
        five_seat_factor=Param("decimal", Decimal("1.25"), "factor on the winner's table "
                               "points at a 5-player table", high=Decimal(10)),
        full_gap_from=Param("decimal", Decimal(86), "a winner's score from which the gap "
                            "is measured from the base", optional=True),
        risiko_points=Param("decimal", None, "table points a winner's RisiKo! counts "
                            "(null: his own table points)", optional=True),
        precision=_PRECISION, rounding=_ROUNDING), winner_gap,
        lambda rp, lang: _how("winner_gap", lang, base=_num(rp.get("base"), lang))),
    Formula("placement", _params(
        points_by_size=Param("by_size", {"3": [100, 55, 10], "4": [100, 60, 40, 20],
                                         "5": [100, 65, 50, 30, 15],
                                         "6": [100, 70, 55, 40, 25, 10]},
                             "points by table size and place"),
        table_share=Param("bool", False, "add table points / the table's total"),
        precision=_PRECISION, rounding=Param("rounding", "down", _ROUNDING.help)),
        placement,
        lambda rp, lang: _how("placement", lang)),
)}
