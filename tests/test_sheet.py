"""End-of-game sheets: JSON and CSV forms, every fault, round trips, the example sheets.

The example sheets (examples/sheet-5-seats.json and .csv hold the same board) are scored by
hand in ``test_example_scores``.
"""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest

from risiko.board import parse_territory
from risiko.ruleset import RTU
from risiko.sheet import (
    SeatEntry,
    Sheet,
    SheetError,
    load_sheet,
    parse_sheet,
    parse_sheet_csv,
    parse_sheet_text,
    score_sheet,
)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
EXAMPLE_JSON = EXAMPLES / "sheet-5-seats.json"
EXAMPLE_CSV = EXAMPLES / "sheet-5-seats.csv"


def example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE_JSON.read_text(encoding="utf-8"))
    return data


def seat(data: dict[str, Any], player: str) -> dict[str, Any]:
    for s in data["seats"]:
        if s["player"] == player:
            result: dict[str, Any] = s
            return result
    raise KeyError(player)


def faults_of(data: dict[str, Any]) -> list[str]:
    with pytest.raises(SheetError) as info:
        parse_sheet(data)
    return info.value.messages("en")


def csv_faults(text: str) -> list[str]:
    with pytest.raises(SheetError) as info:
        parse_sheet_csv(text)
    return info.value.messages("en")


def one(faults: list[str], *words: str) -> str:
    """The single fault line containing every word (fails if none or several)."""
    hits = [f for f in faults if all(w in f for w in words)]
    assert len(hits) == 1, (words, faults)
    assert "\n" not in hits[0]
    return hits[0]


# --- the example sheets, scored by hand -------------------------------------------------------

def test_example_scores() -> None:
    # Anna obj 13 Guerra Fredda: Nord America + Kamchatka, Giappone: 11 in objective x 4 = 44,
    #   Nord America in objective floor(2.5 x 9) = 22 -> 66; 78 armies
    # Bruno obj 7 AAA: Sud America 4 + Africa del Nord, Congo = 6 x 4 = 24, Islanda 1,
    #   Sud America in objective 10 -> 35; 41 armies
    # Carla obj 9 Eurasia: 6 of Europa + Urali, Siberia, Jacuzia, Cita = 10 x 4 = 40 (Europa
    #   not whole: Islanda is Bruno's) -> 40; 57 armies
    # Dario obj 3 Ciclista: Egitto, Africa Orientale, Africa del Sud, Madagascar, India,
    #   Afghanistan, Medio Oriente = 7 x 4 = 28, Mongolia, Cina 2 -> 30; 124 armies > 120: -7
    #   -> 23
    # Elena obj 1 Letto: Indonesia, Nuova Guinea, Australia Occidentale, Siam 4 x 4 = 16,
    #   Australia Orientale 1, Oceania held but not a continent of objective 1: 4 -> 21
    for path in (EXAMPLE_JSON, EXAMPLE_CSV):
        table = score_sheet(load_sheet(path))
        got = {s.player: (s.territories, s.armies, s.objective_territories, s.base, s.penalty,
                          s.score) for s in table.seats}
        assert got == {
            "Anna": (11, 78, 11, 66, 0, 66),
            "Bruno": (7, 41, 6, 35, 0, 35),
            "Carla": (10, 57, 10, 40, 0, 40),
            "Dario": (9, 124, 7, 30, -7, 23),
            "Elena": (5, 23, 4, 21, 0, 21),
        }
        assert table.ranking == ["Anna", "Carla", "Bruno", "Dario", "Elena"]
        assert [(c.name, c.in_objective, c.points) for c in table.seat("Elena").continents] == [
            ("Oceania", False, 4)
        ]


def test_examples_hold_the_same_board() -> None:
    a, b = load_sheet(EXAMPLE_JSON), load_sheet(EXAMPLE_CSV)
    assert a == b
    assert len(a.seats) == 5
    assert sum(s.owned.bit_count() for s in a.seats) == 42
    assert a.ruleset == "club-milano"


