"""The tournament in the database: services (writes), selectors (reads), corrections, audit.

Every expected value is worked out by hand from the regulation (R3, R13, R18) and the
club-milano tie-breaks. Runs on SQLite, and again on PostgreSQL with ``make unit-postgres``.
"""

from __future__ import annotations

import pytest

from risiko.web import selectors, services
from risiko.web.auditlog.models import AuditEntry
from risiko.web.results.models import GameTable, Seat, TableResult

pytestmark = [pytest.mark.db, pytest.mark.django_db]

WHO = "arbitro"
NAMES = ["Alba", "Bice", "Ciro", "Dora", "Ezio", "Fede", "Gino", "Ivo", "Lia", "Max",
         "Nico", "Olga"]


def _tournament(names=NAMES):
    t = services.create_tournament("Torneo di prova", who=WHO)
    services.add_players(t, names, who=WHO)
    return t


def test_arrivals_are_classified_by_r3():
    t = _tournament()
    e = services.open_evening(t, "2027-03-02", who=WHO)
    cases = [("Alba", "21:10", False, "on_time", 0), ("Bice", "21:11", False, "late", 3),
             ("Ciro", "21:20", False, "late", 3), ("Dora", "21:21", False, "excluded", 0),
             ("Ezio", "21:25", True, "late", 3), ("Fede", "21:31", True, "excluded", 0),
             ("Gino", "21:10:59", False, "on_time", 0)]
    for name, at, phoned, cls, turns in cases:
        _, ruling = services.record_arrival(e, name, at, phoned=phoned, who=WHO)
        assert (ruling.arrival_class, ruling.penalty_turns) == (cls, turns), name


def test_unknown_player_and_bad_time_are_refused_by_name():
    t = _tournament()
    e = services.open_evening(t, "2027-03-02", who=WHO)
    with pytest.raises(services.ServiceError, match="'Zeno' is not a player"):
        services.record_arrival(e, "Zeno", "21:00", who=WHO)
    with pytest.raises(services.ServiceError, match="Alba"):
        services.record_arrival(e, "Alba", "nine", who=WHO)
    with pytest.raises(services.ServiceError, match="already an evening on 2027-03-02"):
        services.open_evening(t, "2027-03-02", who=WHO)


def test_seating_skips_excluded_arrivals_and_makes_tables_of_5_and_4():
    t = _tournament()
    e = services.open_evening(t, "2027-03-02", who=WHO)
    for name in NAMES[:9]:
        services.record_arrival(e, name, "21:00", who=WHO)
    services.record_arrival(e, "Max", "21:40", who=WHO)  # excluded (R3)
    tables = services.seat_evening(e, seed=3, who=WHO)
    sizes = sorted(tb.seats.current().count() for tb in tables)
    assert sizes == [4, 5]
    seated = set(Seat.objects.filter(table__evening=e).values_list("player__name", flat=True))
    assert seated == set(NAMES[:9])
    with pytest.raises(services.ServiceError, match="already seated"):
        services.seat_evening(e, seed=3, who=WHO)


def test_set_tables_refuses_a_player_twice_and_writes_nothing():
    t = _tournament()
    e = services.open_evening(t, "2027-03-02", who=WHO)
    with pytest.raises(services.ServiceError, match="Alba is seated twice"):
        services.set_tables(e, [["Alba", "Bice", "Ciro"], ["Alba", "Dora", "Ezio"]], who=WHO)
    assert GameTable.objects.filter(evening=e).count() == 0


def _evening_with_tables(t, date, tables):
    e = services.open_evening(t, date, who=WHO)
    services.set_tables(e, tables, who=WHO)
    return e


def test_scores_corrections_are_kept_and_the_ranking_follows_the_last():
    t = _tournament(NAMES[:5])
    e = _evening_with_tables(t, "2027-03-02", [NAMES[:5]])
    table = services.get_table(e, 1)
    services.enter_scores(table, {"Alba": 57, "Bice": 40, "Ciro": 12, "Dora": 30, "Ezio": 0},
                          who=WHO)
    services.enter_scores(table, {"Alba": 47, "Bice": 50, "Ciro": 12, "Dora": 30, "Ezio": 0},
                          reason="punteggi scambiati", who="capo")
    rows = selectors.standings(t).rows
    assert [(r.player, r.points) for r in rows[:2]] == [("Bice", 50), ("Alba", 47)]
    assert TableResult.objects.filter(table=table).count() == 2
    assert TableResult.objects.filter(table=table, superseded=False).count() == 1
    log = AuditEntry.objects.filter(tournament=t.name, action="correct result").get()
    assert log.who == "capo"
    assert log.data["replaced"]["scores"]["Alba"] == 57


