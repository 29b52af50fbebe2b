"""Every write the console offers, sent 8 times at the same instant (a double tap, a flaky
phone network retrying, two tabs), against a live server with its own database connection per
request: exactly one stored fact, one audit entry, and standings that count it once.

Also without a one-time token: identical corrections at once leave one current row (the lock
and the constraints), two referees saving different facts at once both get through (no
"database is locked"), and the first-run page creates one account. Runs on the file-backed
SQLite test database with the production options, and again on PostgreSQL
(``make unit-postgres``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from concurrency_kit import Session, fire
from django.contrib.auth.models import User
from django.urls import reverse

from risiko.board import parse_territory
from risiko.objectives import get_objective
from risiko.web import selectors, services
from risiko.web.auditlog.models import AuditEntry
from risiko.web.core.models import FormToken
from risiko.web.evenings.models import Arrival, Evening
from risiko.web.players.models import Player
from risiko.web.results.models import Appeal, Discipline, Penalty, Seat, TableResult
from risiko.web.tools.models import ClosingEvent
from risiko.web.tournaments.models import CarryOver, Draw, Tournament

pytestmark = [pytest.mark.db, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("fast_hashing")]

N = 8
NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fede", "Gino", "Ilia", "Lino", "Mara",
         "Nico"]
DATE = "2027-03-02"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SEASON = EXAMPLES / "season-2027.json"


@pytest.fixture
def session(live_server, referee) -> Session:
    return Session.logged_in(live_server.url, referee)


@pytest.fixture
def committee(live_server, make_user) -> Session:
    return Session.logged_in(live_server.url, make_user("comitato", "committee"))


def _club(arrived: bool = False, seated: bool = False, played: bool = False):
    t = services.create_tournament("Torneo sociale", who="setup")
    services.add_players(t, NAMES, who="setup")
    e = services.open_evening(t, DATE, who="setup")
    seated = seated or played
    if arrived or seated:
        for name in NAMES[:10]:
            services.record_arrival(e, name, "21:00", who="setup")
    if seated:
        services.set_tables(e, [NAMES[:5], NAMES[5:10]], who="setup")
    if played:
        services.enter_scores(services.get_table(e, 1),
                              dict(zip(NAMES[:5], [57, 40, 12, 30, 20], strict=True)),
                              who="setup")
    return t, e


def _once(session: Session, path: str, data: dict, n: int = N, files=None):
    """Post the same form (one token) ``n`` times at once; every answer is a redirect (the
    first one's, the others "already recorded") and the token is kept once."""
    token = session.token(path)
    answers = fire(session, path, {**data, "once": token}, n=n, files=files)
    assert [a.status for a in answers] == [302] * n, [(a.status, a.body[:300]) for a in answers]
    assert len({a.location for a in answers}) == 1
    assert FormToken.objects.count() == 1
    return answers


def _audits(action: str) -> int:
    return AuditEntry.objects.filter(action=action).exclude(who="setup").count()


def _row(t, name: str):
    return next(r for r in selectors.standings(t).rows if r.player == name)


def test_the_console_forms_carry_a_new_token_each_time(session):
    t, _e = _club()
    path = reverse("console_checkin", args=[t.slug, DATE])
    first, second = session.get(path).body, session.get(path).body
    tokens = re.findall(r'name="once" value="([^"]+)"', first)
    assert len(tokens) == len(NAMES) and len(set(tokens)) == len(NAMES)
    assert not set(tokens) & set(re.findall(r'name="once" value="([^"]+)"', second))


def test_arrival(session):
    t, _e = _club()
    anna = t.entries.get(player__name="Anna").player_id
    _once(session, reverse("console_arrival", args=[t.slug, DATE, anna]), {"at": "21:05"})
    assert Arrival.objects.filter(player_id=anna).count() == 1
    assert _audits("arrival") == 1


def test_arrival_by_htmx_answers_the_same_row(session):
    t, _e = _club()
    anna = t.entries.get(player__name="Anna").player_id
    path = reverse("console_arrival", args=[t.slug, DATE, anna])
    answers = fire(session, path, {"at": "21:15", "once": session.token(path)},
                   headers={"HX-Request": "true"})
    assert [a.status for a in answers] == [200] * N
    assert all("in ritardo" in a.body for a in answers)
    assert Arrival.objects.filter(player_id=anna).count() == 1 and _audits("arrival") == 1


def test_seating_by_the_optimiser(session):
    t, _e = _club(arrived=True)
    _once(session, reverse("console_seat", args=[t.slug, DATE]), {"seed": "7"})
    assert Seat.objects.count() == 10 and Seat.objects.current().count() == 10
    assert _audits("seat evening") == 1


def test_seating_by_hand(session):
    t, _e = _club(arrived=True)
    plan = "Anna, Bruno, Carla, Dario, Elena\nFede, Gino, Ilia, Lino, Mara"
    _once(session, reverse("console_set_tables", args=[t.slug, DATE]), {"tables": plan})
    assert Seat.objects.count() == 10 and _audits("set tables") == 1


def test_swap(session):
    t, _e = _club(seated=True)
    _once(session, reverse("console_swap", args=[t.slug, DATE]), {"a": "Anna", "b": "Fede"})
    assert _audits("swap seats") == 1
    assert Seat.objects.current().count() == 10 and Seat.objects.count() == 12
    first = Seat.objects.current().get(table__number=2, position=1)
    assert first.player.name == "Anna"


def test_result_by_scores(session):
    t, _e = _club(seated=True)
    data = {f"score_{i}": v for i, v in enumerate([57, 40, 12, 30, 20], start=1)}
    _once(session, reverse("console_scores", args=[t.slug, DATE, 1]), data)
    assert TableResult.objects.count() == 1 and _audits("enter result") == 1
    assert _row(t, "Anna").games == 1


def _sheet_table():
    """A tournament with one table seated as the example sheet's players."""
    t = services.create_tournament("Torneo sociale", who="setup")
    sheet = json.loads((EXAMPLES / "sheet-5-seats.json").read_text(encoding="utf-8"))
    names = [s["player"] for s in sheet["seats"]]
    services.add_players(t, names, who="setup")
    e = services.open_evening(t, DATE, who="setup")
    services.set_tables(e, [names], who="setup")
    return t, sheet


def test_result_by_sheet(session):
    t, sheet = _sheet_table()
    _once(session, reverse("console_sheet", args=[t.slug, DATE, 1]),
          {"text": json.dumps(sheet)})
    assert TableResult.objects.count() == 1 and _audits("enter result") == 1
    assert _row(t, "Anna").games == 1


def test_r13_left_the_game(session):
    t, _e = _club(played=True)
    before = _row(t, "Bruno").points
    _once(session, reverse("console_abandon", args=[t.slug, DATE, 1]), {"player": "Bruno"})
    assert TableResult.objects.count() == 2 and TableResult.objects.current().count() == 1
    assert _audits("correct result") == 1
    assert TableResult.objects.current().get().abandoned == ["Bruno"]
    # R13: the seat scores 0 and -25 in the ranking, once
    assert _row(t, "Bruno").points < before and _row(t, "Bruno").penalties == -25


def test_penalty(session):
    t, _e = _club(seated=True)
    _once(session, reverse("console_add_penalty", args=[t.slug, DATE]),
          {"player": "Carla", "unit": "ranking", "points": "-5", "reason": "ritardo",
           "referee": "Rita", "at": "21:30"})
    assert Penalty.objects.count() == 1 and _audits("penalty") == 1
    assert _row(t, "Carla").penalties == -5


def test_void(session):
    t, e = _club(played=True)
    pen = services.add_penalty(e, "Carla", -5, unit="ranking", reason="x", referee="R",
                               who="setup")
    assert _row(t, "Carla").penalties == -5
    _once(session, reverse("console_void_penalty", args=[t.slug, DATE, pen.pk]),
          {"reason": "inserita per errore"})
    assert _audits("void penalty") == 1 and Penalty.objects.get().voided
    assert _row(t, "Carla").penalties == 0  # the -5 no longer counts, and nothing else does


def test_appeal(session):
    t, e = _club(seated=True)
    pen = services.add_penalty(e, "Carla", -5, unit="ranking", reason="x", referee="R",
                               who="setup")
    _once(session, reverse("console_appeal", args=[t.slug, DATE, pen.pk]),
          {"outcome": "reduced", "points": "-2", "referee": "Capo", "reason": "ok"})
    assert Appeal.objects.count() == 1 and _audits("appeal") == 1
    assert _row(t, "Carla").penalties == -2


def test_discipline(session):
    t, _e = _club(seated=True)
    _once(session, reverse("console_discipline", args=[t.slug, DATE]),
          {"player": "Elena", "level": "warning", "reason": "linguaggio", "referee": "Rita"})
    assert Discipline.objects.count() == 1 and _audits("discipline") == 1


def test_carry_over(session):
    t, _e = _club()
    _once(session, reverse("console_carry_over", args=[t.slug]),
          {"player": "Nico", "points": "37", "referee": "Luca", "note": "R17"})
    assert CarryOver.objects.count() == 1 and _audits("carry over") == 1
    assert _row(t, "Nico").points == 37


def _qualified():
    data = json.loads(SEASON.read_text(encoding="utf-8"))
    data["evenings"] = [e for e in data["evenings"] if e["stage"] == "qualifying"]
    data["draws"] = []
    return services.import_season(data, who="setup")


def test_draw_of_lots(session):
    t = _qualified()
    _once(session, reverse("console_draw", args=[t.slug]),
          {"stage": "semifinal", "order": "Ezio\nDora", "referee": "Luca"})
    assert Draw.objects.count() == 1 and _audits("draw of lots") == 1
    assert Draw.objects.current().get().order == ["Ezio", "Dora"]


def test_stage(session):
    t = _qualified()
    services.record_draw(t, "semifinal", ["Ezio", "Dora"], referee="Luca", who="setup")
    _once(session, reverse("console_seat_stage", args=[t.slug]),
          {"stage": "semifinal", "date": "2027-03-30", "chief_referee": "Luca"})
    assert Evening.objects.filter(stage="semifinal").count() == 1
    assert _audits("open evening") == 1 and _audits("set tables") == 1
    seats = Seat.objects.filter(table__evening__stage="semifinal")
    players = [s.player_id for s in seats]
    assert len(players) == len(set(players)) > 0  # each qualifier seated once
    assert seats.current().count() == len(players)


def test_first_run_makes_one_account(live_server, settings):
    settings.RISIKO_FIRST_RUN_CHECK = True
    anonymous = Session.logged_in(live_server.url)
    data = [{"username": f"capo{i}", "password1": "tavolo-rosso-42",
             "password2": "tavolo-rosso-42"} for i in range(N)]
    answers = fire(anonymous, reverse("first_run"), data)
    assert all(a.status in (302, 404) for a in answers), [a.status for a in answers]
    assert User.objects.count() == 1 and User.objects.get().is_superuser


def test_create_tournament_with_its_players(session):
    _once(session, reverse("referee_home"),
          {"name": "Torneo di primavera", "ruleset": "club-milano", "format": "club-milano",
           "players": "Anna\nBruno"})
    assert Tournament.objects.count() == 1 and _audits("create tournament") == 1
    assert Player.objects.count() == 2 and _audits("add player") == 2


def test_add_players(session):
    t, _e = _club()
    _once(session, reverse("console_add_players", args=[t.slug]), {"players": "Olga\nPia"})
    assert t.entries.count() == len(NAMES) + 2 and _audits("add player") == 2


def test_open_evening(session):
    t, _e = _club()
    _once(session, reverse("console_open_evening", args=[t.slug]),
          {"date": "2027-03-09", "stage": "qualifying"})
    assert t.evenings.count() == 2 and _audits("open evening") == 1


def test_make_current(session):
    t, _e = _club()
    _once(session, reverse("console_make_current", args=[t.slug]), {})
    assert Tournament.objects.get().is_current and _audits("set current tournament") == 1


def test_import_a_season(committee):
    _once(committee, reverse("console_import"), {"name": ""},
          files={"file": ("season-2027.json", SEASON.read_bytes())})
    t = Tournament.objects.get()
    assert _audits("import season") == 1
    data = json.loads(SEASON.read_text(encoding="utf-8"))
    assert t.evenings.count() == len(data["evenings"])
    assert t.entries.count() == len(data["players"])


def test_merge_players(committee):
    t, _e = _club(arrived=True)
    twin = Player.objects.create(name="Nico R.")  # Nico registered a second time
    t.entries.create(player=twin, order=99)
    services.set_carry_over(t, "Nico R.", 12, referee="Luca", who="setup")
    _once(committee, reverse("console_merge_players"), {"keep": "Nico", "twin": "Nico R."})
    assert _audits("merge players") == 1
    assert not t.entries.filter(player=twin).exists()
    assert CarryOver.objects.current().get().player.name == "Nico"
    assert _row(t, "Nico").points == 12  # the carry-over counted once, now Nico's


def test_result_by_the_board(session):
    t, sheet = _sheet_table()
    state = {"seats": [{"position": pos, "objective": get_objective(seat["objective"]).number,
                        "armies": {str(parse_territory(k)): v
                                   for k, v in seat["armies"].items()}}
                       for pos, seat in enumerate(sheet["seats"], start=1)]}
    _once(session, reverse("board_save", args=[t.slug, DATE, 1]), {"state": json.dumps(state)})
    assert TableResult.objects.count() == 1 and _audits("enter result") == 1
    assert _row(t, sheet["seats"][0]["player"]).games == 1


def test_closing_dice(session):
    t, _e = _club(seated=True)
    # R2: the last seat (Elena) rolls first; 6 does not close the first round
    _once(session, reverse("closing_dice", args=[t.slug, DATE, 1]),
          {"position": "5", "conquests": "0", "total": "6"})
    assert ClosingEvent.objects.count() == 1 and _audits("closing dice") == 1


# ------------------------------------------------------------------------- without tokens
def test_identical_corrections_at_once_leave_one_current_arrival(session):
    t, _e = _club()
    anna = t.entries.get(player__name="Anna").player_id
    answers = fire(session, reverse("console_arrival", args=[t.slug, DATE, anna]),
                   {"at": "21:05"})
    assert all(a.status == 302 for a in answers), [a.status for a in answers]
    assert Arrival.objects.current().filter(player_id=anna).count() == 1
    # the same arrival sent again writes nothing (no correction without a reason)
    assert Arrival.objects.filter(player_id=anna).count() == 1 and _audits("arrival") == 1


def test_the_same_scores_sent_again_at_once_write_nothing(session):
    # a played table (57, 40, 12, 30, 20) and N tabs sending those very scores at the
    # same instant, each without a token: the result is already recorded, nothing written
    t, _e = _club(played=True)
    answers = fire(session, reverse("console_scores", args=[t.slug, DATE, 1]),
                   {f"score_{i}": v for i, v in enumerate([57, 40, 12, 30, 20], start=1)})
    assert all(a.status == 302 for a in answers), [a.status for a in answers]
    assert TableResult.objects.count() == 1 and _audits("correct result") == 0
    assert _row(t, "Anna").points == 57 and _row(t, "Anna").games == 1


def test_two_referees_saving_at_once_both_get_through(session):
    t, _e = _club(seated=True)
    scores = [57, 40, 12, 30, 20]
    payloads = []
    paths = []
    for number, _names in ((1, NAMES[:5]), (2, NAMES[5:10])):
        paths.append(reverse("console_scores", args=[t.slug, DATE, number]))
        payloads.append({f"score_{i}": v for i, v in enumerate(scores, start=1)})
    import threading
    from concurrent.futures import ThreadPoolExecutor

    barrier = threading.Barrier(2)

    def one(i: int):
        barrier.wait()
        return session.post(paths[i], {**payloads[i], "once": session.token(paths[i])})

    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(one, range(2)))
    assert [a.status for a in answers] == [302, 302]
    assert TableResult.objects.current().count() == 2 and _audits("enter result") == 2
