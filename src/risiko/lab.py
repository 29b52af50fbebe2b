"""The committee's lab: many bot games across the cores, and the figures a committee reads
before it tunes its regulation (issue 19, items 4 and 5). Standard library only.

Scale. :func:`run_games` plays ``games`` bot games of one :class:`SimSpec`. Game ``i`` is
seeded by :func:`game_seed` ``(spec.seed, i)`` alone and its bots by the same seed, so the
results are the same whatever the number of workers, the batch size or the engine; they
come back in game order. ``workers=None`` uses every core of the machine (a process pool
fed in batches of games); ``workers=1`` plays in this process. A cluster engine (Ray, in
:mod:`risiko.cli.lab_ray`) calls the same :func:`play_batch`.

Figures (each a pure function of plain numbers):

- :func:`closing_exact`: where the closing band alone decides (every seat rolls, nobody
  conquers 3, nothing else ends the game), the exact chance that the game ends in each
  closing round (R2) and in which round of play;
- :func:`closing_simulated`, :func:`objectives_table`, :func:`seats_table`: from simulated
  games (with the 3-conquest skip, R12 and every other way a game ends);
- :func:`luck_of_record` / :func:`luck_table`: a luck index per seat from the rolls of a
  game record or an online table (expected against actual armies lost in every roll);
- :func:`proportion_ci` (Wilson) and :func:`mean_ci` (normal): 95 % confidence intervals.
"""

from __future__ import annotations

import hashlib
import math
import os
import statistics
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from .actions import Attack
from .closing import closing_probability
from .faults import define
from .game import Game
from .match import play_bots
from .objectives import OBJECTIVES
from .odds import roll_outcomes
from .record import RecordItem, parse_record, replay
from .ruleset import Ruleset, get_ruleset

try:  # the marker of the compiled build (mypyc); at run time it changes nothing
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover - the library needs nothing beyond the standard library
    from ._build import mypyc_attr

#: z of a two-sided 95 % interval (the normal quantile at 0.975)
Z95 = 1.959963984540054

#: a game of a simulation: the figures the lab reads (plain data: it crosses processes)
Facts = dict[str, Any]


# ---------------------------------------------------------------------------- simulation
@mypyc_attr(native_class=False)  # the compiled build: a plain class pickles to any worker
@dataclass(frozen=True)
class SimSpec:
    """What to simulate: ``bots`` one name per seat (3..6 seats), ``ruleset`` a label
    (``name@version``), ``last_rounds_at`` the round of the call (R2; None: never called),
    ``rotate`` turn the bots round the seats game by game (game ``i`` starts the list at
    ``i % seats``), ``seed`` the master seed, ``luck`` read every roll's dice against their
    odds (:func:`luck_of_game`; it replays the game: 72 % more instructions for random
    bots, 6 % for heuristic ones, docs/benchmarks.md, so only when asked). Plain data, so
    it pickles to any worker."""

    bots: tuple[str, ...]
    ruleset: str = "club-milano"
    last_rounds_at: int | None = 8
    rotate: bool = False
    seed: int = 1
    luck: bool = False

    @property
    def seats(self) -> int:
        """Seats at each table."""
        return len(self.bots)