def test_objective_forms() -> None:
    sheet = load_sheet(EXAMPLE_JSON)
    # 13 (int), "AAA" (name), "9" (string number), "Ciclista" (name), 1 (int)
    assert [s.objective.number for s in sheet.seats] == [13, 7, 9, 3, 1]
    data = example()
    seat(data, "Anna")["objective"] = "guerra fredda"
    seat(data, "Bruno")["objective"] = " 7 "
    assert [s.objective.number for s in parse_sheet(data).seats] == [13, 7, 9, 3, 1]


def test_loose_territory_names() -> None:
    data = example()
    armies = seat(data, "Bruno")["armies"]
    armies["PERU"] = armies.pop("Perù")
    armies["north_africa"] = armies.pop("Africa del Nord")
    sheet = parse_sheet(data)
    bruno = sheet.seats[1]
    assert dict(bruno.armies)[parse_territory("Perù")] == 2
    assert sheet.owner(parse_territory("Africa del Nord")) == "Bruno"


# --- round trips -------------------------------------------------------------------------------

def test_round_trip_dict() -> None:
    sheet = load_sheet(EXAMPLE_JSON)
    again = parse_sheet(sheet.to_dict())
    assert again == sheet
    assert json.loads(json.dumps(sheet.to_dict())) == sheet.to_dict()
    assert sheet.to_dict()["seats"][0]["armies"]["Alaska"] == 12


def test_round_trip_csv() -> None:
    sheet = load_sheet(EXAMPLE_JSON)
    assert parse_sheet_csv(sheet.to_csv()) == sheet


def test_round_trip_with_flags_and_empty_seat() -> None:
    data = example()
    seat(data, "Bruno")["abandoned"] = True
    data["seats"].append({"player": "Fabio", "objective": 16, "armies": {},
                          "eliminated": True})
    sheet = parse_sheet(data)
    assert sheet.seats[1].abandoned
    assert sheet.seats[5].is_eliminated
    assert parse_sheet(sheet.to_dict()) == sheet
    assert parse_sheet_csv(sheet.to_csv()) == sheet
    assert sheet.to_dict()["seats"][5] == {
        "player": "Fabio", "objective": 16, "armies": {}, "eliminated": True,
    }


# --- flags -------------------------------------------------------------------------------------

def test_abandoned_seat_scores_zero() -> None:
    data = example()
    seat(data, "Anna")["abandoned"] = True
    table = score_sheet(parse_sheet(data))
    anna = table.seat("Anna")
    assert anna.status == "abandoned"
    assert anna.score == 0
    assert anna.territories == 11  # his armies stay on the board (R13)
    assert table.ranking == ["Carla", "Bruno", "Dario", "Elena", "Anna"]


def test_seat_without_territories_is_eliminated() -> None:
    data = example()
    empties: list[dict[str, Any]] = [{"armies": {}}, {"armies": None}, {}]
    for empty in empties:  # no armies: holds nothing
        data = example()
        data["seats"].append({"player": "Fabio", "objective": 16, **empty})
        table = score_sheet(parse_sheet(data))
        assert table.seat("Fabio").status == "eliminated"
        assert table.seat("Fabio").score == 0
        assert table.ranking[-1] == "Fabio"


def test_eliminated_seat_cannot_hold_territories() -> None:
    data = example()
    seat(data, "Elena")["eliminated"] = True
    line = one(faults_of(data), "Elena", "eliminated")
    assert "5 territories" in line
    assert "Indonesia" in line


def test_flag_must_be_boolean() -> None:
    data = example()
    seat(data, "Elena")["abandoned"] = "yes"
    one(faults_of(data), "Elena", "abandoned")


# --- rulesets ----------------------------------------------------------------------------------

def test_ruleset_default_and_override() -> None:
    data = example()
    del data["ruleset"]
    assert parse_sheet(data).ruleset == "club-milano"
    assert parse_sheet(data, ruleset="rtu").ruleset == "rtu"
    data["ruleset"] = "nonsense"
    assert parse_sheet(data, ruleset="RTU").ruleset == "rtu"  # the override replaces it


def test_score_with_rtu() -> None:
    # RTU: border points (official board) of the objective territories held
    # Anna obj 13: Nord America 35 + Kamchatka 5 + Giappone 2 = 42
    # Dario obj 3: Egitto 4 + Africa Orientale 5 + Africa del Sud 3 + Madagascar 2 + India 3
    #   + Afghanistan 4 + Medio Oriente 6 = 27, 124 armies under the RTU limit of 130
    sheet = load_sheet(EXAMPLE_JSON)
    for ruleset in ("rtu", RTU):
        table = score_sheet(sheet, ruleset)
        assert table.ruleset is RTU
        assert table.seat("Anna").score == 42
        assert table.seat("Dario").score == 27
        assert table.seat("Dario").penalty == 0


