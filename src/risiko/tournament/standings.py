"""The general ranking of the qualifying evenings (R13, R17, R18), Tabbycat style.

Points (R18 reading): carry-over (R17) + the sum of the player's qualifying *ranking points*
+ his ranking penalties. A table score is the sheet's score (R1, R5, R15, R16) or the score
entered, plus the table penalties after appeals; a player who left a game (R13) scores 0 at
that table and loses ``ruleset.abandon_ranking_penalty`` (25) ranking points. The format's
``ranking_points`` formula turns each table's scores into ranking points
(:mod:`.ranking`; Club Milano: ranking points = table points, so every figure is an
integer). With a format that counts only the best N evenings, or discards the worst ones,
the ranking points of the other evenings are dropped (an absence is the worst evening);
ranking penalties and carry-over always count.

Standings are a registry of named :data:`METRICS` (each a function of a player's
:class:`PlayerRecord`) ranked by the format's ordered ``tie_breaks``; club-milano: points,
then RisiKo! (objectives completed), then best single table score, then fewer ranking
penalty points. Other metrics: wins (a shared win counts for each winner), best winning
score, 2nd and 3rd best score, best ranking points of one table, the position after the
previous evening, the total without discards. Players equal on every tie-break share the
position (shown 1, 1, 3).
Shared positions are resolved only by a recorded draw of lots (:class:`Draw`), and only
where a cut needs it (see :mod:`.finals`).
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import cached_property, lru_cache
from typing import Any, TypeVar

from ..faults import Fault, Severity, current_language, define, define_words
from .format import TournamentFormat
from .model import Draw, Evening, SeatResult, Stage, Tournament
from .ranking import Number, RankingPoints, TableRanking, json_number, number, rank_table
from .seating import expelled_before

T = TypeVar("T")

__all__ = [
    "METRICS",
    "Metric",
    "Move",
    "PlayerRecord",
    "Row",
    "Standings",
    "TableEntry",
    "apply_draws",
    "compare_formats",
    "compute_standings",
    "counted_table_points",
    "counted_tables",
    "describe_format",
    "flatten",
    "player_records",
    "straddling_groups",
    "tied_groups",
]


@dataclass(frozen=True)
class TableEntry:
    """One qualifying table a player played: evening date, table number (1-based), table
    score (table points, penalties included), RisiKo!, left the game (R13), and under the
    format's formula: ``ranking`` points (exact; None means the table score), ``bonus``
    (what the formula added) and ``won`` (a winner of the table, shared wins included)."""

    date: _dt.date
    table: int
    score: int
    risiko: bool
    abandoned: bool
    ranking: Decimal | None = None
    bonus: Decimal = Decimal(0)
    won: bool = False

    @cached_property
    def points(self) -> Decimal:
        """Ranking points of this table (the table score when no formula was applied)."""
        return Decimal(self.score) if self.ranking is None else self.ranking


TOO_FEW_EVENINGS = define("standings.too_few_evenings", "R18", "played {played} of the "
                          "{required} qualifying evenings required")
EXPELLED = define("standings.expelled", "R10", "expelled from the {level} on {date}")

@dataclass(frozen=True)
class PlayerRecord:
    """Everything the qualifying ranking knows of one player.

    ``carry_over`` (R17, ranking points); ``tables`` the played qualifying tables;
    ``ranking_penalties`` effective ranking points (< 0) of referees and of R13;
    ``evenings_held`` the qualifying evenings with a result so far (for best N of M);
    ``expelled`` (level, date) when the player may not be seated any more (R10: expelled
    from the tournament or the club before the first semifinal or final evening), or None;
    ``previous_position`` the player's rank after the previous qualifying evening (None
    before the second evening or when he was not ranked then).
    """

    player: str
    carry_over: int = 0
    tables: tuple[TableEntry, ...] = ()
    ranking_penalties: tuple[int, ...] = ()
    evenings_held: int = 0
    expelled: tuple[str, str] | None = None
    previous_position: int | None = None

    @cached_property
    def by_points(self) -> tuple[TableEntry, ...]:
        """The tables, best ranking points first (then table score, date, table)."""
        return tuple(sorted(self.tables, key=lambda t: (-t.points, -t.score, t.date, t.table)))

    @cached_property
    def scores_down(self) -> tuple[int, ...]:
        """The table scores, highest first."""
        return tuple(sorted((t.score for t in self.tables), reverse=True))

    @cached_property
    def points_down(self) -> tuple[Decimal, ...]:
        """The tables' ranking points, highest first."""
        return tuple(sorted((t.points for t in self.tables), reverse=True))


