"""Skill ratings (:mod:`risiko.ratings`): ties, hand-worked figures, refusals, the ladder's
seats and places, and ``risiko ladder``.

The hand figures: openskill's Bradley-Terry with full pairing, defaults μ = 25, σ = 25/3,
β = 25/6, τ = 25/300 (added to σ² before a game). Between two new players every pair has
c = √(σ₀² + σ₀² + 2β²) with σ₀² = (25/3)² + (25/300)², and p = ½ (equal μ). A seat's μ moves
by σ₀²/c · Σ (s − ½) over the other seats (s = 1 a win, ½ a tie, 0 a loss), and its σ² is
multiplied by 1 − Σ γ·σ₀²/c²·p(1 − p) with γ = σ₀/c, that is 1 − (n − 1)·(σ₀/c)³/4.
"""

from __future__ import annotations

import json
import math
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from risiko.faults import InvalidInputError
from risiko.ratings import MU, SIGMA, Rating, Ratings, SeatOutcome, places, rate_all
from risiko.ratings.ladder import game_seed, level_places, play_game, seating
from risiko.ruleset import new_ruleset

openskill = pytest.importorskip("openskill")

S0 = math.sqrt((25 / 3) ** 2 + (25 / 300) ** 2)  # σ before the game, τ added
C = math.sqrt(2 * S0**2 + 2 * (25 / 6) ** 2)     # every pair's c between new players
U = S0**2 / C  # σ₀²/c: μ moves by U · (s − ½) per other seat, ≈ 5.2708


def _new_table(ranks: list[int]) -> list[tuple[float, float]]:
    r = Ratings()
    keys = [f"p{i}" for i in range(len(ranks))]
    r.rate(list(zip(keys, ranks, strict=True)))
    return [(r[k].mu, r[k].sigma) for k in keys]


def test_the_hand_figures_of_one_unit() -> None:
    assert round(U, 4) == 5.2708  # 69.4514 / 13.1767


def test_five_seats_two_tied_for_second_the_fourth_below_them() -> None:
    """The trial's table: places 1, 2, 2, 4, 5. Plackett-Luce (6.2.0) gave the 4th the tied
    seconds' +0.1667; here, U · Σ (s − ½): the first 4 · ½ = +2U, each tied second
    (−½ + 0 + ½ + ½) = +U/2, the 4th (−3/2 + ½) = −U, the 5th −2U."""
    got = _new_table([1, 2, 2, 4, 5])
    expected = [2 * U, U / 2, U / 2, -U, -2 * U]
    assert [mu - 25 for mu, _ in got] == pytest.approx(expected, abs=1e-9)
    sigma = S0 * math.sqrt(1 - 4 * (S0 / C) ** 3 / 4)
    assert [s for _, s in got] == pytest.approx([sigma] * 5, abs=1e-9)
    assert got[1] == got[2]  # the tied pair: the same update
    assert got[3][0] < got[1][0]  # the 4th gains less than the tied 2nd


def test_four_seats_tied_first_and_the_third_below() -> None:
    """Places 1, 1, 3, 4: each first (0 + ½ + ½) = +U, the 3rd (−½ −½ + ½) = −U/2, the 4th
    −3U/2 (Plackett-Luce gave the 3rd the firsts' +0.93)."""
    got = _new_table([1, 1, 3, 4])
    assert [mu - 25 for mu, _ in got] == pytest.approx([U, U, -U / 2, -3 * U / 2], abs=1e-9)


