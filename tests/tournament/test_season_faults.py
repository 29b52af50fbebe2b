"""Bad season files: every fault is one line naming the evening, the table and the player,
and all of them are reported at once."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from tournament_helpers import EXAMPLES, evening, season, table

from risiko.tournament import SeasonError, load_season, parse_season
from risiko.tournament.season import parse_season_text

GOOD = json.loads((EXAMPLES / "season-2027.json").read_text())
SHEET = json.loads((EXAMPLES / "sheet-5-seats.json").read_text())


def faults(data: Any) -> list[str]:
    with pytest.raises(SeasonError) as e:
        parse_season(data)
    assert str(e.value) == "\n".join(e.value.messages("en"))
    return e.value.messages("en")


def good() -> dict[str, Any]:
    return copy.deepcopy(GOOD)


def small(*tables: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return season(evening("2027-03-02", *tables, **extra),
                  players=["A", "B", "C", "D", "E", "F", "G", "H"])


CASES: dict[str, tuple[Any, list[str]]] = {
    "unknown player, close name": (
        small(table({"A": 1, "Bb": 2, "C": 3})),
        ["evening 2027-03-02 (qualifying), table 1: unknown player 'Bb' (did you mean B?)"]),
    "unknown player, no close name": (
        small(table({"A": 1, "B": 2, "Zorro": 3})),
        ["evening 2027-03-02 (qualifying), table 1: unknown player 'Zorro' (not in 'players')"]),
    "seated twice": (
        small(table({"A": 1, "B": 2, "C": 3}), table({"D": 1, "A": 2, "E": 3})),
        ["evening 2027-03-02 (qualifying): A is seated twice (tables 1 and 2)"]),
    "excluded arrival seated": (
        small(table({"A": 1, "B": 2, "C": 3}), arrivals={"C": "21:21", "A": "21:25"} | {
            "B": {"at": "21:35", "phoned": True}}),
        ["evening 2027-03-02 (qualifying), table 1: A is seated but arrived after 21:20 "
         "without a phone notice: may not play (R3)",
         "evening 2027-03-02 (qualifying), table 1: B is seated but arrived after 21:30, the "
         "limit even with a phone notice: may not play (R3)",
         "evening 2027-03-02 (qualifying), table 1: C is seated but arrived after 21:20 "
         "without a phone notice: may not play (R3)"]),
    "late phone notice": (
        small(table({"A": 1, "B": 2, "C": 3}), arrivals={
            "A": {"at": "21:25", "phoned_at": "21:15"}}),
        ["evening 2027-03-02 (qualifying), table 1: A is seated but arrived after 21:20 "
         "without a phone notice (the phone notice at 21:15 came after 21:10): may not "
         "play (R3)"]),
    "absent seated": (
        small(table({"A": 1, "B": 2, "C": 3}), absent=["B"]),
        ["evening 2027-03-02 (qualifying), table 1: B is seated but listed absent"]),
    "table of 2 and of 7": (
        small(table({"A": 1, "B": 2}), {"seats": ["C", "D", "E", "F", "G", "H", "X"]}),
        ["evening 2027-03-02 (qualifying), table 1: 2 seats (a table has 3 to 6)",
         "evening 2027-03-02 (qualifying), table 2: 7 seats (a table has 3 to 6)",
         "evening 2027-03-02 (qualifying), table 2: unknown player 'X' (not in 'players')"]),
    "scores not the table's": (
        small({"seats": ["A", "B", "C"], "scores": {"A": 1, "B": 2, "D": 3}}),
        ["evening 2027-03-02 (qualifying), table 1: a score for D, who is not seated at "
         "this table",
         "evening 2027-03-02 (qualifying), table 1: no score for C"]),
    "score above 100": (
        small(table({"A": 101, "B": 2, "C": 3})),
        ["evening 2027-03-02 (qualifying), table 1: A scores 101, above the maximum table "
         "score of 100 (R1)"]),
    "abandoned with a score": (
        small(table({"A": 10, "B": 2, "C": 3}, abandoned=["A", "D"])),
        ["evening 2027-03-02 (qualifying), table 1: A left the game (R13) but scores 10: a "
         "seat that leaves scores 0",
         "evening 2027-03-02 (qualifying), table 1: abandoned names D, who is not seated at "
         "this table"]),
    "risiko not at the table": (
        small(table({"A": 100, "B": 2, "C": 3}, risiko=["E"])),
        ["evening 2027-03-02 (qualifying), table 1: risiko names E, who is not seated at "
         "this table"]),
    "sheet and scores": (
        small({"seats": ["A", "B", "C"], "scores": {"A": 1, "B": 2, "C": 3}, "sheet": {
            "seats": []}}),
        ["evening 2027-03-02 (qualifying), table 1: both a sheet and scores; give one result",
         "evening 2027-03-02 (qualifying), table 1, sheet: 0 seats: a table has 2 to 6 seats",
         "evening 2027-03-02 (qualifying), table 1, sheet: 42 territories are missing (no "
         "seat holds them): " + ", ".join(["Alaska", "Territori del Nord Ovest"]) + ", ..."]),
    "table penalty for a player not at the table": (
        small(table({"A": 1, "B": 2, "C": 3}, penalties=[{"player": "D", "points": -7}])),
        ["evening 2027-03-02 (qualifying), table 1: table penalty for D, who is not seated "
         "at this table (a ranking penalty goes on the evening)"]),
    "positive penalty and bad appeals": (
        small(table({"A": 1, "B": 2, "C": 3}), penalties=[
            {"player": "A", "points": 5},
            {"player": "B", "points": -5, "appeal": {"outcome": "reduced"}},
            {"player": "C", "points": -5, "appeal": {"outcome": "reduced", "points": -8}},
            {"player": "C", "points": -5, "appeal": {"outcome": "annulled", "points": -2}},
            {"player": "C", "points": -5, "appeal": {"outcome": "forgiven"}}]),
        ["evening 2027-03-02 (qualifying), penalties: appeal of C: outcome must be one of "
         "upheld, reduced, annulled, not \"forgiven\"",
         "evening 2027-03-02 (qualifying), penalties: penalty for A of 5 ranking points: a "
         "penalty is a negative number of points (e.g. -7)",
         "evening 2027-03-02 (qualifying), penalties: appeal of B 'reduced' needs the points "
         "it reduces the penalty to",
         "evening 2027-03-02 (qualifying), penalties: appeal of C reduces -5 to -8: a "
         "reduction lies between -5 (excluded) and 0",
         "evening 2027-03-02 (qualifying), penalties: appeal of C is 'annulled': only a "
         "'reduced' appeal gives points"]),
    "expelled then seated": (
        season(evening("2027-03-02", table({"A": 1, "B": 2, "C": 3}), discipline=[
                   {"player": "A", "level": "tournament", "reason": "R10", "referee": "Luca"}]),
               evening("2027-03-09", table({"A": 1, "B": 2, "C": 3}))),
        ["evening 2027-03-09 (qualifying), table 1: A is seated but was expelled from the "
         "tournament on 2027-03-02 (R10)"]),
    "table expulsion without the table": (
        small(table({"A": 1, "B": 2, "C": 3}), discipline=[
            {"player": "A", "level": "table"}, {"player": "B", "level": "warning", "table": 2},
            {"player": "C", "level": "warning", "table": 1}]),
        ["evening 2027-03-02 (qualifying), discipline: expulsion of A from a table needs the "
         "table number",
         "evening 2027-03-02 (qualifying), discipline: B: there is no table 2"]),
    "structure": (
        {"name": "", "players": "A, B", "evenings": [
            {"date": "2 March", "tables": []},
            {"date": "2027-03-09", "stage": "playoff"},
            {"date": "2027-03-16", "colour": 1, "tables": [{"seats": "A B C"}],
             "arrivals": {"A": "nine"}}]},
        ["'name' must name the tournament",
         "players: 'players' must list the players' names",
         "evening 1: date must be 'YYYY-MM-DD', not \"2 March\"",
         "evening 2027-03-09: stage must be one of qualifying, semifinal, final, not "
         "\"playoff\"",
         "evening 3: unknown key 'colour' (known: date, stage, schedule, arrivals, absent, "
         "tables, penalties, discipline, note)",
         "evening 2027-03-16 (qualifying), arrivals: A: a time is 'HH:MM' (e.g. '21:10'), not "
         "'nine'",
         "evening 2027-03-16 (qualifying), table 1: 'seats' must list the table's players in "
         "turn order",
         "evening 2027-03-16 (qualifying), table 1: 0 seats (a table has 3 to 6)"]),
    "evenings out of order": (
        season(evening("2027-03-02", table({"A": 1, "B": 2, "C": 3})),
               evening("2027-03-09", stage="semifinal"),
               evening("2027-03-09", stage="final"),
               evening("2027-03-16", table({"A": 1, "B": 2, "C": 3})),
               evening("2027-03-23", stage="semifinal")),
        ["evenings: 2 evenings on 2027-03-09",
         "evenings: 2 semifinal evenings (2027-03-09, 2027-03-23); a tournament has one",
         "evening 2027-03-16 (qualifying): a qualifying evening on or after the semifinal "
         "(2027-03-09)",
         "evening 2027-03-16 (qualifying): a qualifying evening on or after the final "
         "(2027-03-09)",
         "evening 2027-03-09 (final): the final is not after the semifinal (2027-03-09)"]),
    "final without semifinal": (
        season(evening("2027-03-02", table({"A": 1, "B": 2, "C": 3})),
               evening("2027-03-09", stage="final")),
        ["evening 2027-03-09 (final): a final without a semifinal evening"]),
    "carry-over and draws": (
        season(evening("2027-03-02", table({"A": 1, "B": 2, "C": 3})),
               carry_over={"Z": 10, "A": "ten"},
               draws=[{"stage": "semifinal", "order": ["A", "A", "Q"]},
                      {"stage": "qualifying", "order": ["A", "B"]}]),
        ["carry_over: the carry-over of A must be an object, not \"ten\"",
         "draws, draw 2: stage must be 'semifinal' or 'final' (the stage the draw seats), "
         "not \"qualifying\"",
         "carry_over: unknown player 'Z' (not in 'players')",
         "draws, draw 1 (semifinal): unknown player 'Q' (not in 'players')",
         "draws, draw 1 (semifinal): A is drawn 2 times"]),
    "players listed twice": (
        season(evening("2027-03-02", table({"A": 1, "B": 2, "C": 3})),
               players=["A", "B", "C", "A"]),
        ["players: A is listed 2 times"]),
    "ruleset": ({"name": "x", "ruleset": "risk", "players": []},
                ["ruleset: unknown ruleset 'risk' (known: club-milano, rtu, classic)"]),
}


@pytest.mark.parametrize("case", CASES)
def test_bad_file(case: str) -> None:
    data, expected = CASES[case]
    got = faults(data)
    if expected and expected[-1].endswith("..."):
        assert got[:-1] == expected[:-1]
        assert got[-1].startswith(expected[-1][:-3])
    else:
        assert got == expected


def test_sheet_whose_players_are_not_the_tables() -> None:
    sheet = copy.deepcopy(SHEET)
    data = small({"seats": ["Anna", "Bruno", "Carla", "Dario", "Zeno"], "sheet": sheet})
    data["players"] = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Zeno"]
    assert faults(data) == [
        "evening 2027-03-02 (qualifying), table 1: the sheet lists Elena, who is not seated "
        "at this table",
        "evening 2027-03-02 (qualifying), table 1: the sheet has no seat for Zeno",
    ]


def test_sheet_faults_are_prefixed_with_evening_and_table() -> None:
    sheet = copy.deepcopy(SHEET)
    sheet["seats"][0]["armies"]["Atlantide"] = 3
    data = small({"seats": ["Anna", "Bruno", "Carla", "Dario", "Elena"], "sheet": sheet})
    data["players"] = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
    got = faults(data)
    assert len(got) == 1
    assert got[0].startswith("evening 2027-03-02 (qualifying), table 1, sheet: Anna: ")
    assert "Atlantide" in got[0]


def test_sheet_of_another_ruleset() -> None:
    sheet = copy.deepcopy(SHEET)
    sheet["ruleset"] = "rtu"
    data = small({"seats": ["Anna", "Bruno", "Carla", "Dario", "Elena"], "sheet": sheet})
    data["players"] = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
    assert faults(data) == [
        "evening 2027-03-02 (qualifying), table 1: the sheet is scored under 'rtu', the "
        "tournament under 'club-milano'"]


def test_many_faults_at_once_in_the_example() -> None:
    data = good()
    data["evenings"][0]["tables"][1]["seats"][0] = "Mara"  # Mara now seated twice; no Fede
    data["evenings"][1]["tables"][0]["seats"].append("Nico")  # Nico arrived 21:24
    data["evenings"][2]["tables"][2]["scores"]["Ciro"] = 150
    got = faults(data)
    assert got == [
        "evening 2027-03-02 (qualifying), table 2: a score for Fede, who is not seated at "
        "this table",
        "evening 2027-03-02 (qualifying), table 2: no score for Mara",
        "evening 2027-03-02 (qualifying): Mara is seated twice (tables 2 and 3)",
        "evening 2027-03-09 (qualifying), table 1: Nico is seated but arrived after 21:20 "
        "without a phone notice: may not play (R3)",
        "evening 2027-03-09 (qualifying), table 1: no score for Nico",
        "evening 2027-03-16 (qualifying), table 3: Ciro scores 150, above the maximum table "
        "score of 100 (R1)",
    ]


def test_semifinal_not_matching_the_qualified_players() -> None:
    data = good()
    semi = data["evenings"][4]
    semi["tables"][0]["seats"][4] = "Dora"  # the draw put Ezio 10th, not Dora
    semi["tables"][0]["scores"] = {"Dora" if k == "Ezio" else k: v
                                   for k, v in semi["tables"][0]["scores"].items()}
    assert faults(data) == [
        "evening 2027-03-30 (semifinal), table 1: Dora is seated but is not qualified for "
        "the semifinal (ranked 11th)",
        "evening 2027-03-30 (semifinal): Ezio (ranked 10th) qualified for semifinal table 1 "
        "but is not seated (list him in 'absent' if he did not come)",
    ]


def test_missing_draw_refuses_the_semifinal() -> None:
    data = good()
    del data["draws"]
    got = faults(data)
    assert got == [
        "evening 2027-03-30 (semifinal): cannot seat the semifinal: Dora and Ezio share the "
        "10th place of the qualifying ranking, across a cut of the semifinal: record a draw "
        "of lots (draws: stage 'semifinal', order of these players)"]


def test_final_not_matching_the_finalists() -> None:
    data = good()
    final = data["evenings"][5]["tables"][0]
    final["seats"] = ["Fede", "Ciro", "Mara", "Alba", "Bice"]
    final["scores"] = {"Fede": 30, "Ciro": 78, "Mara": 60, "Alba": 52, "Bice": 45}
    assert faults(data) == [
        "evening 2027-04-06 (final), table 1: Alba is seated but is not qualified for the "
        "final (6th after the semifinal)",
        "evening 2027-04-06 (final): Rita (5th after the semifinal) qualified for the final "
        "but is not seated (list him in 'absent' if he did not come)",
    ]


def test_duplicate_keys_and_bad_json(tmp_path: Path) -> None:
    text = json.dumps(small(table({"A": 1, "B": 2, "C": 3})))
    text = text.replace('"A": 1,', '"A": 1, "A": 5,')
    with pytest.raises(SeasonError) as e:
        parse_season_text(text)
    assert e.value.messages("en") == ["evening 2027-03-02 (qualifying), table 1: key 'A' is given "
                              "twice"]
    with pytest.raises(SeasonError) as e:
        parse_season_text('{"name": "x",')
    assert e.value.messages("en")[0].startswith("not valid JSON: ")
    with pytest.raises(SeasonError, match="cannot read"):
        load_season(tmp_path / "missing.json")
    bad = tmp_path / "latin1.json"
    bad.write_bytes('{"name": "Citt\xe0"}'.encode("latin-1"))
    with pytest.raises(SeasonError, match="not UTF-8"):
        load_season(bad)


def test_not_an_object() -> None:
    assert faults([1, 2]) == ["a season file must be an object, not [1, 2]"]


def test_expulsion_at_the_final_does_not_reseat_the_semifinal() -> None:
    data = good()
    data["evenings"][5]["discipline"] = [{"player": "Ezio", "level": "tournament",
                                          "reason": "R10", "referee": "Luca"}]
    data["evenings"][4]["discipline"] = [{"player": "Ciro", "level": "warning",
                                          "reason": "R10", "table": 1}]
    t = parse_season(data)
    from risiko.tournament import season_report

    assert season_report(t)["final_standings"][0] == "Ciro"


def test_expulsion_before_the_semifinal_makes_the_player_ineligible() -> None:
    data = good()
    data["evenings"][3]["discipline"] = [{"player": "Mara", "level": "club",
                                          "reason": "R10", "referee": "Luca"}]
    got = faults(data)
    assert got[0] == ("evening 2027-03-30 (semifinal), table 1: Mara is seated but was "
                      "expelled from the club on 2027-03-23 (R10)")


def test_two_risiko_at_one_table_and_impossible_scores_are_faults():
    from risiko.tournament.season import SeasonError, parse_season

    season = {
        "name": "T", "ruleset": "club-milano", "format": "club-milano",
        "players": ["Alba", "Bice", "Ciro"],
        "evenings": [{"date": "2027-03-02", "stage": "qualifying", "tables": [
            {"seats": ["Alba", "Bice", "Ciro"], "scores": {"Alba": 100, "Bice": 100, "Ciro": -8},
             "risiko": ["Alba", "Bice"]}]}],
    }
    with pytest.raises(SeasonError) as err:
        parse_season(season)
    text = str(err.value)
    assert "Alba and Bice both completed the objective" in text
    assert "Ciro scores -8, below the lowest possible table score of -7" in text


def test_the_faults_of_one_evening_and_of_the_tournament():
    """``tournament_faults(t, only=date)``: what a write checking one evening needs - that
    evening's faults and the tournament's, not the other evenings'."""
    import datetime as dt

    from risiko.tournament.checks import tournament_faults
    from risiko.tournament.season import _Codec

    data = season(
        evening("2027-03-02", table({"A": 1, "B": 2, "C": 3}), table({"D": 1, "A": 2, "E": 3})),
        evening("2027-03-09", table({"F": 1, "G": 2, "H": 3}), table({"F": 4, "B": 5, "C": 6})),
        players=["A", "B", "C", "D", "E", "F", "G", "H"], carry_over={"Z": 10})
    t = _Codec().read_tournament(data)
    assert t is not None

    def said(faults):
        return [f.message("en") for f in faults]

    carry = "carry_over: unknown player 'Z' (not in 'players')"
    first = "evening 2027-03-02 (qualifying): A is seated twice (tables 1 and 2)"
    second = "evening 2027-03-09 (qualifying): F is seated twice (tables 1 and 2)"
    assert said(tournament_faults(t)) == [carry, first, second]
    assert said(tournament_faults(t, only=dt.date(2027, 3, 2))) == [carry, first]
    assert said(tournament_faults(t, only=dt.date(2027, 3, 9))) == [carry, second]
