"""The board, the deck symbols and the objectives against DOMAIN.md, worked out by hand.

Expected values come from the tables of DOMAIN.md and the regulation (R6), not from code:
borders per territory (the "Borders" column), continent sizes, 14 cards of each symbol, the
objective sizes and their 86 border points.
"""

from __future__ import annotations

import pytest

from risiko.board import (
    CONTINENT_SIZES,
    NUM_TERRITORIES,
    TERRITORY_SYMBOL,
    Board,
    UnknownTerritoryError,
    board_by_name,
    club_milano_board,
    official_board,
    parse_territory,
    territory_name,
)
from risiko.objectives import OBJECTIVES, get_objective

#: DOMAIN.md territory table, "Borders" column, in official order (official board)
DOMAIN_DEGREES = {
    "Alaska": 3, "Territori del Nord Ovest": 4, "Groenlandia": 4, "Alberta": 4, "Ontario": 6,
    "Quebec": 3, "Stati Uniti Occidentali": 4, "Stati Uniti Orientali": 4,
    "America Centrale": 3,
    "Venezuela": 3, "Perù": 3, "Brasile": 4, "Argentina": 2,
    "Islanda": 3, "Gran Bretagna": 4, "Scandinavia": 4, "Europa Settentrionale": 5,
    "Europa Occidentale": 4, "Europa Meridionale": 6, "Ucraina": 6,
    "Africa del Nord": 6, "Egitto": 4, "Africa Orientale": 5, "Congo": 3, "Africa del Sud": 3,
    "Madagascar": 2,
    "Urali": 4, "Siberia": 5, "Jacuzia": 3, "Cita": 4, "Kamchatka": 5, "Giappone": 2,
    "Mongolia": 5, "Cina": 7, "Afghanistan": 4, "Medio Oriente": 6, "India": 3, "Siam": 3,
    "Indonesia": 3, "Nuova Guinea": 3, "Australia Occidentale": 3, "Australia Orientale": 2,
}

#: DOMAIN.md objectives table, "territories" column
DOMAIN_OBJECTIVE_SIZES = {
    1: 23, 2: 20, 3: 22, 4: 21, 5: 22, 6: 22, 7: 22, 8: 22,
    9: 20, 10: 21, 11: 21, 12: 20, 13: 21, 14: 23, 15: 23, 16: 22,
}


def t(name: str) -> int:
    return parse_territory(name)


def degree_sum(board: Board) -> int:
    return sum(board.degree(x) for x in range(NUM_TERRITORIES))


def test_border_counts() -> None:
    # 82 borders on the box board; R6 removes Medio Oriente - Egitto: 81
    assert len(official_board().borders) == 82
    assert len(club_milano_board().borders) == 81
    # every border counted from both ends
    assert degree_sum(official_board()) == 2 * 82 == 164
    assert degree_sum(club_milano_board()) == 2 * 81 == 162


def test_board_by_name() -> None:
    assert board_by_name("official") is official_board()
    assert board_by_name("club-milano") is club_milano_board()
    with pytest.raises(ValueError, match="unknown board"):
        board_by_name("hasbro")


def test_degrees_match_domain_table() -> None:
    assert len(DOMAIN_DEGREES) == 42
    assert sum(DOMAIN_DEGREES.values()) == 164
    b = official_board()
    for name, degree in DOMAIN_DEGREES.items():
        assert b.degree(t(name)) == degree, name


def test_cina_and_madagascar() -> None:
    for b in (official_board(), club_milano_board()):
        assert b.degree(t("Cina")) == 7
        assert b.degree(t("Madagascar")) == 2


def test_r6_middle_east_egypt() -> None:
    mo, eg = t("Medio Oriente"), t("Egitto")
    assert official_board().adjacent(mo, eg)
    assert official_board().adjacent(eg, mo)
    assert not club_milano_board().adjacent(mo, eg)
    assert not club_milano_board().adjacent(eg, mo)
    # only that border differs
    assert official_board().borders - club_milano_board().borders == {(min(mo, eg), max(mo, eg))}
    assert club_milano_board().degree(mo) == 5
    assert club_milano_board().degree(eg) == 3


def test_not_the_hasbro_graph() -> None:
    b = official_board()
    assert b.adjacent(t("Medio Oriente"), t("Cina"))
    assert not b.adjacent(t("India"), t("Afghanistan"))
    assert not b.adjacent(t("Medio Oriente"), t("Africa Orientale"))


@pytest.mark.parametrize("board", [official_board(), club_milano_board()])
def test_adjacency_is_symmetric_and_irreflexive(board: Board) -> None:
    for a in range(NUM_TERRITORIES):
        assert not board.adjacent(a, a)
        for b in range(NUM_TERRITORIES):
            assert board.adjacent(a, b) == board.adjacent(b, a)
    for a, b in board.borders:
        assert a < b
        assert board.adjacent(a, b)