def test_score_sheet_unknown_ruleset() -> None:
    with pytest.raises(SheetError) as info:
        score_sheet(load_sheet(EXAMPLE_JSON), "monopoli")
    assert "monopoli" in info.value.messages("en")[0]


def test_table_score_to_dict() -> None:
    doc = score_sheet(load_sheet(EXAMPLE_JSON)).to_dict()
    assert doc["ruleset"] == "club-milano"
    assert doc["ranking"] == ["Anna", "Carla", "Bruno", "Dario", "Elena"]
    keys = {"player", "objective", "territories", "armies", "objective_territories",
            "continents", "base", "penalty", "score", "risiko"}
    for s in doc["seats"]:
        assert keys <= set(s)
    assert doc["seats"][0]["continents"] == [
        {"name": "Nord America", "in_objective": True, "points": 22}
    ]
    json.dumps(doc)


# --- faults, JSON ------------------------------------------------------------------------------

def test_unknown_territory_lists_the_closest() -> None:
    data = example()
    armies = seat(data, "Bruno")["armies"]
    armies["Brasil"] = armies.pop("Brasile")
    faults = faults_of(data)
    line = one(faults, "Bruno", "'Brasil'")
    assert "closest" in line
    assert "Brasile" in line
    # and Brasile is now held by nobody
    assert one(faults, "missing", "Brasile") == (
        "1 territory is missing (no seat holds it): Brasile")
    assert len(faults) == 2


def test_territory_listed_twice_names_both_players() -> None:
    data = example()
    seat(data, "Elena")["armies"]["Cina"] = 3  # Dario holds Cina too
    faults = faults_of(data)
    assert faults == [one(faults, "Cina", "twice", "Dario", "Elena")]


def test_territory_listed_twice_by_one_player_json_duplicate_key() -> None:
    text = EXAMPLE_JSON.read_text(encoding="utf-8").replace('"Siam": 2', '"Siam": 2, "siam": 4')
    with pytest.raises(SheetError) as info:
        parse_sheet_text(text)
    assert info.value.messages("en") == [one(info.value.messages("en"), "Siam", "twice", "Elena")]
    text = EXAMPLE_JSON.read_text(encoding="utf-8").replace('"Siam": 2', '"Siam": 2, "Siam": 4')
    with pytest.raises(SheetError) as info:
        parse_sheet_text(text)
    one(info.value.messages("en"), "Siam", "twice", "Elena")


def test_missing_territories_are_named() -> None:
    data = example()
    del seat(data, "Anna")["armies"]["Alaska"]
    del seat(data, "Elena")["armies"]["Australia Orientale"]
    faults = faults_of(data)
    line = one(faults, "missing")
    assert "Alaska" in line
    assert "Australia Orientale" in line
    assert line.startswith("2 territories")
    assert len(faults) == 1


@pytest.mark.parametrize("bad", [0, -3])
def test_armies_below_one(bad: int) -> None:
    data = example()
    seat(data, "Carla")["armies"]["Jacuzia"] = bad
    faults = faults_of(data)
    assert faults == [one(faults, "Carla", "Jacuzia", str(bad))]


@pytest.mark.parametrize("bad", ["tre", 2.5, True, None, [3], "²", "3.0", ""])
def test_armies_not_an_integer(bad: object) -> None:
    data = example()
    seat(data, "Carla")["armies"]["Jacuzia"] = bad
    faults = faults_of(data)
    assert faults == [one(faults, "Carla", "Jacuzia", "not an integer")]


def test_armies_as_integer_string_is_accepted() -> None:
    data = example()
    seat(data, "Carla")["armies"]["Jacuzia"] = "1"
    assert parse_sheet(data) == load_sheet(EXAMPLE_JSON)


