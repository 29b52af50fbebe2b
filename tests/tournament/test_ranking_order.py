"""Property: the ranking is the same whatever the order in which results and penalties were
entered or corrected (a correction is new facts, and the ranking is recomputed)."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from journal import Fact, Journal, PenaltyFact, ResultFact, fact_key
from tournament_helpers import NAMES

from risiko.tournament import Evening, Penalty, Table, Tournament, compute_stages
from risiko.tournament.model import Appeal, CarryOver, Player
from risiko.tournament.seating import table_sizes


@st.composite
def results_of(draw: st.DrawFn, date: dt.date, number: int,
               seats: tuple[str, ...]) -> ResultFact:
    abandoned = frozenset(p for p in seats if draw(st.integers(0, 11)) == 0)
    scores = tuple((p, 0 if p in abandoned else draw(st.integers(0, 100))) for p in seats)
    risiko = frozenset(p for p, s in scores if s == 100 and draw(st.booleans()))
    return ResultFact(date, number, scores=scores, risiko=risiko, abandoned=abandoned)


@st.composite
def penalty_of(draw: st.DrawFn, date: dt.date, tables: tuple[tuple[str, ...], ...],
               ref: str) -> PenaltyFact:
    number = draw(st.integers(0, len(tables)))  # 0: a ranking penalty of the evening
    pool = tables[number - 1] if number else tuple(p for t in tables for p in t)
    points = draw(st.integers(-25, -1))
    appeal = draw(st.sampled_from([None, Appeal("upheld"), Appeal("annulled"),
                                   Appeal("reduced", min(0, points + 3))]))
    if appeal is not None and appeal.outcome == "reduced" and appeal.points == points:
        appeal = None
    return PenaltyFact(date, number or None, ref,
                       Penalty(draw(st.sampled_from(pool)), points, "R10", "Luca",
                               appeal=appeal))


@st.composite
def seasons(draw: st.DrawFn) -> tuple[Tournament, list[Fact], list[Fact]]:
    """A base tournament (seats only), its final facts, and wrong earlier versions."""
    n = draw(st.integers(9, 13))
    players = NAMES[:n]
    evenings = []
    facts: list[Fact] = []
    for k in range(draw(st.integers(1, 3))):
        date = dt.date(2027, 3, 2) + dt.timedelta(days=7 * k)
        order = draw(st.permutations(players))
        tables: list[tuple[str, ...]] = []
        start = 0
        for size in table_sizes(n):
            tables.append(tuple(order[start:start + size]))
            start += size
        evenings.append(Evening(date, tables=tuple(Table(seats=t) for t in tables)))
        for number, seats in enumerate(tables, start=1):
            facts.append(draw(results_of(date, number, seats)))
        for i in range(draw(st.integers(0, 3))):
            facts.append(draw(penalty_of(date, tuple(tables), f"p{i}")))
    if draw(st.booleans()):
        facts.append(CarryOver(draw(st.sampled_from(players)), draw(st.integers(1, 40)),
                               "Luca"))
    wrong: list[Fact] = []
    for f in facts:
        if draw(st.integers(0, 2)) == 0:  # a third of the facts were first entered wrong
            if isinstance(f, ResultFact):
                seats = tuple(p for p, _ in f.scores or ())
                wrong.append(draw(results_of(f.date, f.table, seats)))
            elif isinstance(f, PenaltyFact):
                wrong.append(replace(f, penalty=replace(f.penalty, points=f.penalty.points - 5)))
            else:
                wrong.append(replace(f, points=f.points + 10))
    base = Tournament("Property", tuple(Player(p) for p in players),
                      evenings=tuple(evenings))
    return base, facts, wrong


def ranking_of(t: Tournament) -> dict[str, Any]:
    return compute_stages(t).to_dict()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seasons(), st.data())
def test_entry_order_and_corrections_do_not_matter(
        season: tuple[Tournament, list[Fact], list[Fact]], data: st.DataObject) -> None:
    base, facts, wrong = season
    reference = Journal(base)
    for f in facts:
        reference.record(f)
    expected = reference.tournament()

    # the same facts in another order, each wrong version entered (and possibly entered
    # again) before its correction, and a penalty entered by mistake then withdrawn
    order = data.draw(st.permutations(facts))
    sequence: list[Fact | tuple[str, ...]] = list(order)
    for w in wrong:
        final_at = next(i for i, f in enumerate(sequence) if not isinstance(f, tuple)
                        and fact_key(f) == fact_key(w))
        sequence.insert(data.draw(st.integers(0, final_at)), w)
    mistake = PenaltyFact(base.evenings[0].date, None, "mistake",
                          Penalty(base.players[0].name, -50, "wrong player"))
    at = data.draw(st.integers(0, len(sequence)))
    sequence.insert(at, mistake)
    sequence.insert(data.draw(st.integers(at + 1, len(sequence))), fact_key(mistake))

    journal = Journal(base)
    for item in sequence:
        if isinstance(item, tuple):
            journal.withdraw(item, by="Luca", note="entered by mistake")
        else:
            journal.record(item, by="Sara")
    got = journal.tournament()
    assert got == expected
    assert ranking_of(got) == ranking_of(expected)
    assert len(journal.entries) == len(facts) + len(wrong) + 2  # nothing is deleted
    assert journal.history(fact_key(mistake))[-1].fact is None


@settings(max_examples=60, deadline=None)
@given(seasons(), st.data())
def test_table_and_penalty_order_in_the_facts_do_not_matter(
        season: tuple[Tournament, list[Fact], list[Fact]], data: st.DataObject) -> None:
    base, facts, _ = season
    journal = Journal(base)
    for f in facts:
        journal.record(f)
    t = journal.tournament()
    shuffled = replace(t, evenings=tuple(
        replace(e, tables=tuple(data.draw(st.permutations(e.tables))),
                penalties=tuple(data.draw(st.permutations(e.penalties))))
        for e in data.draw(st.permutations(t.evenings))),
        players=tuple(data.draw(st.permutations(t.players))))
    assert compute_stages(shuffled).standings.to_list() == \
        compute_stages(t).standings.to_list()
