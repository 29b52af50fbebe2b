"""``risiko tournament --club SLUG`` (issue 21 item 1): the command line by club.

Two clubs, MILANO and ROMA, besides the default club; ``--club`` reads and writes that
club's tournaments only; without it a tournament only one club has is found, a slug two
clubs share is refused naming both, and a new tournament goes to the default club.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from risiko.cli.main import app
from risiko.web import services
from risiko.web.clubs import club_scope, default_club
from risiko.web.national.models import Club
from risiko.web.tournaments.models import Tournament

pytestmark = [pytest.mark.db, pytest.mark.django_db]


@pytest.fixture
def clubs(db) -> dict[str, Club]:
    milano = Club.objects.create(key="MILANO", name="MILANO [Club Milano]", slug="milano")
    roma = Club.objects.create(key="ROMA", name="ROMA [Roma Club]", slug="roma")
    for club, names in ((milano, ["Alba", "Bice"]), (roma, ["Carlo"])):
        with club_scope(club):
            t = services.create_tournament("Torneo", who="setup")
            services.add_players(t, names, who="setup")
    with club_scope(roma):
        services.create_tournament("Solo Roma", who="setup")
    return {"milano": milano, "roma": roma}


def _run(*args: str, lang: str = "en") -> tuple[int, str]:
    res = CliRunner().invoke(app, ["--lang", lang, *args])
    return res.exit_code, res.output


def test_club_reads_and_writes_that_clubs_tournament_only(clubs):
    code, out = _run("tournament", "--club", "roma", "export", "torneo")
    assert code == 0, out
    assert json.loads(out)["players"] == ["Carlo"]
    code, out = _run("tournament", "--club", "milano", "add-players", "torneo", "Dario")
    assert code == 0, out
    milano = Tournament.all_clubs.get(club=clubs["milano"], slug="torneo")
    roma = Tournament.all_clubs.get(club=clubs["roma"], slug="torneo")
    assert sorted(milano.entries.values_list("player__name", flat=True)) == [
        "Alba", "Bice", "Dario"]
    assert list(roma.entries.values_list("player__name", flat=True)) == ["Carlo"]
    code, out = _run("tournament", "--club", "milano", "list", "--json")
    assert [row["slug"] for row in json.loads(out)] == ["torneo"]
    code, out = _run("tournament", "--club", "milano", "export", "solo-roma")
    assert code == 1  # ROMA's tournament is not MILANO's


def test_a_slug_two_clubs_share_is_refused_without_club_naming_them(clubs):
    code, out = _run("tournament", "add-players", "torneo", "Dario")
    assert code == 2  # a choice the command line must be given
    assert "milano (MILANO [Club Milano])" in out and "roma (ROMA [Roma Club])" in out
    assert "--club" in out
    assert not Tournament.all_clubs.filter(entries__player__name="Dario").exists()
    code, out = _run("tournament", "export", "torneo", lang="it")
    assert code == 2 and "è un torneo di più club" in out


def test_a_tournament_one_club_has_is_found_without_club(clubs):
    code, out = _run("tournament", "add-players", "solo-roma", "Elena")
    assert code == 0, out
    t = Tournament.all_clubs.get(slug="solo-roma")
    assert (t.club, list(t.entries.values_list("player__name", flat=True))) == (
        clubs["roma"], ["Elena"])


def test_a_new_tournament_goes_to_clubs_club_else_the_default(clubs):
    assert _run("tournament", "--club", "roma", "create", "Nuovo")[0] == 0
    assert _run("tournament", "create", "Altro")[0] == 0
    assert Tournament.all_clubs.get(name="Nuovo").club == clubs["roma"]
    assert Tournament.all_clubs.get(name="Altro").club == default_club()


def test_an_unknown_club_is_refused_naming_the_clubs(clubs):
    code, out = _run("tournament", "--club", "napoli", "create", "Nuovo")
    assert code == 2
    assert "no club napoli" in out and "milano" in out and "roma" in out
    assert not Tournament.all_clubs.filter(name="Nuovo").exists()


def test_backup_and_restore_of_a_season_file_by_club(clubs, tmp_path):
    path = tmp_path / "roma.json"
    assert _run("backup", str(path), "--tournament", "torneo")[0] == 2  # two clubs have it
    assert not path.exists()
    code, out = _run("backup", str(path), "--tournament", "torneo", "--club", "roma")
    assert code == 0, out
    assert json.loads(path.read_text(encoding="utf-8"))["players"] == ["Carlo"]
    code, out = _run("restore", str(path), "--yes", "--name", "Copia", "--club", "milano")
    assert code == 0, out
    copy = Tournament.all_clubs.get(name="Copia")
    assert (copy.club, list(copy.entries.values_list("player__name", flat=True))) == (
        clubs["milano"], ["Carlo"])