def game_seed(master: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of a simulation with master seed ``master``:
    ``master + index``, the rule ``risiko simulate`` has always used, so a game is the same
    whoever plays it (any worker, batch or engine).

    >>> game_seed(1, 0), game_seed(1, 99)
    (1, 100)
    """
    return master + index


def bots_of(spec: SimSpec, index: int) -> tuple[str, ...]:
    """The bots of game ``index``, seat by seat (rotated when ``spec.rotate``).

    >>> bots_of(SimSpec(("a", "b", "c"), rotate=True), 4)
    ('b', 'c', 'a')
    """
    if not spec.rotate:
        return spec.bots
    k = index % spec.seats
    return spec.bots[k:] + spec.bots[:k]


@cache
def _ruleset(label: str) -> Ruleset:
    return get_ruleset(label)


def play_one(spec: SimSpec, index: int) -> Facts:
    """Play game ``index`` of ``spec`` and return its facts: ``index``, ``seed``, ``bots``,
    ``end`` (how it ended), ``rounds``, ``rolls`` (attack rolls), ``scores`` (table score
    per seat), ``winners`` (0-based seats sharing the win: the RisiKo! seat, else the best
    score), ``objectives`` (objective number per seat), ``closing_round`` (the closing round
    whose dice ended it, R2; None when it ended otherwise), ``closing_turns`` (closing-dice
    turns played, skips included), ``score_range`` ``[lowest, highest]`` table score
    (:func:`score_range`), ``luck`` per seat ``[rolls, lost, expected, variance]``
    (:func:`luck_of_game`: every attack roll's dice against their exact odds; None unless
    ``spec.luck``)."""
    seed = game_seed(spec.seed, index)
    bots = bots_of(spec, index)
    game = play_bots(list(bots), spec.seats, ruleset=_ruleset(spec.ruleset), seed=seed,
                     last_rounds_at=spec.last_rounds_at)
    assert game.outcome is not None
    scores = [sc.score for sc in game.scores()]
    if game.risiko_seat is not None:
        winners = [game.risiko_seat]
    else:
        best = max(scores)
        winners = [s for s, v in enumerate(scores) if v == best]
    closed = [c.closing_round for c in game.closing_rolls if c.closed]
    return {
        "index": index, "seed": seed, "bots": list(bots), "end": str(game.outcome.end),
        "score_range": list(score_range(game.ruleset)),
        "rounds": game.outcome.rounds, "rolls": game.rolls, "scores": scores,
        "winners": winners, "risiko_seat": game.risiko_seat,
        "objectives": [o.number for o in game.objectives],
        "closing_round": closed[0] if closed else None,
        "closing_turns": len(game.closing_rolls),
        "luck": [[r.rolls, r.lost, r.expected, r.variance] for r in luck_of_game(game)]
        if spec.luck else None,
    }


def play_batch(spec: SimSpec, start: int, stop: int) -> list[Facts]:
    """Games ``start`` to ``stop - 1`` of ``spec`` (one task of a worker)."""
    return [play_one(spec, i) for i in range(start, stop)]


def default_workers() -> int:
    """The cores this process may use (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def batches(games: int, workers: int, batch: int | None = None) -> list[tuple[int, int]]:
    """``[(start, stop), ...]`` covering games ``0..games-1`` in order. ``batch`` games per
    task; by default about 8 tasks per worker, 1 to 50 games each (few enough to keep the
    pool's messages cheap, many enough to balance the cores and move the progress bar).

    >>> batches(10, 2, 4)
    [(0, 4), (4, 8), (8, 10)]
    >>> batches(100, 2)[:2]
    [(0, 7), (7, 14)]
    """
    size = batch if batch is not None else max(1, min(50, math.ceil(games / (8 * workers))))
    return [(a, min(a + size, games)) for a in range(0, games, size)]


Progress = Callable[[int], None]


def run_games(spec: SimSpec, games: int, *, workers: int | None = None,
              batch: int | None = None, progress: Progress | None = None) -> list[Facts]:
    """Play ``games`` games of ``spec`` and return their facts in game order.

    ``workers``: processes (None: :func:`default_workers`; 1: this process, no pool).
    ``progress(n)`` is called as each batch of ``n`` games finishes. The results do not
    depend on ``workers`` or ``batch`` (:func:`game_seed`). Every game's facts are kept
    (at most about 2 kB each: split a run of millions by seed). Raises ValueError for
    ``games < 1`` or ``workers < 1``; a bot's error (``match.AgentError``) propagates.
    """
    if games < 1:
        raise ValueError(f"games: at least 1, not {games}")
    n_workers = default_workers() if workers is None else workers
    if n_workers < 1:
        raise ValueError(f"workers: at least 1, not {n_workers}")
    n_workers = min(n_workers, games)
    tasks = batches(games, n_workers, batch)
    out: list[Facts] = []
    if n_workers == 1:
        for a, b in tasks:
            out.extend(play_batch(spec, a, b))
            if progress is not None:
                progress(b - a)
        return out
    with ProcessPoolExecutor(max_workers=n_workers) as pool:
        pending: set[Future[list[Facts]]] = {
            pool.submit(play_batch, spec, a, b) for a, b in tasks}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    chunk = fut.result()
                    out.extend(chunk)
                    if progress is not None:
                        progress(len(chunk))
        except BaseException:  # a bot's error, ^C: the batches not started are dropped
            for fut in pending:
                fut.cancel()
            raise
    out.sort(key=lambda f: int(f["index"]))
    return out


# ---------------------------------------------------------------------------- intervals
@dataclass(frozen=True)
class Interval:
    """An estimate with its 95 % confidence interval: ``value``, ``low``, ``high``, ``n``
    (the sample size); ``low`` and ``high`` are None where no interval exists (a mean of
    fewer than 2 values: :func:`mean_ci`)."""

    value: float
    low: float | None
    high: float | None
    n: int

    def to_dict(self) -> dict[str, float | int | None]:
        """``{"value", "low", "high", "n"}`` rounded to 4 decimals (the JSON contract;
        ``low`` and ``high`` null when there is no interval)."""
        return {"value": round(self.value, 4),
                "low": None if self.low is None else round(self.low, 4),
                "high": None if self.high is None else round(self.high, 4), "n": self.n}


def proportion_ci(successes: float, n: int, z: float = Z95) -> Interval:
    """The Wilson score interval of a proportion ``successes / n`` (95 % by default).
    ``successes`` may be fractional (a win shared by tied seats counts 1/k each).

    centre = (p + z²/2n) / (1 + z²/n), half = z·sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n):
    50 of 100 gives 0.5 in [0.4038, 0.5962]. Raises ValueError for n < 1 or successes
    outside 0..n.

    >>> proportion_ci(50, 100).to_dict()
    {'value': 0.5, 'low': 0.4038, 'high': 0.5962, 'n': 100}
    """
    if n < 1:
        raise ValueError(f"n: at least 1, not {n}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes: 0..{n}, not {successes}")
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half), n)