@dataclass(frozen=True)
class Metric:
    """A named standings metric: ``compute(record, format)`` gives a number (an int, or an
    exact Decimal for ranking points with decimals; None when the player has nothing to
    show, which ranks below every number); ``higher_is_better`` is the direction used when
    it is a tie-break."""

    name: str
    description: str
    compute: Callable[[PlayerRecord, TournamentFormat], Number | None]
    higher_is_better: bool = True


def counted_tables(record: PlayerRecord, fmt: TournamentFormat) -> list[TableEntry]:
    """The tables that count, best ranking points first: all of them, or the best N
    (``best_of``), or all but the ``discard_worst`` worst once more evenings than that have
    been held and at least ``discard_from_evening``; an evening missed counts as the worst
    (0, dropped first)."""
    order = record.by_points
    keep = len(order)
    held = record.evenings_held
    if fmt.best_of is not None:
        keep = fmt.best_of
    elif (fmt.discard_worst and held > fmt.discard_worst
          and held >= fmt.discard_from_evening):
        keep = held - fmt.discard_worst
    return list(order[:keep])


def counted_table_points(record: PlayerRecord, fmt: TournamentFormat) -> int:
    """The table points of the tables that count (:func:`counted_tables`)."""
    return sum(t.score for t in counted_tables(record, fmt))


def _points(r: PlayerRecord, fmt: TournamentFormat) -> Number:
    counted = sum((t.points for t in counted_tables(r, fmt)), Decimal(0))
    return number(r.carry_over + counted + sum(r.ranking_penalties))


def _without_discards(r: PlayerRecord, fmt: TournamentFormat) -> Number:
    every = sum((t.points for t in r.tables), Decimal(0))
    return number(r.carry_over + every + sum(r.ranking_penalties))


def _bonus(r: PlayerRecord, fmt: TournamentFormat) -> Number:
    return number(sum((t.bonus for t in counted_tables(r, fmt)), Decimal(0)))


def _best(r: PlayerRecord, fmt: TournamentFormat) -> int | None:
    return max((t.score for t in r.tables), default=None)


def _nth_score(n: int) -> Callable[[PlayerRecord, TournamentFormat], int | None]:
    def compute(r: PlayerRecord, fmt: TournamentFormat) -> int | None:
        scores = r.scores_down
        return scores[n - 1] if len(scores) >= n else None
    return compute


def _nth_ranking(n: int) -> Callable[[PlayerRecord, TournamentFormat], Number | None]:
    def compute(r: PlayerRecord, fmt: TournamentFormat) -> Number | None:
        values = r.points_down
        return number(values[n - 1]) if len(values) >= n else None
    return compute


#: The registry: name -> :class:`Metric`. ``tie_breaks`` of a format name these.
METRICS: dict[str, Metric] = {
    m.name: m
    for m in (
        Metric("points", "general ranking points: carry-over + ranking points counted + "
               "ranking penalties (R17, R18)", _points),
        Metric("risiko", "objectives completed (RisiKo!) at qualifying tables",
               lambda r, f: sum(t.risiko for t in r.tables)),
        Metric("best", "best single qualifying table score", _best),
        Metric("penalties", "ranking penalty points (<= 0, R13 and referees): fewer "
               "penalty points rank higher", lambda r, f: sum(r.ranking_penalties)),
        Metric("games", "qualifying tables played", lambda r, f: len(r.tables)),
        Metric("table_points", "table scores of the tables counted (without carry-over, "
               "bonus and penalties)", counted_table_points),
        Metric("carry_over", "points carried over from the previous tournament (R17)",
               lambda r, f: r.carry_over),
        Metric("fewer_games", "qualifying tables played, fewer ranking higher",
               lambda r, f: len(r.tables), higher_is_better=False),
        Metric("wins", "qualifying tables won (a shared win counts for each winner)",
               lambda r, f: sum(t.won for t in r.tables)),
        Metric("best_win", "best table score of a table won",
               lambda r, f: max((t.score for t in r.tables if t.won), default=None)),
        Metric("second_best", "second best single qualifying table score", _nth_score(2)),
        Metric("third_best", "third best single qualifying table score", _nth_score(3)),
        Metric("best_ranking", "best ranking points of one qualifying table",
               _nth_ranking(1)),
        Metric("second_best_ranking", "second best ranking points of one qualifying table",
               _nth_ranking(2)),
        Metric("third_best_ranking", "third best ranking points of one qualifying table",
               _nth_ranking(3)),
        Metric("previous_position", "position after the previous qualifying evening (the "
               "better position ranks higher)", lambda r, f: r.previous_position,
               higher_is_better=False),
        Metric("total_without_discards", "carry-over + the ranking points of every table + "
               "ranking penalties, no table discarded", _without_discards),
        Metric("bonus", "what the ranking-point formula added at the tables counted",
               _bonus),
    )
}
#: the metrics' names said in a message's language (a format's description)
define_words("metric", tuple(METRICS))


