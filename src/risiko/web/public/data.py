"""What the public pages show, computed from the recorded facts and cached until they change.

:func:`risiko.web.selectors.load_tournament` builds the domain tournament in a fixed number of
queries. :func:`snapshot` gives everything computed from it -
the season report (``risiko season --json``), each evening's tables with every seat's score,
the points of every player after each qualifying evening - cached in this process under a key
that changes with every write (see :func:`change_key`): the first request after a write
computes it (on the server: a thread started by it), a public request arriving during that
computation gets the one from before.
"""

from __future__ import annotations

import datetime as _dt
import itertools
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from typing import Any

from django.conf import settings
from django.contrib.admin.models import LogEntry
from django.db import connection, models, transaction
from django.db.models.signals import post_delete, post_save

from risiko.faults import Fault
from risiko.ruleset import Ruleset
from risiko.tournament import model as dm
from risiko.tournament.dates import clock_name
from risiko.tournament.finals import Stages, compute_stages
from risiko.tournament.ranking import Number
from risiko.tournament.schedule import classify
from risiko.tournament.standings import compute_standings
from risiko.web.auditlog.models import AuditEntry
from risiko.web.selectors import clear_sheet_cache, last_unreadable, load_tournament
from risiko.web.tournaments.models import Tournament

# ------------------------------------------------------------------------------ loading


_classify = lru_cache(maxsize=65536)(classify)


# ------------------------------------------------------------------------------ views of data


@dataclass(frozen=True)
class PenaltyView:
    """A penalty as shown: ``points`` given, ``effective`` after the appeal (``appeal`` is
    the outcome: upheld | reduced | annulled, or "" without one); ``kind`` "table" (table
    points, ``table`` its number), "ranking" (a referee's, ranking points) or "r13" (left
    the game: the ruleset's ranking penalty)."""

    player: str
    kind: str
    points: int
    effective: int
    reason: str = ""
    referee: str = ""
    appeal: str = ""
    table: int | None = None
    date: _dt.date | None = None
    stage: str = ""


@dataclass(frozen=True)
class SeatView:
    """One seat of a table: ``position`` in turn order; ``base`` the table score before the
    table penalties (``penalty`` <= 0), ``score`` = base + penalty; ``risiko`` objective
    completed; ``abandoned`` left the game (R13). Scores are None while not played."""

    position: int
    player: str
    base: int | None = None
    penalty: int | None = None
    score: int | None = None
    risiko: bool = False
    abandoned: bool = False


@dataclass(frozen=True)
class TableView:
    """A table: ``number``, ``played`` (a result is recorded), ``seats`` in turn order, its
    table penalties."""

    number: int
    played: bool
    seats: tuple[SeatView, ...]
    penalties: tuple[PenaltyView, ...]


@dataclass(frozen=True)
class ArrivalView:
    """An arrival with its R3 ruling: ``arrival_class`` on_time | late | excluded,
    ``penalty_turns``, ``phoned`` (a phone notice was recorded)."""

    player: str
    at: str
    phoned: bool
    arrival_class: str
    penalty_turns: int


@dataclass(frozen=True)
class EveningView:
    """An evening: date, stage, tables, arrivals (by time), ranking penalties (referees'
    after appeals and R13), ``played`` and ``total`` tables."""

    date: _dt.date
    stage: str
    tables: tuple[TableView, ...]
    arrivals: tuple[ArrivalView, ...]
    penalties: tuple[PenaltyView, ...]

    @property
    def played(self) -> int:
        return sum(t.played for t in self.tables)

    @property
    def total(self) -> int:
        return len(self.tables)

    @property
    def players(self) -> int:
        return sum(len(t.seats) for t in self.tables)


@dataclass(frozen=True)
class EveningSummary:
    """An evening in the list: date, stage, tables with a result, tables, players seated."""

    date: _dt.date
    stage: str
    played: int
    total: int
    players: int


