"""Categories and the national ranking as RisiKoDataManager computes it.

Every expected figure is worked by hand in the comments from the Java's formulas
(``RankingScorer.calcolaScore``: a(p)·(100+T)·classe·exp(-p/20) below the first place,
a(1) = 1.2) and thresholds (``RankingThresholdsNew.xml``). exp values: exp(-0.1) =
0.904837418, exp(-0.15) = 0.860707976, exp(-0.2) = 0.818730753, exp(-0.5) = 0.606530660.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest

from risiko.faults import InvalidInputError
from risiko.national.categories import CODES, LABELS, Category, classe, parse_category
from risiko.national.ranking import (
    Exclusion,
    Participation,
    TournamentResult,
    display_points,
    national_ranking,
    result_score,
)
from risiko.national.rules import Criterion, load_rules, rule_book

RULES = load_rules()


def shown(value: Decimal) -> float:
    return float(display_points(value))


def tournament(key: str, category: Category, tables: int, standings: list[int], *,
               rounds: int = 4, day: date = date(2024, 3, 2), finished: bool = True,
               has_standings: bool = True, games: int = 4, wins: int = 0,
               positions: list[int] | None = None) -> TournamentResult:
    """A tournament whose standings are the players ``standings`` (national ids), first
    to last (``positions`` overrides their positions, for ties)."""
    places = positions or list(range(1, len(standings) + 1))
    people = tuple(
        Participation(pid, f"Player {pid:04d}", "MILANO [Club Milano]", games, wins,
                      place if has_standings else None)
        for pid, place in zip(standings, places, strict=True))
    return TournamentResult(key, "MILANO [Club Milano]", key, category, rounds,
                            day - timedelta(days=1), day, finished, tables, has_standings,
                            people)


# ------------------------------------------------------------------------- categories

def test_every_category_by_name_code_and_label() -> None:
    assert [CODES[c] for c in Category] == [
        "RDN", "MST", "OPN", "ITC", "CPP", "CNI", "IVT", "SQD", "2V2", "AMC"]
    for category in Category:
        assert parse_category(category.value) is category
        assert parse_category(CODES[category].lower()) is category
        assert parse_category(f"  {LABELS[category].upper()} ") is category
    with pytest.raises(InvalidInputError) as caught:
        parse_category("torneo estivo")
    assert caught.value.fault.code == "national.unknown_category"


def test_classe_counts_nothing_for_the_five_unranked_categories() -> None:
    # RankingScorer.classe: the switch's default is 0
    for category in (Category.NAZIONALE, Category.SQUADRE, Category.DUE_VS_DUE,
                     Category.INVITI, Category.AMICHEVOLE):
        assert classe(category, 6) == 0.0
    # campionato by planned rounds: <3 -> 0.2, 3 -> 0.5, 4 -> 0.7, 5 -> 0.8, else 1
    assert [classe(Category.CAMPIONATO, r) for r in (2, 3, 4, 5, 6, 9)] == [
        0.2, 0.5, 0.7, 0.8, 1.0, 1.0]


# ------------------------------------------------------------------------- one score

def test_score_of_a_master_by_position() -> None:
    rules = RULES.for_year(2024)
    # master, T = 20: VT = (100 + 20) * 4 = 480
    # 1st: 1.2 * 480 = 576; 2nd: 480 * exp(-0.1) = 434.3220; 3rd: 480 * exp(-0.15) =
    # 413.1398; 10th: 480 * exp(-0.5) = 291.1347
    got = [shown(result_score(p, Category.MASTER, 20, 3, rules)) for p in (1, 2, 3, 10)]
    assert got == [576.0, 434.32, 413.14, 291.13]


def test_score_of_a_campionato_by_planned_rounds() -> None:
    rules = RULES.for_year(2024)
    # campionato, T = 30, 1st: 1.2 * 130 * classe = 156 * classe: 3 rounds 0.5 -> 78,
    # 4 rounds 0.7 -> 109.2, 5 rounds 0.8 -> 124.8, 8 rounds 1 -> 156
    got = [shown(result_score(1, Category.CAMPIONATO, 30, r, rules)) for r in (3, 4, 5, 8)]
    assert got == [78.0, 109.2, 124.8, 156.0]


def test_minimum_tables_by_year() -> None:
    # 2019: min 1 table: an open of 1 game, 1st: 1.2 * 101 * 2 = 242.4
    assert shown(result_score(1, Category.OPEN, 1, 1, RULES.for_year(2019))) == 242.4
    # 2020 and 2024: min 6 tables: 5 games score 0, 6 games 1.2 * 106 * 2 = 254.4
    for year in (2020, 2024):
        assert result_score(1, Category.OPEN, 5, 3, RULES.for_year(year)) == 0
        assert shown(result_score(1, Category.OPEN, 6, 3, RULES.for_year(year))) == 254.4


def test_the_score_is_the_exact_product_of_the_java_doubles() -> None:
    # new BigDecimal(1.2) is the double nearest 1.2, 1.1999999999999999555910790149937...
    # so the first place of an open of T = 12 is 268.8 minus 1.06e-14, exactly
    score = result_score(1, Category.OPEN, 12, 4, RULES.for_year(2024))
    # 1.1999999999999999555910790149937383830547332763671875 * 224, by hand:
    assert score == Decimal("268.79999999999999005240169935859739780426025390625")
    assert score < Decimal("268.8")
    assert display_points(score) == Decimal("268.80")


# ------------------------------------------------------------------------- rules by year

def test_rules_of_each_year() -> None:
    assert [RULES.for_year(y).since for y in (2019, 2020, 2021, 2023, 2024, 2030)] == [
        2019, 2020, 2020, 2020, 2024, 2024]
    # before every entry: the last entry (RankingBuilderNew.scorersFactory's lastEntry)
    assert RULES.for_year(2015).since == 2024
    open_2020 = RULES.for_year(2020).categories[Category.OPEN]
    # 2020 open: min 3 tournaments, 13.5%: 10 opens -> floor(1.35) = 1 -> 3; 30 -> 4.05 -> 4
    assert (open_2020.best_n(10), open_2020.best_n(30)) == (3, 4)
    campionato = RULES.for_year(2024).categories[Category.CAMPIONATO]
    assert campionato.criteria == (Criterion.MIN_TABLES, Criterion.MAX_ROUNDS)
    assert campionato.max_rounds == 45
    assert set(RULES.for_year(2024).categories) == {
        Category.RADUNO, Category.MASTER, Category.OPEN, Category.INTERCLUB,
        Category.CAMPIONATO}


def test_a_new_years_rules_are_data() -> None:
    book = rule_book({"years": {"2030": {"OPN": {
        "min_tables": 10, "min_tournaments": 2, "max_percentage": 50,
        "criteria": ["best_n", "min_tables"]}}}})
    rules = book.for_year(2031)
    # criteria applied in the Java enum's order whatever the file's order
    assert rules.categories[Category.OPEN].criteria == (Criterion.MIN_TABLES, Criterion.BEST_N)
    # 9 games < 10: 0; only open is ranked that year: a master counts nothing
    assert result_score(1, Category.OPEN, 9, 3, rules) == 0
    t1 = tournament("o1", Category.OPEN, 10, [1], day=date(2031, 5, 1))
    t2 = tournament("m1", Category.MASTER, 40, [1], day=date(2031, 6, 1))
    ranking = national_ranking(2031, [t1, t2], rules=book)
    # 1.2 * 110 * 2 = 264
    assert shown(ranking.players[0].points) == 264.0
    assert [h.why for h in ranking.players[0].history] == ["counted", "not_ranked"]


def test_bad_rules_name_the_field() -> None:
    with pytest.raises(InvalidInputError) as caught:
        rule_book({"years": {"2030": {"open": {"min_tables": 6, "criteria": ["best_n"]}}}})
    assert caught.value.fault.params["at"] == "years.2030.open.min_tournaments"


# ------------------------------------------------------------------------- the list

def test_best_n_per_category_and_the_zero_result_that_counts() -> None:
    # 2020 rules, open: min 6 tables, N = max(3, floor(k * 13.5%)).
    # Ten opens of T = 8 (>= 6) in 2022 -> k = 10 -> N = 3; player 1 wins four of them:
    # 1.2 * 108 * 2 = 259.2 each, only 3 count: 777.6.
    opens = [tournament(f"o{i}", Category.OPEN, 8, [1, 2] if i < 4 else [3, 4],
                        day=date(2022, 3, 1 + i)) for i in range(10)]
    # A small open (5 games < 6): scores 0 and is not among the 10, but for player 2 (2nd in
    # four opens: 216 * exp(-0.1) = 195.4449 each; 3 count) ... it does not fit: 4 results
    # better than 0. Player 5 played two opens (2nd and 1st) and the small one: N = 3 so
    # the 0 counts: tournaments = 3.
    small = tournament("small", Category.OPEN, 5, [5, 6], day=date(2022, 9, 1))
    extra = [tournament("e1", Category.OPEN, 8, [6, 5], day=date(2022, 10, 1)),
             tournament("e2", Category.OPEN, 8, [5, 6], day=date(2022, 10, 2))]
    ranking = national_ranking(2022, [*opens, small, *extra])
    assert ranking.counts[Category.OPEN].tournaments == 12  # 10 + e1 + e2, not small
    assert ranking.counts[Category.OPEN].best == 3  # max(3, floor(12 * 0.135 = 1.62))
    by_id = {p.national_id: p for p in ranking.players}
    assert shown(by_id[1].points) == 777.6  # 3 * 259.2
    assert by_id[1].tournaments == 3
    assert by_id[1].played == 4
    assert [h.why for h in by_id[1].history].count("best_n") == 1
    assert shown(by_id[2].points) == 586.33  # 3 * 195.44488 = 586.3346
    # player 5: 259.2 (e2) + 195.4449 (e1) + 0 (small) = 454.6449; 3 counted
    assert shown(by_id[5].points) == 454.64
    assert by_id[5].tournaments == 3
    small_line = next(h for h in by_id[5].history if h.tournament.key == "small")
    assert (small_line.counted, small_line.below_min_tables, small_line.points) == (
        True, True, 0)
    assert ranking.to_json()["players"][0]["by_category"] == {
        "master": 0.0, "raduno": 0.0, "campionato": 0.0, "interclub": 0.0, "open": 777.6}


def test_campionato_cap_of_45_rounds_from_2024() -> None:
    # 2024 campionato: taken best first while the planned rounds taken are < 45.
    # Player 1 wins four campionati of T = 10 with 20, 20, 10 and 8 rounds (classe 1):
    # first places score 1.2 * 110 = 132 each (equal scores: taken in the reverse of the
    # order given, Collections.sort + reverse). Given 8, 10, 20, 20 -> taken 20, 20 (40 <
    # 45), 10 (40 < 45, now 50), 8 refused (50 >= 45): 3 * 132 = 396.
    camps = [tournament(f"c{r}-{i}", Category.CAMPIONATO, 10, [1, 2], rounds=r,
                        day=date(2024, 2, 1 + i))
             for i, r in enumerate((8, 10, 20, 20))]
    ranking = national_ranking(2024, camps)
    first = next(p for p in ranking.players if p.national_id == 1)
    assert shown(first.points) == 396.0
    refused = [h.tournament.key for h in first.history if not h.counted]
    assert refused == ["c8-0"]
    assert {h.why for h in first.history if not h.counted} == {"max_rounds"}
    # the same four in 2023 (2020 rules: best N, min 1, 100% of 4 = 4): all count: 528
    earlier = [tournament(t.key, t.category, t.tables, [1, 2], rounds=t.rounds,
                          day=t.last_date.replace(year=2023)) for t in camps]
    assert shown(national_ranking(2023, earlier).players[0].points) == 528.0


def test_equal_points_share_a_position_and_everyone_is_listed() -> None:
    # two opens of T = 8 in 2024 (min 6): player 1 wins the first, player 2 the second;
    # both are 2nd once: 259.2 + 195.4449 = 454.6449 each -> positions 1, 1;
    # player 3 plays but is 3rd and 4th: 216 * exp(-0.15) + 216 * exp(-0.2)
    # = 185.9129 + 176.8458 = 362.7588 -> position 3; player 4 in a nazionale only: 0 points,
    # listed last.
    a = tournament("a", Category.OPEN, 8, [1, 2, 3, 9], day=date(2024, 4, 1))
    b = tournament("b", Category.OPEN, 8, [2, 1, 9, 3], day=date(2024, 4, 8))
    c = tournament("c", Category.NAZIONALE, 40, [4], day=date(2024, 5, 1))
    ranking = national_ranking(2024, [a, b, c])
    table = [(p.position, p.national_id, shown(p.points)) for p in ranking.players]
    assert table[:3] == [(1, 1, 454.64), (1, 2, 454.64), (3, 3, 362.76)]
    assert table[-1] == (5, 4, 0.0)
    assert len(table) == 5  # 1, 2, 3, 9 and 4


def test_ties_in_a_tournaments_standings_score_the_same() -> None:
    # two players 2nd equal in a master of T = 20: both 480 * exp(-0.1) = 434.32
    t = tournament("m", Category.MASTER, 20, [1, 2, 3], positions=[1, 2, 2])
    ranking = national_ranking(2024, [t])
    assert [(p.position, shown(p.points)) for p in ranking.players] == [
        (1, 576.0), (2, 434.32), (2, 434.32)]


def test_games_wins_and_played_count_every_tournament_of_the_year() -> None:
    finished = tournament("f", Category.OPEN, 8, [1, 2], games=4, wins=2)
    running = tournament("r", Category.OPEN, 8, [1, 2], games=3, wins=1, finished=False,
                         day=date(2024, 6, 1))
    friendly = tournament("a", Category.AMICHEVOLE, 8, [1], games=2, wins=2,
                          has_standings=False, day=date(2024, 7, 1))
    last_year = tournament("old", Category.OPEN, 8, [1], games=5, wins=5,
                           day=date(2023, 12, 31))
    player = national_ranking(2024, [finished, running, friendly, last_year]).players[0]
    assert (player.games, player.wins, player.played) == (9, 5, 3)
    assert player.tournaments == 1
    assert [h.why for h in player.history] == ["counted", "not_finished", "no_standings"]


def test_exclusions_for_a_year_and_disqualifications_by_dates() -> None:
    a = tournament("a", Category.OPEN, 8, [1, 2, 3], day=date(2024, 3, 2))
    b = tournament("b", Category.OPEN, 8, [1, 2, 3], day=date(2024, 5, 2))
    exclusions = {
        2: Exclusion(years=frozenset({2024}), reason="fuori classifica"),
        3: Exclusion(start=date(2024, 4, 1), end=date(2024, 6, 30), reason="squalifica"),
    }
    ranking = national_ranking(2024, [a, b], exclusions)
    assert [p.national_id for p in ranking.players] == [1, 3]
    three = ranking.players[1]
    # only tournament a counts for player 3: 3rd, 216 * exp(-0.15) = 185.9129
    assert shown(three.points) == 185.91
    assert (three.played, three.games) == (1, 4)
    assert [h.why for h in three.history] == ["counted", "disqualified"]
    # disqualified at his first tournament of the year: kept in his history all the same
    early = Exclusion(start=date(2024, 1, 1), end=date(2024, 3, 31), reason="squalifica")
    again = national_ranking(2024, [a, b], {3: early})
    three = next(p for p in again.players if p.national_id == 3)
    assert [h.why for h in three.history] == ["disqualified", "counted"]
    # only disqualified tournaments: not listed (elaboraTabellini adds him at one not covered)
    assert 3 not in [p.national_id for p in national_ranking(2024, [a], {3: early}).players]
    # player 2 is out of 2024 altogether, listed again in 2025
    c = tournament("c", Category.OPEN, 8, [2], day=date(2025, 1, 10))
    assert [p.national_id for p in national_ranking(2025, [c], exclusions).players] == [2]


def test_the_json_contract() -> None:
    t = tournament("m", Category.MASTER, 20, [1, 2], games=3, wins=1)
    data = national_ranking(2024, [t]).to_json()
    assert set(data) == {"year", "rules", "players"}
    assert data["year"] == 2024
    assert data["rules"]["since"] == 2024
    assert data["rules"]["categories"]["master"]["tournaments"] == 1
    assert data["rules"]["categories"]["master"]["best"] == 3  # max(3, floor(0.3))
    assert data["players"][1] == {
        "position": 2, "national_id": 2, "name": "Player 0002",
        "club": "MILANO [Club Milano]", "points": 434.32,
        "by_category": {"master": 434.32, "raduno": 0.0, "campionato": 0.0,
                        "interclub": 0.0, "open": 0.0},
        "tournaments": 1, "played": 1, "games": 3, "wins": 1}