@dataclass(frozen=True)
class Row:
    """One line of the general ranking: shared ``rank`` (1, 1, 3 ...), the player, the
    metrics shown (``points`` the ranking-points total, an int or an exact Decimal;
    ``games``, ``risiko``, ``best`` (None without games), ``penalties`` (<= 0),
    ``table_points`` and ``bonus`` of the tables counted, ``wins``), ``eligible`` for the
    next stages (format ``min_evenings``, R10) with the reason if not, and every registered
    metric in ``metrics``."""

    rank: int
    player: str
    points: Number
    games: int
    risiko: int
    best: int | None
    penalties: int
    eligible: bool
    not_eligible_because: Fault | None = None
    metrics: dict[str, Number | None] = field(default_factory=dict)
    table_points: int = 0
    bonus: Number = 0
    wins: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``rank, player, points, games, risiko, best, penalties, eligible,
        table_points, bonus, wins`` (ranking figures as JSON numbers: 57, 598.5)."""
        return {
            "rank": self.rank,
            "player": self.player,
            "points": json_number(self.points),
            "games": self.games,
            "risiko": self.risiko,
            "best": self.best,
            "penalties": self.penalties,
            "eligible": self.eligible,
            "table_points": self.table_points,
            "bonus": json_number(self.bonus),
            "wins": self.wins,
        }


@dataclass(frozen=True)
class Standings:
    """The general ranking: ``rows`` best first (equal players ordered by name), the
    ``tie_breaks`` used and the comparison ``keys`` per player (equal key = shared rank)."""

    rows: tuple[Row, ...]
    tie_breaks: tuple[str, ...]
    keys: dict[str, tuple[float, ...]]

    def row(self, player: str) -> Row:
        """The row of ``player`` (KeyError if not ranked)."""
        for r in self.rows:
            if r.player == player:
                return r
        raise KeyError(player)

    @property
    def players(self) -> list[str]:
        """Ranked players, best first."""
        return [r.player for r in self.rows]

    def groups(self, *, eligible_only: bool = False) -> list[list[str]]:
        """The ranking as tied groups, best first (``[[A], [B, C], [D]]``)."""
        ranked = [r.player for r in self.rows if r.eligible or not eligible_only]
        return tied_groups(ranked, self.keys.__getitem__)

    def to_list(self) -> list[dict[str, Any]]:
        """JSON form: the rows' :meth:`Row.to_dict`."""
        return [r.to_dict() for r in self.rows]


def _sort_value(value: Number | None, higher_is_better: bool) -> float:
    if value is None:
        return float("inf")
    return float(-value if higher_is_better else value)


def _held_dates(tournament: Tournament, until: _dt.date | None) -> list[_dt.date]:
    """Dates of the qualifying evenings with a result (up to ``until``), in order."""
    return [e.date for e in tournament.stage_evenings("qualifying")
            if (until is None or e.date <= until) and any(t.played for t in e.tables)]


