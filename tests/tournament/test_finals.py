"""R18: semifinal seating, the order after the semifinal, finalists, the final; cuts that
need a draw of lots; the other clubs' formats.

The qualifying ranking used throughout: one evening, 13 players, all different points::

    1 Pia 100   2 Ugo 95   3 Teo 90   4 Sara 85   5 Remo 80   6 Ora 75   7 Noa 70
    8 Max 65    9 Lea 60  10 Ivo 55  11 Gil 50   12 Eva 45   13 Ada 40
"""

from __future__ import annotations

from typing import Any

import pytest
from tournament_helpers import NAMES, compute, evening, ranked, season, table

from risiko.tournament import SeasonError

POINTS = [100, 95, 90, 85, 80, 75, 70, 65, 60, 55, 50, 45, 40]

#: the semifinal scores of the scenario "final won by the 4th after the semifinal"
SEMI_T1 = {"Pia": 10, "Ugo": 20, "Max": 60, "Lea": 20, "Ivo": 30}
SEMI_T2 = {"Teo": 10, "Sara": 40, "Remo": 15, "Ora": 25, "Noa": 5}
AFTER = ["Sara", "Max", "Ugo", "Pia", "Teo", "Ora", "Remo", "Ivo", "Lea", "Noa",
         "Gil", "Eva", "Ada"]


def msgs(faults: Any) -> tuple[str, ...]:
    """Faults (values) as their English lines."""
    return tuple(f.message("en") for f in faults)


def semifinal(t1: dict[str, int] | None = None, t2: dict[str, int] | None = None,
              **extra: Any) -> dict[str, Any]:
    return evening("2027-02-02", table(t1 or SEMI_T1), table(t2 or SEMI_T2),
                   stage="semifinal", **extra)


def final(scores: dict[str, int], **extra: Any) -> dict[str, Any]:
    return evening("2027-02-09", table(scores), stage="final", **extra)


def make(*evenings: dict[str, Any], points: list[int] | None = None,
         **top: Any) -> dict[str, Any]:
    return season(ranked(points or POINTS), *evenings, players=list(NAMES), **top)


def test_semifinal_tables_r18() -> None:
    _, st = compute(make())
    assert st.semifinal_tables == (("Pia", "Ugo", "Max", "Lea", "Ivo"),
                                   ("Teo", "Sara", "Remo", "Ora", "Noa"))
    assert st.after_semifinal is None and st.finalists is None
    assert msgs(st.pending) == ("after the semifinal: no semifinal evening yet",)


def test_semifinal_needs_ten_ranked_players() -> None:
    data = season(ranked(POINTS[:9]), players=list(NAMES))
    _, st = compute(data)
    assert st.semifinal_tables is None
    assert msgs(st.pending) == ("semifinal: 9 eligible players are ranked; the semifinal needs 10",)


def test_after_semifinal_order() -> None:
    _, st = compute(make(semifinal()))
    # Sara 85+40 = Max 65+60 = 125: Sara has the better qualifying rank (4th vs 8th);
    # Teo 90+10 = Ora 75+25 = 100: Teo (3rd) before Ora (6th); then Gil, Eva, Ada.
    assert list(st.after_semifinal or ()) == AFTER
    assert st.finalists == ("Sara", "Max", "Ugo", "Pia", "Teo")  # seat-choice order


def test_final_won_by_the_4th() -> None:
    data = make(semifinal(), final({"Teo": 30, "Pia": 70, "Sara": 50, "Ugo": 20, "Max": 65}))
    _, st = compute(data)
    assert st.final_winner == "Pia"
    # the winner, then everyone else in the order after the semifinal: 4th, 1st, 2nd, 3rd,
    # 5th, 6th ...
    assert list(st.final_standings or ()) == ["Pia", "Sara", "Max", "Ugo", "Teo", "Ora",
                                               "Remo", "Ivo", "Lea", "Noa", "Gil", "Eva",
                                               "Ada"]


