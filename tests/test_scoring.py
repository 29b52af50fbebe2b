"""Table scores (R1, R4/R5, R13, R15, R16), on full 42-territory end boards built by hand.

Every expected score is worked out in the comments from the regulation:
R16: 4 points per territory in the objective, 1 per other territory;
R15: a whole continent in the objective floor(2.5 x n), any other whole continent n;
R1: capped at 100, a completed objective (RisiKo!) is 100; R5: more than 120 armies, -7;
R13: a seat that left the game scores 0; an eliminated seat scores 0.
RTU (DOMAIN.md): the sum of the borders (official board) of the objective territories held.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from risiko.board import NUM_TERRITORIES, parse_territory
from risiko.objectives import get_objective
from risiko.ruleset import CLUB_MILANO, RTU, Ruleset
from risiko.scoring import SeatScore, ranking, score_seat

NORD_AMERICA = ["Alaska", "Territori del Nord Ovest", "Groenlandia", "Alberta", "Ontario",
                "Quebec", "Stati Uniti Occidentali", "Stati Uniti Orientali", "America Centrale"]
SUD_AMERICA = ["Venezuela", "Perù", "Brasile", "Argentina"]
EUROPA = ["Islanda", "Gran Bretagna", "Scandinavia", "Europa Settentrionale",
          "Europa Occidentale", "Europa Meridionale", "Ucraina"]
AFRICA = ["Africa del Nord", "Egitto", "Africa Orientale", "Congo", "Africa del Sud",
          "Madagascar"]
ASIA = ["Urali", "Siberia", "Jacuzia", "Cita", "Kamchatka", "Giappone", "Mongolia", "Cina",
        "Afghanistan", "Medio Oriente", "India", "Siam"]
OCEANIA = ["Indonesia", "Nuova Guinea", "Australia Occidentale", "Australia Orientale"]


@dataclass
class Seat:
    """One seat of a hand-made end board: territories held and armies on the board."""

    player: str
    objective: int
    territories: list[str]
    armies: int = 30
    abandoned: bool = False
    eliminated: bool = False


def score_board(seats: list[Seat], ruleset: Ruleset = CLUB_MILANO) -> dict[str, SeatScore]:
    """Score a board after checking that the seats hold the 42 territories exactly once."""
    held = [parse_territory(name) for s in seats for name in s.territories]
    assert sorted(held) == list(range(NUM_TERRITORIES)), "not a full board"
    out: dict[str, SeatScore] = {}
    for s in seats:
        mask = 0
        for name in s.territories:
            mask |= 1 << parse_territory(name)
        out[s.player] = score_seat(
            ruleset, s.player, get_objective(s.objective), mask, s.armies,
            eliminated=s.eliminated or not s.territories, abandoned=s.abandoned,
        )
    return out


def board_a(anna_armies: int = 40) -> list[Seat]:
    """The R16 worked example at a 4-seat table."""
    return [
        # obj 13 Guerra Fredda (Nord America + Asia): Nord America 9 x 4 = 36, continent in
        # objective floor(2.5 x 9) = 22, Perù Brasile Argentina outside 3 x 1 = 3 -> 61
        Seat("Anna", 13, [*NORD_AMERICA, "Perù", "Brasile", "Argentina"], anna_armies),
        # obj 9 Eurasia (Europa, Asia, Indonesia): Europa 7 x 4 = 28 + floor(2.5 x 7) = 17,
        # Venezuela outside 1 -> 46
        Seat("Bruno", 9, [*EUROPA, "Venezuela"], 35),
        # obj 12 Tappeto (Africa, Asia, Europa Meridionale, Ucraina): Africa 6 + six of Asia
        # = 12 x 4 = 48, Africa in objective floor(2.5 x 6) = 15 -> 63
        Seat("Carla", 12, [*AFRICA, "Urali", "Siberia", "Jacuzia", "Cita", "Kamchatka",
                           "Giappone"], 50),
        # obj 5 Diagonale (Nord America, Oceania, Islanda, Scandinavia, Ucraina, Urali, Cina,
        # Afghanistan, Medio Oriente, India, Siam): Cina Afghanistan Medio Oriente India Siam
        # + Oceania 4 = 9 x 4 = 36, Mongolia 1, Oceania in objective floor(2.5 x 4) = 10 -> 47
        Seat("Dario", 5, ["Mongolia", "Cina", "Afghanistan", "Medio Oriente", "India", "Siam",
                          *OCEANIA], 45),
    ]


def test_r16_worked_example() -> None:
    scores = score_board(board_a())
    anna = scores["Anna"]
    assert anna.territories == 12
    assert anna.objective_territories == 9
    assert anna.territory_points == 9 * 4 + 3 * 1 == 39
    assert [(c.name, c.in_objective, c.points) for c in anna.continents] == [
        ("Nord America", True, 22)
    ]
    assert anna.base == anna.score == 61
    assert anna.penalty == 0
    assert not anna.risiko
    assert anna.status == "in_play"


def test_board_a_all_seats() -> None:
    scores = score_board(board_a())
    assert {p: s.score for p, s in scores.items()} == {
        "Anna": 61, "Bruno": 46, "Carla": 63, "Dario": 47,
    }
    assert scores["Bruno"].objective_territories == 7
    assert scores["Carla"].objective_territories == 12
    assert scores["Dario"].objective_territories == 9
    assert ranking(list(scores.values())) == ["Carla", "Anna", "Dario", "Bruno"]


# one seat per continent, each continent in that seat's objective (R15, rounded down)
ROUNDING = [
    # (objective, continent, territories, floor(2.5 x n), total = 4n + floor(2.5 n))
    (13, NORD_AMERICA, 9, 22, 58),   # 22.5 -> 22
    (7, SUD_AMERICA, 4, 10, 26),
    (9, EUROPA, 7, 17, 45),          # 17.5 -> 17
    (12, AFRICA, 6, 15, 39),
    (15, ASIA, 12, 30, 78),
    (3, OCEANIA, 4, 10, 26),
]


def test_r15_rounding_continents_in_objective() -> None:
    seats = [Seat(f"P{i}", obj, cont) for i, (obj, cont, _, _, _) in enumerate(ROUNDING)]
    scores = score_board(seats)
    for i, (_, _, n, points, total) in enumerate(ROUNDING):
        s = scores[f"P{i}"]
        assert s.territories == s.objective_territories == n
        assert len(s.continents) == 1
        assert s.continents[0].in_objective
        assert s.continents[0].points == points
        assert s.score == total


# one seat per continent, with an objective that has no territory of that continent
OUTSIDE = [
    # (objective, continent, n); score = n x 1 (territories) + n (continent) = 2n
    (6, NORD_AMERICA, 9),   # Formula 1: no Nord America territory
    (2, SUD_AMERICA, 4),    # 4 in Nord: no Sud America territory
    (13, EUROPA, 7),        # Guerra Fredda: Nord America + Asia
    (10, AFRICA, 6),        # Nord Mondo: no Africa territory
    (16, ASIA, 12),         # Tre in Europa: no Asia territory
    (4, OCEANIA, 4),        # Buco: no Oceania territory
]


def test_continents_outside_the_objective_are_worth_n() -> None:
    seats = [Seat(f"P{i}", obj, cont) for i, (obj, cont, _) in enumerate(OUTSIDE)]
    scores = score_board(seats)
    for i, (_, _, n) in enumerate(OUTSIDE):
        s = scores[f"P{i}"]
        assert s.objective_territories == 0
        assert s.territory_points == n
        assert [(c.in_objective, c.points) for c in s.continents] == [(False, n)]
        assert s.score == 2 * n


def test_extra_territories_do_not_make_a_continent_in_the_objective() -> None:
    seats = [
        # obj 2 4 in Nord (Europa, Africa + Groenlandia, Ontario, Quebec, Stati Uniti
        # Orientali, Urali, Afghanistan, Medio Oriente): Nord America held, 4 of it in the
        # objective: 4 x 4 + 5 x 1 = 21, Nord America is not a continent of the objective: 9
        # -> 30
        Seat("Anna", 2, NORD_AMERICA),
        # obj 1 Letto (Nord America, Sud America + ... Indonesia, Nuova Guinea, Australia
        # Occidentale): Oceania held, 3 in the objective 3 x 4 = 12, Australia Orientale 1,
        # Oceania not a continent of the objective 4 -> 17
        Seat("Bruno", 1, OCEANIA),
        # obj 13 (Nord America + Asia): Asia 12 x 4 = 48 + 30 -> 78
        Seat("Carla", 13, ASIA),
        # obj 11 Siberiana (Sud America, Europa, Africa + ...): 17 x 4 = 68,
        # Sud America 10 + Europa 17 + Africa 15 = 42 -> 110 -> capped at 100 (R1)
        Seat("Dario", 11, [*SUD_AMERICA, *EUROPA, *AFRICA]),
    ]
    scores = score_board(seats)
    assert scores["Anna"].objective_territories == 4
    assert scores["Anna"].score == 30
    assert scores["Bruno"].objective_territories == 3
    assert scores["Bruno"].score == 17
    assert scores["Carla"].score == 78
    assert scores["Dario"].base == 100
    assert not scores["Dario"].risiko  # Urali, Siberia, Afghanistan, Medio Oriente missing


def test_cap_at_100() -> None:
    seats = [
        # obj 7 AAA (Sud America, Africa, Asia): 4 + 6 + 11 of Asia = 21 x 4 = 84,
        # Europa outside 7 x 1 = 7, continents Sud America 10 + Africa 15 + Europa (outside) 7
        # = 32 -> 123, capped at 100; not RisiKo!: Siam is missing
        Seat("Anna", 7, [*SUD_AMERICA, *AFRICA, *[a for a in ASIA if a != "Siam"], *EUROPA],
             110),
        # obj 5 Diagonale: Nord America + Siam = 10 x 4 = 40 + 22 -> 62
        Seat("Bruno", 5, [*NORD_AMERICA, "Siam"], 25),
        # obj 15 Alaska-Alberta (Asia, Oceania, ...): Oceania 4 x 4 = 16 + 10 -> 26
        Seat("Carla", 15, OCEANIA, 12),
    ]
    scores = score_board(seats)
    anna = scores["Anna"]
    assert anna.territory_points == 84 + 7
    assert sum(c.points for c in anna.continents) == 32
    assert anna.base == anna.score == 100
    assert not anna.risiko
    assert any("123" in note and "100" in note for note in (n.message("en") for n in anna.notes))
    assert scores["Bruno"].score == 62
    assert scores["Carla"].score == 26


def board_risiko(anna_armies: int = 90) -> list[Seat]:
    return [
        # obj 13 complete: Nord America + Asia -> RisiKo! = 100 (raw 21 x 4 + 22 + 30 = 136)
        Seat("Anna", 13, [*NORD_AMERICA, *ASIA], anna_armies),
        # obj 3 Ciclista (Europa, Africa, Oceania, ...): Europa + Africa 13 x 4 = 52,
        # + 17 + 15 -> 84
        Seat("Bruno", 3, [*EUROPA, *AFRICA], 40),
        # obj 14 Sud Mondo (Sud America, Africa, Oceania, ...): Sud America + Oceania
        # 8 x 4 = 32 + 10 + 10 -> 52
        Seat("Carla", 14, [*SUD_AMERICA, *OCEANIA], 20),
    ]


def test_risiko_is_100() -> None:
    scores = score_board(board_risiko())
    anna = scores["Anna"]
    assert anna.risiko
    assert anna.objective_territories == 21
    assert anna.base == anna.score == 100
    assert not scores["Bruno"].risiko
    assert scores["Bruno"].score == 84
    assert scores["Carla"].score == 52


def test_risiko_over_the_army_limit_still_loses_7() -> None:
    # R5 applies "at the end" to any seat found with more than 120 armies: 100 - 7
    anna = score_board(board_risiko(anna_armies=121))["Anna"]
    assert anna.risiko
    assert anna.base == 100
    assert anna.penalty == -7
    assert anna.score == 93


@pytest.mark.parametrize(
    ("armies", "penalty", "score"),
    [(120, 0, 61), (121, -7, 54), (150, -7, 54), (1, 0, 61)],
)
def test_army_limit(armies: int, penalty: int, score: int) -> None:
    anna = score_board(board_a(anna_armies=armies))["Anna"]
    assert anna.armies == armies
    assert anna.penalty == penalty
    assert anna.base == 61
    assert anna.score == score


def test_penalty_can_make_a_score_negative() -> None:
    seats = board_a()
    # Carla gives Kamchatka and Giappone to Elena, who sits on 121 armies:
    # Elena obj 16 Tre in Europa, both outside -> 2 x 1 = 2, -7 -> -5
    # Carla: 10 x 4 = 40 + Africa 15 -> 55
    seats[2].territories = [*AFRICA, "Urali", "Siberia", "Jacuzia", "Cita"]
    seats.append(Seat("Elena", 16, ["Kamchatka", "Giappone"], 121))
    scores = score_board(seats)
    assert scores["Carla"].score == 55
    assert scores["Elena"].base == 2
    assert scores["Elena"].penalty == -7
    assert scores["Elena"].score == -5


def test_abandoned_scores_zero() -> None:
    seats = board_a()
    seats[1].abandoned = True  # Bruno left the game (R13); his armies stay and defend
    seats[1].armies = 130
    scores = score_board(seats)
    bruno = scores["Bruno"]
    assert bruno.status == "abandoned"
    assert bruno.territories == 8
    assert bruno.base == bruno.score == 0
    assert bruno.penalty == 0
    assert not bruno.risiko
    assert scores["Anna"].score == 61


def test_eliminated_scores_zero() -> None:
    seats = [*board_a(), Seat("Elena", 1, [], 0)]
    scores = score_board(seats)
    elena = scores["Elena"]
    assert elena.status == "eliminated"
    assert elena.territories == 0
    assert elena.score == 0
    assert ranking(list(scores.values()))[-1] == "Elena"


def test_ranking_by_score_ties_keep_seat_order() -> None:
    seats = [
        # obj 13: Nord America 36 + 22 = 58
        Seat("Anna", 13, NORD_AMERICA),
        # obj 16 Tre in Europa: Sud America + Africa 10 x 4 = 40 + 10 + 15 = 65,
        # Europa Occidentale, Europa Meridionale, Ucraina 3 x 4 = 12,
        # Islanda, Gran Bretagna, Scandinavia, Europa Settentrionale 4 x 1 = 4,
        # Europa outside 7 -> 88
        Seat("Bruno", 16, [*SUD_AMERICA, *AFRICA, *EUROPA]),
        # obj 1 Letto: Asia, in objective Medio Oriente India Siam 3 x 4 = 12, 9 x 1 = 9,
        # Asia outside 12 -> 33; Oceania (obj 1 has 3 of it, not whole) 3 x 4 + 1 + 4 = 17
        # -> 50
        Seat("Carla", 1, [*ASIA, *OCEANIA]),
    ]
    scores = score_board(seats)
    assert [scores[p].score for p in ("Anna", "Bruno", "Carla")] == [58, 88, 50]
    assert ranking(list(scores.values())) == ["Bruno", "Anna", "Carla"]
    # two seats on 4 points each (one territory in the objective): seat order decides
    same = [
        score_seat(CLUB_MILANO, "X", get_objective(13), 0b1, 1),
        score_seat(CLUB_MILANO, "Y", get_objective(13), 0b10, 1),
    ]
    assert same[0].score == same[1].score == 4
    assert ranking(same) == ["X", "Y"]
    assert ranking(list(reversed(same))) == ["Y", "X"]


def test_rtu_border_points() -> None:
    # RTU: sum of the borders (official board) of the objective territories held
    scores = score_board(board_a(anna_armies=125), RTU)
    # Anna obj 13: Nord America 3+4+4+4+6+3+4+4+3 = 35; Perù etc. not in objective
    assert scores["Anna"].territory_points == 35
    assert scores["Anna"].score == 35
    assert scores["Anna"].continents == ()
    assert scores["Anna"].penalty == 0  # 125 armies: under the RTU limit of 130
    # Bruno obj 9: Europa 3+4+4+5+4+6+6 = 32
    assert scores["Bruno"].score == 32
    # Carla obj 12: Africa 6+4+5+3+3+2 = 23, Urali 4 Siberia 5 Jacuzia 3 Cita 4 Kamchatka 5
    # Giappone 2 = 23 -> 46
    assert scores["Carla"].score == 46
    # Dario obj 5: Cina 7 Afghanistan 4 Medio Oriente 6 (official board) India 3 Siam 3 = 23,
    # Oceania 3+3+3+2 = 11 -> 34; Mongolia not in objective
    assert scores["Dario"].score == 34


def test_rtu_full_objective_is_86_border_points_before_risiko() -> None:
    # obj 13 complete: border points 35 + 51 = 86 = RTU's max_base_score
    anna = score_board(board_risiko(), RTU)["Anna"]
    assert anna.territory_points == 86
    assert anna.risiko


def test_club_ruleset_uses_r15_r16_not_border_points() -> None:
    scores = score_board(board_a(), CLUB_MILANO)
    assert scores["Dario"].territory_points == 9 * 4 + 1