def player_records(tournament: Tournament, until: _dt.date | None = None,
                   previous: dict[str, int] | None = None) -> dict[str, PlayerRecord]:
    """The :class:`PlayerRecord` of every player with a fact that counts in the qualifying
    ranking (a carry-over, a played qualifying table or a qualifying ranking penalty), by
    name; qualifying evenings after ``until`` are ignored. Each table's ranking points come
    from the format's formula (:func:`risiko.tournament.ranking.rank_table`); ``previous``
    gives the positions after the previous evening."""
    rs = tournament.ruleset
    formula = tournament.format.ranking_points
    carry: dict[str, int] = {}
    for c in tournament.carry_over:
        carry[c.player] = carry.get(c.player, 0) + c.points
    tables: dict[str, list[TableEntry]] = {}
    penalties: dict[str, list[int]] = {}
    held = 0
    evenings = [e for e in tournament.stage_evenings("qualifying")
                if until is None or e.date <= until]
    for e in evenings:
        if any(t.played for t in e.tables):
            held += 1
        for number_, table in enumerate(e.tables, start=1):
            results = table.results(rs)
            if not results:
                continue
            ranked = _rank_table(results, formula, table.winners, table.eliminated)
            for seat in results:
                r = ranked[seat.player]
                tables.setdefault(seat.player, []).append(
                    TableEntry(e.date, number_, seat.score, seat.risiko, seat.abandoned,
                               None if formula.is_table else r.points, r.bonus, r.won))
                if seat.abandoned:
                    penalties.setdefault(seat.player, []).append(-rs.abandon_ranking_penalty)
        for p in e.penalties:
            if p.effective:
                penalties.setdefault(p.player, []).append(p.effective)
    expelled: dict[str, tuple[str, str]] = {}
    if tournament.evenings:
        # eligibility is judged when the next stage is seated: expulsions recorded at the
        # semifinal or the final do not reseat a stage already played
        stages = [e.date for e in tournament.evenings if e.stage != "qualifying"]
        last = max(e.date for e in tournament.evenings)
        # the day after the last evening (the last day of the calendar has no day after)
        cutoff = min(stages) if stages else (
            last + _dt.timedelta(days=1) if last < _dt.date.max else last)
        expelled = expelled_before(tournament, Evening(date=cutoff))
    names = set(carry) | set(tables) | set(penalties)
    before = previous or {}
    return {
        name: PlayerRecord(
            player=name,
            carry_over=carry.get(name, 0),
            tables=tuple(sorted(tables.get(name, []), key=lambda t: (t.date, t.table))),
            ranking_penalties=tuple(sorted(penalties.get(name, []))),
            evenings_held=held,
            expelled=expelled.get(name),
            previous_position=before.get(name),
        )
        for name in names
    }


@lru_cache(maxsize=16384)
def _rank_table(results: tuple[SeatResult, ...], formula: RankingPoints,
                winners: frozenset[str], eliminated: tuple[str, ...]
                ) -> dict[str, TableRanking]:
    """:func:`rank_table`, remembered by value (read it, never change it): the standings of
    every evening, and after a change elsewhere, rank each unchanged table once."""
    return rank_table(results, formula, winners, eliminated)


def compute_standings(tournament: Tournament, until: _dt.date | None = None,
                      draws: Sequence[Draw] = ()) -> Standings:
    """The general ranking after the qualifying evenings (up to ``until`` if given).

    Rows are ordered by the format's tie-breaks; players equal on all of them share the
    rank (a draw of lots does not change the rank shown) and are listed in ``draws`` order
    when a draw covers their whole group, else by name. Eligibility: at least
    ``format.min_evenings`` qualifying tables played and not expelled from the tournament
    or the club (R10).

    ``previous_position`` is the rank after the previous qualifying evening held, computed
    over all players; when it is a tie-break, the ranking of every earlier evening is
    computed in turn (each with its own previous positions).
    """
    dates = _held_dates(tournament, until)
    previous: dict[str, int] | None = None
    if len(dates) >= 2:
        if "previous_position" in tournament.format.tie_breaks:
            for d in dates[:-1]:
                earlier = _standings(tournament, d, (), previous)
                previous = {r.player: r.rank for r in earlier.rows}
        else:
            earlier = _standings(tournament, dates[-2], (), None)
            previous = {r.player: r.rank for r in earlier.rows}
    return _standings(tournament, until, draws, previous)