@pytest.mark.parametrize("bad", [17, 0, "Guera Fredda", "xyz", True, 2.0, "²", "-1"])
def test_unknown_objective(bad: object) -> None:
    data = example()
    seat(data, "Anna")["objective"] = bad
    faults = faults_of(data)
    line = one(faults, "Anna", "objective")
    assert len(faults) == 1
    if bad == "Guera Fredda":
        assert "Guerra Fredda" in line  # the closest name


def test_missing_objective() -> None:
    data = example()
    del seat(data, "Anna")["objective"]
    one(faults_of(data), "Anna", "no objective")


def test_duplicate_objectives_name_the_players() -> None:
    data = example()
    seat(data, "Elena")["objective"] = "Guerra Fredda"  # Anna has 13
    faults = faults_of(data)
    assert faults == [one(faults, "objective 13", "Anna", "Elena")]


def test_duplicate_player_names() -> None:
    data = example()
    seat(data, "Elena")["player"] = " anna "
    faults = faults_of(data)
    line = one(faults, "anna", "twice")
    assert "seats 1 and 5" in line


@pytest.mark.parametrize("bad", ["", "   ", None, 7])
def test_empty_player_name(bad: object) -> None:
    data = example()
    seat(data, "Elena")["player"] = bad
    faults = faults_of(data)
    assert len(faults) == 1
    assert "seat 5" in faults[0]


def test_unknown_ruleset() -> None:
    data = example()
    data["ruleset"] = "monopoli"
    faults = faults_of(data)
    assert faults == [one(faults, "monopoli", "club-milano")]


def test_ruleset_version() -> None:
    data = example()
    data["ruleset"] = "club-milano@1"
    assert parse_sheet(data).ruleset == "club-milano@1"
    data["ruleset"] = "club-milano@9"
    one(faults_of(data), "version 9")


def test_too_few_seats() -> None:
    data = example()
    everything: dict[str, int] = {}
    for s in data["seats"]:
        everything.update(s["armies"])
    data["seats"] = [{"player": "Anna", "objective": 13, "armies": everything}]
    faults = faults_of(data)
    assert faults == [one(faults, "1 seat:", "2 to 6")]


def test_too_many_seats() -> None:
    data = example()
    anna = seat(data, "Anna")["armies"]
    data["seats"].append({"player": "Fabio", "objective": 16,
                          "armies": {"Alaska": anna.pop("Alaska")}})
    data["seats"].append({"player": "Gina", "objective": 2,
                          "armies": {"Quebec": anna.pop("Quebec")}})
    faults = faults_of(data)
    assert faults == [one(faults, "7 seats", "2 to 6")]


def test_unknown_keys() -> None:
    data = example()
    seat(data, "Bruno")["abandonned"] = True
    data["table"] = 3
    faults = faults_of(data)
    one(faults, "Bruno", "'abandonned'")
    one(faults, "'table'")
    assert len(faults) == 2


def test_bad_shapes() -> None:
    assert faults_of({"ruleset": "club-milano"}) == [
        "no 'seats': a sheet lists the seats of the table",
        "0 seats: a table has 2 to 6 seats",
        "42 territories are missing (no seat holds them): "
        "Alaska, Territori del Nord Ovest, Groenlandia, Alberta, Ontario, Quebec, "
        "Stati Uniti Occidentali, Stati Uniti Orientali, America Centrale, Venezuela, "
        "Perù, Brasile, Argentina, Islanda, Gran Bretagna, Scandinavia, "
        "Europa Settentrionale, Europa Occidentale, Europa Meridionale, Ucraina, "
        "Africa del Nord, Egitto, Africa Orientale, Congo, Africa del Sud, Madagascar, "
        "Urali, Siberia, Jacuzia, Cita, Kamchatka, Giappone, Mongolia, Cina, "
        "Afghanistan, Medio Oriente, India, Siam, Indonesia, Nuova Guinea, "
        "Australia Occidentale, Australia Orientale",
    ]
    data = example()
    data["seats"][4] = "Elena"
    one(faults_of(data), "seat 5")
    data = example()
    seat(data, "Elena")["armies"] = ["Siam", 2]
    one(faults_of(data), "Elena", "'armies'")
    with pytest.raises(SheetError):
        parse_sheet([1, 2])  # type: ignore[arg-type]