@dataclass(frozen=True)
class Point:
    """A player's place in the qualifying ranking after an evening."""

    date: _dt.date
    points: Number  # ranking points: an int, or an exact Decimal under some formulas
    rank: int


def _penalty_view(p: dm.Penalty, kind: str, table: int | None, e: dm.Evening) -> PenaltyView:
    return PenaltyView(
        player=p.player, kind=kind, points=p.points, effective=p.effective, reason=p.reason,
        referee=p.referee, appeal=p.appeal.outcome if p.appeal else "", table=table,
        date=e.date, stage=e.stage,
    )


# ------------------------------------------------------------------------------ snapshot


class Snapshot:
    """Everything the public pages show of one tournament, computed once per change.

    ``domain`` (the pure tournament as loaded), ``scored`` (the same with every sheet
    replaced by the scores it gives: the same standings and stages, without scoring each
    sheet again), ``stages`` (standings and R18 stages), ``report`` (the dict of ``risiko
    season --json`` but its ``evenings``: name, ruleset, format, standings and the stage
    keys); computed when first asked: ``evening(date)`` and ``evenings``
    (:class:`EveningView`), ``summaries`` (:class:`EveningSummary`, newest first),
    ``history`` (each player's :class:`Point` after every qualifying evening with a
    result).
    """

    def __init__(self, domain: dm.Tournament, unreadable: Iterable[str] = ()) -> None:
        self.domain = domain
        #: the change key it was computed under (:func:`change_key`; () when made apart)
        self.key: tuple[Any, ...] = ()
        #: the stored facts the loader could not read (left out; shown to referees)
        self.unreadable = list(unreadable)
        self.ruleset = domain.ruleset
        self.scored = replace(domain, evenings=tuple(
            replace(e, tables=tuple(_prescored(t, self.ruleset) for t in e.tables))
            for e in domain.evenings))
        self.stages: Stages = compute_stages(self.scored)
        self.report: dict[str, Any] = {
            "name": domain.name,
            "ruleset": self.ruleset.label,
            "format": domain.format.to_dict(),
            **self.stages.to_dict(),
        }
        self.rows: list[dict[str, Any]] = self.report["standings"]
        self.row_of = {r["player"]: r for r in self.rows}
        self._views: dict[_dt.date, EveningView | None] = {}
        self._lock = threading.Lock()
        self._fragments: dict[tuple[str, ...], str] = {}

    @cached_property
    def evenings(self) -> dict[_dt.date, EveningView]:
        """Every evening's tables, arrivals and ranking penalties, by date."""
        return {e.date: self._evening_view(e) for e in self.scored.evenings}

    def evening(self, date: _dt.date) -> EveningView | None:
        """The evening on ``date`` (None if there is none)."""
        if "evenings" in self.__dict__:
            return self.evenings.get(date)
        with self._lock:
            if date not in self._views:
                found = next((e for e in self.scored.evenings if e.date == date), None)
                self._views[date] = None if found is None else self._evening_view(found)
            return self._views[date]

    def fragment(self, key: tuple[str, ...], render: Callable[[], str]) -> str:
        """The HTML ``render()`` gives, remembered under ``key`` for this snapshot (the
        ``{% snapshotfragment %}`` tag: a part of a page that depends only on the facts)."""
        found = self._fragments.get(key)
        if found is None:
            found = self._fragments[key] = render()
        return found

    @cached_property
    def season(self) -> dict[str, Any]:
        """The whole computed season (``risiko season --json``: :attr:`report` and the
        ``evenings``), as the referee console shows and exports it. Shared: read only."""
        from risiko.tournament.season import season_report

        return season_report(self.domain, self.stages)

    @cached_property
    def faults(self) -> list[Fault]:
        """What in the recorded facts contradicts the regulation
        (:func:`risiko.tournament.checks.tournament_faults`), computed once per change."""
        from risiko.tournament.checks import tournament_faults

        return list(tournament_faults(self.domain))

    @cached_property
    def summaries(self) -> list[EveningSummary]:
        """Every evening, newest first, with how many tables have a result."""
        return [EveningSummary(e.date, e.stage, sum(t.played for t in e.tables), len(e.tables),
                               sum(len(t.seats) for t in e.tables))
                for e in sorted(self.scored.evenings, key=lambda e: e.date, reverse=True)]

    def _evening_view(self, e: dm.Evening) -> EveningView:
        abandon = self.ruleset.abandon_ranking_penalty
        tables = []
        r13 = []
        for number, table in enumerate(e.tables, start=1):
            results = {s.player: s for s in table.results(self.ruleset)}
            seats = []
            for pos, name in enumerate(table.seats, start=1):
                s = results.get(name)
                if s is None:
                    seats.append(SeatView(pos, name))
                    continue
                seats.append(SeatView(pos, name, s.base, s.penalty, s.score, s.risiko,
                                      s.abandoned))
                if s.abandoned:
                    r13.append(PenaltyView(name, "r13", -abandon, -abandon, "R13",
                                           table=number, date=e.date, stage=e.stage))
            tables.append(TableView(
                number, table.played, tuple(seats),
                tuple(_penalty_view(p, "table", number, e) for p in table.penalties)))
        arrivals = []
        for a in sorted(e.arrivals, key=lambda a: (a.at, a.player)):
            ruling = _classify(e.schedule, a)
            arrivals.append(ArrivalView(a.player, clock_name(a.at), a.phoned,
                                        ruling.arrival_class, ruling.penalty_turns))
        penalties = [_penalty_view(p, "ranking", None, e) for p in e.penalties]
        return EveningView(e.date, e.stage, tuple(tables), tuple(arrivals),
                           tuple(penalties + r13))

    @cached_property
    def history(self) -> dict[str, list[Point]]:
        """Each ranked player's points and rank after every qualifying evening with at least
        one result (``compute_standings(until=date)``, see :func:`_ranking_history`)."""
        return _ranking_history(self.scored)

    def games_of(self, player: str) -> list[tuple[EveningView, TableView, SeatView]]:
        """The tables ``player`` sat at, by date."""
        out = []
        for e in self.evenings.values():
            for t in e.tables:
                for s in t.seats:
                    if s.player == player:
                        out.append((e, t, s))
        return out

    def penalties_of(self, player: str) -> list[PenaltyView]:
        """Every penalty of ``player``: table penalties, ranking penalties and R13, by date."""
        out: list[PenaltyView] = []
        for e in self.evenings.values():
            for t in e.tables:
                out += [p for p in t.penalties if p.player == player]
            out += [p for p in e.penalties if p.player == player]
        return out


