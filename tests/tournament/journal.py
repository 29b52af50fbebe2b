"""A test helper (nothing in the package used it): the tournament as an
append-only journal of facts, entries and corrections in any order.

Referees enter results and penalties in whatever order the evening goes, and correct them
later. The :class:`Journal` keeps every entry (who, when, why; nothing is deleted: a
withdrawal is an entry too); for each *key* (a table's result, one penalty, one carry-over)
the latest entry is the current fact, and :meth:`Journal.tournament` rebuilds the
:class:`Tournament` from the current facts in a canonical order. So the ranking depends
only on the current facts, never on the order in which they were entered or corrected
(the property tested in tests/tournament).

Keys: ``("result", date, table)`` for a :class:`ResultFact`; ``("penalty", date, table or
0, ref)`` for a :class:`PenaltyFact` (``ref`` names one penalty, e.g. ``"p1"``; table 0 =
a ranking penalty of the evening); ``("carry_over", player)`` for a :class:`CarryOver`.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, replace

from risiko.sheet import Sheet
from risiko.tournament.model import CarryOver, Penalty, Table, Tournament

__all__ = ["Entry", "Fact", "Journal", "PenaltyFact", "ResultFact", "fact_key"]


@dataclass(frozen=True)
class ResultFact:
    """The result of table ``table`` (1-based) on ``date``: a sheet or direct scores, with
    the RisiKo! and abandonment (R13) flags of :class:`Table`."""

    date: _dt.date
    table: int
    sheet: Sheet | None = None
    scores: tuple[tuple[str, int], ...] | None = None
    risiko: frozenset[str] = frozenset()
    abandoned: frozenset[str] = frozenset()


@dataclass(frozen=True)
class PenaltyFact:
    """One penalty on ``date``: at table ``table`` (table points) or, with ``table`` None,
    in the ranking (ranking points); ``ref`` identifies it among that evening's penalties."""

    date: _dt.date
    table: int | None
    ref: str
    penalty: Penalty


Fact = ResultFact | PenaltyFact | CarryOver
Key = tuple[str, ...]


def fact_key(fact: Fact) -> Key:
    """The key a fact is filed under (a later fact with the same key corrects it)."""
    if isinstance(fact, ResultFact):
        return ("result", fact.date.isoformat(), str(fact.table))
    if isinstance(fact, PenaltyFact):
        return ("penalty", fact.date.isoformat(), str(fact.table or 0), fact.ref)
    return ("carry_over", fact.player)


@dataclass(frozen=True)
class Entry:
    """One journal entry: sequence number (1, 2, ...), key, the fact (None = withdrawn),
    who entered it, when (free text, e.g. an ISO timestamp) and why."""

    seq: int
    key: Key
    fact: Fact | None
    by: str = ""
    at: str = ""
    note: str = ""


class Journal:
    """An append-only journal over a ``base`` tournament (players, evenings and seats).

    Results, penalties and carry-overs recorded in ``base`` are ignored: :meth:`tournament`
    takes them from the journal's current facts only.
    """

    def __init__(self, base: Tournament) -> None:
        self.base = base
        self._entries: list[Entry] = []

    @property
    def entries(self) -> tuple[Entry, ...]:
        """Every entry, in the order entered (the audit log)."""
        return tuple(self._entries)

    def record(self, fact: Fact, *, by: str = "", at: str = "", note: str = "") -> Entry:
        """Enter ``fact`` (a new fact or the correction of the fact with the same key)."""
        entry = Entry(len(self._entries) + 1, fact_key(fact), fact, by, at, note)
        self._entries.append(entry)
        return entry

    def withdraw(self, key: Key, *, by: str = "", at: str = "", note: str = "") -> Entry:
        """Withdraw the current fact of ``key`` (the entries stay in the journal)."""
        entry = Entry(len(self._entries) + 1, key, None, by, at, note)
        self._entries.append(entry)
        return entry

    def current(self) -> dict[Key, Fact]:
        """The current fact of every key (the latest entry; withdrawn keys left out)."""
        latest: dict[Key, Fact | None] = {}
        for e in self._entries:
            latest[e.key] = e.fact
        return {k: f for k, f in latest.items() if f is not None}

    def history(self, key: Key) -> list[Entry]:
        """Every entry of one key, oldest first (who changed what and when)."""
        return [e for e in self._entries if e.key == key]

    def tournament(self) -> Tournament:
        """The base tournament with the current facts applied, in canonical order."""
        facts = sorted(self.current().items())
        results = {(f.date, f.table): f for _, f in facts if isinstance(f, ResultFact)}
        penalties = [f for _, f in facts if isinstance(f, PenaltyFact)]
        carry = [f for _, f in facts if isinstance(f, CarryOver)]
        evenings = []
        for e in self.base.evenings:
            tables = []
            for number, t in enumerate(e.tables, start=1):
                r = results.get((e.date, number))
                table = Table(seats=t.seats)
                if r is not None:
                    table = replace(table, sheet=r.sheet, scores=r.scores, risiko=r.risiko,
                                    abandoned=r.abandoned)
                table_pens = tuple(p.penalty for p in penalties
                                   if p.date == e.date and p.table == number)
                tables.append(replace(table, penalties=table_pens))
            ranking = tuple(p.penalty for p in penalties if p.date == e.date and not p.table)
            evenings.append(replace(e, tables=tuple(tables), penalties=ranking))
        return replace(self.base, evenings=tuple(evenings), carry_over=tuple(carry))