def test_all_faults_are_collected() -> None:
    data = example()
    data["ruleset"] = "monopoli"
    seat(data, "Anna")["armies"]["Alsaka"] = seat(data, "Anna")["armies"].pop("Alaska")
    seat(data, "Bruno")["armies"]["Cina"] = 4
    seat(data, "Carla")["armies"]["Cita"] = 0
    seat(data, "Dario")["objective"] = 9
    seat(data, "Elena")["player"] = "Anna"
    faults = faults_of(data)
    one(faults, "monopoli")
    one(faults, "Anna", "'Alsaka'", "Alaska")
    one(faults, "missing", "Alaska")
    one(faults, "Cina", "twice", "Bruno", "Dario")
    one(faults, "Carla", "Cita", "0 armies")
    one(faults, "objective 9", "Carla", "Dario")
    one(faults, "'Anna'", "twice", "seats 1 and 5")
    assert len(faults) == 7


def test_sheet_error_is_a_value_error() -> None:
    """Faults are values: the error carries them, its text is their English."""
    from risiko.faults import InvalidInputError
    from risiko.sheet import EMPTY, NO_HEADER

    err = SheetError([EMPTY(), NO_HEADER()])
    assert isinstance(err, ValueError) and isinstance(err, InvalidInputError)
    assert str(err) == "empty sheet\nempty sheet: no header row (player, objective, territory, " \
        "armies)"
    assert [f.code for f in err.faults] == ["sheet.empty", "sheet.no_header"]


# --- CSV ---------------------------------------------------------------------------------------

CSV_HEADER = "player,objective,territory,armies\n"


def example_csv_rows() -> list[str]:
    return EXAMPLE_CSV.read_text(encoding="utf-8").splitlines()


def test_csv_without_ruleset_column_and_with_override() -> None:
    sheet = load_sheet(EXAMPLE_JSON)
    rows = [",".join(line.split(",")[1:]) for line in example_csv_rows()]
    assert rows[0] == CSV_HEADER.strip()
    text = "\n".join(rows)
    assert parse_sheet_csv(text) == sheet
    assert parse_sheet_csv(text, ruleset="rtu").ruleset == "rtu"


def test_csv_semicolons_italian_header_bom_and_comments() -> None:
    rows = [line.replace(",", ";") for line in example_csv_rows()]
    rows[0] = "Regolamento;Giocatore;Obiettivo;Territorio;Armate"
    text = "\ufeff# serata 3, tavolo 2\n" + "\n".join(rows[:5]) + "\n\n" + "\n".join(rows[5:])
    assert parse_sheet_text(text) == load_sheet(EXAMPLE_JSON)


def test_csv_empty_territory_declares_a_seat_holding_nothing() -> None:
    text = EXAMPLE_CSV.read_text(encoding="utf-8") + "club-milano,Fabio,16,,\n"
    table = score_sheet(parse_sheet_csv(text))
    assert table.seat("Fabio").status == "eliminated"
    assert table.ranking[-1] == "Fabio"


def test_csv_faults_carry_line_numbers() -> None:
    rows = example_csv_rows()
    rows[13] = "club-milano,Bruno,AAA,Prue,2"           # line 14: was peru
    rows[20] = "club-milano,Carla,8,Scandinavia,6"      # line 21: objective differs
    rows[30] = "club-milano,Dario,Ciclista,East Africa,zero"  # line 31
    rows.append("club-milano,Elena,1,China,4")            # line 44: Dario holds Cina
    faults = csv_faults("\n".join(rows))
    one(faults, "line 14", "Bruno", "'Prue'", "Perù")
    one(faults, "missing", "Perù")
    one(faults, "line 21", "Carla", "'8'", "line 20")
    one(faults, "line 31", "Dario", "Africa Orientale", "not an integer")
    one(faults, "Cina", "twice", "Dario (line 36)", "Elena (line 44)")
    assert len(faults) == 5


def test_csv_objective_by_number_and_name_agree() -> None:
    rows = example_csv_rows()
    rows[12] = rows[12].replace(",AAA,", ",7,")  # Bruno: AAA on the other rows
    assert parse_sheet_csv("\n".join(rows)) == load_sheet(EXAMPLE_JSON)


def test_csv_missing_column() -> None:
    faults = csv_faults("player,objective,territorio\nAnna,13,Alaska\n")
    assert faults == [one(faults, "line 1", "armies")]