def test_score_faults_name_player_table_and_evening():
    t = _tournament(NAMES[:5])
    e = _evening_with_tables(t, "2027-03-02", [NAMES[:5]])
    table = services.get_table(e, 1)
    with pytest.raises(services.ServiceError) as err:
        services.enter_scores(table, {"Alba": 57, "Bice": 40, "Ciro": 12, "Zeno": 3}, who=WHO)
    text = str(err.value)
    assert ("evening 2027-03-02 (qualifying), table 1: a score for Zeno, who is not seated"
            in text)
    assert "no score for Dora" in text and "no score for Ezio" in text
    # faults are values: the code and the subjects say what and whom, in any language; the
    # season file's check and the database's are one (tournament.*), the database's old
    # codes still said in the JSON as aliases
    where = {"evening": "2027-03-02", "stage": "qualifying", "table": 1}
    assert [(f.code, dict(f.subjects)) for f in err.value.faults] == [
        ("tournament.score_not_seated", {**where, "player": "Zeno"}),
        ("tournament.no_score", {**where, "player": "Dora"}),
        ("tournament.no_score", {**where, "player": "Ezio"}),
    ]
    assert [f.to_dict()["aliases"] for f in err.value.faults] == [
        ["edit.score_not_seated", "service.score_not_seated"],
        ["edit.no_score", "service.no_score"], ["edit.no_score", "service.no_score"]]
    assert not TableResult.objects.exists()


def test_sheet_result_is_scored_by_the_game_library():
    """R16 worked example on a 4-seat table: objective 13, all Nord America + Perù,
    Brasile, Argentina = 9x4 + 22 + 3x1 = 61."""
    from risiko.board import CONTINENT_MASKS, TERRITORY_NAMES, iter_mask, parse_territory

    t = _tournament(NAMES[:4])
    e = _evening_with_tables(t, "2027-03-02", [NAMES[:4]])
    alba = [TERRITORY_NAMES[x] for x in iter_mask(CONTINENT_MASKS[0])] + [
        "Perù", "Brasile", "Argentina"]
    rest = [n for n in TERRITORY_NAMES if n not in alba]
    sheet = {"ruleset": "club-milano", "seats": [
        {"player": "Alba", "objective": 13, "armies": {n: 2 for n in alba}},
        {"player": "Bice", "objective": 1, "armies": {n: 1 for n in rest[:10]}},
        {"player": "Ciro", "objective": 2, "armies": {n: 1 for n in rest[10:20]}},
        {"player": "Dora", "objective": 3, "armies": {n: 1 for n in rest[20:]}},
    ]}
    assert parse_territory("Venezuela") not in [parse_territory(n) for n in alba]
    services.enter_sheet(services.get_table(e, 1), sheet, who=WHO)
    assert selectors.standings(t).row("Alba").points == 61
    bad = dict(sheet, seats=[dict(s, player="Zeno") if s["player"] == "Dora" else s
                             for s in sheet["seats"]])
    with pytest.raises(services.ServiceError, match="the sheet lists Zeno, who is not seated"):
        services.enter_sheet(services.get_table(e, 1), bad, who=WHO)


def test_penalties_appeals_and_abandonment():
    t = _tournament(NAMES[:5])
    e = _evening_with_tables(t, "2027-03-02", [NAMES[:5]])
    table = services.get_table(e, 1)
    services.enter_scores(table, {"Alba": 57, "Bice": 40, "Ciro": 12, "Dora": 30, "Ezio": 20},
                          who=WHO)
    services.add_penalty(e, "Alba", -7, unit="table", reason="121 armate (R5)",
                         referee="Rita", who=WHO)
    pen = services.add_penalty(e, "Bice", -10, unit="ranking", reason="consigli",
                               referee="Rita", who=WHO)
    services.decide_appeal(pen, "reduced", points=-4, referee="Capo", who=WHO)
    services.mark_abandoned(table, "Dora", who=WHO)  # R13: table 0 and -25 in the ranking
    st = selectors.standings(t)
    assert st.row("Alba").points == 50
    assert st.row("Bice").points == 36
    assert st.row("Dora").points == -25
    with pytest.raises(services.ServiceError,
                       match=r"reduces -10 to -12: a reduction lies between -10 \(excluded\)"):
        services.decide_appeal(pen, "reduced", points=-12, referee="Capo", who=WHO)
    services.decide_appeal(pen, "annulled", referee="Capo", who=WHO)
    assert selectors.standings(t).row("Bice").points == 40
    with pytest.raises(services.ServiceError, match="negative"):
        services.add_penalty(e, "Ciro", 5, unit="ranking", reason="x", referee="R", who=WHO)