def mean_ci(values: Sequence[float], z: float = Z95, *,
            bounds: tuple[float, float] | None = None) -> Interval:
    """The mean of ``values`` with its normal 95 % interval, mean ± z·s/√n (``s`` the
    sample standard deviation), cut to ``bounds`` ``(lowest, highest)``, the values' possible
    range when known (a table score: :func:`score_range`), so it never says what cannot
    happen. For n = 1 there is no interval (no spread to measure): ``low`` and ``high`` are
    None. Raises ValueError for no values.

    >>> mean_ci([1, 2, 3, 4]).to_dict()  # s = 1.2910, z·s/2 = 1.2652
    {'value': 2.5, 'low': 1.2348, 'high': 3.7652, 'n': 4}
    >>> mean_ci([0, 100, 68]).to_dict()  # mean 56, s = √2608 = 51.07, ± 1.96·51.07/√3 = 57.79
    {'value': 56.0, 'low': -1.7885, 'high': 113.7885, 'n': 3}
    >>> mean_ci([0, 100, 68], bounds=(0, 100)).to_dict()  # a table score: 0..100
    {'value': 56.0, 'low': 0.0, 'high': 100.0, 'n': 3}
    >>> mean_ci([13]).to_dict()
    {'value': 13.0, 'low': None, 'high': None, 'n': 1}
    """
    n = len(values)
    if n < 1:
        raise ValueError("no values")
    mean = statistics.fmean(values)
    if n == 1:
        return Interval(mean, None, None, 1)
    half = z * statistics.stdev(values) / math.sqrt(n)
    low, high = mean - half, mean + half
    if bounds is not None:
        low, high = max(low, float(bounds[0])), min(high, float(bounds[1]))
    return Interval(mean, low, high, n)


