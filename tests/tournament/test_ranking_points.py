"""Ranking points as data (formulas, decimals), wins and the new tie-breaks,
discards from an evening, the ripescato's minimum, formats by number of entrants.

Every expected figure is worked out by hand in the comments."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from decimal import Decimal
from typing import Any

import pytest
from tournament_helpers import EXAMPLES, evening, season, table

from risiko.faults import InvalidInputError
from risiko.tournament import (
    SeasonError,
    compute_stages,
    compute_standings,
    dump_season,
    get_format,
    load_season,
    parse_season,
)
from risiko.tournament.format import FORMATS, TournamentFormat
from risiko.tournament.model import SeatResult
from risiko.tournament.ranking import (
    FORMULAS,
    RankingPoints,
    format_points,
    json_number,
    rank_table,
)

SEASON = EXAMPLES / "season-2027.json"


def seats(*scores: int, risiko: str = "", left: str = "") -> list[SeatResult]:
    """Seats A, B, C ... with these table scores."""
    names = "ABCDEF"
    return [SeatResult(n, v, 0, v, n in risiko, n in left)
            for n, v in zip(names, scores, strict=False)]


def points(rp: dict[str, Any], table_seats: list[SeatResult], **kw: Any) -> list[Any]:
    ranked = rank_table(table_seats, RankingPoints.from_dict(rp), **kw)
    return [json_number(r.points) for r in ranked.values()]


WIN_BONUS = {"formula": "win_bonus", "win_bonus": 50, "five_seat_factor": 1.25}


# --- the formulas, table by table ------------------------------------------------------


def test_table_formula_is_the_table_score() -> None:
    assert points({"formula": "table"}, seats(57, 30, 13, 0)) == [57, 30, 13, 0]


def test_win_bonus_sole_winner_and_tie_at_the_top() -> None:
    # sole winner: 57 + 50 = 107
    assert points(WIN_BONUS, seats(57, 30, 13, 0)) == [107, 30, 13, 0]
    # two tied at 44 share 50: both shown 69 (as a club published)
    assert points(WIN_BONUS, seats(44, 44, 12, 0)) == [69, 69, 12, 0]
    # three tied at 30: 50 / 3 = 16.666.. -> 16.67 (half up, 2 places): 46.67 each
    assert points(WIN_BONUS, seats(30, 30, 30, 10)) == [46.67, 46.67, 46.67, 10]


def test_win_bonus_five_player_table() -> None:
    # x1.25 at 5: 80 -> 100 + 50; 44 -> 55; 20 -> 25; 10 -> 12.5; 0
    assert points(WIN_BONUS, seats(80, 44, 20, 10, 0)) == [150, 55, 25, 12.5, 0]
    # the factor is 1 at 4 seats and at 5 when not given
    assert points({"formula": "win_bonus"}, seats(80, 44, 20, 10, 0)) == [130, 44, 20, 10, 0]


def test_win_bonus_never_to_a_seat_that_left() -> None:
    # B left the game (R13, score 0); the table's best other score wins
    assert points(WIN_BONUS, seats(0, 0, 20, 10, left="AB")) == [0, 0, 70, 10]


def test_win_bonus_after_table_penalties() -> None:
    # A scored 50 but a R5 penalty of -7 leaves 43: B's 45 wins
    s = [SeatResult("A", 50, -7, 43, False, False), SeatResult("B", 45, 0, 45, False, False),
         SeatResult("C", 10, 0, 10, False, False)]
    assert points(WIN_BONUS, s) == [43, 95, 10]


def test_raduno_gives_25_to_each_of_two_and_nothing_to_three() -> None:
    raduno = FORMATS["raduno@2"].ranking_points.to_dict()
    assert points(raduno, seats(44, 44, 12, 0)) == [69, 69, 12, 0]
    assert points(raduno, seats(30, 30, 30, 10)) == [30, 30, 30, 10]


def test_named_winners_break_a_tie_at_the_table() -> None:
    # the club's tie-break at the table gives B the win: B 44 + 50, A 44
    assert points(WIN_BONUS, seats(44, 44, 12, 0), winners=["B"]) == [44, 94, 12, 0]


def test_thousandths_master() -> None:
    rp = {"formula": "thousandths"}
    # 5 seats: 57 x 1.25 = 71.25 -> 0.07125, up to 0.072, +1 to the winner = 1.072;
    # 41 x 1.25 = 51.25 -> 0.052; 9 x 1.25 = 11.25 -> 0.012
    assert points(rp, seats(57, 41, 9, 0, 0)) == [1.072, 0.052, 0.012, 0, 0]
    # 5 seats, 84 x 1.25 = 105, capped at 100 -> 1.100
    assert points(rp, seats(84, 10, 5, 0, 0))[0] == 1.1
    # a RisiKo! is 1.100; 4 seats: no factor, 30 -> 0.030
    assert points(rp, seats(100, 30, 20, 5, risiko="A")) == [1.1, 0.03, 0.02, 0.005]
    # two tied at 40 at a 4-player table: each is a winner, 1.040
    assert points(rp, seats(40, 40, 20, 5)) == [1.04, 1.04, 0.02, 0.005]


def test_placement_bonus_torneo_gufo() -> None:
    rp = {"formula": "placement_bonus"}
    # 4 seats, C out first, D second: A 12 + 0.60, B 7 + 0.40, D 3rd place 2, C 4th 1
    assert points(rp, seats(60, 40, 0, 0), eliminated=["C", "D"]) == [12.6, 7.4, 1, 2]
    # 5 seats, nobody out: 12 + 70 x 1.25 / 100 = 12.875; 7 + 0.375; 5 + 0.25; 3 + 0.125; 2
    assert points(rp, seats(70, 30, 20, 10, 0)) == [12.875, 7.375, 5.25, 3.125, 2]
    # 3 seats: x0.75 -> 12 + 0.45, 7 + 0.225, 5
    assert points(rp, seats(60, 30, 0)) == [12.45, 7.225, 5]
    # tie at the top: both 1st (12), the next is 3rd (5)
    assert points(rp, seats(40, 40, 20, 0)) == [12.4, 12.4, 5.2, 3]
    # by order of elimination instead: the last out gets 3, the one before 2
    by_order = {"formula": "placement_bonus", "eliminated_by": "order"}
    assert points(by_order, seats(60, 40, 0, 0), eliminated=["C", "D"]) == [12.6, 7.4, 2, 3]


def test_winner_gap_campionato_gufo() -> None:
    rp = {"formula": "winner_gap"}
    # 100 + 62 = 162; others 100 - (62 - x): 88, 69, 38
    assert points(rp, seats(62, 50, 31, 0)) == [162, 88, 69, 38]
    # 5 seats: the winner's points x 1.25: 100 + 50 = 150; others 100 - (40 - x)
    assert points(rp, seats(40, 30, 20, 10, 0)) == [150, 90, 80, 70, 60]
    # a RisiKo! under rtu scoring (86): 186; the others' gap measured from 100
    assert points(rp, seats(86, 40, 20, 10, risiko="A")) == [186, 40, 20, 10]


def test_placement_by_table_size() -> None:
    rp = {"formula": "placement"}
    assert points(rp, seats(70, 40, 40, 10)) == [100, 50, 50, 20]
    assert points(rp, seats(70, 60, 50, 40, 30)) == [100, 65, 50, 30, 15]
    # three tied at 2nd at a 4-player table: (60 + 40 + 20) / 3 = 40
    assert points(rp, seats(70, 30, 30, 30)) == [100, 40, 40, 40]


def test_every_formula_has_a_summary_and_defaults_that_check() -> None:
    for name, spec in FORMULAS.items():
        rp = RankingPoints.from_dict({"formula": name})
        assert rp.summary()
        assert set(rp.all_params()) == set(spec.params)


@pytest.mark.parametrize(("data", "code"), [
    ({"formula": "bonus"}, "format.unknown_formula"),
    ({"formula": "win_bonus", "bonus": 50}, "format.unknown_ranking_parameter"),
    ({"formula": "win_bonus", "win_bonus": "50"}, "format.bad_ranking_parameter"),
    ({"formula": "thousandths", "rounding": "ceiling"}, "format.bad_ranking_parameter"),
    ({"formula": "placement", "points_by_size": {"4": [100, 60]}},
     "format.bad_ranking_parameter"),
])
def test_bad_ranking_points_are_refused_with_their_code(data: dict[str, Any],
                                                        code: str) -> None:
    with pytest.raises(InvalidInputError) as err:
        RankingPoints.from_dict(data)
    assert err.value.fault.code == code


# --- numbers --------------------------------------------------------------------------


def test_numbers_stay_integers_when_whole_and_take_a_comma_in_italian() -> None:
    assert json.dumps([json_number(Decimal("57.00")), json_number(Decimal("598.50"))]) == \
        "[57, 598.5]"
    assert format_points(Decimal("598.5"), "it") == "598,5"
    assert format_points(Decimal("424.75"), "it") == "424,75"
    assert format_points(Decimal("-7"), "it") == "-7"


# --- standings under a formula: the 2027 season re-ranked by hand ---------------------

# examples/season-2027.json under win-bonus (+50 to the winner shared, x1.25 at 5 seats):
#  E1 T1 (5): Alba 66 wins 82.5+50=132.5, Bice 43.75, Ciro 50, Dora 28.75, Ezio 26.25
#  E1 T2: Ilia 55+50=105, Fede 48, Gino 30, Lino 27
#  E1 T3: Mara 100R+50=150, Nico 12, Olga 33, Rita 40
#  E2 T1: Bice 62+50=112, Fede 20, Mara 35, Olga 45 (50-5)
#  E2 T2: Gino 58+50=108, Alba 44, Lino 0 (R13), Rita 31
#  E2 T3: Ciro 70+50=120, Dora 41, Ezio 38, Ilia 25
#  E3 T1 (5): Fede 100R 125+50=175, Alba 65, Nico 37.5, Olga 27.5, Dora 18.75
#  E3 T2: Ezio 60+50=110, Bice 47, Gino 18, Mara 44
#  E3 T3: Ilia 62+50=112, Ciro 36, Lino 40, Rita 29
#  E4 T1 (5): Gino 73 91.25+50=141.25, Bice 62.5, Ciro 35, Nico 62.5, Rita 52.5
#  E4 T2: Mara 61+50=111, Alba 41, Ilia 47, Olga 56
#  E4 T3: Dora 60+50=110, Ezio 20, Fede 35, Lino 44
WIN_BONUS_2027 = [
    # rank, player, points, wins, table points, bonus
    (1, "Mara", 340, 2, 240, 100),        # 150 + 35 + 44 + 111
    (2, "Gino", 297.25, 2, 179, 100),     # 30 + 108 + 18 + 141.25 (the -10 annulled)
    (3, "Ilia", 289, 2, 189, 100),        # 105 + 25 + 112 + 47
    (4, "Alba", 282.5, 1, 203, 50),       # 132.5 + 44 + 65 + 41
    (5, "Fede", 278, 1, 203, 50),         # 48 + 20 + 175 + 35
    (6, "Bice", 260.25, 1, 194, 50),      # 43.75 + 112 + 47 + 62.5 - 5
    (7, "Ciro", 241, 1, 174, 50),         # 50 + 120 + 36 + 35
    (8, "Dora", 198.5, 1, 139, 50),       # 28.75 + 41 + 18.75 + 110
    (9, "Ezio", 194.25, 1, 139, 50),      # 26.25 + 38 + 110 + 20
    (10, "Rita", 189.5, 0, 142, 0),       # 37 carried over + 40 + 31 + 29 + 52.5
    (11, "Olga", 161.5, 0, 156, 0),       # 33 + 45 + 27.5 + 56
    (12, "Nico", 112, 0, 92, 0),          # 12 + 37.5 + 62.5
    (13, "Lino", 86, 0, 111, 0),          # 27 + 0 + 40 + 44 - 25 (R13)
]


def test_season_2027_under_win_bonus_by_hand() -> None:
    t = replace(load_season(SEASON), format=get_format("win-bonus"))
    rows = compute_standings(t).rows
    got = [(r.rank, r.player, json_number(r.points), r.wins, r.table_points,
            json_number(r.bonus)) for r in rows]
    assert got == WIN_BONUS_2027
    # ranked by table points Gino was 6th and Dora 10th; a player without wins (Rita) drops
    assert [r.player for r in rows].index("Rita") == 9
    assert rows[1].to_dict()["points"] == 297.25
    assert format_points(rows[1].points, "it") == "297,25"


def test_club_milano_default_is_unchanged_and_integer() -> None:
    t = load_season(SEASON)
    assert t.format.ranking_points == RankingPoints()
    rows = compute_standings(t).rows
    assert all(isinstance(r.points, int) and r.bonus == 0 for r in rows)
    assert [(r.player, r.points, r.wins) for r in rows[:3]] == [
        ("Mara", 240, 2), ("Fede", 203, 1), ("Alba", 203, 1)]
    assert json.dumps(rows[0].to_dict()["points"]) == "240"


# --- metrics --------------------------------------------------------------------------


def three_evenings(fmt: Any = None) -> dict[str, Any]:
    """A, B, C, D at one table for three evenings (E absent on the third).

    E1: A 60  B 60  C 20  D 10  E 5  (5 seats: A and B tied winners)
    E2: A 30  B 50  C 40  D 10  E 20 (B wins)
    E3: A 70  B 10  C 40  D 25       (A wins; E absent)
    """
    data = season(
        evening("2027-01-05", table({"A": 60, "B": 60, "C": 20, "D": 10, "E": 5})),
        evening("2027-01-12", table({"A": 30, "B": 50, "C": 40, "D": 10, "E": 20})),
        evening("2027-01-19", table({"A": 70, "B": 10, "C": 40, "D": 25})),
    )
    if fmt is not None:
        data["format"] = fmt
    return data


def test_wins_best_win_second_and_third_best() -> None:
    st = compute_standings(parse_season(three_evenings()))
    a, b = st.row("A"), st.row("B")
    assert (a.metrics["wins"], b.metrics["wins"]) == (2, 2)     # the shared win counts twice
    assert (a.metrics["best_win"], b.metrics["best_win"]) == (70, 60)
    assert (a.metrics["second_best"], a.metrics["third_best"]) == (60, 30)
    assert st.row("E").metrics["third_best"] is None            # E played two tables
    assert st.row("C").metrics["wins"] == 0 and st.row("C").metrics["best_win"] is None


def test_previous_position_and_total_without_discards() -> None:
    fmt = {"discard_worst": 1}
    st = compute_standings(parse_season(three_evenings(fmt)))
    # after E2 (2 evenings held, more than the 1 discarded: the best 1 counts):
    #   A 60 (60,30), B 60 (60,50), C 40, D 10, E 20 -> A, B share 1st; C 3rd; E 4th; D 5th
    # after E3 (3 held, best 2): A 130, B 110, C 80, D 35, E 25
    assert [(r.player, r.points) for r in st.rows] == [("A", 130), ("B", 110), ("C", 80),
                                                        ("D", 35), ("E", 25)]
    assert {r.player: r.metrics["previous_position"] for r in st.rows} == {
        "A": 1, "B": 1, "C": 3, "D": 5, "E": 4}
    assert {r.player: r.metrics["total_without_discards"] for r in st.rows} == {
        "A": 160, "B": 120, "C": 100, "D": 45, "E": 25}


def test_previous_position_as_a_tie_break() -> None:
    # A and B equal on points after E3; the one ahead after E2 stays ahead
    data = season(
        evening("2027-01-05", table({"A": 50, "B": 40, "C": 0})),
        evening("2027-01-12", table({"A": 10, "B": 20, "C": 0})),
    )
    data["format"] = {"tie_breaks": ["points", "previous_position"]}
    st = compute_standings(parse_season(data))
    assert [(r.rank, r.player) for r in st.rows] == [(1, "A"), (2, "B"), (3, "C")]
    data["format"] = {"tie_breaks": ["points"]}
    assert [r.rank for r in compute_standings(parse_season(data)).rows] == [1, 1, 3]


def test_best_ranking_and_wins_as_tie_breaks() -> None:
    # win-bonus: A 60+50... A and B both win once; same points -> wins, then best
    data = season(
        evening("2027-01-05", table({"A": 50, "B": 40, "C": 30, "D": 0})),
        evening("2027-01-12", table({"A": 40, "B": 50, "C": 30, "D": 0})),
    )
    data["format"] = {"base": "win-bonus"}
    st = compute_standings(parse_season(data))
    # A 100 + 40 = 140, B 40 + 100 = 140; wins 1 each; best 50 each: shared
    assert [(r.rank, r.player, r.points) for r in st.rows][:2] == [(1, "A", 140),
                                                                   (1, "B", 140)]
    assert st.row("A").metrics["best_ranking"] == 100


def test_a_player_absent_counts_his_absence_as_the_worst_evening() -> None:
    # win-bonus, discard 1: E missed E3, so the absence is the evening discarded
    data = three_evenings({"base": "win-bonus", "discard_worst": 1})
    st = compute_standings(parse_season(data))
    # E: E1 5 x 1.25 = 6.25, E2 20 x 1.25 = 25 -> 31.25 (both count)
    assert st.row("E").points == Decimal("31.25")
    # A: E1 75 + 25 = 100, E2 37.5, E3 70 + 50 = 120: the 37.5 dropped -> 220
    assert st.row("A").points == 220
    assert st.row("A").metrics["total_without_discards"] == Decimal("257.5")


def test_discard_from_evening() -> None:
    # discards apply only once 3 evenings have been held
    data = three_evenings({"discard_worst": 1, "discard_from_evening": 3})
    t = parse_season(data)
    import datetime as dt
    after_two = compute_standings(t, until=dt.date(2027, 1, 12))
    assert after_two.row("A").points == 90      # 60 + 30, nothing discarded yet
    assert compute_standings(t).row("A").points == 130   # 60 + 70, the 30 discarded


# --- the season file ------------------------------------------------------------------


def test_winners_and_eliminated_round_trip() -> None:
    data = season(evening("2027-01-05", table({"A": 44, "B": 44, "C": 0, "D": 0},
                                              winners=["B"], eliminated=["D", "C"])))
    data["format"] = {"base": "torneo-gufo", "discard_worst": 1, "discard_from_evening": 6,
                      "ripescati_min_evenings": 2,
                      "by_entrants": [{"max_players": 18, "direct_to_final": 1}]}
    t = parse_season(data)
    assert t.evenings[0].tables[0].winners == frozenset({"B"})
    assert t.evenings[0].tables[0].eliminated == ("D", "C")
    again = parse_season(json.loads(json.dumps(dump_season(t))))
    assert again == t
    dumped = dump_season(t)
    assert dumped["format"]["ranking_points"] == {"formula": "placement_bonus"}
    assert dumped["format"]["by_entrants"] == [{"max_players": 18, "direct_to_final": 1}]
    # B is the named winner: 12 + 0.44; A 2nd: 7 + 0.44; D out first (4th place: 1),
    # C out second (3rd place: 2)
    st = compute_standings(t)
    assert [(r.player, json_number(r.points)) for r in st.rows] == [
        ("B", 12.44), ("A", 7.44), ("C", 2), ("D", 1)]


def test_new_fields_match_the_schema() -> None:
    from test_season_2027 import schema_errors

    data = season(evening("2027-01-05", table({"A": 44, "B": 44, "C": 0, "D": 0},
                                              winners=["B"], eliminated=["D", "C"])))
    data["format"] = {"base": "club-milano", "ranking_points": WIN_BONUS,
                      "discard_worst": 1, "discard_from_evening": 6,
                      "ripescati_min_evenings": 2, "tie_breaks": ["points", "wins", "best_win"],
                      "by_entrants": [{"max_players": 18, "direct_to_final": 1,
                                       "semifinal_tables": [[1, 2, 3, 4, 5, 6],
                                                            [7, 8, 9, 10, 11, 12]]}]}
    assert schema_errors(data) == []
    parse_season(data)
    data["format"]["ranking_points"] = {"formula": "win_bonus", "bonus": 5}
    assert schema_errors(data)


@pytest.mark.parametrize(("winners", "eliminated", "fragment"), [
    (["C"], [], "C is named among the winners with 20 table points, but the highest table "
                "score is 44"),
    (["E"], [], "E is named among the winners but is not seated at this table"),
    ([], ["D", "D"], "D is listed 2 times in the order of elimination"),
    (["A"], ["A"], "A is listed as eliminated and named among the winners"),
])
def test_winner_and_elimination_faults(winners: list[str], eliminated: list[str],
                                       fragment: str) -> None:
    data = season(evening("2027-01-05", table({"A": 44, "B": 44, "C": 20, "D": 0},
                                              winners=winners, eliminated=eliminated)),
                  players=["A", "B", "C", "D", "E"])
    with pytest.raises(SeasonError) as err:
        parse_season(data)
    assert any(f"evening 2027-01-05 (qualifying), table 1: {fragment}" == str(f)
               for f in err.value.faults), err.value.faults


def test_a_decimal_table_score_is_refused_with_one_line() -> None:
    data = season(evening("2027-01-05", table({"A": 52.5, "B": 30, "C": 20})))
    with pytest.raises(SeasonError) as err:
        parse_season(data)
    assert len(err.value.faults) == 1
    assert err.value.faults[0].code == "season.score_not_int"
    assert "score of A must be an integer (table points), not 52.5" in str(err.value.faults[0])


def test_bad_ranking_points_in_a_season_file_name_the_format() -> None:
    data = season(evening("2027-01-05", table({"A": 50, "B": 30, "C": 20})))
    data["format"] = {"ranking_points": {"formula": "win_bonus", "win_bonus": "x"}}
    with pytest.raises(SeasonError) as err:
        parse_season(data)
    assert "ranking_points win_bonus must be a number" in str(err.value)


# --- stages: ripescato's minimum, formats by entrants ---------------------------------


def ranked_players(n: int) -> dict[str, Any]:
    """n players P01..Pnn scoring 100, 99 ... at tables of 4 (n a multiple of 4), on two
    evenings: P01 ranks 1st, P02 2nd ..."""
    names = [f"P{i:02d}" for i in range(1, n + 1)]
    evenings = []
    for day in ("2027-01-05", "2027-01-12"):
        tables = [table({p: 100 - names.index(p) for p in names[i:i + 4]})
                  for i in range(0, n, 4)]
        evenings.append(evening(day, *tables))
    return season(*evenings, players=names)


def test_ripescati_min_evenings() -> None:
    # E1: A 90 B 80 C 70 D 60 | E 50 F 40 G 30 X 95;  E2: A 90 B 80 C 70 D 60 | E 50 F 40 G 30
    # totals: A 180, B 160, C 140, D 120, E 100, X 95, F 80, G 60
    data = season(
        evening("2027-01-05", table({"A": 90, "B": 80, "C": 70, "D": 60}),
                table({"E": 50, "F": 40, "G": 30, "X": 95})),
        evening("2027-01-12", table({"A": 90, "B": 80, "C": 70, "D": 60}),
                table({"E": 50, "F": 40, "G": 30})))
    data["format"] = {"semifinal_tables": [[1, 2, 3], [4, 5, 6]], "ripescati": 1,
                      "finalists": 3}
    # 5 by rank (A..E); the ripescato is the best single score of the others: X (95)
    plain = compute_stages(parse_season(data))
    assert plain.semifinal_tables == (("A", "B", "C"), ("D", "E", "X"))
    # X played one evening of the two required for the ripescato: F (40) instead of G (30)
    data["format"]["ripescati_min_evenings"] = 2
    strict = compute_stages(parse_season(data))
    assert strict.semifinal_tables == (("A", "B", "C"), ("D", "E", "F"))


def test_by_entrants_changes_the_stages() -> None:
    base: dict[str, Any] = {"by_entrants": [{
        "max_players": 18, "direct_to_final": 1,
        "semifinal_tables": [[1, 4, 5, 8, 9, 12], [2, 3, 6, 7, 10, 11]]}]}
    small = ranked_players(16)
    small["format"] = copy.deepcopy(base)
    st = compute_stages(parse_season(small))
    assert st.direct == ("P01",)
    assert st.semifinal_tables == (("P02", "P05", "P06", "P09", "P10", "P13"),
                                   ("P03", "P04", "P07", "P08", "P11", "P12"))
    large = ranked_players(20)
    large["format"] = copy.deepcopy(base)
    st = compute_stages(parse_season(large))
    assert st.direct == ()
    assert st.semifinal_tables == (("P01", "P02", "P08", "P09", "P10"),
                                   ("P03", "P04", "P05", "P06", "P07"))


def test_by_entrants_faults() -> None:
    with pytest.raises(ValueError, match="may change"):
        TournamentFormat.from_dict({"by_entrants": [{"max_players": 18, "tie_breaks": []}]})
    with pytest.raises(ValueError, match="may not add or remove the semifinal"):
        TournamentFormat.from_dict({"by_entrants": [{"max_players": 18,
                                                     "semifinal_tables": []}]})


def test_presets_are_usable() -> None:
    for fmt in FORMATS.values():
        assert fmt.problems() == [], fmt.name
        assert TournamentFormat.from_dict(fmt.to_dict()) == fmt


def test_cli_season_shows_table_points_bonus_wins_and_how(tmp_path) -> None:
    from typer.testing import CliRunner

    from risiko.cli.main import app

    data = json.loads(SEASON.read_text(encoding="utf-8"))
    data["evenings"] = [e for e in data["evenings"] if e["stage"] == "qualifying"]
    data["format"] = {"base": "win-bonus"}
    path = tmp_path / "season.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    res = CliRunner().invoke(app, ["season", str(path)], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    gino = next(line for line in res.output.splitlines() if " Gino " in line)
    # rank, player, points, games, RisiKo!, best, penalties, table points, bonus, wins
    assert gino.replace("│", " ").split() == ["2", "Gino", "297.25", "4", "0", "73", "0",
                                              "179", "100", "2"]
    assert ("How: table points, x1.25 at 5-player tables + 50 to the winner, shared by "
            "tied winners; ties: wins, best") in " ".join(res.output.split())
    plain = CliRunner().invoke(app, ["season", str(SEASON)], env={"COLUMNS": "200"})
    mara = next(line for line in plain.output.splitlines() if " Mara " in line)
    assert mara.replace("│", " ").split() == ["1", "Mara", "240", "4", "1", "100", "0"]
    assert "How: ranking points = table points; ties: risiko, best, penalties" in plain.output


def test_cli_season_says_how_in_italian(tmp_path) -> None:
    """The standings' "How:" line was English under ``--lang it`` (a newcomer's trial):
    the formula, the factor with a decimal comma, the tie-breaks' words and the discards
    are now said in Italian."""
    from typer.testing import CliRunner

    from risiko.cli.main import app

    data = json.loads(SEASON.read_text(encoding="utf-8"))
    data["evenings"] = [e for e in data["evenings"] if e["stage"] == "qualifying"]
    data["format"] = {"base": "win-bonus", "discard_worst": 1, "discard_from_evening": 3}
    path = tmp_path / "season.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    res = CliRunner().invoke(app, ["--lang", "it", "season", str(path)],
                             env={"COLUMNS": "250"})
    assert res.exit_code == 0, res.output
    assert ("Criterio: punti tavolo, x1,25 ai tavoli da 5 + 50 al vincitore, divisi tra i "
            "vincitori a pari merito; spareggi: vittorie, miglior punteggio; serate peggiori "
            "scartate: 1, dalla serata di qualificazione n. 3") in " ".join(res.output.split())
    plain = CliRunner().invoke(app, ["--lang", "it", "season", str(SEASON)],
                               env={"COLUMNS": "200"})
    assert ("Criterio: punti classifica = punti tavolo; spareggi: RisiKo!, miglior punteggio, "
            "penalità") in " ".join(plain.output.split())
