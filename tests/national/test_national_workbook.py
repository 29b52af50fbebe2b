"""GestioneTorneo's workbook both ways.

The export's test is our re-implementation of GestioneTorneo's validator
(``check_workbook``, ``batch/ExcelValidator.java``'s checks) and a round trip through our
importer; the importer's tests are workbooks written cell by cell, each fault named by sheet
and row.
"""

from __future__ import annotations

import io
from datetime import date
from typing import Any

import pytest
from national_kit import report

xlrd = pytest.importorskip("xlrd")
xlwt = pytest.importorskip("xlwt")

from risiko.national.report import read_report  # noqa: E402
from risiko.national.workbook import (  # noqa: E402
    WorkbookError,
    check_workbook,
    read_workbook,
    write_workbook,
)

FOUR_ROUNDS = ("2024-03-02", "2024-03-09", "2024-03-16", "2024-03-23")


def book(sheets: dict[str, list[list[Any]]]) -> bytes:
    """A workbook with these sheets, cell by cell (a date value gets a date format)."""
    out = xlwt.Workbook(encoding="utf-8")
    day = xlwt.easyxf(num_format_str="dd/mm/yyyy")
    for name, rows in sheets.items():
        sheet = out.add_sheet(name)
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                if value is None:
                    continue
                if isinstance(value, date):
                    sheet.write(r, c, value, day)
                else:
                    sheet.write(r, c, value)
    data = io.BytesIO()
    out.save(data)
    return data.getvalue()


def torneo(category: str = "Torneo Open", rounds: int = 1,
           dates: tuple[date, ...] = (date(2024, 3, 2),)) -> list[list[Any]]:
    rows: list[list[Any]] = [[None, None, "SCHEDA DATI TORNEO"],
                             [None, None, "Sede Torneo", "Milano"],
                             [None, None, "Organizzatore", "MILANO [Club Milano]"],
                             [None, None, "Nome Torneo", "Open di prova"],
                             [None, None, "Tipologia di Torneo", category],
                             [None, None, "Numero Turni Previsti", rounds],
                             [None, None, "Note", ""]]
    rows += [[None, i + 1, None, dates[i] if i < len(dates) else None] for i in range(30)]
    return rows


def iscritti(*players: tuple[int, str, str, date | None, int | None]) -> list[list[Any]]:
    rows: list[list[Any]] = [["Elenco Partecipanti"], [], [
        "ID", "Nome", "Cognome", "Nickname", "Club", "Partecipa Torneo", "Regione",
        "Data di Nascita (gg/mm/aaaa)", "ID NAZIONALE"]]
    rows += [[i, a, b, None, "MILANO [Club Milano]", "SI", None, born, nid]
             for i, a, b, born, nid in players]
    return rows


PEOPLE = [(1, "Anna", "Bassi", None, 101), (2, "Bruno", "Conti", None, 102),
          (3, "Carla", "Dini", None, 103), (4, "Dario", "Esposito", None, 104)]


def table(*seats: tuple[int, float]) -> list[list[Any]]:
    row: list[Any] = []
    for number, points in seats:
        row += [number, f"player {number}", points]
    return [["Tavolo N°1"], row]


def test_the_export_passes_gestionetorneos_checks_and_reads_back_the_same() -> None:
    original = read_report(report(dates=FOUR_ROUNDS))
    data = write_workbook(original)
    faults = check_workbook(data)
    assert [f for f in faults if f.is_error] == []
    # p7 and p8 have neither birth date nor national id: ExcelValidator's warning
    assert [(f.code, f.params["row"]) for f in faults] == [
        ("national.workbook_anonymous", 10), ("national.workbook_anonymous", 11)]
    sheets = xlrd.open_workbook(file_contents=data).sheet_names()
    assert sheets == ["TORNEO", "Iscritti", "Dati", "1° Turno", "2° Turno", "3° Turno",
                      "4° Turno", "Classifica Ridotta"]
    back = read_workbook(data, club_id=original.club_id)
    assert back.result() == original.result()
    assert (back.name, back.category, back.rounds, back.dates, back.finished, back.tables) == (
        original.name, original.category, original.rounds, original.dates,
        original.finished, original.tables)
    assert [p.full_name for p in back.players] == [p.full_name for p in original.players]


def test_a_good_workbook_written_cell_by_cell() -> None:
    data = book({"TORNEO": torneo(), "Iscritti": iscritti(*PEOPLE),
                 "1° Turno": table((1, 90), (2, 40), (3, 30), (4, 20)),
                 "Classifica Ridotta": [["Pos.", "Nome", "Cognome", "pt_tot", "id"],
                                        [1, "Anna", "Bassi", 90, 1],
                                        [2, "Bruno", "Conti", 40, 2],
                                        [3, "Carla", "Dini", 30, 3],
                                        [4, "Dario", "Esposito", 20, 4]]})
    got = read_workbook(data)
    assert got.club_id == got.club_name == "MILANO [Club Milano]"  # the organiser
    assert got.finished and got.tables == 1
    assert got.games[0].winners == ("1",)
    # an open of one game (T = 1): the national list scores it 0 from 2020 (min 6 tables)
    assert [p.national_id for p in got.result().participants] == [101, 102, 103, 104]