def score_range(ruleset: Ruleset) -> tuple[float, float]:
    """The possible range of one seat's table score in a game played here: 0 (an eliminated
    or abandoned seat, R1/R15; the R5 penalty never falls, since digital play refuses
    placements beyond the army limit) to the higher of the objective's score and the base
    cap ``max_base_score`` (R1).

    >>> from risiko.ruleset import CLUB_MILANO
    >>> score_range(CLUB_MILANO)
    (0.0, 100.0)
    """
    return 0.0, float(max(ruleset.objective_score, ruleset.max_base_score))


# ---------------------------------------------------------------------------- closing
@dataclass(frozen=True)
class ClosingRow:
    """Closing round ``k`` (R2): ``band`` (lowest, highest sum), ``p_roll`` the chance one
    roll closes, ``p_end`` the chance the game ends in this closing round, ``cumulative``
    that it has ended by its end."""

    k: int
    band: tuple[int, int]
    p_roll: float
    p_end: float
    cumulative: float


@dataclass(frozen=True)
class ClosingExact:
    """The exact closing of a ruleset with ``rollers`` seats rolling (see
    :func:`closing_exact`): ``rows`` per closing round, ``mean_rounds`` the expected closing
    rounds, ``mean_after_call`` the expected rounds of play after the call's round,
    ``rounds_after_call`` ``{j: p}``: the chance the game's last round of play is the
    ``j``-th after the call's (1 = the LAST round itself)."""

    ruleset: str
    rollers: int
    rows: list[ClosingRow]
    mean_rounds: float
    mean_after_call: float
    rounds_after_call: dict[int, float] = field(default_factory=dict)


def closing_exact(ruleset: Ruleset, rollers: int, *, rows: int = 8,
                  tail: float = 1e-12) -> ClosingExact:
    """The closing when the band alone decides (R2): ``rollers`` seats each roll once per
    closing round (none conquers 3 territories, none leaves, nothing else ends the game).

    Closing round ``k`` ends the game with chance ``1 - (1 - p_k)^n`` once reached (``p_k``
    = :func:`~risiko.closing.closing_probability`), so ``P(end in k) = prod_{j<k} (1 -
    p_j)^n · (1 - (1 - p_k)^n)``. Club-milano, 4 seats: k=1 ``1 - (33/36)^4 = 0.2939``; RTU
    (sums 2..4 first): ``1 - (30/36)^4 = 0.5177``. The mean sums every round until less than
    ``tail`` is left. Round of play: closing round ``k`` is the anchor's turn in round
    LAST + k - 1 then seats 1..n-1 in round LAST + k (RULES.md R2's reading), so the game's
    last round is LAST + k - 1 when the anchor's roll closes (chance ``p_k``) and LAST + k
    otherwise; the LAST round is the one after the call's round (R2), so with the call in
    round C the game's last round is C + k or C + k + 1. ``rows``: closing rounds
    tabulated. Raises ValueError for ``rollers < 1`` or ``rows < 1``.

    >>> from risiko.ruleset import CLUB_MILANO
    >>> c = closing_exact(CLUB_MILANO, 4)
    >>> round(c.rows[0].p_end, 4), round(c.rows[1].p_end, 4), c.rows[1].band
    (0.2939, 0.4087, (4, 5))
    """
    if rollers < 1:
        raise ValueError(f"rollers: at least 1, not {rollers}")
    if rows < 1:
        raise ValueError(f"rows: at least 1, not {rows}")
    table: list[ClosingRow] = []
    survive = 1.0  # chance the game reaches closing round k
    mean = 0.0
    after: dict[int, float] = {}
    k = 0
    while survive > tail or k < rows:
        k += 1
        p = closing_probability(ruleset, k)
        miss_all = (1 - p) ** rollers
        p_end = survive * (1 - miss_all)
        mean += k * p_end
        # the anchor rolls first, in round LAST + k - 1 = call + k; the others in call + k + 1
        first = survive * p
        after[k] = after.get(k, 0.0) + first
        after[k + 1] = after.get(k + 1, 0.0) + p_end - first
        survive *= miss_all
        if k <= rows:
            table.append(ClosingRow(k, ruleset.closing_band(k), p, p_end, 1 - survive))
        if p == 0 and k > rows and survive >= 1:  # a band that never closes: stop
            break
        if k > 10_000:
            break
    mean_after = sum(j * v for j, v in after.items())
    shown = {j: v for j, v in sorted(after.items()) if j <= rows + 1}
    return ClosingExact(ruleset.label, rollers, table, mean, mean_after, shown)


