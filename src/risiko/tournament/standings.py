"""The general ranking of the qualifying evenings (R13, R17, R18), Tabbycat style.

Points (R18 reading): carry-over (R17) + the sum of the player's qualifying table scores +
his ranking penalties. A table score is the sheet's score (R1, R5, R15, R16) or the score
entered, plus the table penalties after appeals; a player who left a game (R13) scores 0 at
that table and loses ``ruleset.abandon_ranking_penalty`` (25) ranking points. With a format
that counts only the best N evenings, the table scores of the other evenings are dropped
(an absence is the worst evening); ranking penalties and carry-over always count.

Standings are a registry of named :data:`METRICS` (each a function of a player's
:class:`PlayerRecord`) ranked by the format's ordered ``tie_breaks``; club-milano: points,
then RisiKo! (objectives completed), then best single table score, then fewer ranking
penalty points. Players equal on every tie-break share the position (shown 1, 1, 3).
Shared positions are resolved only by a recorded draw of lots (:class:`Draw`), and only
where a cut needs it (see :mod:`.finals`).
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..faults import Fault, Severity, define
from .model import Draw, Evening, Stage, Tournament, TournamentFormat
from .seating import expelled_before

__all__ = [
    "METRICS",
    "Metric",
    "PlayerRecord",
    "Row",
    "Standings",
    "TableEntry",
    "apply_draws",
    "compute_standings",
    "counted_table_points",
    "player_records",
    "straddling_groups",
]


@dataclass(frozen=True)
class TableEntry:
    """One qualifying table a player played: evening date, table number (1-based), table
    score (table points, penalties included), RisiKo!, left the game (R13)."""

    date: _dt.date
    table: int
    score: int
    risiko: bool
    abandoned: bool


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
    from the tournament or the club before the first semifinal or final evening), or None.
    """

    player: str
    carry_over: int = 0
    tables: tuple[TableEntry, ...] = ()
    ranking_penalties: tuple[int, ...] = ()
    evenings_held: int = 0
    expelled: tuple[str, str] | None = None


@dataclass(frozen=True)
class Metric:
    """A named standings metric: ``compute(record, format)`` gives an int (or None when the
    player has nothing to show, which ranks below every number); ``higher_is_better`` is
    the direction used when it is a tie-break."""

    name: str
    description: str
    compute: Callable[[PlayerRecord, TournamentFormat], int | None]
    higher_is_better: bool = True


def counted_table_points(record: PlayerRecord, fmt: TournamentFormat) -> int:
    """The table points that count: all of them, or the best N (``best_of``), or all but
    the ``discard_worst`` worst once more evenings than that have been held; an evening
    missed counts as the worst (0, dropped first)."""
    scores = sorted((t.score for t in record.tables), reverse=True)
    keep = len(scores)
    if fmt.best_of is not None:
        keep = fmt.best_of
    elif fmt.discard_worst and record.evenings_held > fmt.discard_worst:
        keep = record.evenings_held - fmt.discard_worst
    return sum(scores[:keep])


def _points(r: PlayerRecord, fmt: TournamentFormat) -> int:
    return r.carry_over + counted_table_points(r, fmt) + sum(r.ranking_penalties)


def _best(r: PlayerRecord, fmt: TournamentFormat) -> int | None:
    return max((t.score for t in r.tables), default=None)


#: The registry: name -> :class:`Metric`. ``tie_breaks`` of a format name these.
METRICS: dict[str, Metric] = {
    m.name: m
    for m in (
        Metric("points", "general ranking points: carry-over + table scores counted + "
               "ranking penalties (R17, R18)", _points),
        Metric("risiko", "objectives completed (RisiKo!) at qualifying tables",
               lambda r, f: sum(t.risiko for t in r.tables)),
        Metric("best", "best single qualifying table score", _best),
        Metric("penalties", "ranking penalty points (<= 0, R13 and referees): fewer "
               "penalty points rank higher", lambda r, f: sum(r.ranking_penalties)),
        Metric("games", "qualifying tables played", lambda r, f: len(r.tables)),
        Metric("table_points", "table scores counted (without carry-over and penalties)",
               counted_table_points),
        Metric("carry_over", "points carried over from the previous tournament (R17)",
               lambda r, f: r.carry_over),
        Metric("fewer_games", "qualifying tables played, fewer ranking higher",
               lambda r, f: len(r.tables), higher_is_better=False),
    )
}


