"""The general ranking: points, R13, penalties and appeals, R17, tie-breaks, shared ranks,
best N of M, eligibility."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from tournament_helpers import EXAMPLES, evening, season, table

from risiko.tournament import METRICS, compute_standings, parse_season
from risiko.tournament.model import Draw

FILL1 = {"X": 1, "Y": 2}
FILL2 = {"X": 3, "Y": 4}


def msgs(faults: Any) -> tuple[str, ...]:
    """Faults (values) as their English lines."""
    return tuple(f.message("en") for f in faults)


def two_evenings(a: tuple[int, int], b: tuple[int, int], **extra: Any) -> dict[str, Any]:
    """A and B at one table with fillers X and Y, two evenings."""
    first = table({"A": a[0], "B": b[0], **FILL1}, **extra.get("t1", {}))
    second = table({"A": a[1], "B": b[1], **FILL2}, **extra.get("t2", {}))
    return season(evening("2027-03-02", first, **extra.get("e1", {})),
                  evening("2027-03-09", second, **extra.get("e2", {})))


def ranks(data: dict[str, Any]) -> list[tuple[int, str]]:
    return [(r.rank, r.player) for r in compute_standings(parse_season(data)).rows]


CASES = {
    "points": (two_evenings((60, 10), (50, 10)), [(1, "A"), (2, "B")]),
    # equal points: more RisiKo! first, even with a worse best... (B's best is lower anyway)
    "risiko": (two_evenings((100, 20), (60, 60), t1={"risiko": ["A"]}), [(1, "A"), (2, "B")]),
    "risiko, listed second": (two_evenings((60, 60), (100, 20), t1={"risiko": ["B"]}),
                              [(1, "B"), (2, "A")]),
    # equal points and RisiKo!: best single table score
    "best": (two_evenings((50, 50), (70, 30)), [(1, "B"), (2, "A")]),
    # equal points, RisiKo!, best: fewer ranking penalty points
    "penalties": (two_evenings((60, 45), (60, 40), e2={"penalties": [
        {"player": "A", "points": -5, "reason": "R10"}]}), [(1, "B"), (2, "A")]),
    # everything equal: shared position, listed by name
    "shared": (two_evenings((40, 60), (60, 40)), [(1, "A"), (1, "B")]),
}


@pytest.mark.parametrize("case", CASES)
def test_tie_breaks(case: str) -> None:
    data, expected = CASES[case]
    assert ranks(data)[:2] == expected


def test_shared_positions_1_1_3() -> None:
    data = season(
        evening("2027-03-02", table({"A": 50, "B": 50, "C": 40, "D": 40}),
                table({"E": 30, "F": 60, "G": 50})),
    )
    assert ranks(data) == [(1, "F"), (2, "A"), (2, "B"), (2, "G"), (5, "C"), (5, "D"),
                           (7, "E")]


def test_draw_orders_rows_but_keeps_the_shared_rank() -> None:
    data = season(evening("2027-03-02", table({"A": 50, "B": 50, "C": 40})))
    t = parse_season(data)
    rows = compute_standings(t, draws=[Draw("semifinal", ("B", "A"))]).rows
    assert [(r.rank, r.player) for r in rows] == [(1, "B"), (1, "A"), (3, "C")]


def test_abandonment_r13() -> None:
    data = season(evening("2027-03-02", table({"A": 0, "B": 50, "C": 40, "D": 30},
                                              abandoned=["A"])),
                  evening("2027-03-09", table({"A": 70, "B": 10, "C": 20, "D": 30})))
    row = compute_standings(parse_season(data)).row("A")
    assert (row.points, row.games, row.best, row.penalties) == (70 - 25, 2, 70, -25)


def test_abandonment_from_a_sheet() -> None:
    sheet = json.loads((EXAMPLES / "sheet-5-seats.json").read_text())
    sheet["seats"][1]["abandoned"] = True  # Bruno leaves: table score 0, -25 in the ranking
    data = season(evening("2027-03-02", {"seats": [s["player"] for s in sheet["seats"]],
                                         "sheet": sheet}))
    st = compute_standings(parse_season(data))
    assert st.row("Bruno").points == -25 and st.row("Bruno").penalties == -25
    assert st.row("Anna").points == 66 and st.row("Dario").points == 23  # R5: 30 - 7


def test_table_abandoned_list_overrides_a_sheet() -> None:
    sheet = json.loads((EXAMPLES / "sheet-5-seats.json").read_text())
    data = season(evening("2027-03-02", {"seats": [s["player"] for s in sheet["seats"]],
                                         "sheet": sheet, "abandoned": ["Anna"]}))
    assert compute_standings(parse_season(data)).row("Anna").points == -25


@pytest.mark.parametrize(
    ("appeal", "table_points", "ranking_points"),
    [
        (None, -7, -10),
        ({"outcome": "upheld"}, -7, -10),
        ({"outcome": "reduced", "points": -3}, -3, -3),
        ({"outcome": "annulled"}, 0, 0),
    ],
)
def test_penalties_and_appeals(appeal: dict[str, Any] | None, table_points: int,
                               ranking_points: int) -> None:
    pen: dict[str, Any] = {"player": "A", "points": -7, "reason": "R5", "referee": "Luca"}
    rpen: dict[str, Any] = {"player": "B", "points": -10, "reason": "R10", "referee": "Sara"}
    if appeal is not None:
        pen["appeal"] = appeal
        rpen["appeal"] = appeal
    data = season(evening("2027-03-02", table({"A": 50, "B": 50, "C": 40}, penalties=[pen]),
                          penalties=[rpen]))
    st = compute_standings(parse_season(data))
    a, b = st.row("A"), st.row("B")
    assert (a.points, a.best, a.penalties) == (50 + table_points, 50 + table_points, 0)
    assert (b.points, b.best, b.penalties) == (50 + ranking_points, 50, ranking_points)


def test_carry_over_r17() -> None:
    data = season(evening("2027-03-02", table({"A": 50, "B": 40, "C": 30})),
                  players=["A", "B", "C", "New"], carry_over={"B": 15, "New": {
                      "points": 20, "referee": "Luca"}})
    st = compute_standings(parse_season(data))
    assert [(r.player, r.points, r.games, r.best) for r in st.rows] == [
        ("B", 55, 1, 40), ("A", 50, 1, 50), ("C", 30, 1, 30), ("New", 20, 0, None)]


def test_registered_players_without_facts_are_not_ranked() -> None:
    data = season(evening("2027-03-02", table({"A": 50, "B": 40, "C": 30})),
                  players=["A", "B", "C", "Ghost"])
    assert [r.player for r in compute_standings(parse_season(data)).rows] == ["A", "B", "C"]


def three_evenings(fmt: Any) -> dict[str, Any]:
    """A plays 50, 10, 40; B plays 45, 45 and misses the third evening."""
    return season(
        evening("2027-03-02", table({"A": 50, "B": 45, "C": 0})),
        evening("2027-03-09", table({"A": 10, "B": 45, "C": 0})),
        evening("2027-03-16", table({"A": 40, "C": 0, "D": 0})),
        format=fmt,
    )


@pytest.mark.parametrize(
    ("fmt", "a_points", "b_points"),
    [
        ("club-milano", 100, 90),
        ({"best_of": 2}, 90, 90),  # A keeps 50 + 40; B 45 + 45
        ({"discard_worst": 1}, 90, 90),  # 3 evenings held: keep 2; B's absence is dropped
        ({"best_of": 1}, 50, 45),
        ({"discard_worst": 3}, 100, 90),  # never more evenings than discarded: all count
    ],
)
def test_best_n_of_m(fmt: Any, a_points: int, b_points: int) -> None:
    st = compute_standings(parse_season(three_evenings(fmt)))
    assert (st.row("A").points, st.row("B").points) == (a_points, b_points)


def test_absence_is_the_worst_evening_even_against_a_negative_one() -> None:
    data = season(
        evening("2027-03-02", table({"A": 50, "C": 0, "D": 0})),
        evening("2027-03-09", table({"A": 0, "C": 0, "D": 0},
                                    penalties=[{"player": "A", "points": -7}])),
        evening("2027-03-16", table({"B": 1, "C": 0, "D": 0})),
        format={"discard_worst": 1},
    )
    # A: 50, -7 and an absence: the absence is dropped, the -7 counts
    assert compute_standings(parse_season(data)).row("A").points == 43


def test_ranking_penalties_are_never_discarded() -> None:
    data = three_evenings({"best_of": 1})
    data["evenings"][1]["penalties"] = [{"player": "A", "points": -20}]
    assert compute_standings(parse_season(data)).row("A").points == 30


def test_min_evenings_eligibility() -> None:
    data = three_evenings({"min_evenings": 3})
    st = compute_standings(parse_season(data))
    assert [(r.player, r.eligible) for r in st.rows] == [
        ("A", True), ("B", False), ("C", True), ("D", False)]
    why = st.row("B").not_eligible_because
    assert why is not None and why.code == "standings.too_few_evenings"
    assert why.message("en") == "played 2 of the 3 qualifying evenings required"


def test_custom_tie_breaks() -> None:
    data = two_evenings((50, 50), (70, 30))
    data["format"] = {"tie_breaks": ["points", "fewer_games", "penalties"]}
    assert ranks(data)[:2] == [(1, "A"), (1, "B")]  # "best" is no longer a tie-break
    data["format"] = {"tie_breaks": ["best"]}
    assert ranks(data)[0] == (1, "B")


def test_metric_registry() -> None:
    assert list(METRICS)[:4] == ["points", "risiko", "best", "penalties"]
    assert all(m.description for m in METRICS.values())
    assert METRICS["fewer_games"].higher_is_better is False


def test_standings_do_not_depend_on_tables_or_penalties_order() -> None:
    data = json.loads((EXAMPLES / "season-2027.json").read_text())
    base = compute_standings(parse_season(data)).to_list()
    shuffled = copy.deepcopy(data)
    shuffled["evenings"].reverse()
    for e in shuffled["evenings"]:
        e["tables"].reverse()
        e.get("penalties", []).reverse()
    shuffled["players"].reverse()
    assert compute_standings(parse_season(shuffled)).to_list() == base


def test_unplayed_table_is_pending_and_counts_nothing() -> None:
    from risiko.tournament import compute_stages

    data = season(evening("2027-03-02", table({"A": 50, "B": 40, "C": 30}),
                          {"seats": ["D", "E", "F"]}))
    st = compute_stages(parse_season(data))
    assert [r.player for r in st.standings.rows] == ["A", "B", "C"]
    assert msgs(st.pending)[0] == "evening 2027-03-02 (qualifying), table 2: no result yet"
