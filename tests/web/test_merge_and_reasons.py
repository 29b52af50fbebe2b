"""A name is the same name however it is typed (one player, a unique key), two players who
are one person are merged by the committee (service, console, command line), and corrections
say why (service, console, command line; shown in the history and the audit log)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse
from typer.testing import CliRunner

from risiko.cli.main import app
from risiko.web import services
from risiko.web.auditlog.models import AuditEntry
from risiko.web.evenings.models import Arrival
from risiko.web.players.models import Player
from risiko.web.results.models import Seat, TableResult

pytestmark = [pytest.mark.db, pytest.mark.django_db]

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
DATE = "2027-03-02"


def _client(*groups: str) -> Client:
    user = User.objects.create_user("u" + "".join(groups), password="tavolo-rosso-42")
    for g in groups:
        user.groups.add(Group.objects.get_or_create(name=g)[0])
    c = Client()
    c.force_login(user)
    return c


def test_one_player_however_the_name_is_typed():
    t = services.create_tournament("T", who="w")
    services.add_players(t, ["Lu\u00e8"], who="w")
    other = services.create_tournament("U", who="w")
    # the decomposed accent and the capitals are the same player, in any tournament
    (p,) = services.add_players(other, ["Lue\u0300"], who="w")
    assert p.name == "Luè" and Player.objects.count() == 1 and p.key == "luè"
    with pytest.raises(services.ServiceError) as err:
        services.add_players(t, ["LUÈ"], who="w")
    assert err.value.fault.code == "service.player_twin"
    e = services.open_evening(t, DATE, who="w")
    row, _ruling = services.record_arrival(e, "LUÈ", "21:00", who="w")
    assert row.player == p


def _two_of_one(t):
    """Bruno registered a second time as "Bruno R.": two names, one person."""
    twin = Player.objects.create(name="Bruno R.")
    t.entries.create(player=twin, order=99)
    return twin


def test_merge_players_moves_every_fact_and_is_audited():
    t = services.create_tournament("T", who="w")
    services.add_players(t, NAMES, who="w")
    twin = _two_of_one(t)
    e = services.open_evening(t, DATE, who="w")
    services.record_arrival(e, "Bruno R.", "21:00", who="w")
    services.set_tables(e, [["Anna", "Bruno R.", "Carla", "Dario"]], who="w")
    services.enter_scores(services.get_table(e, 1),
                          {"Anna": 50, "Bruno R.": 40, "Carla": 30, "Dario": 20}, who="w")
    kept = services.merge_players("Bruno", "Bruno R.", who="comitato")
    assert kept.name == "Bruno"
    assert Arrival.objects.current().get().player == kept
    assert Seat.objects.current().get(position=2).player == kept
    assert TableResult.objects.current().get().scores == {
        "Anna": 50, "Bruno": 40, "Carla": 30, "Dario": 20}
    assert not t.entries.filter(player=twin).exists()
    assert AuditEntry.objects.filter(action="merge players", who="comitato").count() == 1
    from risiko.web import selectors

    row = next(r for r in selectors.standings(t).rows if r.player == "Bruno")
    assert row.games == 1


def test_merge_is_refused_when_both_arrived_the_same_evening():
    t = services.create_tournament("T", who="w")
    services.add_players(t, NAMES, who="w")
    _two_of_one(t)
    e = services.open_evening(t, DATE, who="w")
    services.record_arrival(e, "Bruno", "21:00", who="w")
    services.record_arrival(e, "Bruno R.", "21:00", who="w")
    with pytest.raises(services.ServiceError) as err:
        services.merge_players("Bruno", "Bruno R.", who="w")
    assert err.value.fault.code == "service.merge_both_arrived"
    assert err.value.fault.subjects == {"player": "Bruno", "evening": "2027-03-02"}
    assert Player.objects.filter(name="Bruno R.").get().entries.exists()


def test_merge_from_the_console_is_for_the_committee():
    t = services.create_tournament("T", who="w")
    services.add_players(t, NAMES, who="w")
    _two_of_one(t)
    url = reverse("console_merge_players")
    assert _client("referee").get(url).status_code == 403
    boss = _client("committee")
    assert boss.get(url).status_code == 200
    r = boss.post(url, {"keep": "Bruno", "twin": "Bruno"})
    assert r.status_code == 400 and "sono lo stesso giocatore" in r.content.decode()
    r = boss.post(url, {"keep": "Bruno", "twin": "Bruno R."})
    assert r.status_code == 302
    assert not Player.objects.get(name="Bruno R.").entries.exists()


def test_merge_from_the_command_line():
    t = services.create_tournament("T", who="w")
    services.add_players(t, NAMES, who="w")
    _two_of_one(t)
    res = CliRunner().invoke(app, ["tournament", "merge-players", "Bruno", "Bruno R.",
                                   "--by", "comitato"])
    assert res.exit_code == 0, res.output
    assert "merged into Bruno" in res.output
    res = CliRunner().invoke(app, ["tournament", "merge-players", "Bruno", "Zeno"])
    assert res.exit_code == 1 and "Zeno" in res.output


def test_corrections_say_why():
    t = services.create_tournament("T", who="w")
    services.add_players(t, NAMES, who="w")
    e = services.open_evening(t, DATE, who="w")
    services.record_arrival(e, "Anna", "21:20", who="w")
    services.record_arrival(e, "Anna", "21:05", reason="orologio sbagliato", who="w")
    assert Arrival.objects.current().get().reason == "orologio sbagliato"
    services.set_tables(e, [NAMES[:4]], who="w")
    services.swap_seats(e, "Anna", "Dario", reason="Anna al primo posto per errore", who="w")
    assert Seat.objects.current().get(player__name="Anna").reason.startswith("Anna al")
    table = services.get_table(e, 1)
    services.enter_scores(table, dict(zip(NAMES[:4], [50, 40, 30, 20], strict=True)), who="w")
    res = CliRunner().invoke(app, ["tournament", "scores", t.slug, DATE, "1", "Anna=20",
                                   "Bruno=40", "Carla=30", "Dario=50", "--reason",
                                   "punteggi invertiti", "--by", "arbitro"])
    assert res.exit_code == 0, res.output
    assert TableResult.objects.current().get().reason == "punteggi invertiti"
    entry = AuditEntry.objects.filter(action="correct result").get()
    assert entry.data["reason"] == "punteggi invertiti" and "punteggi invertiti" in entry.summary
    # shown in the table's history
    referee = _client("referee")
    page = referee.get(reverse("console_table", args=[t.slug, DATE, 1]))
    assert "punteggi invertiti" in page.content.decode()
    # and in the log
    log = referee.get(reverse("console_audit", args=[t.slug])).content.decode()
    assert "orologio sbagliato" in log and "punteggi invertiti" in log


def test_add_players_says_who_was_added_and_who_was_there_already():
    t = services.create_tournament("T", who="w")
    services.add_players(t, ["Anna", "Bruno"], who="w")

    def add(*names: str, lang: str = "en") -> str:
        res = CliRunner().invoke(app, ["--lang", lang, "tournament", "add-players", t.slug,
                                       *names], env={"COLUMNS": "200"})
        assert res.exit_code == 0, res.output
        return res.output.strip()

    assert add("Anna") == "no player registered; already registered: Anna"
    assert add("Carla", "Bruno", "Anna") == \
        "1 player registered: Carla; already registered: Bruno and Anna"
    assert add("Dario", "Elena", "Dario") == "2 players registered: Dario and Elena"
    assert add("Anna", "Fabio", "Gino", "Ugo", lang="it") == \
        "3 giocatori iscritti: Fabio, Gino e Ugo; già iscritto: Anna"
    assert add("Anna", "Bruno", lang="it") == \
        "nessun giocatore iscritto; già iscritti: Anna e Bruno"
    assert t.entries.count() == 8
    assert AuditEntry.objects.filter(action="add player").count() == 8


def test_scores_sent_again_from_the_command_line_are_already_recorded():
    t = services.create_tournament("T", who="w")
    services.add_players(t, NAMES[:4], who="w")
    e = services.open_evening(t, DATE, who="w")
    services.set_tables(e, [NAMES[:4]], who="w")
    scores = ["Anna=50", "Bruno=40", "Carla=30", "Dario=20"]
    said = []
    for _ in range(2):
        res = CliRunner().invoke(app, ["tournament", "scores", t.slug, DATE, "1", *scores])
        assert res.exit_code == 0, res.output
        said.append(res.output.strip())
    assert said == ["table 1: scores recorded", "table 1: already recorded, nothing changed"]
    assert TableResult.objects.count() == 1
    assert list(AuditEntry.objects.filter(action__endswith="result")
                .values_list("action", flat=True)) == ["enter result"]