def test_some_neighbourhoods() -> None:
    b = official_board()
    names = {territory_name(x) for x in range(NUM_TERRITORIES) if b.adjacent(t("Cina"), x)}
    assert names == {"Afghanistan", "India", "Medio Oriente", "Mongolia", "Siam", "Siberia",
                     "Urali"}
    names = {territory_name(x) for x in range(NUM_TERRITORIES) if b.adjacent(t("Brasile"), x)}
    assert names == {"Africa del Nord", "Argentina", "Perù", "Venezuela"}


def test_continent_sizes() -> None:
    # Nord America, Sud America, Europa, Africa, Asia, Oceania
    assert CONTINENT_SIZES == (9, 4, 7, 6, 12, 4)
    assert sum(CONTINENT_SIZES) == 42


def test_fourteen_cards_of_each_symbol() -> None:
    for symbol in ("fante", "cannone", "cavaliere"):
        assert TERRITORY_SYMBOL.count(symbol) == 14
    assert len(TERRITORY_SYMBOL) == 42


def test_symbols_spot_checks() -> None:
    assert TERRITORY_SYMBOL[t("Alaska")] == "fante"
    assert TERRITORY_SYMBOL[t("Cina")] == "cavaliere"
    assert TERRITORY_SYMBOL[t("Medio Oriente")] == "cannone"
    assert TERRITORY_SYMBOL[t("Australia Orientale")] == "fante"


def test_objective_sizes() -> None:
    assert len(OBJECTIVES) == 16
    for number, size in DOMAIN_OBJECTIVE_SIZES.items():
        assert get_objective(number).size == size, number


@pytest.mark.parametrize("number", range(1, 17))
def test_every_objective_is_worth_86_border_points(number: int) -> None:
    assert official_board().border_points(get_objective(number).mask) == 86


@pytest.mark.parametrize("number", range(1, 17))
def test_club_board_loses_a_point_per_end_of_the_r6_border(number: int) -> None:
    # on the club board Egitto and Medio Oriente each have one border fewer
    mask = get_objective(number).mask
    ends = sum(1 for name in ("Egitto", "Medio Oriente") if mask >> t(name) & 1)
    assert club_milano_board().border_points(mask) == 86 - ends


def test_objective_13_and_12_by_hand() -> None:
    # Guerra Fredda: Nord America (borders 35) + Asia (borders 51) = 86
    o13 = get_objective(13)
    assert o13.name == "Guerra Fredda"
    assert o13.size == 9 + 12
    # Tappeto: Africa 23 + Asia 51 + Europa Meridionale 6 + Ucraina 6 = 86
    o12 = get_objective("tappeto")
    assert o12.number == 12
    assert o12.size == 6 + 12 + 2
    assert not o12.mask >> t("Indonesia") & 1


@pytest.mark.parametrize(
    "text", ["peru", "Perù", "PERU", "Peru", "perù", "  Perú ", "PERÙ"]
)
def test_parse_peru(text: str) -> None:
    assert territory_name(parse_territory(text)) == "Perù"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Middle East", "Medio Oriente"),
        ("middle_east", "Medio Oriente"),
        ("MEDIO_ORIENTE", "Medio Oriente"),
        ("medio oriente", "Medio Oriente"),
        ("Stati_Uniti_Orientali", "Stati Uniti Orientali"),
        ("eastern united states", "Stati Uniti Orientali"),
        ("Territori del Nord-Ovest", "Territori del Nord Ovest"),
        ("Northwest Territory", "Territori del Nord Ovest"),
        ("Yakutsk", "Jacuzia"),
        ("Irkutsk", "Cita"),
        ("ural", "Urali"),
        ("Egypt", "Egitto"),
    ],
)
def test_parse_names(text: str, expected: str) -> None:
    assert territory_name(parse_territory(text)) == expected


def test_territory_numbers() -> None:
    assert parse_territory(0) == t("Alaska")
    assert parse_territory(41) == t("Australia Orientale")
    with pytest.raises(UnknownTerritoryError):
        parse_territory(42)


def test_english_names() -> None:
    assert territory_name(t("Perù"), "en") == "Peru"
    assert territory_name(t("Jacuzia"), "en") == "Yakutsk"


@pytest.mark.parametrize(
    ("text", "closest"),
    [("Brasil", "Brasile"), ("Madagaskar", "Madagascar"), ("Prue", "Perù"),
     ("Groenlandja", "Groenlandia")],
)
def test_unknown_name_lists_the_closest(text: str, closest: str) -> None:
    with pytest.raises(UnknownTerritoryError) as info:
        parse_territory(text)
    message = str(info.value)
    assert repr(text) in message
    assert "closest" in message
    assert closest in message


def test_unknown_name_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown territory 'Atlantide'"):
        parse_territory("Atlantide")