_SCORED: OrderedDict[dm.Table, dm.Table] = OrderedDict()
_SCORED_SIZE = 8192
_scored_lock = threading.Lock()


def _prescored(table: dm.Table, ruleset: Ruleset) -> dm.Table:
    """``table`` with its sheet replaced by the scores it gives (base scores, RisiKo!, who
    left the game): ``results()`` is the same, seat by seat. Remembered by the table."""
    if table.sheet is None:
        return table
    key = table
    with _scored_lock:
        found = _SCORED.get(key)
        if found is not None:
            _SCORED.move_to_end(key)
            return found
    results = table.results(ruleset)
    scored = replace(table, sheet=None, scores=tuple((s.player, s.base) for s in results),
                     risiko=frozenset(s.player for s in results if s.risiko),
                     abandoned=table.left_the_game())
    with _scored_lock:
        _SCORED[key] = scored
        while len(_SCORED) > _SCORED_SIZE:
            _SCORED.popitem(last=False)
    return scored


_STANDINGS: OrderedDict[int, tuple[tuple[str, Number, int], ...]] = OrderedDict()
_CHAIN: OrderedDict[tuple[Any, ...], int] = OrderedDict()
_MEMO_SIZE = 1024
_tokens = itertools.count(1)
_standings_lock = threading.Lock()


