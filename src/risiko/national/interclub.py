"""Interclub events: the national team championship as clubs describe it (issue 21 item 7).

A club enters a *team* with a *roster* of :data:`ROSTER_MIN` to :data:`ROSTER_MAX` (4 to
12) players and *fields* :data:`FIELDED` (4) of them each round. Every table has 4 players of
4 different clubs (:func:`seat_round`; a clear refusal when it cannot be done). A game gives
each seat *placement points* by its place at the table, :data:`PLACEMENT_POINTS` 12, 7, 5,
3, plus its table points as decimals (table points / 100: 1st with 62 table points = 12.62);
a RisiKo! (the objective completed) gives :data:`RISIKO_SCORE` 13 (12 + 100 / 100), both
parameters (:func:`game_scores`). A team's total is its best :data:`COUNTED_GAMES` (9) games
of the 12 its fielded players play over 3 rounds (:func:`team_total`). Standings of the teams
(:func:`team_standings`, of one region for a regional championship) and of the players
(:func:`player_standings`).

Our readings where the clubs' description says nothing (parameters or documented here):
equal table points at a table share the better place's placement points (as GestioneTorneo's
Torneo Gufo: "a parità di punteggio il piazzamento migliore"); teams equal on their total are
ordered by the total of all their games, then their best game, and share a position when
these are equal too; players by their total, then wins (1st places), then their best game.

Everything here is pure (no I/O): numbers are :class:`~decimal.Decimal`, exact.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import combinations

from ..faults import Fault, InvalidInputError, define

__all__ = [
    "COUNTED_GAMES",
    "FIELDED",
    "PLACEMENT_POINTS",
    "RISIKO_SCORE",
    "ROSTER_MAX",
    "ROSTER_MIN",
    "GameSeat",
    "InterclubError",
    "Played",
    "PlayerLine",
    "TeamLine",
    "game_scores",
    "player_standings",
    "seat_round",
    "team_standings",
    "team_total",
]

ROSTER_MIN, ROSTER_MAX = 4, 12
FIELDED = 4
SEATS = 4
COUNTED_GAMES = 9
PLACEMENT_POINTS: tuple[Decimal, ...] = (Decimal(12), Decimal(7), Decimal(5), Decimal(3))
RISIKO_SCORE = Decimal(13)
_HUNDRED = Decimal(100)
_CENT = Decimal("0.01")

NOT_TABLES_OF_FOUR = define(
    "interclub.not_tables_of_four", "",
    "{players} players fielded: interclub tables have 4 seats, so the players must be a "
    "multiple of 4")
TOO_MANY_OF_A_CLUB = define(
    "interclub.too_many_of_a_club", "",
    "{club} fields {count} players but there are only {tables} tables: two players of the "
    "club would sit at one table")
PLAYER_TWICE = define(
    "interclub.player_twice", "", "{player} is fielded twice in the round")
TABLE_SEATS = define(
    "interclub.table_seats", "", "table {table}: {seats} seats, an interclub table has 4")
BAD_TABLE_POINTS = define(
    "interclub.bad_table_points", "",
    "table {table}, {player}: table points must be from 0 to 99 (a RisiKo! is marked as "
    "such), not {points}")
RISIKO_TWICE = define(
    "interclub.risiko_twice", "", "table {table}: only one player completes his objective")


class InterclubError(InvalidInputError):
    """A refusal of the interclub rules: one fault each (codes ``interclub.*``)."""


@dataclass(frozen=True)
class GameSeat:
    """One seat's result at an interclub table: the player (any key), his table points
    (0 to 99, an int) and ``risiko`` (he completed his objective)."""

    player: str
    table_points: int
    risiko: bool = False


def seat_round(fielded: Sequence[tuple[str, str]], *, seed: int = 0,
               met: Mapping[frozenset[str], int] | None = None, tries: int = 40
               ) -> list[list[str]]:
    """Seat one round: ``fielded`` is ``(player, club)`` pairs; the answer is the tables, 4
    players each, never two of one club at a table. ``met`` counts the times two players
    already sat together (earlier rounds): of ``tries`` random deals (``seed``: the same
    answer for the same input) the one with the fewest such meetings is kept.

    Possible exactly when the players are a multiple of 4 and no club fields more players
    than there are tables: the players of each club, one club after the other, are dealt
    to tables 1, 2, ... T, 1, 2, ... (a club's players are consecutive and at most T, so
    they land at different tables). Refuses with :class:`InterclubError`
    (``interclub.not_tables_of_four``, ``interclub.too_many_of_a_club`` naming each club,
    ``interclub.player_twice``).

    >>> fielded = [(f"{c}{i}", c) for c in "ABCD" for i in range(1, 5)]
    >>> tables = seat_round(fielded, seed=1)
    >>> len(tables), all(len({p[0] for p in t}) == 4 for t in tables)
    (4, True)
    >>> seat_round([("A1", "A"), ("A2", "A"), ("A3", "A")] + [(c, c) for c in "BCDEF"])
    Traceback (most recent call last):
    ...
    risiko.national.interclub.InterclubError: A fields 3 players but there are only 2 tables: \