def _standings(tournament: Tournament, until: _dt.date | None, draws: Sequence[Draw],
               previous: dict[str, int] | None) -> Standings:
    fmt = tournament.format
    records = player_records(tournament, until, previous)
    keys: dict[str, tuple[float, ...]] = {}
    values: dict[str, dict[str, Number | None]] = {}
    for name, rec in records.items():
        values[name] = {m.name: m.compute(rec, fmt) for m in METRICS.values()}
        keys[name] = tuple(_sort_value(values[name][t], METRICS[t].higher_is_better)
                           for t in fmt.tie_breaks)
    order = sorted(records, key=lambda n: (keys[n], n.casefold(), n))
    groups = tied_groups(order, keys.__getitem__)
    rows: list[Row] = []
    position = 1
    for group in groups:
        for name in flatten(apply_draws([group], draws)):
            rec, v = records[name], values[name]
            why: Fault | None = None
            if rec.expelled:
                why = EXPELLED({"player": name}, Severity.WARNING, level=rec.expelled[0],
                               date=rec.expelled[1])
            elif len(rec.tables) < fmt.min_evenings:
                why = TOO_FEW_EVENINGS({"player": name}, Severity.WARNING,
                                       played=len(rec.tables), required=fmt.min_evenings)
            rows.append(Row(
                rank=position,
                player=name,
                points=_num(v["points"]),
                games=_int(v["games"]),
                risiko=_int(v["risiko"]),
                best=_opt_int(v["best"]),
                penalties=_int(v["penalties"]),
                eligible=why is None,
                not_eligible_because=why,
                metrics=v,
                table_points=_int(v["table_points"]),
                bonus=_num(v["bonus"]),
                wins=_int(v["wins"]),
            ))
        position += len(group)
    return Standings(tuple(rows), fmt.tie_breaks, keys)


def tied_groups(ordered: Iterable[T], key: Callable[[T], object]) -> list[list[T]]:
    """``ordered`` cut into groups of consecutive items with an equal ``key``, in order: the
    players sorted best first, keyed by their tie-breaks, give the ranking's tied groups
    (a shared position, R18 reading).

    >>> tied_groups("ABCD", {"A": (1,), "B": (2,), "C": (2,), "D": (3,)}.__getitem__)
    [['A'], ['B', 'C'], ['D']]
    """
    groups: list[list[T]] = []
    last: object = None
    for item in ordered:
        k = key(item)
        if groups and k == last:
            groups[-1].append(item)
        else:
            groups.append([item])
        last = k
    return groups


def flatten(groups: Sequence[Sequence[str]]) -> list[str]:
    """The players of tied ``groups`` in order, ties kept as they are."""
    return [p for g in groups for p in g]


def _int(value: Number | None) -> int:
    return 0 if value is None else int(value)


def _opt_int(value: Number | None) -> int | None:
    return None if value is None else int(value)


def _num(value: Number | None) -> Number:
    return 0 if value is None else number(value)


def apply_draws(groups: Sequence[Sequence[str]], draws: Iterable[Draw]) -> list[list[str]]:
    """Split tied groups by recorded draws of lots: a group whose players all appear in one
    draw becomes one group per player, in the draw's order; other groups stay tied (a draw
    made before a correction that no longer matches a tie is simply not used)."""
    draw_list = list(draws)
    out: list[list[str]] = []
    for group in groups:
        if len(group) > 1:
            for d in draw_list:
                if set(group) <= set(d.order):
                    out.extend([p] for p in sorted(group, key=d.order.index))
                    break
            else:
                out.append(list(group))
        else:
            out.append(list(group))
    return out


def straddling_groups(groups: Sequence[Sequence[str]],
                      slot_of: Callable[[int], object]) -> list[tuple[int, list[str]]]:
    """Tied groups whose positions fall in different slots of the next stage.

    ``slot_of(position)`` (1-based position in the flattened order) names where that
    position goes (a semifinal table, a seat-choice rank, out). Returns ``(first position,
    players)`` for each group that straddles a boundary: those need a draw of lots.
    """
    out: list[tuple[int, list[str]]] = []
    position = 1
    for group in groups:
        slots = {slot_of(position + i) for i in range(len(group))}
        if len(slots) > 1:
            out.append((position, list(group)))
        position += len(group)
    return out


@dataclass(frozen=True)
class Move:
    """One player under two formats: ``rank`` and ``points`` today, ``new_rank`` and
    ``new_points`` under the proposed format (None where he is not ranked)."""

    player: str
    rank: int | None
    points: Number | None
    new_rank: int | None
    new_points: Number | None

    @property
    def moved(self) -> int:
        """Places gained under the proposed format (> 0 up, < 0 down; 0 when the same or
        when either rank is missing)."""
        if self.rank is None or self.new_rank is None:
            return 0
        return self.rank - self.new_rank