def _token(key: tuple[Any, ...]) -> int:
    """A number naming ``key`` for as long as it is remembered (never reused)."""
    with _standings_lock:
        found = _CHAIN.get(key)
        if found is None:
            found = _CHAIN[key] = next(_tokens)
        _CHAIN.move_to_end(key)
        while len(_CHAIN) > _MEMO_SIZE:
            _CHAIN.popitem(last=False)
        return found


def _ranking_history(t: dm.Tournament) -> dict[str, list[Point]]:
    """Each ranked player's points and rank after every qualifying evening of ``t`` with at
    least one result: ``compute_standings(t, until=date)``, remembered by the facts up to
    that date - the format, the ruleset, the carry-over and the evenings so far, named by a
    chain of tokens (token of the evenings before, this evening) so that each evening is
    hashed once - so a new result on the last evening recomputes that evening only."""
    out: dict[str, list[Point]] = defaultdict(list)
    token = _token(("start", t.format, t.ruleset_name, t.ruleset_version, t.carry_over))
    qualifying = t.stage_evenings("qualifying")
    for k, e in enumerate(qualifying):
        token = _token((token, e))
        if not any(table.played for table in e.tables):
            continue
        with _standings_lock:
            rows = _STANDINGS.get(token)
            if rows is not None:
                _STANDINGS.move_to_end(token)
        if rows is None:
            computed = compute_standings(replace(t, evenings=tuple(qualifying[:k + 1]))).rows
            rows = tuple((r.player, r.points, r.rank) for r in computed)
            with _standings_lock:
                _STANDINGS[token] = rows
                while len(_STANDINGS) > _MEMO_SIZE:
                    _STANDINGS.popitem(last=False)
        for player, points, rank in rows:
            out[player].append(Point(e.date, points, rank))
    return dict(out)


# ------------------------------------------------------------------------------ the cache

_signal_writes = 0  # model saves and deletes committed in this process (admin, shell, ...)
_CACHE: OrderedDict[int, tuple[tuple[Any, ...], Snapshot]] = OrderedDict()
_CACHE_SIZE = 4
_cache_lock = threading.Lock()


def _count_write() -> None:
    global _signal_writes
    with _cache_lock:
        _signal_writes += 1


def _bump(**_kwargs: Any) -> None:
    # once the write is committed (at once outside a transaction): a request reading the
    # key before the data would otherwise keep the old data under the new key
    transaction.on_commit(_count_write)


def connect_signals(models_: Iterable[type[models.Model]]) -> None:
    """Count every committed save and delete of these models (called by the app config)."""
    for model in models_:
        post_save.connect(_bump, sender=model, dispatch_uid=f"public-save-{model._meta.label}")
        post_delete.connect(_bump, sender=model,
                            dispatch_uid=f"public-delete-{model._meta.label}")


def _change_sql() -> str:
    """One query for the change key: count, last id and last time of the audit log and of
    the admin's log (four ORM queries cost more than the cached page they guard)."""
    quote = connection.ops.quote_name
    parts = []
    for model, time_field in ((AuditEntry, "when"), (LogEntry, "action_time")):
        table = quote(model._meta.db_table)
        pk = quote(str(model._meta.pk.column))
        when = quote(str(model._meta.get_field(time_field).column))  # type: ignore[union-attr]
        parts += [f"(SELECT COUNT(*) FROM {table})",
                  f"(SELECT {pk} FROM {table} ORDER BY {pk} DESC LIMIT 1)",
                  f"(SELECT {when} FROM {table} ORDER BY {pk} DESC LIMIT 1)"]
    return "SELECT " + ", ".join(parts)


def change_key() -> tuple[Any, ...]:
    """Changes whenever a fact may have changed: every write through the services adds an
    audit entry (its count, last id and time: ids reused after a rollback or a restore of
    an older database still give a new time), the admin adds a log entry, and the saves and
    deletes of the domain models in this process are counted. Read before the facts, so a
    write landing in between is picked up by the next request."""
    return (_signal_writes, *stored_change_key())


