"""In the tournament domain: faults are values said in Italian or English, names are
the same name however typed, repeated keys are refused, club-milano@2's final schedule."""

from __future__ import annotations

import copy
import json
import unicodedata
from typing import Any

import pytest
from tournament_helpers import EXAMPLES, evening, season, table

from risiko.faults import RisikoError, use_language
from risiko.ruleset import CLUB_MILANO, NEW_TOURNAMENT_RULESET, get_ruleset
from risiko.tournament import Schedule, clock_name, parse_season
from risiko.tournament.season import (
    SeasonError,
    dump_season,
    parse_season_text,
    season_report,
)

GOOD = json.loads((EXAMPLES / "season-2027.json").read_text())


def nfd(name: str) -> str:
    return unicodedata.normalize("NFD", name)


def test_a_decomposed_spelling_of_a_registered_name_is_that_player() -> None:
    """``Noè`` registered, ``Noe + U+0300`` at the table: one player, not an unknown one."""
    names = {"Pia": 40, "Noè Galli": 30, "Ugo": 20, "Max": 10}
    data = season(evening("2027-03-02", table(names)), players=list(names))
    data["evenings"][0]["tables"][0]["seats"][1] = nfd("Noè Galli")
    data["evenings"][0]["tables"][0]["scores"] = {
        nfd("Noè Galli") if k == "Noè Galli" else k: v for k, v in names.items()}
    data["evenings"][0]["arrivals"] = {"NOÈ GALLI": "21:05"}
    t = parse_season(data)
    assert t.evenings[0].tables[0].seats[1] == "Noè Galli"
    assert t.evenings[0].arrivals[0].player == "Noè Galli"
    report = season_report(t)
    assert [r["player"] for r in report["standings"]] == ["Pia", "Noè Galli", "Ugo", "Max"]


def test_a_player_scored_twice_however_typed_is_a_repeated_key() -> None:
    """``Bruno`` and ``bruno`` in one table's scores are refused."""
    text = json.dumps(season(evening("2027-03-02", table(
        {"Bruno": 10, "Carla": 20, "Elena": 30, "Gino": 40}))))
    twice = text.replace('"Gino": 40}', '"Gino": 40, "bruno": 50}')
    with pytest.raises(SeasonError) as e:
        parse_season_text(twice)
    assert [f.code for f in e.value.faults] == ["season.key_twice"]
    assert e.value.faults[0].subjects["evening"] == "2027-03-02"
    assert e.value.messages("en") == [
        "evening 2027-03-02 (qualifying), table 1: key 'bruno' is given twice"]


def test_season_faults_are_said_in_italian_with_the_same_subjects() -> None:
    data = copy.deepcopy(GOOD)
    data["evenings"][0]["tables"][1]["seats"][0] = "Mara"
    with pytest.raises(SeasonError) as e:
        parse_season(data)
    codes = [f.code for f in e.value.faults]
    assert codes == ["tournament.score_not_seated", "tournament.no_score",
                     "tournament.seated_twice"]
    assert e.value.faults[1].subjects == {"evening": "2027-03-02", "stage": "qualifying",
                                          "table": 2, "player": "Mara"}
    assert e.value.messages("it") == [
        "serata 2027-03-02 (qualificazione), tavolo 2: un punteggio per Fede, che non è "
        "seduto a questo tavolo",
        "serata 2027-03-02 (qualificazione), tavolo 2: manca il punteggio di Mara",
        "serata 2027-03-02 (qualificazione): Mara è seduto due volte (tavoli 2 e 3)",
    ]
    with use_language("it"):
        assert str(e.value).startswith("evening 2027-03-02")  # str() stays English


def test_a_late_arrival_seated_says_why_in_both_languages() -> None:
    data = copy.deepcopy(GOOD)
    data["evenings"][0]["arrivals"]["Bice"] = "21:25"  # no phone notice: excluded (R3)
    with pytest.raises(RisikoError) as e:
        parse_season(data)
    fault = e.value.fault
    assert fault.code == "tournament.seated_excluded" and fault.clause == "R3"
    assert fault.params["reason"]["code"] == "arrival.excluded"
    assert fault.message("en") == (
        "evening 2027-03-02 (qualifying), table 1: Bice is seated but arrived after 21:20 "
        "without a phone notice: may not play (R3)")
    assert fault.message("it") == (
        "serata 2027-03-02 (qualificazione), tavolo 1: Bice è seduto ma arrivato dopo le "
        "21:20 senza preavviso telefonico: non può giocare (R3)")


def test_times_in_a_season_file_are_read_as_referees_write_them() -> None:
    data = copy.deepcopy(GOOD)
    data["evenings"][0]["arrivals"] = {"Alba": "9:02 pm", "Gino": "21h15",
                                       "Ciro": {"at": "2126", "phoned": True}}
    t = parse_season(data)
    assert [(a.player, clock_name(a.at)) for a in t.evenings[0].arrivals] == [
        ("Alba", "21:02"), ("Gino", "21:15"), ("Ciro", "21:26")]
    data["evenings"][0]["arrivals"] = {"Alba": "9:02"}
    with pytest.raises(SeasonError) as e:
        parse_season(data)
    assert e.value.messages("en") == [
        "evening 2027-03-02 (qualifying), arrivals: Alba: '9:02' would be a morning time: "
        "did you mean 21:02?"]


def _final_schedule(label: str) -> dict[str, Any]:
    return Schedule.from_ruleset(get_ruleset(label), "final").to_dict()


def test_club_milano_2_keeps_the_call_of_the_last_rounds_at_23_30_at_the_final() -> None:
    """The reading settled for club-milano@2: the final's earlier start (20:30) moves its arrival
    times, the R2 call of the last two rounds stays at 23:30; @1 keeps its rules."""
    two, one = _final_schedule("club-milano@2"), _final_schedule("club-milano@1")
    for key in ("on_time_until", "late_until", "phoned_until", "phone_notice_by",
                "tables_formed_at"):
        assert two[key] == one[key]
    assert (two["on_time_until"], two["late_until"], two["tables_formed_at"]) == (
        "20:20", "20:30", "20:30")
    assert two["last_rounds_call_at"] == "23:30" and one["last_rounds_call_at"] == "22:40"
    assert NEW_TOURNAMENT_RULESET == "club-milano@2"
    assert get_ruleset("club-milano") is CLUB_MILANO  # records and old files: @1
    # a season file of @2 says so, and reads back as @2
    data = copy.deepcopy(GOOD)
    data["ruleset"] = "club-milano@2"
    t = parse_season(data)
    assert (t.ruleset_name, t.ruleset_version) == ("club-milano", 2)
    assert dump_season(t)["ruleset"] == "club-milano@2"
    assert parse_season(dump_season(t)) == t
    with pytest.raises(RisikoError) as e:
        get_ruleset("club-milano@3")
    assert e.value.fault.code == "ruleset.unknown_version"
    assert "1, 2" in e.value.fault.message("en")
