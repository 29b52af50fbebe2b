"""Interclub events (issue 21 item 7): the rules (seating 4 clubs per table, scores 12/7/5/3 +
table points / 100, 13 for a RisiKo!, a team's best 9 of 12 games) and the store (rosters of
4 to 12, one team per player and event, 4 fielded per round, results with reasons,
standings national and regional, JSON, pages). Every figure is worked out by hand in the
comments."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from typing import Any

import pytest

from risiko.national.interclub import (
    GameSeat,
    InterclubError,
    Played,
    game_scores,
    player_standings,
    seat_round,
    team_standings,
    team_total,
)

D = Decimal

# ---------------------------------------------------------------------------- the rules


def test_thirty_clubs_of_four_are_seated_with_no_club_twice_at_a_table() -> None:
    fielded = [(f"c{c}p{i}", f"club{c}") for c in range(30) for i in range(4)]
    met: dict[frozenset[str], int] = {}
    club = dict(fielded)
    for seed in range(3):  # three rounds
        tables = seat_round(fielded, seed=seed, met=met)
        assert len(tables) == 30 and all(len(t) == 4 for t in tables)
        assert sorted(p for t in tables for p in t) == sorted(club)
        assert all(len({club[p] for p in t}) == 4 for t in tables)
        for t in tables:
            for i, a in enumerate(t):
                for b in t[i + 1:]:
                    met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1


def test_uneven_teams_are_seated_when_possible_and_refused_when_not() -> None:
    # 12 players, 3 tables: A fields 3, B 3, C 2, D 2, E 2: every club at most 3 = tables
    fielded = ([(f"A{i}", "A") for i in range(3)] + [(f"B{i}", "B") for i in range(3)]
               + [(f"{c}{i}", c) for c in "CDE" for i in range(2)])
    club = dict(fielded)
    tables = seat_round(fielded, seed=7)
    assert all(len({club[p] for p in t}) == 4 for t in tables)
    # 8 players, 2 tables, A fields 3: two of A would meet
    with pytest.raises(InterclubError) as err:
        seat_round([("A1", "A"), ("A2", "A"), ("A3", "A")] + [(c, c) for c in "BCDEF"])
    assert [f.code for f in err.value.faults] == ["interclub.too_many_of_a_club"]
    assert err.value.faults[0].params["count"] == 3
    # 6 players: not tables of 4
    with pytest.raises(InterclubError) as err:
        seat_round([(c, c) for c in "ABCDEF"])
    assert [f.code for f in err.value.faults] == ["interclub.not_tables_of_four"]


def test_game_scores_placement_and_table_points_as_decimals() -> None:
    # 55, 40, 10, 0: 12.55, 7.40, 5.10, 3.00
    assert game_scores([GameSeat("A", 55), GameSeat("B", 40), GameSeat("C", 10),
                        GameSeat("D", 0)]) == {"A": D("12.55"), "B": D("7.40"),
                                               "C": D("5.10"), "D": D("3.00")}
    # RisiKo!: 13 flat; the others from the 2nd place: 7.25, 5.20, 3.05
    assert game_scores([GameSeat("A", 25), GameSeat("B", 0, True), GameSeat("C", 20),
                        GameSeat("D", 5)]) == {"A": D("7.25"), "B": D(13),
                                               "C": D("5.20"), "D": D("3.05")}
    # a tie for the first place: both 12 + 0.40
    assert game_scores([GameSeat("A", 40), GameSeat("B", 40), GameSeat("C", 10),
                        GameSeat("D", 0)])["B"] == D("12.40")
    with pytest.raises(InterclubError) as err:
        game_scores([GameSeat("A", 120), GameSeat("B", 0, True), GameSeat("C", 0, True)])
    assert [f.code for f in err.value.faults] == [
        "interclub.table_seats", "interclub.bad_table_points", "interclub.risiko_twice"]


def test_a_team_counts_its_best_nine_of_twelve_games() -> None:
    twelve = [D(v) for v in ("12.50", "3", "7.20", "5.10", "13", "3.05", "3", "7", "5",
                             "3", "12.10", "3")]
    # sorted: 13, 12.50, 12.10, 7.20, 7, 5.10, 5, 3.05, 3 | 3, 3, 3 -> 67.95
    assert team_total(twelve) == D("67.95")
    games = ([Played("MI", f"m{i}", 1 + i // 4, v, False) for i, v in enumerate(twelve)]
             + [Played("TO", "t1", 1, D("12.00"), True)] * 9)
    lines = team_standings(["MI", "TO"], games)
    # TO: 9 x 12 = 108 > MI 67.95
    assert [(t.position, t.team, t.total, t.games) for t in lines] == [
        (1, "TO", D("108.00"), 9), (2, "MI", D("67.95"), 12)]
    # MI's every game: 67.95 + 9 = 76.95
    assert lines[1].all_games == D("76.95")
    people = player_standings(games)
    assert people[0].player == "t1" and people[0].total == D("108.00") and people[0].wins == 9


# ---------------------------------------------------------------------------- the store



def _world(clubs: int = 4, roster: int = 4, region: str = "") -> dict[str, Any]:
    """``clubs`` clubs (club0 in Lombardia, the others alternately Lombardia / Piemonte),
    each with ``roster`` registered players (national ids 1000 c + i)."""
    from risiko.web.national import interclub_services as svc
    from risiko.web.national.models import Club, NationalPlayer

    event = svc.create_event("Campionato a squadre", 2027, region=region, who="ref")
    teams = []
    for c in range(clubs):
        club = Club.objects.create(key=f"k{c}", name=f"CLUB{c}",
                                   region="Lombardia" if c % 2 == 0 else "Piemonte")
        team = svc.add_team(event, club, who="ref")
        for i in range(roster):
            NationalPlayer.objects.create(national_id=1000 * (c + 1) + i, name=f"N{c}{i}",
                                          surname=f"S{c}{i}")
            svc.add_member(team, 1000 * (c + 1) + i, who="ref")
        teams.append(team)
    return {"event": event, "teams": teams}


def _field_all(teams: list[Any], number: int) -> None:
    from risiko.web.national import interclub_services as svc

    for c, team in enumerate(teams):
        svc.field_players(team, number, [1000 * (c + 1) + i for i in range(4)], who="ref")


@pytest.mark.db
@pytest.mark.django_db(transaction=True)
def test_an_event_played_through_gives_team_and_individual_standings() -> None:
    from risiko.web.national import interclub_services as svc
    from risiko.web.national.models import InterclubSeat

    w = _world()
    event, teams = w["event"], w["teams"]
    for number in (1, 2, 3):
        _field_all(teams, number)
        tables = svc.seat_round(event, number, seed=number, who="ref")
        assert len(tables) == 4
        for table in tables:
            assert len({s.member.team_id for s in table}) == 4
        # at every table the player of club0 scores 60 (1st), club1 40, club2 20, club3 0
        for i, table in enumerate(tables, start=1):
            results = []
            for s in table:
                pid = s.member.player.national_id
                results.append((pid, {1: 60, 2: 40, 3: 20, 4: 0}[pid // 1000], False))
            svc.record_table(event, number, i, results, who="ref")
    assert InterclubSeat.objects.filter(score__isnull=True).count() == 0
    st = svc.standings(event)
    # club0: 12 games of 12.60, best 9 = 113.40; club1 9 x 7.40 = 66.60; club2 9 x 5.20 =
    # 46.80; club3 9 x 3.00 = 27.00
    assert [(t["position"], t["name"], t["total"], t["games"]) for t in st.teams] == [
        (1, "CLUB0", D("113.40"), 12), (2, "CLUB1", D("66.60"), 12),
        (3, "CLUB2", D("46.80"), 12), (4, "CLUB3", D("27.00"), 12)]
    # each club0 player: 3 games of 12.60 = 37.80, all four share the 1st place
    assert [(p["position"], p["total"], p["wins"]) for p in st.players[:5]] == [
        (1, D("37.80"), 3)] * 4 + [(5, D("22.20"), 0)]
    # the regional championship of Piemonte: club1 and club3, positions among them
    regional = svc.standings(event, "Piemonte")
    assert [(t["position"], t["name"]) for t in regional.teams] == [(1, "CLUB1"), (2, "CLUB3")]
    assert {p["team"] for p in regional.players} == {"CLUB1", "CLUB3"}
    data = svc.standings_json(st)
    assert data["teams"][0] == {"position": 1, "name": "CLUB0", "club": "CLUB0",
                                "region": "Lombardia", "total": 113.4, "all_games": 151.2,
                                "best": 12.6, "games": 12}


@pytest.mark.db
@pytest.mark.django_db(transaction=True)
def test_refusals_are_faults_and_write_nothing() -> None:
    from risiko.web.core.faults import ServiceError
    from risiko.web.national import interclub_services as svc
    from risiko.web.national.models import Club, InterclubMember, NationalPlayer

    w = _world(roster=4)
    event, teams = w["event"], w["teams"]

    def codes(call: Callable[[], Any]) -> list[str]:
        with pytest.raises(ServiceError) as err:
            call()
        return [f.code for f in err.value.faults]

    # a player of another team of the event
    assert codes(lambda: svc.add_member(teams[1], 1000, who="ref")) == ["interclub.in_a_team"]
    # a full roster of 12
    for i in range(4, 12):
        NationalPlayer.objects.create(national_id=1000 + i, name="X", surname=str(i))
        svc.add_member(teams[0], 1000 + i, who="ref")
    NationalPlayer.objects.create(national_id=1012, name="X", surname="12")
    assert codes(lambda: svc.add_member(teams[0], 1012, who="ref")) == ["interclub.roster_full"]
    assert InterclubMember.objects.filter(team=teams[0]).count() == 12
    # out of the roster and back, until fielded
    svc.remove_member(teams[0], 1011, who="ref")
    assert codes(lambda: svc.remove_member(teams[0], 1011, who="ref")) == [
        "interclub.not_a_member"]
    svc.add_member(teams[0], 1011, who="ref")
    # three fielded, or a player not in the roster
    assert codes(lambda: svc.field_players(teams[1], 1, [2000, 2001, 2002], who="ref")) == [
        "interclub.fielded_count"]
    assert codes(lambda: svc.field_players(teams[1], 1, [2000, 2001, 2002, 1000],
                                           who="ref")) == ["interclub.not_a_member"]
    assert codes(lambda: svc.field_players(teams[1], 4, [2000, 2001, 2002, 2003],
                                           who="ref")) == ["interclub.bad_round"]
    # a team of 3 fielded players in a round: the seating names it
    _field_all(teams[:3], 1)
    assert codes(lambda: svc.seat_round(event, 1, who="ref")) == [
        "interclub.too_many_of_a_club"] * 3  # 12 players, 3 tables: 4 of a club each
    _field_all(teams, 1)
    assert codes(lambda: svc.remove_member(teams[1], 2000, who="ref")) == [
        "interclub.member_fielded"]
    svc.seat_round(event, 1, seed=1, who="ref")
    assert codes(lambda: svc.seat_round(event, 1, who="ref")) == ["interclub.round_seated"]
    # a regional event takes only its region's clubs
    regional = svc.create_event("Regionale", 2027, region="Piemonte", who="ref")
    assert codes(lambda: svc.add_team(regional, Club.objects.get(key="k0"), who="ref")) == [
        "interclub.team_region"]
    # a result changed later needs a reason
    seated = [(s.member.player.national_id, 10 * k, False) for k, s in enumerate(
        event.event_rounds.get(number=1).seats.filter(table=1).select_related(
            "member__player"))]
    svc.record_table(event, 1, 1, seated, who="ref")
    assert codes(lambda: svc.record_table(event, 1, 1, seated, who="ref")) == [
        "interclub.reason_needed"]
    svc.record_table(event, 1, 1, seated, reason="scheda ricontata", who="ref")


def at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run ``calls`` in threads released together; each answers its result or its error."""
    from django.db import connection

    barrier = threading.Barrier(len(calls))

    def one(call: Callable[[], Any]) -> Any:
        try:
            barrier.wait(timeout=60)
            return call()
        except Exception as err:  # the refusal is the answer
            return err
        finally:
            connection.close()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(one, calls))