def closing_simulated(facts: Sequence[Facts]) -> dict[str, Any]:
    """From simulated games: ``games``, ``rounds`` (mean game length in rounds, with CI),
    ``ends`` ``{end: share}``, ``closing_rounds`` ``{k: share of all games}`` (the closing
    round whose dice ended the game; games ended otherwise are not counted there),
    ``skips`` the share of closing turns with no roll (3+ conquests, R2)."""
    n = len(facts)
    if n < 1:
        raise ValueError("no games")
    ends: dict[str, int] = {}
    by_round: dict[int, int] = {}
    for f in facts:
        ends[f["end"]] = ends.get(f["end"], 0) + 1
        k = f["closing_round"]
        if k is not None:
            by_round[k] = by_round.get(k, 0) + 1
    return {
        "games": n,
        "rounds": mean_ci([f["rounds"] for f in facts], bounds=(1, math.inf)).to_dict(),
        "ends": {e: round(c / n, 4) for e, c in sorted(ends.items())},
        "closing_rounds": {str(k): proportion_ci(c, n).to_dict()
                           for k, c in sorted(by_round.items())},
    }


# ---------------------------------------------------------------------------- objectives, seats
def _bounds(facts: Sequence[Facts]) -> tuple[float, float] | None:
    """The table score's possible range in ``facts`` (:func:`score_range`; None: not said)."""
    got = facts[0].get("score_range") if facts else None
    return (float(got[0]), float(got[1])) if got else None


def objectives_table(facts: Sequence[Facts]) -> list[dict[str, Any]]:
    """Per objective dealt in ``facts``: ``objective`` (number), ``name``, ``dealt`` (seats
    that held it), ``win_rate`` and ``mean_score`` with 95 % intervals (Wilson, normal; the
    mean score's cut to the score's range, none from fewer than 2 seats: :func:`mean_ci`); a
    win shared by k tied seats counts 1/k. In objective order."""
    wins: dict[int, float] = {}
    scores: dict[int, list[float]] = {}
    for f in facts:
        share = 1 / len(f["winners"])
        for s, o in enumerate(f["objectives"]):
            scores.setdefault(o, []).append(f["scores"][s])
            wins[o] = wins.get(o, 0.0) + (share if s in f["winners"] else 0.0)
    rows = []
    for o in sorted(scores):
        n = len(scores[o])
        rows.append({"objective": o, "name": OBJECTIVES[o - 1].name, "dealt": n,
                     "win_rate": proportion_ci(min(wins[o], n), n).to_dict(),
                     "mean_score": mean_ci(scores[o], bounds=_bounds(facts)).to_dict()})
    return rows