@pytest.mark.parametrize(
    ("scores", "winner"),
    [
        ({"Sara": 40, "Max": 60, "Ugo": 60, "Pia": 10, "Teo": 5}, "Max"),  # 2nd beats 3rd
        ({"Sara": 10, "Max": 20, "Ugo": 30, "Pia": 40, "Teo": 40}, "Pia"),  # 4th beats 5th
        ({"Sara": 50, "Max": 50, "Ugo": 50, "Pia": 50, "Teo": 50}, "Sara"),
        ({"Sara": 0, "Max": 0, "Ugo": 0, "Pia": 0, "Teo": 1}, "Teo"),
    ],
)
def test_final_ties_go_to_the_better_rank_after_the_semifinal(scores: dict[str, int],
                                                               winner: str) -> None:
    _, st = compute(make(semifinal(), final(scores)))
    assert st.final_winner == winner
    assert (st.final_standings or ())[0] == winner
    assert [p for p in (st.final_standings or ())[1:]] == [p for p in AFTER if p != winner]


def test_final_table_penalty_can_change_the_winner() -> None:
    scores = {"Sara": 60, "Max": 55, "Ugo": 0, "Pia": 0, "Teo": 0}
    data = make(semifinal(), evening("2027-02-09", table(scores, penalties=[
        {"player": "Sara", "points": -10, "reason": "R5"}]), stage="final"))
    assert compute(data)[1].final_winner == "Max"


def test_semifinal_abandonment_costs_25_after_the_semifinal() -> None:
    t1 = {**SEMI_T1, "Pia": 0}
    _, st = compute(make(semifinal(t1)))
    # Pia 100 + 0 = 100 ties Teo 90 + 10 and Ora 75 + 25: Pia's qualifying rank is better
    assert list(st.after_semifinal or ())[3:6] == ["Pia", "Teo", "Ora"]
    data = make(evening("2027-02-02", table(t1, abandoned=["Pia"]), table(SEMI_T2),
                        stage="semifinal"))
    _, st = compute(data)
    # R13: Pia 100 + 0 - 25 = 75, behind Remo 95, Ivo 85, Lea 80; level with Noa 70 + 5
    # but ahead of him on the qualifying rank
    assert list(st.after_semifinal or ())[:10] == ["Sara", "Max", "Ugo", "Teo", "Ora", "Remo",
                                                    "Ivo", "Lea", "Pia", "Noa"]


def test_semifinal_ranking_penalty_counts_after_the_semifinal() -> None:
    data = make(semifinal(penalties=[{"player": "Sara", "points": -1, "reason": "R10"}]))
    _, st = compute(data)
    assert list(st.after_semifinal or ())[:2] == ["Max", "Sara"]  # 125 vs 124


# --- cuts and draws of lots ------------------------------------------------------------


def tied(i: int, j: int) -> list[int]:
    """POINTS with positions i and j (1-based) sharing the points of position i."""
    pts = list(POINTS)
    pts[j - 1] = pts[i - 1]
    return pts


def test_tie_across_the_10th_place_waits_for_a_draw() -> None:
    _, st = compute(make(points=tied(10, 11)))
    assert st.semifinal_tables is None
    assert msgs(st.pending)[0].startswith("semifinal: Gil and Ivo share the 10th place of the "
                                    "qualifying ranking, across a cut of the semifinal")


def test_tie_across_the_10th_place_refuses_the_semifinal_evening() -> None:
    t1 = {"Pia": 10, "Ugo": 20, "Max": 60, "Lea": 20, "Ivo": 30}
    with pytest.raises(SeasonError) as e:
        compute(make(semifinal(t1), points=tied(10, 11)))
    assert e.value.messages("en") == [
        "evening 2027-02-02 (semifinal): cannot seat the semifinal: Gil and Ivo share the "
        "10th place of the qualifying ranking, across a cut of the semifinal: record a draw "
        "of lots (draws: stage 'semifinal', order of these players)"]