def stored_change_key() -> tuple[Any, ...]:
    """The part of :func:`change_key` the database keeps (the audit log's and the admin's
    log's count, last id and last time), one query: it moves with a write made by any
    process on the same database (``risiko tournament scores`` at the command line, another
    worker), which the live pages' hub looks at (:mod:`risiko.web.live.hub`)."""
    with connection.cursor() as cursor:
        cursor.execute(_change_sql())
        row = cursor.fetchone()
    return tuple(row or ())


_building: dict[int, threading.Lock] = {}
_background_failed: set[int] = set()  # tournaments whose last computation in a thread failed


def _cached(pk: int, key: tuple[Any, ...]) -> Snapshot | None:
    with _cache_lock:
        hit = _CACHE.get(pk)
        if hit is not None and hit[0] == key:
            _CACHE.move_to_end(pk)
            return hit[1]
    return None


def _compute(t: Tournament, lock: threading.Lock) -> Snapshot:
    """Compute and cache the snapshot of ``t`` (``lock``, this tournament's, is held by the
    caller and released here)."""
    try:
        key = change_key()  # what changed while the caller waited is seen now
        found = _cached(t.pk, key)
        if found is not None:
            return found
        domain = load_tournament(t)
        snap = Snapshot(domain, unreadable=last_unreadable(t))
        snap.key = key
        with _cache_lock:
            _CACHE[t.pk] = (key, snap)
            _background_failed.discard(t.pk)
            _CACHE.move_to_end(t.pk)
            while len(_CACHE) > _CACHE_SIZE:
                _CACHE.popitem(last=False)
        return snap
    finally:
        lock.release()


def _compute_in_background(t: Tournament, lock: threading.Lock) -> None:
    """:func:`_compute` in a thread of its own, which gives its database connection back."""
    from django.db import connections

    def work() -> None:
        try:
            _compute(t, lock)
        except Exception:
            with _cache_lock:  # the next request computes it itself and shows the error
                _background_failed.add(t.pk)
            raise
        finally:
            connections.close_all()

    threading.Thread(target=work, name=f"snapshot-{t.pk}", daemon=True).start()


def background_snapshots() -> bool:
    """True when a public request after a change answers with the snapshot from before it
    while a thread computes the new one (``RISIKO_PUBLIC_BACKGROUND``; ``risiko serve`` turns
    it on)."""
    return bool(getattr(settings, "RISIKO_PUBLIC_BACKGROUND", False))


def snapshot(t: Tournament, *, fresh: bool = False) -> Snapshot:
    """The :class:`Snapshot` of ``t``, from the cache when nothing changed since it was
    computed.

    After a change one request computes the new snapshot; a request arriving while it does
    gets the snapshot from before the change - it arrived at the same moment as the change,
    and a phone polling the standings asks again 10 seconds later - instead of waiting or
    computing it too (50 phones polling would otherwise compute a new result once each,
    every one slower for sharing the processor). With :func:`background_snapshots` (the
    server) no public request computes it at all once there is a snapshot: the first one
    after a change starts the computation in a thread and, like the others, gets the
    snapshot from before - a phone never waits for the standings to be recomputed.
    ``fresh=True`` (the referee console: a referee must see what was just saved) waits for
    the computation instead."""
    found = _cached(t.pk, change_key())
    if found is not None:
        return found
    with _cache_lock:
        lock = _building.setdefault(t.pk, threading.Lock())
        previous = _CACHE.get(t.pk)
    if not lock.acquire(blocking=fresh or previous is None):
        assert previous is not None
        return previous[1]
    if (previous is not None and not fresh and background_snapshots()
            and t.pk not in _background_failed):
        _compute_in_background(t, lock)
        return previous[1]
    return _compute(t, lock)


def clear_cache() -> None:
    """Forget every snapshot, parsed sheet and past ranking (tests, benchmarks)."""
    with _cache_lock:
        _CACHE.clear()
    clear_sheet_cache()
    with _standings_lock:
        _STANDINGS.clear()
        _CHAIN.clear()
    with _scored_lock:
        _SCORED.clear()