def seats_table(facts: Sequence[Facts]) -> list[dict[str, Any]]:
    """Per seat (1-based ``seat``, in turn order): ``win_rate`` and ``mean_score`` with 95 %
    intervals over ``facts`` (one table size; the mean score's cut to the score's range,
    none from 1 game: :func:`mean_ci`); ``fair`` is 1/seats."""
    if not facts:
        raise ValueError("no games")
    seats = len(facts[0]["scores"])
    n = len(facts)
    rows = []
    for s in range(seats):
        won = sum(1 / len(f["winners"]) for f in facts if s in f["winners"])
        rows.append({"seat": s + 1, "games": n, "fair": round(1 / seats, 4),
                     "win_rate": proportion_ci(min(won, n), n).to_dict(),
                     "mean_score": mean_ci([f["scores"][s] for f in facts],
                                           bounds=_bounds(facts)).to_dict()})
    return rows


# ---------------------------------------------------------------------------- luck
@cache
def roll_moments(att_dice: int, def_dice: int) -> tuple[float, float]:
    """(mean, variance) of the attacker's losses in one roll of ``att_dice`` against
    ``def_dice`` dice (exact, from :func:`~risiko.odds.roll_outcomes`). The defender's
    losses are ``min(att_dice, def_dice)`` minus the attacker's: same variance.

    1 die against 1: losses 1 with 21/36, so mean 21/36 = 0.5833 and variance
    21·15/36² = 0.2431.

    >>> [round(x, 4) for x in roll_moments(1, 1)]
    [0.5833, 0.2431]
    """
    dist = roll_outcomes(att_dice, def_dice)
    mean = sum(k * p for k, p in dist.items())
    return mean, sum(k * k * p for k, p in dist.items()) - mean * mean


@dataclass
class SeatLuck:
    """The dice of one player over one or more games: ``rolls`` he took part in (attacking
    or defending), ``lost`` armies lost in them, ``expected`` armies the exact odds expected
    him to lose, ``variance`` of that loss. ``luck = expected - lost`` (armies the dice
    spared him; negative: unlucky) and ``z = luck / sqrt(variance)``: about normal with mean
    0 and spread 1 whatever the choices, since R8 fixes the dice of every roll — |z| > 2 is
    luck a fair die shows about 1 time in 22. Beside it, the results that luck is told apart
    from: ``games``, ``wins`` (the game's winner: RisiKo! or the best score, R1), and
    ``score`` summed over the ``scored`` games that ended."""

    player: str
    rolls: int = 0
    lost: int = 0
    expected: float = 0.0
    variance: float = 0.0
    games: int = 0
    wins: int = 0
    score: int = 0
    scored: int = 0

    @property
    def luck(self) -> float:
        """Armies lost less than expected (positive: lucky)."""
        return self.expected - self.lost

    @property
    def z(self) -> float:
        """``luck / sqrt(variance)`` (0 with no roll)."""
        return self.luck / math.sqrt(self.variance) if self.variance > 0 else 0.0

    @property
    def mean_score(self) -> float | None:
        """The mean table score of the games that ended (None: none ended)."""
        return self.score / self.scored if self.scored else None

    def add(self, other: SeatLuck) -> None:
        """Add ``other``'s rolls and results (same player, another game)."""
        self.rolls += other.rolls
        self.lost += other.lost
        self.expected += other.expected
        self.variance += other.variance
        self.games += other.games
        self.wins += other.wins
        self.score += other.score
        self.scored += other.scored

    def to_dict(self) -> dict[str, Any]:
        """``{player, rolls, lost, expected, luck, z, games, wins, mean_score}`` (the JSON
        contract)."""
        mean = self.mean_score
        return {"player": self.player, "rolls": self.rolls, "lost": self.lost,
                "expected": round(self.expected, 3), "luck": round(self.luck, 3),
                "z": round(self.z, 3), "games": self.games, "wins": self.wins,
                "mean_score": None if mean is None else round(mean, 2)}


