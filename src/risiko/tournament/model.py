"""The recorded facts of a club tournament, as plain frozen dataclasses (no Django).

Vocabulary (DOMAIN.md glossary): a *tournament* has *players*, a *ruleset* (name and version)
and a *format*; it is played over *evenings* (serate), each with a *stage*
(``qualifying`` | ``semifinal`` | ``final``) and a *schedule* (R2/R3 times); an evening
records *arrivals* (R3), *tables* (seat order = turn order) with their result, table
*penalties* (table points: R5 and referees) and ranking penalties (ranking points: R13 and
referees), *appeals* on penalties (preamble), *disciplinary records* (R10). The tournament
also records *carry-over* points (R17) and *draws of lots* for shared positions straddling a
cut (R18 reading).

Everything here is a fact as entered; nothing is derived except in small properties. The
rankings are computed from these facts by :mod:`.standings` and :mod:`.finals`, so a
correction is a new set of facts and the ranking is simply recomputed.

Units: times are minutes after midnight, local time of the club (see :mod:`.dates`: built
with :func:`~risiko.tournament.dates.parse_clock`); table scores and table penalties are
*table points*; carry-over, ranking penalties and the R13 abandonment penalty are *ranking
points*. Penalty points are negative numbers (``-7``). An evening's times are its
:class:`~risiko.tournament.schedule.Schedule`; the format is
:class:`~risiko.tournament.format.TournamentFormat`.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Literal, get_args

from ..faults import define_words
from ..ruleset import Ruleset, get_ruleset
from ..sheet import Sheet, score_sheet
from .format import CLUB_MILANO_FORMAT, TournamentFormat
from .schedule import Schedule

__all__ = [
    "APPEAL_OUTCOMES",
    "ARRIVAL_CLASSES",
    "DISCIPLINE_LEVELS",
    "PENALTY_UNITS",
    "STAGES",
    "Appeal",
    "AppealOutcome",
    "Arrival",
    "ArrivalClass",
    "CarryOver",
    "Discipline",
    "DisciplineLevel",
    "Draw",
    "Evening",
    "Penalty",
    "PenaltyUnit",
    "Player",
    "SeatResult",
    "Stage",
    "Table",
    "Tournament",
]

Stage = Literal["qualifying", "semifinal", "final"]
STAGES: tuple[Stage, ...] = get_args(Stage)

ArrivalClass = Literal["on_time", "late", "excluded"]
ARRIVAL_CLASSES: tuple[ArrivalClass, ...] = get_args(ArrivalClass)

AppealOutcome = Literal["upheld", "reduced", "annulled"]
APPEAL_OUTCOMES: tuple[AppealOutcome, ...] = get_args(AppealOutcome)

#: R10 scopes: a warning, expulsion from the table, from the tournament, from the club
DisciplineLevel = Literal["warning", "table", "tournament", "club"]
DISCIPLINE_LEVELS: tuple[DisciplineLevel, ...] = get_args(DisciplineLevel)

#: the points a penalty takes: table points (on a table, R5) or ranking points (on the
#: evening, R13 and referees); a season file's ``penalties`` and ``table_penalties``
PenaltyUnit = Literal["table", "ranking"]
PENALTY_UNITS: tuple[PenaltyUnit, ...] = get_args(PenaltyUnit)

# The one source of the words of these codes, in every language and every layer (messages,
# the web's choices and pages): the catalogues' ``word.<key>`` entries (see
# :func:`risiko.faults.word`): ``word("arrival_class", "on_time", "it") == "in orario"``.
define_words("stage", STAGES)
define_words("arrival_class", ARRIVAL_CLASSES)
define_words("outcome", APPEAL_OUTCOMES)
define_words("discipline", DISCIPLINE_LEVELS)
define_words("penalty_unit", PENALTY_UNITS)


# --------------------------------------------------------------------------------------------
# people and facts


@dataclass(frozen=True)
class Player:
    """A player (a person), identified by ``name`` within a tournament.

    Closing line of the regulation: ``accepted_ruleset`` (``name@version``) and
    ``accepted_on`` record which regulation the member accepted and when.
    """

    name: str
    accepted_ruleset: str | None = None
    accepted_on: _dt.date | None = None


@dataclass(frozen=True)
class Arrival:
    """A player's arrival at an evening (R3), to the minute (see
    :func:`~risiko.tournament.dates.parse_clock`).

    ``phoned`` is True when the player phoned the organiser about his lateness; ``phoned_at``
    (optional, minutes) is when: a notice later than the schedule's ``phone_notice_by`` does
    not count.
    """

    player: str
    at: int
    phoned: bool = False
    phoned_at: int | None = None


@dataclass(frozen=True)
class Appeal:
    """The outcome of an appeal on a penalty (preamble), decided by the evening's chief
    referee: ``upheld`` (points unchanged), ``reduced`` (to ``points``, same unit, closer to
    zero) or ``annulled`` (0)."""

    outcome: AppealOutcome
    points: int | None = None
    referee: str = ""
    reason: str = ""


@dataclass(frozen=True)
class Penalty:
    """A penalty given by a referee (preamble, R5, R13): ``points`` < 0 in table points (on a
    table) or ranking points (on an evening), with reason, referee, time (minutes or None)
    and an optional appeal."""

    player: str
    points: int
    reason: str = ""
    referee: str = ""
    at: int | None = None
    appeal: Appeal | None = None

    @property
    def effective(self) -> int:
        """The points that count after the appeal: original, reduced, or 0 if annulled."""
        if self.appeal is None or self.appeal.outcome == "upheld":
            return self.points
        if self.appeal.outcome == "annulled":
            return 0
        return self.points if self.appeal.points is None else self.appeal.points


@dataclass(frozen=True)
class Discipline:
    """A disciplinary record (R10): ``level`` warning | table (expelled from the table) |
    tournament | club, with reason, referee and the table number (1-based) if any.

    A player expelled from the tournament or the club is never seated at a later evening
    of the tournament (R10 reading)."""

    player: str
    level: DisciplineLevel
    reason: str = ""
    referee: str = ""
    table: int | None = None


@dataclass(frozen=True)
class CarryOver:
    """R17: ranking points a new member (1 or 2 games played) keeps from the previous
    tournament, confirmed per player by a referee."""

    player: str
    points: int
    referee: str = ""
    note: str = ""


@dataclass(frozen=True)
class Draw:
    """A draw of lots (R18 reading) ordering players who share a position that straddles a
    cut: ``stage`` is the stage it seats (``semifinal``: the qualifying ranking;
    ``final``: the order after the semifinal), ``order`` the players as drawn, best first."""

    stage: Stage
    order: tuple[str, ...]
    referee: str = ""
    note: str = ""


# --------------------------------------------------------------------------------------------
# tables


@dataclass(frozen=True)
class SeatResult:
    """One seat's result at a table.

    ``base`` is the table score from the sheet (R1, R5, R15, R16) or as entered; ``penalty``
    the sum of the seat's table penalties after appeals (<= 0); ``score`` = ``base`` +
    ``penalty`` (``base`` is 0 for a seat that left the game, R13); ``risiko`` True for a
    completed objective; ``abandoned`` True when the player left without being eliminated
    (R13: also ``ruleset.abandon_ranking_penalty`` ranking points lost).
    """

    player: str
    base: int
    penalty: int
    score: int
    risiko: bool
    abandoned: bool


@dataclass(frozen=True)
class Table:
    """A table of an evening: ``seats`` are the players in turn order (seat 1 plays first).

    The result is either ``sheet`` (an end-of-game sheet, scored by :func:`score_sheet`) or
    ``scores`` (table scores entered directly, ``((player, score), ...)``, with ``risiko``
    the players who completed their objective); neither = not yet played. ``abandoned``
    lists players who left the game (R13; a sheet seat marked ``abandoned`` counts too);
    ``penalties`` are table penalties in table points. ``winners`` names the table's
    winners where the club breaks a tie at the table otherwise than by table score (else
    the highest table score wins, see :func:`risiko.tournament.ranking.table_winners`);
    ``eliminated`` is the order of elimination, first out first, for the ranking-point
    formulas that need it.
    """

    seats: tuple[str, ...]
    sheet: Sheet | None = None
    scores: tuple[tuple[str, int], ...] | None = None
    risiko: frozenset[str] = frozenset()
    abandoned: frozenset[str] = frozenset()
    penalties: tuple[Penalty, ...] = ()
    winners: frozenset[str] = frozenset()
    eliminated: tuple[str, ...] = ()

    @property
    def played(self) -> bool:
        """True when a result (sheet or scores) is recorded."""
        return self.sheet is not None or self.scores is not None

    def left_the_game(self) -> frozenset[str]:
        """Players who left the game (R13): ``abandoned`` plus sheet seats marked so."""
        marked = {s.player for s in self.sheet.seats if s.abandoned} if self.sheet else set()
        return self.abandoned | marked

    def results(self, ruleset: Ruleset) -> tuple[SeatResult, ...]:
        """Every seat's :class:`SeatResult`, in seat order; () if not played.

        Players missing from ``scores`` count 0. Raises :class:`risiko.sheet.SheetError`
        only for a sheet whose ruleset cannot be loaded. Remembered by value (the table and
        the ruleset are frozen): the standings of every evening, and of the tournament
        loaded again after a change elsewhere, score each table once.
        """
        if not self.played:
            return ()
        return _table_results(self, ruleset)

    def _results(self, ruleset: Ruleset) -> tuple[SeatResult, ...]:
        gone = self.left_the_game()
        base: dict[str, int] = {}
        risiko: set[str] = set()
        if self.sheet is not None:
            sheet = self.sheet
            if any(s.player in gone and not s.abandoned for s in sheet.seats):
                sheet = replace(sheet, seats=tuple(
                    replace(s, abandoned=True) if s.player in gone else s for s in sheet.seats))
            for seat in score_sheet(sheet, ruleset).seats:
                base[seat.player] = seat.score
                if seat.risiko:
                    risiko.add(seat.player)
        else:
            base = dict(self.scores or ())
            risiko = set(self.risiko)
        out: list[SeatResult] = []
        for player in self.seats:
            pen = sum(p.effective for p in self.penalties if p.player == player)
            b = 0 if player in gone else base.get(player, 0)
            out.append(SeatResult(player, b, pen, b + pen, player in risiko and player not in
                                  gone, player in gone))
        return tuple(out)


@lru_cache(maxsize=16384)
def _table_results(table: Table, ruleset: Ruleset) -> tuple[SeatResult, ...]:
    return table._results(ruleset)


@dataclass(frozen=True)
class Evening:
    """An evening (serata) of the tournament: ``date``, ``stage``, ``schedule`` (R2/R3),
    ``arrivals`` (R3), ``tables`` (numbered from 1 in this order), ``penalties`` (ranking
    points, referees), ``discipline`` (R10), ``absent`` (players known not to have come:
    a semifinalist or finalist listed here is not expected at the stage's table)."""

    date: _dt.date
    stage: Stage = "qualifying"
    schedule: Schedule = field(default_factory=Schedule)
    arrivals: tuple[Arrival, ...] = ()
    tables: tuple[Table, ...] = ()
    penalties: tuple[Penalty, ...] = ()
    discipline: tuple[Discipline, ...] = ()
    absent: frozenset[str] = frozenset()

    @property
    def label(self) -> str:
        """``"2027-03-02 (qualifying)"``: how faults name the evening."""
        return f"{self.date.isoformat()} ({self.stage})"

    @property
    def subjects(self) -> dict[str, str]:
        """``{"evening": "2027-03-02", "stage": "qualifying"}``: the subjects of a fault of
        this evening (its message starts ``evening 2027-03-02 (qualifying)``)."""
        return {"evening": self.date.isoformat(), "stage": self.stage}

    def seated(self) -> list[str]:
        """Every player seated this evening, in table and seat order."""
        return [p for t in self.tables for p in t.seats]

    def table_of(self, player: str) -> int | None:
        """The 1-based number of the player's table, or None if not seated."""
        for i, t in enumerate(self.tables, start=1):
            if player in t.seats:
                return i
        return None

    def arrival_of(self, player: str) -> Arrival | None:
        """The player's recorded arrival (the last one if recorded twice), or None."""
        found = None
        for a in self.arrivals:
            if a.player == player:
                found = a
        return found

# --------------------------------------------------------------------------------------------
# tournament


@dataclass(frozen=True)
class Tournament:
    """A tournament: its facts, from which every ranking is computed.

    ``ruleset_name`` and ``ruleset_version`` name the ruleset it is played under (a preset of
    :mod:`risiko.ruleset`); ``evenings`` are kept in date order by :meth:`sorted`.
    """

    name: str
    players: tuple[Player, ...]
    ruleset_name: str = "club-milano"
    ruleset_version: int = 1
    format: TournamentFormat = CLUB_MILANO_FORMAT
    carry_over: tuple[CarryOver, ...] = ()
    evenings: tuple[Evening, ...] = ()
    draws: tuple[Draw, ...] = ()

    @property
    def ruleset(self) -> Ruleset:
        """The ruleset (:class:`~risiko.faults.InvalidInputError` if that name and version is
        not shipped)."""
        return get_ruleset(f"{self.ruleset_name}@{self.ruleset_version}")

    @property
    def player_names(self) -> tuple[str, ...]:
        """The players' names in registration order."""
        return tuple(p.name for p in self.players)

    def stage_evenings(self, stage: Stage) -> list[Evening]:
        """The evenings of ``stage`` in date order."""
        return sorted((e for e in self.evenings if e.stage == stage), key=lambda e: e.date)

    def evening(self, date: _dt.date) -> Evening:
        """The evening on ``date`` (KeyError if none)."""
        for e in self.evenings:
            if e.date == date:
                return e
        raise KeyError(date)

    def with_evening(self, evening: Evening) -> Tournament:
        """A copy with ``evening`` added, or replacing the evening of the same date."""
        others = tuple(e for e in self.evenings if e.date != evening.date)
        return replace(self, evenings=tuple(sorted((*others, evening), key=lambda e: e.date)))

    def sorted(self) -> Tournament:
        """A copy with evenings in date order."""
        return replace(self, evenings=tuple(sorted(self.evenings, key=lambda e: e.date)))


def scores_in_seat_order(
    seats: Iterable[str], scores: Iterable[tuple[str, int]]
) -> tuple[tuple[str, int], ...]:
    """Direct table scores in the canonical order: seat order, then any other name (a fault
    the checks report) by name. Where the scores come from (a file, a JSON column whose key
    order the database may change) does not change the facts."""
    order = {p: i for i, p in enumerate(seats)}
    return tuple(sorted(scores, key=lambda ps: (order.get(ps[0], len(order)), ps[0])))
