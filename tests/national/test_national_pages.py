"""The national ranking's public pages (Italian first), JSON and CSV.

The report is national_kit's open of 4 rounds (T = 8): Anna Bassi 1st 259.20, Bruno Conti
2nd 195.44 (216 * exp(-0.1)), ...; a nazionale the same year counts nothing.
"""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.test import Client
from national_kit import report

from risiko.national.report import read_report

pytestmark = [pytest.mark.db, pytest.mark.django_db]

FOUR_ROUNDS = ("2024-03-02", "2024-03-09", "2024-03-16", "2024-03-23")


@pytest.fixture
def stored() -> None:
    """Past the first run (a user exists), two reports stored."""
    from django.contrib.auth.models import User

    from risiko.web.national.services import import_report

    User.objects.create_user("arbitro", password="tavolo-rosso-42")

    import_report(read_report(report(dates=FOUR_ROUNDS)), by="t")
    import_report(read_report(report(name="Nazionale", category="CNI",
                                     dates=("2024-06-01", "2024-06-02"))), by="t")


def test_the_list_in_italian(stored: None) -> None:
    page = Client().get("/nazionale/2024/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Ranking nazionale 2024" in html
    assert "Regole in vigore dal 2024." in html
    assert '<a href="/nazionale/giocatore/101/">Anna Bassi</a>' in html
    # Italian pages write a decimal comma (issue: "777.60" beside the skill's "10,7")
    assert "259,20" in html and "195,44" in html and "259.20" not in html
    assert Client().get("/nazionale/").url == "/nazionale/2024/"


def test_json_and_csv_are_the_commands_contracts(stored: None) -> None:
    from risiko.web.national.services import ranking

    data = json.loads(Client().get("/nazionale/2024.json").content)
    assert data == ranking(2024).to_json()
    assert [p["points"] for p in data["players"][:2]] == [259.2, 195.44]
    rows = list(csv.reader(io.StringIO(Client().get("/nazionale/2024.csv").content.decode())))
    assert rows[0][:5] == ["position", "national_id", "name", "club", "points"]
    assert rows[1][:5] == ["1", "101", "Anna Bassi", "MILANO [Club Milano]", "259.20"]


def test_a_players_history_says_what_counted_and_why(stored: None) -> None:
    html = Client().get("/nazionale/giocatore/101/").content.decode()
    assert "Anna Bassi" in html and "ID nazionale 101" in html
    assert "Posizione 1, 259,20 punti." in html
    assert "Open di Primavera" in html and "valido" in html
    # the nazionale (classe 0, not a ranked category): listed, not counted, and why
    assert "Nazionale" in html and "tipologia che non vale per il ranking" in html
    assert Client().get("/nazionale/giocatore/999/").status_code == 404


def test_the_tournaments_of_a_year(stored: None) -> None:
    html = Client().get("/nazionale/2024/tornei/").content.decode()
    assert "Tornei 2024" in html
    assert "Open di Primavera" in html and "Nazionale" in html
    # categories as GestioneTorneo labels them: the kit's open (OPN), the CNI a nazionale
    assert "<td>Torneo Open</td>" in html and "<td>Campionato Nazionale</td>" in html
    assert "Ancora nessun torneo" in Client().get("/nazionale/2023/tornei/").content.decode()


@pytest.mark.parametrize("path", [
    "/nazionale/0/", "/nazionale/99999/", "/nazionale/99999.json", "/nazionale/1999/",
    "/nazionale/2100.csv", "/nazionale/0999/tornei/", "/nazionale/abcd/"])
def test_a_year_outside_the_calendar_is_not_found(stored: None, path: str) -> None:
    # the project's years are 2000-2099 (time.evening_date_range): 1999 and 2100 are just
    # outside (404 naming the fault), 0 and 99999 far outside (not a year of four digits:
    # 404 like a year that is not a number)
    assert Client().get(path).status_code == 404


def test_the_first_and_last_years_of_the_calendar_answer(stored: None) -> None:
    # 2000 and 2099 are inside the range: the view answers, refusing a year without a
    # tournament by name (a 404 that says why, not the bare 404 of 1999)
    for year in (2000, 2099):
        page = Client().get(f"/nazionale/{year}/")
        assert page.status_code == 404
        assert f"{year}: nessun torneo del ranking nazionale" in page.content.decode()
        data = json.loads(Client().get(f"/nazionale/{year}.json").content)
        assert data["faults"][0]["params"] == {"year": year, "known": "2024",
                                                  "years": [2024]}


def test_a_year_without_tournaments_is_refused_alike_by_page_and_command(
        stored: None) -> None:
    """issue (newcomer's trial): `risiko national ranking --year 2023` printed an empty list
    where the page answers 404. A year without a tournament in force: the page, JSON and CSV
    answer 404 naming the year and the years that have one (2024); the command refuses it
    the same way (exit 1, the fault on stderr), with --json and --csv too."""
    import typer
    from typer.testing import CliRunner

    from risiko.cli import national_commands
    from risiko.faults import use_language

    page = Client().get("/nazionale/2023/")
    assert page.status_code == 404
    html = page.content.decode()
    assert ("2023: nessun torneo del ranking nazionale in quell&#x27;anno (anni con tornei: "
            "2024)") in html
    assert '<a href="/nazionale/2024/">2024</a>' in html
    data = Client().get("/nazionale/2023.json")
    assert data.status_code == 404 and data.json()["faults"][0]["code"] == "national.no_year"
    assert Client().get("/nazionale/2023.csv").status_code == 404
    assert Client().get("/nazionale/").url == "/nazionale/2024/"

    app = typer.Typer()
    national_commands.register(app)
    english = ("2023: no tournament of the national ranking that year (years with "
               "tournaments: 2024)")
    for extra in ([], ["--json"], ["--csv"]):
        done = CliRunner().invoke(app, ["national", "ranking", "--year", "2023", *extra])
        assert done.exit_code == 1, done.output
        assert done.stderr.strip() == english
        if extra == ["--json"]:
            assert json.loads(done.stdout)["faults"][0]["params"] == {
                "year": 2023, "known": "2024", "years": [2024]}
        else:
            assert done.stdout == ""
    with use_language("it"):
        italian = CliRunner().invoke(app, ["national", "ranking", "--year", "2023"])
    assert italian.stderr.strip() == ("2023: nessun torneo del ranking nazionale in "
                                      "quell'anno (anni con tornei: 2024)")
    assert CliRunner().invoke(app, ["national", "ranking", "--year", "2024"]).exit_code == 0


def test_no_year_at_all_says_so_on_the_home_page() -> None:
    from django.contrib.auth.models import User

    from risiko.web.national.services import year_fault

    User.objects.create_user("arbitro", password="tavolo-rosso-42")  # past the first run
    assert Client().get("/nazionale/").status_code == 200
    assert year_fault(2024).message("it") == (  # type: ignore[union-attr]
        "2024: nessun torneo del ranking nazionale in quell'anno (anni con tornei: "
        "nessuno per ora)")


def test_no_year_json_is_in_the_answers_language() -> None:
    """The trial: the Italian JSON answer of a year without tournaments had ``"known":
    "none yet"``; now the words in the answer's language, and the years as a list."""
    from django.contrib.auth.models import User

    User.objects.create_user("arbitro", password="tavolo-rosso-42")  # past the first run
    italian = Client().get("/nazionale/2024.json")
    assert italian.status_code == 404
    params = italian.json()["faults"][0]["params"]
    assert params == {"year": 2024, "known": "nessuno per ora", "years": []}
    english = Client()
    english.cookies["django_language"] = "en"
    said = english.get("/nazionale/2024.json").json()["faults"][0]
    assert said["params"]["known"] == "none yet"
    assert said["message"] == ("2024: no tournament of the national ranking that year "
                               "(years with tournaments: none yet)")


def test_a_list_of_anonymous_players_only_says_why_it_is_empty() -> None:
    """issue (newcomer's trial): one tournament of 2027 in force whose 13 players have no
    national id (all anonymous: none is listed, the rule) showed "Ancora nessun torneo
    pubblicato" and "Giocatori 0"; the command printed an empty table without a word. Now
    page and command say what happened and the tournaments page counts its 13 players,
    13 of them anonymous."""
    import typer
    from django.contrib.auth.models import User
    from typer.testing import CliRunner

    from risiko.cli import national_commands
    from risiko.faults import use_language
    from risiko.web.national.services import import_report

    User.objects.create_user("arbitro", password="tavolo-rosso-42")
    anonymous = [(f"a{i}", None, f"Giocatore{chr(64 + i)}", "Anonimo") for i in range(1, 14)]
    import_report(read_report(report("Open 2027", dates=("2027-02-06", "2027-02-13"),
                                     tables_per_round=3,
                                     players=anonymous)), by="t")
    italian = ("1 torneo, nessun giocatore con tessera nazionale: i giocatori anonimi non "
               "entrano nel ranking")
    english = ("1 tournament, no player with a national id: anonymous players are not in the "
               "ranking")
    html = Client().get("/nazionale/2027/").content.decode()
    assert "Ancora nessun torneo" not in html
    assert italian in html
    in_english = Client()
    in_english.post("/i18n/setlang/", {"language": "en"})
    assert english in in_english.get("/nazionale/2027/").content.decode()
    page = Client().get("/nazionale/2027/tornei/").content.decode()
    assert '<td class="num">13 (13 anonimi)</td>' in page

    app = typer.Typer()
    national_commands.register(app)
    done = CliRunner().invoke(app, ["national", "ranking", "--year", "2027"])
    assert done.exit_code == 0 and english in " ".join(done.stdout.split())
    with use_language("it"):
        done = CliRunner().invoke(app, ["national", "ranking", "--year", "2027"])
    assert done.exit_code == 0 and italian in " ".join(done.stdout.split())


def test_a_year_outside_the_calendar_is_one_fault_for_page_json_csv_and_command(
        stored: None) -> None:
    """issue (newcomer's trial): /nazionale/1999/ and 1999.json gave the generic "Pagina non
    trovata" (the URL's year converter refused it) while the command gave the
    ``national.no_year`` fault. One rule now: a year outside the calendar (2000 to 2099) is
    ``national.year_outside``, on the page, its JSON and CSV (404) and in the command
    (exit 1)."""
    import typer
    from typer.testing import CliRunner

    from risiko.cli import national_commands
    from risiko.faults import use_language

    italian = "1999: fuori dagli anni del ranking nazionale (dal 2000 al 2099)"
    english = "1999: outside the years of the national ranking (2000 to 2099)"
    page = Client().get("/nazionale/1999/")
    assert page.status_code == 404 and italian in page.content.decode()
    assert "Pagina non trovata" not in page.content.decode()
    data = Client().get("/nazionale/1999.json")
    assert data.status_code == 404
    assert data.json()["faults"][0]["code"] == "national.year_outside"
    assert data.json()["faults"][0]["params"] == {"year": 1999, "low": 2000, "high": 2099}
    csv_page = Client().get("/nazionale/2100.csv")
    assert csv_page.status_code == 404
    assert csv_page.content.decode() == (
        "2100: fuori dagli anni del ranking nazionale (dal 2000 al 2099)")

    app = typer.Typer()
    national_commands.register(app)
    done = CliRunner().invoke(app, ["national", "ranking", "--year", "1999"])
    assert done.exit_code == 1 and done.stderr.strip() == english and done.stdout == ""
    with use_language("it"):
        done = CliRunner().invoke(app, ["national", "ranking", "--year", "1999", "--json"])
    assert done.exit_code == 1 and done.stderr.strip() == italian
    assert json.loads(done.stdout)["faults"][0]["code"] == "national.year_outside"