def test_draw_settles_the_10th_place() -> None:
    draw = [{"stage": "semifinal", "order": ["Gil", "Ivo"], "referee": "Luca"}]
    _, st = compute(make(points=tied(10, 11), draws=draw))
    assert st.semifinal_tables is not None
    assert st.semifinal_tables[0] == ("Pia", "Ugo", "Max", "Lea", "Gil")
    ranks = {r.player: r.rank for r in st.standings.rows}
    assert ranks["Gil"] == ranks["Ivo"] == 10  # still a shared position in the ranking
    t1 = {"Pia": 10, "Ugo": 20, "Max": 60, "Lea": 20, "Gil": 30}
    _, st = compute(make(semifinal(t1), points=tied(10, 11), draws=draw))
    assert st.after_semifinal is not None and st.after_semifinal[-3] == "Ivo"


@pytest.mark.parametrize(("i", "j", "needs_draw"), [
    (2, 3, True),  # table 1 / table 2
    (7, 8, True),  # table 2 / table 1
    (4, 5, False),  # both at table 2
    (8, 9, False),  # both at table 1
    (11, 12, False),  # both out
    (1, 2, False),  # both at table 1
])
def test_which_ties_need_a_draw(i: int, j: int, needs_draw: bool) -> None:
    _, st = compute(make(points=tied(i, j)))
    assert (st.semifinal_tables is None) == needs_draw


def test_tie_across_the_5th_place_after_the_semifinal() -> None:
    # Sara and Remo share the 4th place (85); at the semifinal both score 15:
    # 100 each after the semifinal, same qualifying rank -> shared 5th place, a final cut.
    pts = tied(4, 5)
    t2 = {"Teo": 10, "Sara": 15, "Remo": 15, "Ora": 5, "Noa": 5}
    t1 = {"Pia": 10, "Ugo": 10, "Max": 0, "Lea": 0, "Ivo": 0}
    _, st = compute(make(semifinal(t1, t2), points=pts))
    assert st.after_semifinal is not None
    assert list(st.after_semifinal[:6]) == ["Pia", "Ugo", "Teo", "Remo", "Sara", "Ora"]
    assert st.finalists is None
    assert msgs(st.pending)[0].startswith("final: Remo and Sara share the 4th place after the "
                                    "semifinal")
    with pytest.raises(SeasonError, match="cannot seat the final: Remo and Sara share"):
        compute(make(semifinal(t1, t2), final({"Pia": 1, "Ugo": 2, "Teo": 3, "Remo": 4,
                                                "Sara": 5}), points=pts))
    draw = [{"stage": "final", "order": ["Sara", "Remo"]}]
    _, st = compute(make(semifinal(t1, t2), points=pts, draws=draw))
    assert st.finalists == ("Pia", "Ugo", "Teo", "Sara", "Remo")


# --- stage tables that do not match ----------------------------------------------------


def faults_of(data: dict[str, Any]) -> list[str]:
    with pytest.raises(SeasonError) as e:
        compute(data)
    return e.value.messages("en")


def test_semifinal_tables_swapped_players() -> None:
    t1 = {"Pia": 10, "Ugo": 20, "Max": 60, "Lea": 20, "Teo": 30}
    t2 = {"Ivo": 10, "Sara": 40, "Remo": 15, "Ora": 25, "Noa": 5}
    assert faults_of(make(semifinal(t1, t2))) == [
        "evening 2027-02-02 (semifinal), table 1: Teo (ranked 3rd) belongs at semifinal "
        "table 2, with Sara, Remo, Ora and Noa",
        "evening 2027-02-02 (semifinal), table 2: Ivo (ranked 10th) belongs at semifinal "
        "table 1, with Pia, Ugo, Max and Lea",
    ]


def test_semifinal_with_a_player_not_qualified() -> None:
    t1 = {"Pia": 10, "Ugo": 20, "Max": 60, "Lea": 20, "Gil": 30}
    assert faults_of(make(semifinal(t1))) == [
        "evening 2027-02-02 (semifinal), table 1: Gil is seated but is not qualified for "
        "the semifinal (ranked 11th)",
        "evening 2027-02-02 (semifinal): Ivo (ranked 10th) qualified for semifinal table 1 "
        "but is not seated (list him in 'absent' if he did not come)",
    ]