def test_plackett_luce_in_the_pinned_version_is_why_it_is_not_the_model() -> None:
    """The reason recorded in :mod:`risiko.ratings`: openskill 6.2.0's Plackett-Luce gives
    the 4th of places 1, 2, 2, 4, 5 the same μ as the tied seconds."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    out = model.rate([[model.rating()] for _ in range(5)], ranks=[1, 2, 2, 4, 5])
    assert out[3][0].mu == pytest.approx(out[1][0].mu)


@settings(deadline=None)  # the first call imports openskill; the machine is shared
@given(st.lists(st.integers(1, 6), min_size=2, max_size=6))
def test_equal_places_equal_updates_and_a_lower_place_never_gains_more(raw: list[int]) -> None:
    """New players at any table of 2-6 seats with any ties: equal places move equally and
    the μ update never rises as the place falls."""
    ranks = [1 + sum(o < r for o in raw) for r in raw]  # competition places: 1, 2, 2, 4
    got = _new_table(ranks)
    for i in range(len(ranks)):
        for j in range(len(ranks)):
            if ranks[i] == ranks[j]:
                assert got[i][0] == pytest.approx(got[j][0], abs=1e-9)
            elif ranks[i] < ranks[j]:
                assert got[i][0] > got[j][0]


def test_places_from_risiko_winners_points_and_leaving() -> None:
    seats = [SeatOutcome("Anna", 44), SeatOutcome("Bruno", 44, winner=True),
             SeatOutcome("Carla", 20, risiko=True), SeatOutcome("Dario", 44),
             SeatOutcome("Elia", 90, left=True)]
    assert places(seats) == [("Anna", 3), ("Bruno", 2), ("Carla", 1), ("Dario", 3),
                             ("Elia", 5)]


def test_a_bad_table_is_refused_whole_and_changes_nothing() -> None:
    r = Ratings()
    r.rate([("A", 1), ("B", 2)])
    before = r["A"], r["B"]
    with pytest.raises(InvalidInputError) as caught:
        r.rate([("A", 1), ("A", 2), ("B", 4)])
    assert [f.code for f in caught.value.faults] == ["ratings.twice", "ratings.bad_place"]
    assert (r["A"], r["B"]) == before and r["C"] == Rating(MU, SIGMA, 0)
    with pytest.raises(InvalidInputError) as caught:
        r.rate([("A", 1)])
    assert [f.code for f in caught.value.faults] == ["ratings.too_few"]
    message = caught.value.faults[0].message("it")
    assert message == "un tavolo valutato richiede almeno 2 posti, non 1"


def test_rated_in_order_and_ranked_by_conservative_rating() -> None:
    tables = [[("A", 1), ("B", 2)], [("B", 1), ("C", 2)]]
    r = rate_all(tables)
    assert [k for k, _ in r.ranked()] == ["A", "B", "C"]
    assert r["A"].mu == pytest.approx(25 + U / 2, abs=1e-9)  # one win: U · (1 − ½)
    assert r["A"].games == 1 and r["B"].games == 2
    # the same tables in another order give other figures: the order is the dates'
    other = rate_all(reversed(tables))
    assert other["B"].mu != pytest.approx(r["B"].mu)


def test_without_openskill_the_ratings_say_how_to_install_it(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    with pytest.raises(InvalidInputError) as caught:
        Ratings()
    assert caught.value.faults[0].message("it") == (
        "le valutazioni richiedono il pacchetto openskill: pip install 'risiko-club[ratings]'")


# ------------------------------------------------------------------------------ the ladder


def test_seating_takes_every_group_of_levels_in_turn() -> None:
    groups = [tuple(sorted(seating([1, 2, 3, 4, 5], 4, i, game_seed(9, i)))) for i in range(5)]
    assert groups == [(1, 2, 3, 4), (1, 2, 3, 5), (1, 2, 4, 5), (1, 3, 4, 5), (2, 3, 4, 5)]
    assert sorted(seating([1, 2], 4, 3, 1)) == [1, 1, 2, 2]


def test_level_places_a_level_at_two_seats_takes_its_better_one() -> None:
    # levels 2, 1, 1, 2 scoring 20, 40, 60, 25, no RisiKo!: level 1's best 60, level 2's 25
    assert level_places([2, 1, 1, 2], [20, 40, 60, 25], None) == [(1, 1), (2, 2)]
    # a tie between levels 3 and 4 (both 30) below 2 (55)
    assert level_places([3, 2, 4, 1], [30, 55, 30, 0], None) == [(2, 1), (3, 2), (4, 2),
                                                                 (1, 4)]


def test_a_ladder_game_depends_only_on_the_master_seed_and_its_index() -> None:
    rs = new_ruleset(None)
    a = play_game(7, 42, 4, rs, [1, 2])
    b = play_game(7, 42, 4, rs, [1, 2])
    assert a == b and a.seed == game_seed(42, 7) and sorted(a.levels) == [1, 1, 2, 2]
    assert play_game(8, 42, 4, rs, [1, 2]).seed != a.seed


runner = CliRunner()


@pytest.fixture
def two_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    """The levels as 1 (random) and 2 (heuristic) only: the searching levels are slow, and
    the figures here are worked out for these two."""
    from risiko.agents import levels

    for level in list(levels.LEVELS):
        if level > 2:
            monkeypatch.delitem(levels.LEVELS, level)


def _ladder(*args: str) -> dict:
    from risiko.cli.main import app

    res = runner.invoke(app, ["ladder", *args, "--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


@pytest.mark.usefixtures("two_levels")
def test_ladder_json_contract_and_the_same_ratings_with_two_workers() -> None:
    one = _ladder("--games", "12", "--seed", "5")
    assert set(one) == {"games", "seats", "seed", "model", "ruleset", "levels"}
    assert one["model"] == "BradleyTerryFull" and one["seats"] == 4
    rows = one["levels"]
    assert {(r["level"], r["bot"]) for r in rows} >= {(1, "random"), (2, "heuristic")}
    for row in rows:
        assert set(row) == {"level", "bot", "mu", "sigma", "conservative", "games", "wins"}
        assert row["conservative"] == pytest.approx(row["mu"] - 3 * row["sigma"], abs=2e-4)
        assert row["games"] == 12
    conservative = [r["conservative"] for r in rows]
    assert conservative == sorted(conservative, reverse=True)
    assert _ladder("--games", "12", "--seed", "5", "--workers", "2") == one


@pytest.mark.usefixtures("two_levels")
def test_ladder_reads_the_levels_when_it_runs(monkeypatch) -> None:
    """A level added to the table joins the ladder with no other change."""
    from risiko.agents import levels

    monkeypatch.setitem(levels.LEVELS, 3, "random")
    rows = _ladder("--games", "4", "--seed", "2")["levels"]
    assert sorted(r["level"] for r in rows) == [1, 2, 3]
    assert sum(r["games"] for r in rows) == 12  # each of 3 levels in all 4 games


@pytest.mark.usefixtures("two_levels")
def test_ladder_in_italian_and_its_refusals() -> None:
    from risiko.cli.main import app

    res = runner.invoke(app, ["--lang", "it", "ladder", "--games", "2", "--levels", "1,2"])
    assert res.exit_code == 0, res.output
    assert "2 partite a 4 posti, seme 1, modello BradleyTerryFull" in res.output
    assert "Livello" in res.output and "Primi posti" in res.output
    res = runner.invoke(app, ["--lang", "it", "ladder", "--levels", "1,9"])
    assert res.exit_code == 2
    assert "errore: --levels: nessun bot di livello 9 (livelli: 1, 2)" in res.output
    res = runner.invoke(app, ["--lang", "en", "ladder", "--levels", "2"])
    assert res.exit_code == 2 and "--levels needs two levels or more" in res.output


@pytest.mark.usefixtures("two_levels")
def test_ladder_without_openskill_says_the_extra_in_one_line(monkeypatch) -> None:
    from risiko.cli.main import app

    monkeypatch.setitem(sys.modules, "openskill.models", None)
    res = runner.invoke(app, ["--lang", "en", "ladder", "--games", "1"])
    assert res.exit_code == 1
    assert res.output.strip() == ("error: ratings need the openskill package: "
                                  "pip install 'risiko-club[ratings]'")