two players of the club would sit at one table
    """
    faults: list[Fault] = []
    seen: set[str] = set()
    for player, _club in fielded:
        if player in seen:
            faults.append(PLAYER_TWICE(player=player))
        seen.add(player)
    if len(fielded) % SEATS:
        faults.append(NOT_TABLES_OF_FOUR(players=len(fielded)))
    tables = len(fielded) // SEATS
    by_club: dict[str, list[str]] = defaultdict(list)
    for player, club in fielded:
        by_club[club].append(player)
    for club, players in sorted(by_club.items()):
        if len(players) > tables and not len(fielded) % SEATS:
            faults.append(TOO_MANY_OF_A_CLUB(club=club, count=len(players), tables=tables))
    if faults:
        raise InterclubError(*faults)
    if not tables:
        return []
    rng = random.Random(seed)
    met = met or {}
    best: list[list[str]] | None = None
    best_cost = -1
    clubs = sorted(by_club)
    for _ in range(max(1, tries)):
        rng.shuffle(clubs)
        order = [p for c in clubs for p in rng.sample(by_club[c], len(by_club[c]))]
        shift = rng.randrange(tables)
        deal: list[list[str]] = [[] for _ in range(tables)]
        for k, player in enumerate(order):
            deal[(k + shift) % tables].append(player)
        cost = sum(met.get(frozenset(pair), 0) for t in deal for pair in combinations(t, 2))
        if best is None or cost < best_cost:
            best, best_cost = deal, cost
        if cost == 0:
            break
    assert best is not None
    return best


def game_scores(seats: Sequence[GameSeat], *, table: int | str = "?",
                placement: Sequence[Decimal] = PLACEMENT_POINTS,
                risiko_score: Decimal = RISIKO_SCORE) -> dict[str, Decimal]:
    """Each seat's score of one game: the placement points of his place (``placement``,
    1st first: 12, 7, 5, 3) + his table points / 100; a RisiKo! gives ``risiko_score``
    (13) and its player is 1st, the others placed by table points from the 2nd place.
    Equal table points share the better place's points. Refuses
    (:class:`InterclubError`) a table of other than 4 seats, table points outside 0-99,
    two RisiKo!s.

    Worked example: 62, 30, 30, 5: 12 + 0.62 = 12.62; 30 and 30 share the 2nd place:
    7.30 each; 5 is 4th: 3.05. A RisiKo! with 40, 20, 0: 13, 7.40, 5.20, 3.00.

    >>> game_scores([GameSeat("A", 62), GameSeat("B", 30), GameSeat("C", 30),
    ...              GameSeat("D", 5)])
    {'A': Decimal('12.62'), 'B': Decimal('7.30'), 'C': Decimal('7.30'), 'D': Decimal('3.05')}
    >>> game_scores([GameSeat("A", 0, True), GameSeat("B", 40), GameSeat("C", 20),
    ...              GameSeat("D", 0)])
    {'A': Decimal('13'), 'B': Decimal('7.40'), 'C': Decimal('5.20'), 'D': Decimal('3.00')}
    """
    faults: list[Fault] = []
    if len(seats) != SEATS:
        faults.append(TABLE_SEATS(table=table, seats=len(seats)))
    for s in seats:
        if not 0 <= s.table_points <= 99 and not s.risiko:
            faults.append(BAD_TABLE_POINTS(table=table, player=s.player,
                                           points=s.table_points))
    if sum(1 for s in seats if s.risiko) > 1:
        faults.append(RISIKO_TWICE(table=table))
    if faults:
        raise InterclubError(*faults)
    out: dict[str, Decimal] = {}
    rest = [s for s in seats if not s.risiko]
    first = 0
    for s in seats:
        if s.risiko:
            out[s.player] = risiko_score
            first = 1
    points = sorted((s.table_points for s in rest), reverse=True)
    for s in rest:
        place = first + points.index(s.table_points)  # equal points: the better place
        bonus = placement[place] if place < len(placement) else Decimal(0)
        out[s.player] = (bonus + Decimal(s.table_points) / _HUNDRED).quantize(_CENT)
    return {s.player: out[s.player] for s in seats}


def team_total(games: Iterable[Decimal], counted: int = COUNTED_GAMES) -> Decimal:
    """A team's total: the sum of its ``counted`` (9) best games.

    >>> team_total([Decimal(v) for v in (12, 3, 7, 5, 12, 3, 3, 7, 5, 3, 12, 13)])
    Decimal('76')
    """
    return sum(sorted(games, reverse=True)[:counted], Decimal(0))


@dataclass(frozen=True)
class Played:
    """One game of one player: his ``team``, the ``round``, his ``score`` and ``won`` (1st
    at his table)."""

    team: str
    player: str
    round: int
    score: Decimal
    won: bool


@dataclass(frozen=True)
class TeamLine:
    """A team's line: ``position`` (shared by equal lines), ``total`` (best 9 games),
    ``all_games`` (every game), ``best`` (its best game), ``games`` played."""

    position: int
    team: str
    total: Decimal
    all_games: Decimal
    best: Decimal
    games: int


@dataclass(frozen=True)
class PlayerLine:
    """A player's line: ``position`` (shared), ``total`` (every game), ``games``, ``wins``,
    ``best``."""

    position: int
    player: str
    team: str
    total: Decimal
    games: int
    wins: int
    best: Decimal


def _positions(keys: list[tuple[Decimal, ...]]) -> list[int]:
    out: list[int] = []
    for i, key in enumerate(keys):
        out.append(out[i - 1] if i and keys[i - 1] == key else i + 1)
    return out


def team_standings(teams: Iterable[str], played: Iterable[Played],
                   counted: int = COUNTED_GAMES) -> list[TeamLine]:
    """The teams ``teams`` (any keys; a regional championship passes its region's teams)
    ranked by their total (best ``counted`` games), then every game's total, then the best
    game; equal on all three: the same position. Teams without a game are 0.

    >>> d = Decimal
    >>> games = [Played("MI", "a", 1, d("12.50"), True), Played("MI", "b", 1, d(3), False),
    ...          Played("TO", "c", 1, d("7.50"), False), Played("TO", "e", 1, d("8.50"), False)]
    >>> [(t.position, t.team, str(t.total)) for t in team_standings(["MI", "TO", "RM"],
    ...                                                              games, counted=1)]
    [(1, 'MI', '12.50'), (2, 'TO', '8.50'), (3, 'RM', '0')]
    """
    by_team: dict[str, list[Decimal]] = {t: [] for t in teams}
    for p in played:
        if p.team in by_team:
            by_team[p.team].append(p.score)
    rows = []
    for team, scores in by_team.items():
        rows.append((team_total(scores, counted), sum(scores, Decimal(0)),
                     max(scores, default=Decimal(0)), team, len(scores)))
    rows.sort(key=lambda r: (-r[0], -r[1], -r[2], r[3]))
    positions = _positions([r[:3] for r in rows])
    return [TeamLine(pos, r[3], r[0], r[1], r[2], r[4])
            for pos, r in zip(positions, rows, strict=True)]


def player_standings(played: Iterable[Played]) -> list[PlayerLine]:
    """Every player who played, ranked by the total of his games, then wins, then his best
    game; equal on all three: the same position.

    >>> d = Decimal
    >>> games = [Played("MI", "a", 1, d("12.50"), True), Played("TO", "c", 1, d("7.50"), False),
    ...          Played("MI", "a", 2, d(3), False), Played("TO", "c", 2, d(8), False)]
    >>> [(p.position, p.player, str(p.total), p.wins) for p in player_standings(games)]
    [(1, 'a', '15.50', 1), (2, 'c', '15.50', 0)]
    """
    games: dict[str, list[Played]] = defaultdict(list)
    for p in played:
        games[p.player].append(p)
    rows = []
    for player, mine in games.items():
        scores = [g.score for g in mine]
        team = Counter(g.team for g in mine).most_common(1)[0][0]
        rows.append((sum(scores, Decimal(0)), Decimal(sum(1 for g in mine if g.won)),
                     max(scores), player, team, len(mine)))
    rows.sort(key=lambda r: (-r[0], -r[1], -r[2], r[3]))
    positions = _positions([r[:3] for r in rows])
    return [PlayerLine(pos, r[3], r[4], r[0], r[5], int(r[1]), r[2])
            for pos, r in zip(positions, rows, strict=True)]