def test_semifinal_is_seated_by_r18_from_the_ranking():
    t = _tournament()
    e = _evening_with_tables(t, "2027-03-02", [NAMES[0:4], NAMES[4:8], NAMES[8:12]])
    # distinct points: Alba 100 > Bice 95 > ... > Olga 45
    points = {n: 100 - 5 * i for i, n in enumerate(NAMES)}
    for k, seats in enumerate([NAMES[0:4], NAMES[4:8], NAMES[8:12]], start=1):
        services.enter_scores(services.get_table(e, k), {n: points[n] for n in seats},
                              risiko=["Alba"] if "Alba" in seats else [], who=WHO)
    semi = services.seat_stage(t, "2027-03-09", "semifinal", who=WHO)
    tables = [[s.player.name for s in tb.seats.current().order_by("position")]
              for tb in semi.tables.order_by("number")]
    # ranked 1, 2, 8, 9, 10 and 3..7
    assert sorted(tables[0]) == sorted(["Alba", "Bice", "Ivo", "Lia", "Max"])
    assert sorted(tables[1]) == sorted(["Ciro", "Dora", "Ezio", "Fede", "Gino"])


def test_tie_at_the_cut_needs_a_draw_of_lots():
    t = _tournament()
    e = _evening_with_tables(t, "2027-03-02", [NAMES[0:4], NAMES[4:8], NAMES[8:12]])
    points = {n: 100 - 5 * i for i, n in enumerate(NAMES)}
    points["Nico"] = points["Max"]  # 10th and 11th share a position straddling the cut
    for k, seats in enumerate([NAMES[0:4], NAMES[4:8], NAMES[8:12]], start=1):
        services.enter_scores(services.get_table(e, k), {n: points[n] for n in seats},
                              risiko=["Alba"] if "Alba" in seats else [], who=WHO)
    with pytest.raises(services.ServiceError, match="semifinal cannot be seated"):
        services.seat_stage(t, "2027-03-09", "semifinal", who=WHO)
    services.record_draw(t, "semifinal", ["Nico", "Max"], referee="Capo", who=WHO)
    semi = services.seat_stage(t, "2027-03-09", "semifinal", who=WHO)
    first = {s.player.name for s in semi.tables.get(number=1).seats.current()}
    assert "Nico" in first and "Max" not in first


def test_season_export_import_round_trip_gives_the_same_report():
    t = _tournament(NAMES[:5])
    e = _evening_with_tables(t, "2027-03-02", [NAMES[:5]])
    for name in NAMES[:5]:
        services.record_arrival(e, name, "21:05" if name != "Ezio" else "21:15", who=WHO)
    services.enter_scores(services.get_table(e, 1),
                          {"Alba": 57, "Bice": 40, "Ciro": 12, "Dora": 30, "Ezio": 20}, who=WHO)
    services.add_penalty(e, "Alba", -7, unit="table", reason="R5", referee="Rita", who=WHO)
    data = services.export_season(t)
    copy = services.import_season(data, who=WHO, name="Copia")
    a, b = selectors.season_report_of(t), selectors.season_report_of(copy)
    assert a["standings"] == b["standings"]
    assert a["evenings"] == b["evenings"]
    exported_again = services.export_season(copy)
    exported_again["name"] = data["name"]
    assert exported_again == data


def test_an_excluded_arrival_cannot_be_seated_by_hand():
    t = _tournament(NAMES[:6])
    e = services.open_evening(t, "2027-03-02", who=WHO)
    services.record_arrival(e, "Fede", "21:25", who=WHO)  # no phone notice: excluded (R3)
    with pytest.raises(services.ServiceError, match="table 1: Fede is seated but"):
        services.set_tables(e, [["Alba", "Bice", "Ciro", "Fede"]], who=WHO)
    assert not Seat.objects.filter(table__evening=e).exists()


def test_a_player_expelled_from_the_tournament_is_not_seated_again():
    t = _tournament(NAMES[:6])
    e1 = _evening_with_tables(t, "2027-03-02", [NAMES[:3], NAMES[3:6]])
    services.add_discipline(e1, "Ciro", "tournament", reason="bestemmie, recidivo",
                            referee="Capo", who=WHO)
    e2 = services.open_evening(t, "2027-03-09", who=WHO)
    with pytest.raises(services.ServiceError, match="Ciro is seated but was expelled"):
        services.set_tables(e2, [["Alba", "Bice", "Ciro"]], who=WHO)


def test_a_score_above_the_maximum_is_refused():
    t = _tournament(NAMES[:3])
    e = _evening_with_tables(t, "2027-03-02", [NAMES[:3]])
    with pytest.raises(services.ServiceError, match="Alba scores 101, above the maximum"):
        services.enter_scores(services.get_table(e, 1), {"Alba": 101, "Bice": 1, "Ciro": 1},
                              who=WHO)
    assert not TableResult.objects.exists()