def test_absent_or_excluded_semifinalist_is_not_replaced() -> None:
    t1 = {"Pia": 10, "Ugo": 20, "Max": 60, "Lea": 20}
    _, st = compute(make(semifinal(t1, absent=["Ivo"])))
    assert st.after_semifinal is not None and "Ivo" in st.after_semifinal[:10]
    _, st2 = compute(make(semifinal(t1, arrivals={"Ivo": "21:25"})))
    assert st2.after_semifinal == st.after_semifinal
    seated = {"Pia": 10, "Ugo": 20, "Max": 60, "Lea": 20, "Ivo": 1}
    assert faults_of(make(semifinal(seated, arrivals={"Ivo": "21:25"}))) == [
        "evening 2027-02-02 (semifinal), table 1: Ivo is seated but arrived after 21:20 "
        "without a phone notice: may not play (R3)"]


def test_final_with_the_wrong_players() -> None:
    scores = {"Sara": 1, "Max": 2, "Ugo": 3, "Pia": 4, "Ora": 5}
    assert faults_of(make(semifinal(), final(scores))) == [
        "evening 2027-02-09 (final), table 1: Ora is seated but is not qualified for the "
        "final (6th after the semifinal)",
        "evening 2027-02-09 (final): Teo (5th after the semifinal) qualified for the final "
        "but is not seated (list him in 'absent' if he did not come)",
    ]


def test_final_before_semifinal_results() -> None:
    data = make(evening("2027-02-02", {"seats": list(SEMI_T1)}, {"seats": list(SEMI_T2)},
                        stage="semifinal"),
                final({"Sara": 1, "Max": 2, "Ugo": 3, "Pia": 4, "Teo": 5}))
    assert faults_of(data) == [
        "evening 2027-02-09 (final): the final is recorded but the finalists are not known "
        "yet (the semifinal has no result)"]


def test_final_seated_without_result_is_pending() -> None:
    data = make(semifinal(), evening("2027-02-09", {"seats": ["Teo", "Pia", "Sara", "Ugo",
                                                              "Max"]}, stage="final"))
    _, st = compute(data)
    assert st.finalists is not None and st.final_winner is None
    assert msgs(st.pending) == ("final standings: waiting for the result of the final",)


def test_final_arrivals_use_the_final_schedule() -> None:
    scores = {"Sara": 1, "Max": 2, "Ugo": 3, "Pia": 4, "Teo": 5}
    ok = make(semifinal(), final(scores, arrivals={"Teo": {"at": "20:35", "phoned": True}}))
    assert compute(ok)[1].final_winner == "Teo"
    bad = make(semifinal(), final(scores, arrivals={"Teo": "20:35"}))
    assert faults_of(bad) == [
        "evening 2027-02-09 (final), table 1: Teo is seated but arrived after 20:30 without "
        "a phone notice: may not play (R3)"]


# --- other clubs' formats --------------------------------------------------------------


def test_table_winners_join_the_final() -> None:
    t1 = {"Pia": 10, "Ugo": 20, "Max": 60, "Lea": 20, "Ivo": 30}
    t2 = {"Teo": 10, "Sara": 20, "Remo": 15, "Ora": 25, "Noa": 30}
    top = compute(make(semifinal(t1, t2)))[1]
    assert top.after_semifinal is not None
    assert list(top.after_semifinal[:8]) == ["Max", "Ugo", "Pia", "Sara", "Teo", "Ora",
                                             "Noa", "Remo"]
    assert top.finalists == ("Max", "Ugo", "Pia", "Sara", "Teo")
    fmt = {"finalists_rule": "table_winners", "name": "winners"}
    _, st = compute(make(semifinal(t1, t2), format=fmt))
    assert st.finalists == ("Max", "Ugo", "Pia", "Sara", "Noa")  # Noa won table 2
    _, st = compute(make(semifinal(t1, t2), final({"Max": 1, "Ugo": 2, "Pia": 3, "Sara": 4,
                                                   "Noa": 50}), format=fmt))
    # the winner, the other finalists, then everyone else (Teo after Noa's move)
    assert list(st.final_standings or ())[:7] == ["Noa", "Max", "Ugo", "Pia", "Sara", "Teo",
                                                   "Ora"]