@dataclass(frozen=True)
class Row:
    """One line of the general ranking: shared ``rank`` (1, 1, 3 ...), the player, the
    metrics shown (``points``, ``games``, ``risiko``, ``best`` (None without games),
    ``penalties`` (<= 0)), ``eligible`` for the next stages (format ``min_evenings``, R10)
    with the reason if not, and every registered metric in ``metrics``."""

    rank: int
    player: str
    points: int
    games: int
    risiko: int
    best: int | None
    penalties: int
    eligible: bool
    not_eligible_because: Fault | None = None
    metrics: dict[str, int | None] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``rank, player, points, games, risiko, best, penalties, eligible``."""
        return {
            "rank": self.rank,
            "player": self.player,
            "points": self.points,
            "games": self.games,
            "risiko": self.risiko,
            "best": self.best,
            "penalties": self.penalties,
            "eligible": self.eligible,
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
        out: list[list[str]] = []
        last: tuple[float, ...] | None = None
        for r in self.rows:
            if eligible_only and not r.eligible:
                continue
            key = self.keys[r.player]
            if out and key == last:
                out[-1].append(r.player)
            else:
                out.append([r.player])
            last = key
        return out

    def to_list(self) -> list[dict[str, Any]]:
        """JSON form: the rows' :meth:`Row.to_dict`."""
        return [r.to_dict() for r in self.rows]


def _sort_value(value: int | None, higher_is_better: bool) -> float:
    if value is None:
        return float("inf")
    return float(-value if higher_is_better else value)


def player_records(tournament: Tournament, until: _dt.date | None = None
                   ) -> dict[str, PlayerRecord]:
    """The :class:`PlayerRecord` of every player with a fact that counts in the qualifying
    ranking (a carry-over, a played qualifying table or a qualifying ranking penalty), by
    name; qualifying evenings after ``until`` are ignored."""
    rs = tournament.ruleset
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
        for number, table in enumerate(e.tables, start=1):
            for seat in table.results(rs):
                tables.setdefault(seat.player, []).append(
                    TableEntry(e.date, number, seat.score, seat.risiko, seat.abandoned))
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
        cutoff = min(stages) if stages else (max(e.date for e in tournament.evenings)
                                             + _dt.timedelta(days=1))
        expelled = expelled_before(tournament, Evening(date=cutoff))
    names = set(carry) | set(tables) | set(penalties)
    return {
        name: PlayerRecord(
            player=name,
            carry_over=carry.get(name, 0),
            tables=tuple(sorted(tables.get(name, []), key=lambda t: (t.date, t.table))),
            ranking_penalties=tuple(sorted(penalties.get(name, []))),
            evenings_held=held,
            expelled=expelled.get(name),
        )
        for name in names
    }


def compute_standings(tournament: Tournament, until: _dt.date | None = None,
                      draws: Sequence[Draw] = ()) -> Standings:
    """The general ranking after the qualifying evenings (up to ``until`` if given).

    Rows are ordered by the format's tie-breaks; players equal on all of them share the
    rank (a draw of lots does not change the rank shown) and are listed in ``draws`` order
    when a draw covers their whole group, else by name. Eligibility: at least
    ``format.min_evenings`` qualifying tables played and not expelled from the tournament
    or the club (R10).
    """
    fmt = tournament.format
    records = player_records(tournament, until)
    keys: dict[str, tuple[float, ...]] = {}
    values: dict[str, dict[str, int | None]] = {}
    for name, rec in records.items():
        values[name] = {m.name: m.compute(rec, fmt) for m in METRICS.values()}
        keys[name] = tuple(_sort_value(values[name][t], METRICS[t].higher_is_better)
                           for t in fmt.tie_breaks)
    order = sorted(records, key=lambda n: (keys[n], n.casefold(), n))
    groups: list[list[str]] = []
    for name in order:
        if groups and keys[groups[-1][0]] == keys[name]:
            groups[-1].append(name)
        else:
            groups.append([name])
    rows: list[Row] = []
    position = 1
    for group in groups:
        for name in _flat(apply_draws([group], draws)):
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
                points=_int(v["points"]),
                games=_int(v["games"]),
                risiko=_int(v["risiko"]),
                best=v["best"],
                penalties=_int(v["penalties"]),
                eligible=why is None,
                not_eligible_because=why,
                metrics=v,
            ))
        position += len(group)
    return Standings(tuple(rows), fmt.tie_breaks, keys)


def _flat(groups: Sequence[Sequence[str]]) -> list[str]:
    return [p for g in groups for p in g]


def _int(value: int | None) -> int:
    return 0 if value is None else value


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


def draws_for(tournament: Tournament, stage: Stage) -> list[Draw]:
    """The recorded draws of lots that seat ``stage``."""
    return [d for d in tournament.draws if d.stage == stage]