def luck_of_record(text: str) -> list[SeatLuck]:
    """The luck of each seat of a game record (:mod:`risiko.record`; an online table's record
    too), seat by seat. Every attack roll counts for the attacker (the seat of the line) and
    the defender (the target's owner at that moment); the dice are those of the record.
    Raises :class:`~risiko.record.RecordError` for a record that does not replay (it is
    replayed whole, with every check, before its rolls are read)."""
    final = replay(text)
    game = replay(text, ply=0)
    rec = parse_record(text)
    luck = [SeatLuck(p, games=1) for p in game.players]
    if final.outcome is not None:
        for row, sc in zip(luck, final.scores(), strict=True):
            row.wins = int(final.outcome.winner == row.player)
            row.score, row.scored = sc.score, 1
    for item in rec.items:
        if not isinstance(item, RecordItem):
            continue
        action = item.action
        if isinstance(action, Attack) and action.attacker_dice and action.defender_dice:
            count_roll(luck, game.seat, game.state.owner[action.target],
                       action.attacker_dice, action.defender_dice)
        game.push(action)
    return luck


def count_roll(luck: Sequence[SeatLuck], attacker: int, defender: int,
               a: Sequence[int], d: Sequence[int]) -> None:
    """Add one attack roll to ``luck`` (rows by 0-based seat): the ``attacker``'s dice ``a``
    against the ``defender``'s ``d`` (R8: highest against highest, ties to the defender).
    Each side counts the roll, its losses and the exact mean and variance of them.

    >>> rows = [SeatLuck("A"), SeatLuck("B")]
    >>> count_roll(rows, 0, 1, (6,), (6,))  # a tie: A loses 1, expected 21/36
    >>> rows[0].lost, round(rows[0].expected, 4), rows[1].lost, round(rows[1].expected, 4)
    (1, 0.5833, 0, 0.4167)
    """
    mean, var = roll_moments(len(a), len(d))
    att_lost = sum(1 for x, y in zip(sorted(a, reverse=True), sorted(d, reverse=True),
                                     strict=False) if x <= y)
    pairs = min(len(a), len(d))
    for seat, lost, expected in ((attacker, att_lost, mean),
                                 (defender, pairs - att_lost, pairs - mean)):
        row = luck[seat]
        row.rolls += 1
        row.lost += lost
        row.expected += expected
        row.variance += var


def luck_of_game(game: Game) -> list[SeatLuck]:
    """The dice of each seat of a game played here (a simulation's: every roll is in its
    history, with the dice), seat by seat, as :func:`luck_of_record` reads them from a
    record: the history is replayed from the game's start (no chance drawn: every action
    holds its dice) to know each target's owner at its roll. ``rolls``, ``lost``,
    ``expected`` and ``variance`` only: the results are the caller's (games, wins, score
    stay 0)."""
    luck = [SeatLuck(p) for p in game.players]
    again = Game.from_state(game.start_state)
    for action in game.history:
        if type(action) is Attack and action.attacker_dice and action.defender_dice:
            count_roll(luck, again.seat, again.state.owner[action.target],
                       action.attacker_dice, action.defender_dice)
        again.push_unchecked(action)
    return luck


def merge_luck(games: Iterable[Sequence[SeatLuck]]) -> list[SeatLuck]:
    """The luck of each player over several games (rows of :func:`luck_of_record`), by
    player name, luckiest (highest z) first."""
    total: dict[str, SeatLuck] = {}
    for rows in games:
        for row in rows:
            total.setdefault(row.player, SeatLuck(row.player)).add(row)
    return sorted(total.values(), key=lambda r: (-r.z, r.player))


#: two or more records of one game among those read for a luck table (each game counts once)
SAME_GAME = define("lab.same_game", "",
                   "{files}: the same game {count} times; a game counts once in the luck "
                   "table (give each record once)")