def test_first_straight_to_the_final() -> None:
    fmt = {"direct_to_final": 1}
    _, st = compute(make(format=fmt))
    assert st.direct == ("Pia",)
    assert st.semifinal_tables == (("Ugo", "Teo", "Lea", "Ivo", "Gil"),
                                   ("Sara", "Remo", "Ora", "Noa", "Max"))
    t1 = {"Ugo": 10, "Teo": 10, "Lea": 50, "Ivo": 10, "Gil": 10}
    t2 = {"Sara": 10, "Remo": 10, "Ora": 10, "Noa": 10, "Max": 10}
    _, st = compute(make(semifinal(t1, t2), format=fmt))
    assert list(st.after_semifinal or ())[:6] == ["Pia", "Lea", "Ugo", "Teo", "Sara", "Remo"]
    assert st.finalists == ("Pia", "Lea", "Ugo", "Teo", "Sara")


def test_ripescato() -> None:
    pts = list(POINTS)
    pts[12] = 90  # Ada plays 90 but loses 55 ranking points: 35, last, best 90
    data = make(format={"ripescati": 1})
    data["evenings"][0]["tables"][2]["scores"]["Ada"] = 90
    data["evenings"][0]["penalties"] = [{"player": "Ada", "points": -55, "reason": "R10"}]
    _, st = compute(data)
    assert st.standings.rows[-1].player == "Ada"
    assert st.semifinal_tables == (("Pia", "Ugo", "Max", "Lea", "Ada"),
                                   ("Teo", "Sara", "Remo", "Ora", "Noa"))


def test_ripescato_tie_needs_a_draw() -> None:
    data = make(format={"ripescati": 1})
    for t in data["evenings"][0]["tables"]:
        for p in ("Gil", "Eva"):
            if p in t["scores"]:
                t["scores"][p] = 57  # 10th place shared, best 57 each: a ripescato tie
    _, st = compute(data)
    assert st.semifinal_tables is None
    assert "ripescato" in msgs(st.pending)[0]


def test_no_semifinal_format() -> None:
    fmt = {"semifinal_tables": [], "name": "straight-final"}
    data = make(final({"Pia": 10, "Ugo": 20, "Teo": 30, "Sara": 40, "Remo": 35}), format=fmt)
    _, st = compute(data)
    assert st.semifinal_tables is None and st.after_semifinal is None
    assert st.finalists == ("Pia", "Ugo", "Teo", "Sara", "Remo")
    assert list(st.final_standings or ())[:6] == ["Sara", "Pia", "Ugo", "Teo", "Remo", "Ora"]


def test_min_evenings_keeps_ineligible_players_out_of_the_semifinal() -> None:
    pts = [*POINTS[:10], 50, 45, 40]
    data = season(ranked(pts), evening("2027-01-12", table({p: 0 for p in NAMES[1:5]}),
                                       table({p: 0 for p in NAMES[5:9]}),
                                       table({p: 0 for p in NAMES[9:13]})),
                  players=list(NAMES), format={"min_evenings": 2})
    _, st = compute(data)
    # Pia (100) played one evening only: not eligible; everyone moves up one place
    assert st.semifinal_tables == (("Ugo", "Teo", "Lea", "Ivo", "Gil"),
                                   ("Sara", "Remo", "Ora", "Noa", "Max"))
    assert not st.standings.row("Pia").eligible


@pytest.mark.parametrize(("fmt", "message"), [
    ({"semifinal_tables": [[1, 2, 3], [3, 4, 5]]}, "number the entrants"),
    ({"tie_breaks": ["points", "luck"]}, "unknown tie-break 'luck'"),
    ({"finalists": 7}, "3 to 6 seats"),
    ({"best_of": 2, "discard_worst": 1}, "not both"),
    ({"colour": "red"}, "unknown format fields: colour"),
    ({"finalists_rule": "vote"}, "finalists_rule must be one of top, table_winners"),
    ("swiss", "unknown tournament format 'swiss'"),
])
def test_bad_formats(fmt: Any, message: str) -> None:
    faults = faults_of(make(format=fmt))
    assert len(faults) == 1 and faults[0].startswith("format: ") and message in faults[0]