def test_csv_unknown_column_and_ruleset_conflict() -> None:
    rows = example_csv_rows()
    rows[0] += ",note"
    rows[1] += ",hello"
    rows[2] = rows[2].replace("club-milano", "rtu") + ","
    faults = csv_faults("\n".join(rows))
    one(faults, "line 1", "'note'")
    one(faults, "line 3", "'rtu'", "club-milano")


def test_csv_flags() -> None:
    rows = example_csv_rows()
    rows[0] += ",abandoned"
    rows[1] += ",yes"  # Anna's first row
    sheet = parse_sheet_csv("\n".join(rows))
    assert sheet.seats[0].abandoned
    assert not sheet.seats[1].abandoned
    rows[2] += ",maybe"
    one(csv_faults("\n".join(rows)), "line 3", "Anna", "'maybe'")


def test_csv_row_too_long_and_empty_player() -> None:
    rows = example_csv_rows()
    rows[5] += ",3,4"
    rows[6] = "club-milano,,13,Quebec,3"
    faults = csv_faults("\n".join(rows))
    one(faults, "line 6", "7 cells")
    one(faults, "line 7", "no player")


def test_csv_armies_on_no_territory() -> None:
    text = EXAMPLE_CSV.read_text(encoding="utf-8") + "club-milano,Fabio,16,,5\n"
    one(csv_faults(text), "Fabio", "no territory")


def test_empty_and_garbled_sheets() -> None:
    with pytest.raises(SheetError) as info:
        parse_sheet_text("   \n")
    assert info.value.messages("en") == ["empty sheet"]
    with pytest.raises(SheetError) as info:
        parse_sheet_text('{"ruleset": "club-milano", "seats": [')
    assert len(info.value.messages("en")) == 1
    assert info.value.messages("en")[0].startswith("not valid JSON")
    assert "line 1" in info.value.messages("en")[0]
    with pytest.raises(SheetError) as info:
        parse_sheet_text("hello world\nthis is not a sheet\n")
    assert len(info.value.messages("en")) == 2  # unknown column, lacking columns
    one(info.value.messages("en"), "lacks", "player")


# --- files -------------------------------------------------------------------------------------

def test_load_from_handle_and_paths(tmp_path: Path) -> None:
    sheet = load_sheet(EXAMPLE_JSON)
    assert load_sheet(io.StringIO(EXAMPLE_CSV.read_text(encoding="utf-8"))) == sheet
    assert load_sheet(str(EXAMPLE_JSON)) == sheet
    other = tmp_path / "table3.txt"  # no known extension: told by the content
    other.write_text(json.dumps(sheet.to_dict()), encoding="utf-8")
    assert load_sheet(other) == sheet


def test_load_windows_csv(tmp_path: Path) -> None:
    path = tmp_path / "sheet.csv"
    path.write_bytes(EXAMPLE_CSV.read_text(encoding="utf-8").replace("peru", "Perù")
                     .encode("cp1252"))
    assert load_sheet(path) == load_sheet(EXAMPLE_JSON)


def test_load_faults(tmp_path: Path) -> None:
    with pytest.raises(SheetError) as info:
        load_sheet(tmp_path / "nowhere.json")
    assert info.value.messages("en")[0].startswith("cannot read")
    binary = tmp_path / "photo.json"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe")
    with pytest.raises(SheetError) as info:
        load_sheet(binary)
    assert info.value.messages("en") == [f"{binary}: not a text file"]
    garbled = tmp_path / "sheet.json"
    garbled.write_text("ruleset,player\nclub-milano,Anna\n", encoding="utf-8")
    with pytest.raises(SheetError) as info:
        load_sheet(garbled)  # the extension says JSON
    assert info.value.messages("en")[0].startswith("not valid JSON")


def test_sheet_is_immutable_value() -> None:
    sheet = load_sheet(EXAMPLE_JSON)
    assert isinstance(sheet.seats[0], SeatEntry)
    assert sheet.seats[0].total_armies == 78
    assert sheet.seats[0].owned.bit_count() == 11
    assert Sheet("club-milano", sheet.seats) == sheet
    assert copy.deepcopy(sheet) == sheet