def record_key(text: str) -> str:
    """The identity of a game record: the SHA-256 (hex) of its text normalised, so copies
    of one game's record compare equal however they were saved: a byte-order mark dropped,
    line ends made ``\\n``, each line's outer spaces stripped, blank lines dropped.

    >>> record_key("1 attack A B 6 6\\r\\n\\n") == record_key("\\ufeff 1 attack A B 6 6 \\n")
    True
    >>> record_key("1 attack A B 6 6") == record_key("1 attack A B 6 5")
    False
    """
    lines = (line.strip() for line in text.lstrip("\ufeff").splitlines())
    body = "\n".join(line for line in lines if line)
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def repeated_records(records: Iterable[tuple[str, str]]) -> list[list[str]]:
    """The names of the records that are one game, group by group, from ``(name, text)``
    pairs (:func:`record_key`; a name given twice counts twice): each group of two or more,
    in the order of their first name; ``[]`` when every game is there once. Nothing is
    replayed.

    >>> repeated_records([("a.txt", "x"), ("b.txt", "y"), ("c.txt", "x\\n")])
    [['a.txt', 'c.txt']]
    """
    groups: dict[str, list[str]] = {}
    for name, text in records:
        groups.setdefault(record_key(text), []).append(name)
    return [names for names in groups.values() if len(names) > 1]


def luck_table(records: Iterable[str]) -> list[SeatLuck]:
    """The luck of each player over several records (by player name), luckiest first.
    Raises RecordError for a record that does not replay."""
    return merge_luck(luck_of_record(text) for text in records)


def mean_seat_swing(rows: Sequence[SeatLuck]) -> float:
    """The typical armies one seat's dice swing over one game, from per-game rows (of
    :func:`luck_of_record`): the root mean square of their standard deviations
    (√variance); 0 for no rows."""
    if not rows:
        return 0.0
    return math.sqrt(statistics.fmean(r.variance for r in rows))




def simulated_luck(facts: Sequence[Facts]) -> dict[str, list[SeatLuck]]:
    """The luck of simulated games (the ``luck`` of :func:`play_one`'s facts, played with
    ``SimSpec(luck=True)``), two ways:
    ``seats``, one row per seat (``player`` "1", "2", ... in turn order) and ``bots``, one
    row per bot name (a bot at several seats of a game counts each seat: ``games`` is
    seat-games), luckiest first. Beside the dice: ``games``, ``wins`` (the sole winner: the
    RisiKo! seat or the best score alone; a shared best score wins for nobody, as a record's
    ``winner``) and the table score of every game. Summed in game order, so the same seeds
    give the same figures for any number of workers. Raises ValueError for no games or a
    game played without ``luck``.

    >>> f = {"bots": ["a", "b"], "scores": [10, 4], "winners": [0],
    ...      "luck": [[2, 1, 42 / 36, 630 / 1296], [2, 1, 30 / 36, 630 / 1296]]}
    >>> t = simulated_luck([f])
    >>> [(r.player, round(r.z, 3), r.wins) for r in t["seats"]]
    [('1', 0.239, 1), ('2', -0.239, 0)]
    """
    if not facts:
        raise ValueError("no games")
    seats: list[list[SeatLuck]] = []
    bots: list[list[SeatLuck]] = []
    for f in facts:
        by_seat: list[SeatLuck] = []
        by_bot: list[SeatLuck] = []
        if f.get("luck") is None:
            raise ValueError(f"game {f.get('index')}: played without luck (SimSpec.luck)")
        sole = f["winners"][0] if len(f["winners"]) == 1 else None
        for s, (rolls, lost, expected, variance) in enumerate(f["luck"]):
            for label, out in ((str(s + 1), by_seat), (f["bots"][s], by_bot)):
                out.append(SeatLuck(label, rolls, lost, expected, variance, games=1,
                                    wins=int(s == sole), score=f["scores"][s], scored=1))
        seats.append(by_seat)
        bots.append(by_bot)
    return {"seats": merge_luck(seats), "bots": merge_luck(bots)}
