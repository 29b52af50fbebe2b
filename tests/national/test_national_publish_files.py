"""``risiko national publish FILE``: what a file given to publish is refused with (the
newcomer's trial of the national command line)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from risiko.faults import use_language

pytestmark = [pytest.mark.db, pytest.mark.django_db]


def publish(*args: str, lang: str = "en") -> Any:
    """``risiko national publish ARGS`` run in ``lang`` (a typer result)."""
    import typer
    from typer.testing import CliRunner

    from risiko.cli import national_commands

    app = typer.Typer()
    national_commands.register(app)
    with use_language(lang):
        return CliRunner().invoke(app, ["national", "publish", *args, "--by", "arb"])


def test_a_file_that_is_no_report_is_refused_naming_the_file(tmp_path: Path) -> None:
    """``publish bad.json`` said "not valid JSON (line 1, column 2)" and no file. Now each
    fault comes after the file's name, the path a subject of the fault
    (``national.cli_bad_file``). ``{bad``: the JSON breaks at its 2nd character, line 1."""
    from risiko.web.national.models import TournamentRevision

    bad = tmp_path / "bad.json"
    bad.write_text("{bad", encoding="utf-8")
    said = publish(str(bad))
    assert said.exit_code == 2, said.output
    assert said.stderr.splitlines() == [
        f"{bad} cannot be published: not valid JSON (line 1, column 2)"]
    as_json = publish(str(bad), "--json")
    assert as_json.exit_code == 2
    (fault,) = json.loads(as_json.stdout)["faults"]
    assert (fault["code"], fault["subjects"]) == ("national.cli_bad_file", {"file": str(bad)})
    assert fault["params"]["fault"]["code"] == "national.report_not_json"
    # valid JSON, no report: every missing field after the file's name, in Italian too
    other = tmp_path / "altro.json"
    other.write_text('{"format": "risiko-report/1"}', encoding="utf-8")
    italian = publish(str(other), lang="it")
    assert italian.exit_code == 2
    assert italian.stderr.splitlines()[0] == f"{other} non si può pubblicare: club: manca"
    assert TournamentRevision.objects.count() == 0


def test_anonymous_players_are_said_once_in_the_language(tmp_path: Path) -> None:
    """A report's anonymous players whose sheet filled name and surname with "Anonimo"
    were listed as "Anonimo Anonimo, Anonimo Anonimo". The kit's report has p7 and p8 so
    (no national id) and p1-p6 registered: the line lists the word once with how many,
    "Anonimo (2)" in Italian, "Anonymous (2)" in English; ``--json`` (English) keeps one
    name per anonymous player; the stored report keeps the sheet's names."""
    from national_kit import report

    from risiko.web.national.models import Club, TournamentRevision

    Club.objects.create(key="milano", name="MILANO [Club Milano]", slug="milano")
    path = tmp_path / "open.json"
    path.write_text(json.dumps(report()), encoding="utf-8")
    italian = publish(str(path), lang="it")
    assert italian.exit_code == 0, italian.output
    assert italian.stderr.splitlines() == [
        "non nel registro nazionale, inviati come anonimi: Anonimo (2)"]
    english = publish(str(path))  # the same report again: nothing written, said again
    assert english.exit_code == 0, english.output
    assert english.stderr.splitlines() == [
        "not in the national register, sent as anonymous: Anonymous (2)"]
    as_json = publish(str(path), "--json", lang="it")
    assert json.loads(as_json.stdout)["anonymous"] == ["Anonymous", "Anonymous"]
    stored = TournamentRevision.objects.get().report["players"]
    assert [(p["name"], p["surname"]) for p in stored if p["national_id"] is None] == [
        ("Anonimo", "Anonimo"), ("Anonimo", "Anonimo")]


def test_the_publish_page_says_the_anonymous_word_once() -> None:
    """The referee's publish page lists the same words as the command: a named player
    without national id by his name, the sheet's "Anonimo Anonimo" once."""
    from national_kit import report

    from risiko.national.report import read_report
    from risiko.web.national.publishing import anonymous_players, anonymous_said

    players = [("p1", 101, "Anna", "Bassi"), ("p2", None, "Bice", "-"),
               ("p3", None, "Anonimo", "Anonimo"), ("p4", None, "ANONIMO", "anonimo")]
    sent = read_report(report(players=players, tables_per_round=1))
    assert anonymous_players(sent, "it") == ["Bice", "Anonimo", "Anonimo"]
    assert anonymous_said(sent, "it") == ["Bice", "Anonimo (2)"]
    assert anonymous_said(sent, "en") == ["Bice", "Anonymous (2)"]
    one = read_report(report(players=[*players[:3], ("p4", 104, "Dario", "Esposito")],
                             tables_per_round=1))
    assert anonymous_said(one, "en") == ["Bice", "Anonymous"]


def test_the_referees_publish_page_says_a_sheets_anonimo_once() -> None:
    """The example season with Bice renamed "Anonimo Anonimo", nobody in the register:
    the page (Italian) lists the twelve others in the season's order, then "Anonimo"."""
    from django.contrib.auth.models import Group, User
    from django.test import Client

    from risiko.web import services
    from risiko.web.national.models import Club

    season = Path(__file__).parents[2] / "examples" / "season-2027.json"
    text = season.read_text(encoding="utf-8").replace('"Bice"', '"Anonimo Anonimo"')
    t = services.import_season(json.loads(text), who="arbitro")
    Club.objects.create(key="milano", name="MILANO [Club Milano]", slug="milano")
    referee = User.objects.create_user("arbitro", password="tavolo-rosso-42")
    referee.groups.add(Group.objects.get_or_create(name="referee")[0])
    client = Client()
    client.force_login(referee)
    page = client.get(f"/arbitro/t/{t.slug}/nazionale/").content.decode()
    assert ("Alba, Ciro, Dora, Ezio, Fede, Gino, Ilia, Lino, Mara, Nico, Olga, Rita, "
            "Anonimo.") in page
    assert "Anonimo Anonimo" not in page


def test_a_report_files_own_club_and_category_are_never_overridden_in_silence(
        tmp_path: Path) -> None:
    """``publish open.json --category campionato --club-name X`` published the file's own
    category (open) and club name, saying nothing. A report file names both
    (docs/national.md: the options are for a tournament or a season file): each option
    given is refused naming it and the file (``national.cli_file_fixes``), exit 2 as the
    other refusals, ``--json`` prints the faults on stdout; nothing is published."""
    from national_kit import report

    from risiko.web.national.models import Club, TournamentRevision

    Club.objects.create(key="milano", name="MILANO [Club Milano]", slug="milano")
    path = tmp_path / "open.json"
    path.write_text(json.dumps(report()), encoding="utf-8")
    both = publish(str(path), "--category", "campionato", "--club-name", "Altro")
    assert both.exit_code == 2, both.output
    tail = "is a report, which names its own club and category (the option is for a " \
           "tournament or a season file)"
    assert both.stderr.splitlines() == [f"error: --category: {path} {tail}",
                                        f"error: --club-name: {path} {tail}"]
    as_json = publish(str(path), "--club-name", "Altro", "--json", lang="it")
    assert as_json.exit_code == 2
    (fault,) = json.loads(as_json.stdout)["faults"]
    assert (fault["code"], fault["subjects"]) == (
        "national.cli_file_fixes", {"option": "--club-name", "file": str(path)})
    assert as_json.stderr.splitlines()[0].startswith(
        f"errore: --club-name: {path} è un rapporto")
    assert TournamentRevision.objects.count() == 0
    plain = publish(str(path))  # without them: the file's own club and category
    assert plain.exit_code == 0, plain.output
    assert TournamentRevision.objects.get().report["tournament"]["category"] == "open"


def test_a_club_list_line_is_labelled_by_its_parts() -> None:
    """``CLUB_COLUMNS`` labelled the parts of a ``club list`` line, not columns: it is
    ``CLUB_LINE_PARTS`` (the catalogue ids ``national.col_club_*`` kept). Roma, official
    from 2020-01-01, no key: its English line by hand."""
    import datetime as dt

    import typer
    from typer.testing import CliRunner

    from risiko.cli import national_commands
    from risiko.web.national.models import Club

    assert not hasattr(national_commands, "CLUB_COLUMNS")
    assert {part: kind().message("en")
            for part, kind in national_commands.CLUB_LINE_PARTS.items()} == {
        "club": "Identifier", "name": "Name", "slug": "URL name", "official": "Official",
        "key": "Key in force", "default": "This server's"}
    Club.objects.create(key="roma", name="ROMA [Roma Club]", slug="roma", official=True,
                        official_from=dt.date(2020, 1, 1))
    app = typer.Typer()
    national_commands.register(app)
    with use_language("en"):
        listed = CliRunner().invoke(app, ["national", "club", "list"])
    assert listed.exit_code == 0, listed.output
    assert "roma  ROMA [Roma Club]  (URL name: roma; Official: yes 2020-01-01)" in (
        listed.stdout.splitlines())


def test_a_club_named_by_two_stored_clubs_is_refused_naming_both() -> None:
    """``--club X`` names a club by its identifier, else its URL name. Two clubs stored
    before the two were kept apart, Roma (identifier ``roma``, URL name ``roma-centro``)
    and Roma Nord (identifier ``rm``, URL name ``roma``): ``--club roma`` names both, and
    publish picked one in silence. Now it is refused naming both (exit 2), for a season
    file and for a stored tournament of Roma Nord; ``--club rm`` names Roma Nord only."""
    from risiko.web import services
    from risiko.web.clubs import club_scope
    from risiko.web.national.models import Club, TournamentRevision

    season = Path(__file__).parents[2] / "examples" / "season-2027.json"
    Club.objects.create(key="roma", name="ROMA [Roma Club]", slug="roma-centro")
    north = Club.objects.create(key="rm", name="ROMA NORD [Roma Nord]", slug="roma")
    said = ("error: --club roma names two clubs: roma (ROMA [Roma Club]) by its identifier, "
            "rm (ROMA NORD [Roma Nord]) by its URL name (both stored before identifiers and "
            "URL names were kept apart): name rm (ROMA NORD [Roma Nord]) by its identifier, "
            "or the officer gives it another URL name (admin, Ranking clubs)")
    by_file = publish(str(season), "--club", "roma")
    assert by_file.exit_code == 2, by_file.output
    assert by_file.stderr.splitlines() == [said]
    with club_scope(north):
        stored = services.import_season(json.loads(season.read_text(encoding="utf-8")),
                                        who="arbitro")
    by_slug = publish(stored.slug, "--club", "roma", "--json")
    assert by_slug.exit_code == 2, by_slug.output
    (fault,) = json.loads(by_slug.stdout)["faults"]
    assert (fault["code"], fault["subjects"]) == ("national.cli_club_twice",
                                                  {"clubs": ["roma", "rm"]})
    assert TournamentRevision.objects.count() == 0
    by_key = publish(stored.slug, "--club", "rm")
    assert by_key.exit_code == 0, by_key.output
    assert TournamentRevision.objects.get().report["club"]["id"] == "rm"
