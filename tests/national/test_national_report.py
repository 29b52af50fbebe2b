"""The ``risiko-report/1`` contract: reader (every bad field named) and
writer."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal

import pytest
from national_kit import report

from risiko.national.categories import Category
from risiko.national.report import ReportError, parse_report, read_report, write_report


def test_a_good_report_reads_and_writes_back_the_same() -> None:
    data = report(category="OPN")
    got = read_report(data)
    assert got.category is Category.OPEN
    assert got.identity == ("milano", "Open di Primavera", date(2024, 3, 2))
    assert got.year == 2024
    assert got.tables == 4  # 2 rounds x 2 tables
    text = write_report(got)
    assert parse_report(text) == got
    assert json.loads(text)["tournament"]["category"] == "open"  # our name written back


def test_the_ranking_reads_games_wins_and_leaves_out_anonymous_players() -> None:
    # round 1: tables p1-p4 (p1 wins), p5-p8 (p5 wins); round 2: p2-p5 (p2), p6,p7,p8,p1 (p6)
    result = read_report(report()).result()
    assert result.tables == 4
    rows = [(p.national_id, p.games, p.wins, p.position) for p in result.participants]
    assert rows == [(101, 2, 1, 1), (102, 2, 1, 2), (103, 2, 0, 3), (104, 2, 0, 4),
                    (105, 2, 1, 5), (106, 2, 1, 6)]  # p7, p8 anonymous: left out
    assert result.participants[0].name == "Anna Bassi"
    assert result.participants[0].club == "MILANO [Club Milano]"


def test_every_bad_field_is_named() -> None:
    data = report()
    data["format"] = "risiko-report/2"
    data["club"]["name"] = " "
    data["tournament"]["category"] = "torneo estivo"
    data["tournament"]["dates"] = ["2024-03-09", "2024-03-02"]
    data["players"][2]["national_id"] = 101          # p3 takes p1's national id
    data["players"][3]["birth_date"] = "31/12/1990"
    data["games"][1]["seats"][0]["player"] = "p99"
    data["games"][2]["seats"][1]["points"] = "40"
    data["games"][3]["winners"] = ["p2"]             # p2 sits at table 1, not 2
    data["standings"][0]["position"] = 9             # 8 players in the standings
    data["extra"] = 1
    with pytest.raises(ReportError) as caught:
        read_report(data)
    named = [(f.code.removeprefix("national.report_"), f.params.get("at"))
             for f in caught.value.faults]
    assert sorted(named, key=str) == sorted([
        ("unknown", "extra"),
        ("format", None),
        ("not_text", "club.name"),
        ("category", "tournament.category"),
        ("dates_order", "tournament.dates[1]"),
        ("duplicate", "players[2].national_id"),
        ("not_date", "players[3].birth_date"),
        ("no_such_player", "games[1].seats[0].player"),
        ("not_seated", "games[1].winners[0]"),       # its winner p5 was that seat
        ("not_number", "games[2].seats[1].points"),
        ("not_seated", "games[3].winners[0]"),
        ("position_range", "standings[0].position"),
    ], key=str)


def test_the_structure_checks() -> None:
    data = report(finished=True, dates=("2024-03-02", "2024-03-09"))
    data["tournament"]["rounds"] = 3                  # 2 dates, and no game in round 3
    data["games"][0]["seats"] = data["games"][0]["seats"][:1]
    data["games"][1]["round"] = 1
    data["games"][1]["table"] = 1                     # table 1 of round 1 again
    del data["games"][2]["winners"]
    with pytest.raises(ReportError) as caught:
        read_report(data)
    codes = {(f.code.removeprefix("national.report_"), f.params.get("at"))
             for f in caught.value.faults}
    assert ("dates_count", None) in codes
    assert ("last_round", None) in codes
    assert ("seats", "games[0].seats") in codes
    assert ("duplicate", "games[1].table") in codes
    assert ("missing", "games[2].winners") in codes


def test_a_player_twice_in_a_round_and_standings_without_games() -> None:
    data = report()
    data["games"][1]["seats"][0]["player"] = "p1"     # p1 already at table 1 of round 1
    data["players"].append({"key": "p9", "national_id": 109, "name": "Ivo", "surname": "L",
                            "birth_date": "1990-01-31"})
    data["standings"].append({"player": "p9", "position": 9})
    with pytest.raises(ReportError) as caught:
        read_report(data)
    assert [(f.code, f.params["at"]) for f in caught.value.faults] == [
        ("national.report_twice_in_round", "games[1].seats[0].player"),
        ("national.report_not_seated", "games[1].winners[0]"),  # the seat refused was p5's
        ("national.report_standing_no_games", "standings[8].player")]


def test_finished_needs_standings_where_the_category_has_them() -> None:
    data = report(category="open")
    data["standings"] = []
    with pytest.raises(ReportError) as caught:
        read_report(data)
    assert caught.value.fault.code == "national.report_no_standings"
    data["tournament"]["category"] = "AMC"  # amichevole: no standings (prevedeClassifica)
    assert read_report(data).standings == ()


def test_messages_in_italian() -> None:
    with pytest.raises(ReportError) as caught:
        parse_report('{"format": "risiko-report/1",')
    # 30 characters: the property name expected at the end, column 30
    assert caught.value.messages("it") == ["non è JSON valido (riga 1, colonna 30)"]
    data = report()
    del data["club"]
    with pytest.raises(ReportError) as caught:
        read_report(data)
    assert caught.value.messages("it") == ["club: manca"]
    assert caught.value.messages("en") == ["club: missing"]


def test_the_example_of_the_docs() -> None:
    # examples/national/open-2024.json: an open of 4 rounds x 2 tables (T = 8), 8 players
    # of whom 2 anonymous; Anna Bassi 1st: 1.2 * (100 + 8) * 2 = 259.2
    from pathlib import Path

    from risiko.national.ranking import display_points, national_ranking

    path = Path(__file__).resolve().parents[2] / "examples" / "national" / "open-2024.json"
    got = parse_report(path.read_text(encoding="utf-8"))
    assert write_report(got) == path.read_text(encoding="utf-8")  # canonical as written
    assert (got.tables, got.year, len(got.players)) == (8, 2024, 8)
    first = national_ranking(2024, [got.result()]).players[0]
    assert (first.name, display_points(first.points)) == ("Anna Bassi", Decimal("259.20"))