def test_every_bad_row_is_named() -> None:
    people = [*PEOPLE, (4, "Ezio", "Ferri", None, 105),              # ID 4 again
              (6, "Gina", "Hu", date(1990, 1, 31), None)]           # born, no national id
    data = book({
        "TORNEO": torneo(category="Torneo Estivo", rounds=2,
                         dates=(date(2024, 3, 9), date(2024, 3, 2))),
        "Iscritti": iscritti(*people),
        "1° Turno": table((1, 90), (2, 40), (3, 30), (9, 20)),        # ID 9: nobody
        "3° Turno": table((1, 90), (2, 40), (3, "tanti")),
        "Classifica Ridotta": [["Pos.", "Nome", "Cognome", "pt_tot", "id"],
                               [1, "Anna", "Bassi", 90, 1], [7, "Bruno", "Conti", 40, 2],
                               [3, "Dario", "Esposito", 20, 4]],
    })
    with pytest.raises(WorkbookError) as caught:
        read_workbook(data)
    said = caught.value.messages("en")
    assert said == [
        "sheet TORNEO, row 5, column D: 'Torneo Estivo' is not a category",
        "sheet TORNEO: round 2 on 2024-03-02 is before the previous round on 2024-03-09",
        "sheet Iscritti, row 8: ID 4 again (row 7)",
        "sheet Iscritti, row 9: Gina Hu born 1990-01-31 has no national id and is not in the "
        "register: give his ID NAZIONALE",
        "sheet 1° Turno, row 2: no player with ID 9 in Iscritti",
        "sheet 3° Turno: the tournament plans 2 rounds",
        "sheet 3° Turno, row 2, column I: 'tanti' is not a number",
        "sheet Classifica Ridotta, row 3: position 7, but 3 players",
        "sheet Classifica Ridotta, row 4: ID 4 played no game",
    ]
    assert caught.value.messages("it")[2] == "foglio Iscritti, riga 8: ID 4 ripetuto (riga 7)"


def test_a_player_given_by_birth_date_is_found_in_the_register() -> None:
    data = book({"TORNEO": torneo(), "Iscritti": iscritti(
        *PEOPLE[:3], (4, "Gina", "Hu", date(1990, 1, 31), None)),
        "1° Turno": table((1, 90), (2, 40), (3, 30), (4, 20)),
        "Classifica Ridotta": [["Pos.", "Nome", "Cognome", "pt_tot", "id"],
                               [1, "a", "b", 90, 1], [2, "a", "b", 40, 2],
                               [3, "a", "b", 30, 3], [4, "a", "b", 20, 4]]})
    got = read_workbook(data, resolve=lambda name, surname, born: (
        777 if (name, surname, born) == ("Gina", "Hu", date(1990, 1, 31)) else None))
    assert got.players[3].national_id == 777


def test_standings_required_once_the_last_round_is_played() -> None:
    data = book({"TORNEO": torneo(), "Iscritti": iscritti(*PEOPLE),
                 "1° Turno": table((1, 90), (2, 40), (3, 30), (4, 20))})
    with pytest.raises(WorkbookError) as caught:
        read_workbook(data)
    assert caught.value.messages("en") == [
        "sheet Classifica Ridotta missing: required once the last round is played"]
    # a friendly (Amichevoli) has no standings: accepted
    friendly = book({"TORNEO": torneo(category="Amichevoli"), "Iscritti": iscritti(*PEOPLE),
                     "1° Turno": table((1, 90), (2, 40), (3, 30), (4, 20))})
    assert read_workbook(friendly).standings == ()


def test_the_final_table_must_agree_with_the_standings() -> None:
    # the last round is one game (a final): its order must be the standings' top
    data = book({"TORNEO": torneo(), "Iscritti": iscritti(*PEOPLE),
                 "1° Turno": table((1, 90), (2, 40), (3, 30), (4, 20)),
                 "Classifica Ridotta": [["Pos.", "Nome", "Cognome", "pt_tot", "id"],
                                        [1, "a", "b", 40, 2], [2, "a", "b", 90, 1],
                                        [3, "a", "b", 30, 3], [4, "a", "b", 20, 4]]})
    assert [f.message("en") for f in check_workbook(data) if f.is_error] == [
        "sheet Classifica Ridotta: ID 1 is 2 in the standings but 1 at the final table",
        "sheet Classifica Ridotta: ID 2 is 1 in the standings but 2 at the final table"]


def test_not_a_workbook() -> None:
    with pytest.raises(WorkbookError) as caught:
        read_workbook(b"PK\x03\x04 an xlsx or anything else")
    assert caught.value.fault.code == "national.workbook_not_xls"