def test_an_arrival_correction_that_excludes_a_seated_player_is_refused():
    t = _tournament(NAMES[:4])
    e = services.open_evening(t, "2027-03-02", who=WHO)
    for name in NAMES[:4]:
        services.record_arrival(e, name, "21:05", who=WHO)
    services.set_tables(e, [NAMES[:4]], who=WHO)
    with pytest.raises(services.ServiceError, match="table 1: Dora is seated but"):
        services.record_arrival(e, "Dora", "21:45", reason="orario sbagliato", who=WHO)
    current = e.arrivals.get(player__name="Dora", superseded=False)
    assert current.at == "21:05"


def test_a_new_tournament_does_not_replace_the_current_one():
    first = services.create_tournament("Primo", who=WHO)
    second = services.create_tournament("Secondo", who=WHO)
    first.refresh_from_db()
    assert first.is_current and not second.is_current
    services.set_current(second, who=WHO)
    first.refresh_from_db()
    second.refresh_from_db()
    assert second.is_current and not first.is_current


def test_names_differing_only_in_capitals_are_refused():
    t = _tournament(["Alba"])
    with pytest.raises(services.ServiceError, match="'alba' differs from the player 'Alba'"):
        services.add_players(t, ["alba"], who=WHO)


def test_an_impossible_date_names_the_fault():
    t = _tournament(["Alba"])
    with pytest.raises(services.ServiceError, match="a date is YYYY-MM-DD, not '2027-02-30'"):
        services.open_evening(t, "2027-02-30", who=WHO)


def test_two_risiko_at_one_table_are_refused():
    t = _tournament(NAMES[:3])
    e = _evening_with_tables(t, "2027-03-02", [NAMES[:3]])
    with pytest.raises(services.ServiceError, match="both completed the objective"):
        services.enter_scores(services.get_table(e, 1), {"Alba": 100, "Bice": 100, "Ciro": 5},
                              risiko=["Alba", "Bice"], who=WHO)


def _counts() -> tuple[int, int]:
    return TableResult.objects.count(), AuditEntry.objects.count()


def test_the_same_scores_sent_again_write_nothing():
    t = _tournament(NAMES[:4])
    e = _evening_with_tables(t, "2027-03-02", [NAMES[:4]])
    table = services.get_table(e, 1)
    scores = {"Alba": 50, "Bice": 40, "Ciro": 30, "Dora": 20}
    first = services.enter_scores(table, scores, who=WHO)
    assert not first.already_recorded
    before = _counts()
    # the same scores, names typed otherwise and in another order, sent again by a referee
    again = services.enter_scores(table, {"dora": 20, "CIRO": 30, "Bice": 40, "Alba": 50},
                                  who="altro arbitro", reason="reinviato")
    assert again.already_recorded and again.pk == first.pk
    assert _counts() == before
    assert not AuditEntry.objects.filter(action="correct result").exists()
    # one score otherwise is a correction: a new row and its audit entry
    corrected = services.enter_scores(table, {**scores, "Alba": 51}, reason="51, non 50",
                                      who=WHO)
    assert not corrected.already_recorded
    assert _counts() == (before[0] + 1, before[1] + 1)
    assert AuditEntry.objects.filter(action="correct result").count() == 1
    # the same scores with a player who completed the objective are another result too
    services.enter_scores(table, {**scores, "Alba": 100}, risiko=["Alba"], reason="RisiKo!",
                          who=WHO)
    assert services.enter_scores(table, {**scores, "Alba": 100}, risiko=["Alba"],
                                 who=WHO).already_recorded
    assert not services.enter_scores(table, {**scores, "Alba": 100}, reason="senza RisiKo!",
                                     who=WHO).already_recorded
    assert TableResult.objects.count() == before[0] + 3


def test_the_same_sheet_sent_again_writes_nothing():
    from risiko.board import TERRITORY_NAMES

    t = _tournament(NAMES[:4])
    e = _evening_with_tables(t, "2027-03-02", [NAMES[:4]])
    table = services.get_table(e, 1)
    sheet = {"ruleset": "club-milano", "seats": [
        {"player": p, "objective": i + 1,
         "armies": {n: 1 for n in TERRITORY_NAMES[i * 10:(i + 1) * 10 if i < 3 else None]}}
        for i, p in enumerate(NAMES[:4])]}
    first = services.enter_sheet(table, sheet, who=WHO)
    before = _counts()
    again = services.enter_sheet(table, sheet, who=WHO)
    assert again.already_recorded and again.pk == first.pk and _counts() == before
    # the same sheet with a player who left is a correction
    assert not services.enter_sheet(table, sheet, abandoned=["Dora"], reason="Dora è andata via",
                                    who=WHO).already_recorded
    assert _counts() == (before[0] + 1, before[1] + 1)