@pytest.mark.db
@pytest.mark.django_db(transaction=True)
def test_a_player_put_in_two_teams_at_once_is_in_one() -> None:
    from risiko.web.core.faults import ServiceError
    from risiko.web.national import interclub_services as svc
    from risiko.web.national.models import InterclubMember, NationalPlayer

    w = _world(roster=0)
    NationalPlayer.objects.create(national_id=7, name="Ugo", surname="Rossi")
    teams = w["teams"]
    outcomes = at_once([lambda t=t: svc.add_member(t, 7, who="ref") for t in teams])
    refused = [o for o in outcomes if isinstance(o, ServiceError)]
    assert len(refused) == 3 and len(outcomes) - len(refused) == 1
    assert {f.code for o in refused for f in o.faults} <= {"interclub.in_a_team",
                                                         "interclub.conflict_member"}
    assert InterclubMember.objects.filter(player__national_id=7).count() == 1


@pytest.mark.db
@pytest.mark.django_db(transaction=True)
def test_a_round_seated_twice_at_once_is_seated_once() -> None:
    from risiko.web.core.faults import ServiceError
    from risiko.web.national import interclub_services as svc
    from risiko.web.national.models import InterclubSeat

    w = _world()
    _field_all(w["teams"], 1)
    outcomes = at_once([lambda: svc.seat_round(w["event"], 1, who="ref")] * 4)
    assert sum(isinstance(o, ServiceError) for o in outcomes) == 3
    assert InterclubSeat.objects.count() == 16
