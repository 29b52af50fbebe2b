"""The presets that copy GestioneTorneo's formats, checked against its code (issue 21 item
6), and the old meaning kept for stored tournaments (``raduno``, ``campionato-gufo`` read
as version 1). Every expected figure is worked out by hand in the comments."""

from __future__ import annotations

from typing import Any

from tournament_helpers import evening, season, table

from risiko.tournament import compute_standings, dump_season, get_format, parse_season
from risiko.tournament.format import FORMATS, RETIRED_FORMATS, TournamentFormat
from risiko.tournament.model import SeatResult
from risiko.tournament.ranking import RankingPoints, json_number, rank_table


def seats(*scores: int, risiko: str = "") -> list[SeatResult]:
    return [SeatResult(n, v, 0, v, n in risiko, False)
            for n, v in zip("ABCDEF", scores, strict=False)]


def points(rp: dict[str, Any], table_seats: list[SeatResult]) -> list[Any]:
    ranked = rank_table(table_seats, RankingPoints.from_dict(rp))
    return [json_number(r.points) for r in ranked.values()]


def rp_of(name: str) -> dict[str, Any]:
    return get_format(name).ranking_points.to_dict()


def test_raduno_has_no_factor_at_five_seats() -> None:
    # ScorePlayerRaduno: 80 + 50 (sole winner) = 130, the others their table points
    assert points(rp_of("raduno@2"), seats(80, 44, 20, 10, 0)) == [130, 44, 20, 10, 0]
    # two tied winners: +25 each; three: nothing
    assert points(rp_of("raduno@2"), seats(44, 44, 12, 0)) == [69, 69, 12, 0]
    assert points(rp_of("raduno@2"), seats(30, 30, 30, 10)) == [30, 30, 30, 10]
    # version 1, still read by its stored name: 80 x 1.25 + 50 = 150, 44 x 1.25 = 55 ...
    assert points(rp_of("raduno"), seats(80, 44, 20, 10, 0)) == [150, 55, 25, 12.5, 0]


def three_evenings(fmt: str) -> dict[str, Any]:
    """Raduno points (4 seats, no factor; +50 to the sole winner):

    E1: A 60+50=110  B 40        C 20         D 0
    E2: A 30         B 60+50=110 C 20         D 10
    E3: A 20         B 10        C 70+50=120  D 0
    totals A 160 (110, 30, 20), B 160 (110, 40, 10), C 160 (120, 20, 20), D 10.
    """
    data = season(
        evening("2027-01-05", table({"A": 60, "B": 40, "C": 20, "D": 0})),
        evening("2027-01-12", table({"A": 30, "B": 60, "C": 20, "D": 10})),
        evening("2027-01-19", table({"A": 20, "B": 10, "C": 70, "D": 0})),
    )
    data["format"] = fmt
    return data


def test_raduno_ties_go_on_to_the_second_best_result() -> None:
    st = compute_standings(parse_season(three_evenings("raduno@2")))
    # all three on 160: C's best 120 first; A and B best 110, B's 2nd best 40 > A's 30
    assert [(r.rank, r.player, json_number(r.points)) for r in st.rows] == [
        (1, "C", 160), (2, "B", 160), (3, "A", 160), (4, "D", 10)]
    # version 1 stops at the best result: A and B share the 2nd place
    st = compute_standings(parse_season(three_evenings("raduno")))
    assert [(r.rank, r.player) for r in st.rows][:3] in (
        [(1, "C"), (2, "A"), (2, "B")], [(1, "C"), (2, "B"), (2, "A")])


def test_raduno_tie_breaks_are_the_manuals() -> None:
    assert get_format("raduno@2").tie_breaks == (
        "points", "best_ranking", "second_best_ranking", "third_best_ranking",
        "previous_position")


def test_campionato_gufo_gives_200_to_a_risiko_as_the_code() -> None:
    rp = rp_of("campionato-gufo@2")
    # a RisiKo! counts 100 table points: 100 + 100 = 200 (rtu scoring gave it 86); the
    # others' gap is measured from 100: 100 - (100 - 40) = 40, 20, 10
    assert points(rp, seats(86, 40, 20, 10, risiko="A")) == [200, 40, 20, 10]
    # at 5 seats the winner's points x 1.25 first: 100 + 125 = 225
    assert points(rp, seats(86, 40, 20, 10, 0, risiko="A")) == [225, 40, 20, 10, 0]
    # no RisiKo!: unchanged, 100 + 62 = 162; 100 - (62 - 50) = 88 ...
    assert points(rp, seats(62, 50, 31, 0)) == [162, 88, 69, 38]
    # version 1 counts the RisiKo!'s own table points: 100 + 86 = 186
    assert points(rp_of("campionato-gufo"), seats(86, 40, 20, 10, risiko="A")) == [
        186, 40, 20, 10]


def test_cap_limits_only_the_winner_as_score_player_open() -> None:
    rp = {"formula": "win_bonus", "five_seat_factor": 1.25, "cap": 100}
    # 5 seats: the winner 84 x 1.25 = 105 counted 100, + 50 = 150; the second's 82 x 1.25
    # = 102.5 is not capped (he did not win); 8 x 1.25 = 10
    assert points(rp, seats(84, 82, 8, 0, 0)) == [150, 102.5, 10, 0, 0]
    # the reading of formats stored before: every seat capped, the second 100
    assert points({**rp, "cap_players": "all"}, seats(84, 82, 8, 0, 0)) == [
        150, 100, 10, 0, 0]


def test_master_cap_still_limits_every_seat() -> None:
    # ScorePlayerQualificazioniNazionale: any seat at 80 or more at 5 counts 100
    # (winner 1 + 0.100 = 1.1; the second 82 -> 100 / 1000 = 0.1)
    assert points({"formula": "thousandths"}, seats(84, 82, 8, 0, 0)) == [
        1.1, 0.1, 0.01, 0, 0]


def test_a_stored_season_keeps_the_old_meaning_and_new_ones_get_the_new() -> None:
    data = three_evenings("raduno")
    t = parse_season(data)
    assert t.format == RETIRED_FORMATS["raduno"] and t.format.name == "raduno"
    assert dump_season(t)["format"] == "raduno"          # written back as it was read
    assert get_format("raduno@1") == RETIRED_FORMATS["raduno"]
    t2 = parse_season(three_evenings("raduno@2"))
    assert dump_season(t2)["format"] == "raduno@2"
    # only the current versions are offered
    assert "raduno" not in FORMATS and "campionato-gufo" not in FORMATS
    for fmt in RETIRED_FORMATS.values():
        assert fmt.problems() == []
        assert TournamentFormat.from_dict(fmt.to_dict()) == fmt