def compare_formats(tournament: Tournament, proposed: TournamentFormat) -> list[Move]:
    """The general ranking today and under ``proposed``, side by side, in the proposed
    order: who moves up or down when a club changes its format.

    Worked example: A, B, C, D at one table twice: 60, 55, 10, 0 then 20, 30, 40, 5. By
    table points (Club Milano) B 85, A 80, C 50, D 5; under win-bonus (+50 to the winner)
    A 130, C 100, B 85, D 5: A and C go up one place, B down two.

    >>> from risiko.tournament.format import get_format
    >>> from risiko.tournament.season import parse_season
    >>> def table(*s): return {"seats": list("ABCD"), "scores": dict(zip("ABCD", s))}
    >>> t = parse_season({"name": "T", "players": list("ABCD"), "evenings": [
    ...     {"date": "2027-01-05", "stage": "qualifying", "tables": [table(60, 55, 10, 0)]},
    ...     {"date": "2027-01-12", "stage": "qualifying", "tables": [table(20, 30, 40, 5)]}]})
    >>> [(m.player, m.rank, m.new_rank, m.moved, m.new_points)
    ...  for m in compare_formats(t, get_format("win-bonus"))]
    [('A', 2, 1, 1, 130), ('C', 3, 2, 1, 100), ('B', 1, 3, -2, 85), ('D', 4, 4, 0, 5)]
    """
    now = {r.player: r for r in compute_standings(tournament).rows}
    new = compute_standings(replace(tournament, format=proposed)).rows
    out = [Move(r.player, now[r.player].rank if r.player in now else None,
                now[r.player].points if r.player in now else None, r.rank, r.points)
           for r in new]
    shown = {m.player for m in out}
    out += [Move(p, r.rank, r.points, None, None) for p, r in now.items() if p not in shown]
    return out


#: the parts of :func:`describe_format` after the formula, said in the message's language
HOW_TIES = define("format.how_ties", "", "ties: {metric}")
HOW_BEST_OF = define("format.how_best_of", "", "the best {count} table(s) count")
HOW_DISCARDED = define("format.how_discarded", "", "the {count} worst evening(s) discarded")
HOW_DISCARDED_FROM = define("format.how_discarded_from", "",
                            "the {count} worst evening(s) discarded from the "
                            "{evening:ordinal} qualifying evening")


def describe_format(fmt: TournamentFormat, lang: str | None = None) -> str:
    """How the general ranking is computed, in one line in ``lang`` (default: the current
    language): the ranking-point formula
    (:meth:`risiko.tournament.ranking.RankingPoints.summary`), the tie-breaks after the
    points (the metrics' words) and what is discarded.

    >>> from risiko.tournament.format import get_format
    >>> describe_format(get_format(), "en")
    'ranking points = table points; ties: risiko, best, penalties'
    >>> describe_format(get_format(), "it")
    'punti classifica = punti tavolo; spareggi: RisiKo!, miglior punteggio, penalità'
    >>> from dataclasses import replace
    >>> describe_format(replace(get_format("win-bonus"), discard_worst=1,
    ...                         discard_from_evening=6), "en")  # doctest: +NORMALIZE_WHITESPACE
    'table points, x1.25 at 5-player tables + 50 to the winner, shared by tied winners;
     ties: wins, best; the 1 worst evening(s) discarded from the 6th qualifying evening'
    """
    lang = lang or current_language()
    parts = [fmt.ranking_points.summary(lang)]
    ties = [t for t in fmt.tie_breaks if t != "points"]
    if ties:
        parts.append(HOW_TIES(metric=ties).message(lang))
    if fmt.best_of is not None:
        parts.append(HOW_BEST_OF(count=fmt.best_of).message(lang))
    elif fmt.discard_worst:
        if fmt.discard_from_evening:
            parts.append(HOW_DISCARDED_FROM(count=fmt.discard_worst,
                                            evening=fmt.discard_from_evening).message(lang))
        else:
            parts.append(HOW_DISCARDED(count=fmt.discard_worst).message(lang))
    return "; ".join(parts)


def draws_for(tournament: Tournament, stage: Stage) -> list[Draw]:
    """The recorded draws of lots that seat ``stage``."""
    return [d for d in tournament.draws if d.stage == stage]
