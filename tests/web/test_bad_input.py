"""What is stored can always be read: random bad values posted to every form and endpoint
that writes (wrong types, huge and negative numbers, NUL, 10 kB strings, deep JSON,
unreadable times) are refused with a 4xx and a message, write nothing, and every page still
answers 200 afterwards. Also the 500s the write-path issue listed, one by one."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import settings as settings_
from hypothesis import strategies as st

from risiko.web import services
from risiko.web.auditlog.models import AuditEntry
from risiko.web.core.models import FormToken
from risiko.web.evenings.models import Arrival, Evening
from risiko.web.players.models import Player
from risiko.web.results.models import Appeal, Discipline, Penalty, Seat, TableResult
from risiko.web.tools.models import ClosingEvent
from risiko.web.tournaments.models import CarryOver, Draw, Tournament

pytestmark = [pytest.mark.db, pytest.mark.django_db, pytest.mark.usefixtures("fast_hashing")]

NAMES = ["Alba", "Bice", "Ciro", "Dora", "Ezio", "Fede", "Gino", "Ilia", "Lino", "Mara",
         "Nico"]
DATE = "2027-03-02"
DEEP = "[" * 5000 + "]" * 5000
HUGE = "9" * 30

BAD = {
    "text": ["a\x00b", "x" * 10_000],
    "name": ["Zeno", "a\x00b", "x" * 10_000, ""],
    "int": ["abc", "1.5", "1e5", HUGE, "-" + HUGE, "99999999999", "-99999999999"],
    "score": ["abc", HUGE, "-" + HUGE, "-1", "101", "", "1.5"],
    "negative": ["5", "0", "abc", "-" + HUGE, "-99999999999", ""],
    "reduced": ["-9", "1", HUGE, "-" + HUGE, "abc"],
    "time": ["24:00", "zz:zz", "ore 21", "25:61", "a\x00b", "x" * 10_000],
    "json": [DEEP, '{"seats": ' + DEEP + "}", '{"seats": [{"player": "a\\u0000"}]}', "{",
             '{"seats": [' + "1" * 400 + "]}", "x" * 10_000],
    "date": ["2027-02-30", "a\x00b", "x" * 10_000, "oggi", "9999-12-31", "1999-12-31"],
    "choice": ["bogus", "a\x00b", "x" * 10_000],
    "dice": ["1", "13", "abc", HUGE, "-3"],
    "conquests": ["-1", "43", HUGE, "abc"],
    "seat": ["0", "7", "-1", HUGE, "abc"],
}


@pytest.fixture
def played():
    t = services.create_tournament("Torneo sociale", who="setup")
    services.add_players(t, NAMES, who="setup")
    e = services.open_evening(t, DATE, who="setup")
    services.set_tables(e, [NAMES[:5], NAMES[5:10]], who="setup")
    services.enter_scores(services.get_table(e, 1),
                          dict(zip(NAMES[:5], [57, 40, 12, 30, 20], strict=True)), who="setup")
    pen = services.add_penalty(e, "Bice", -5, unit="ranking", reason="x", referee="R",
                               who="setup")
    return t, e, pen


def _endpoints(t, e, pen):
    """(url, valid values, {field: kind of bad values})."""
    alba = t.entries.get(player__name="Alba").player_id
    tb = [t.slug, DATE]
    return [
        (reverse("referee_home"),
         {"name": "Nuovo", "ruleset": "club-milano", "format": "club-milano"},
         {"name": "text", "ruleset": "choice", "format": "choice", "format_params": "json",
          "players": "text"}),
        (reverse("console_add_players", args=[t.slug]), {}, {"players": "text"}),
        (reverse("console_open_evening", args=[t.slug]),
         {"date": "2027-04-06", "stage": "qualifying"},
         {"date": "date", "stage": "choice", "chief_referee": "text"}),
        (reverse("console_carry_over", args=[t.slug]),
         {"player": "Nico", "points": "10", "referee": "R"},
         {"player": "name", "points": "int", "referee": "text", "note": "text"}),
        (reverse("console_arrival", args=[*tb, alba]), {"at": "21:00"},
         {"at": "time", "phoned_at": "time", "reason": "text"}),
        (reverse("console_swap", args=tb), {"a": "Fede", "b": "Gino"},
         {"a": "name", "b": "name", "reason": "text"}),
        (reverse("console_set_tables", args=tb), {}, {"tables": "text", "reason": "text"}),
        (reverse("console_seat", args=tb), {}, {"seed": "text"}),
        (reverse("console_scores", args=[*tb, 2]),
         {f"score_{i}": "10" for i in range(1, 6)},
         {"score_1": "score", "score_3": "score", "reason": "text"}),
        (reverse("console_sheet", args=[*tb, 2]), {}, {"text": "json", "reason": "text"}),
        (reverse("console_abandon", args=[*tb, 1]), {"player": "Alba"}, {"player": "name"}),
        (reverse("console_add_penalty", args=tb),
         {"player": "Ciro", "unit": "ranking", "points": "-5", "reason": "x", "referee": "R"},
         {"player": "name", "unit": "choice", "points": "negative", "reason": "text",
          "referee": "text", "at": "time"}),
        (reverse("console_void_penalty", args=[*tb, pen.pk]), {}, {"reason": "text"}),
        (reverse("console_appeal", args=[*tb, pen.pk]),
         {"outcome": "reduced", "points": "-2", "referee": "Capo"},
         {"outcome": "choice", "points": "reduced", "referee": "text", "reason": "text"}),
        (reverse("console_discipline", args=tb),
         {"player": "Ezio", "level": "warning", "reason": "x", "referee": "R"},
         {"player": "name", "level": "choice", "reason": "text", "referee": "text",
          "table_number": "int"}),
        (reverse("console_draw", args=[t.slug]),
         {"stage": "semifinal", "order": "Alba\nBice", "referee": "R"},
         {"stage": "choice", "order": "text", "referee": "text", "note": "text"}),
        (reverse("board_save", args=[*tb, 2]), {}, {"state": "json"}),
        (reverse("board_score", args=[*tb, 2]), {}, {"state": "json"}),
        (reverse("console_merge_players"), {"keep": "Nico", "twin": "Mara"},
         {"keep": "name", "twin": "name"}),
        (reverse("closing_dice", args=[*tb, 1]),
         {"action": "roll", "position": "1", "total": "7", "conquests": "0"},
         {"total": "dice", "conquests": "conquests", "position": "seat", "action": "choice"}),
    ]


def _facts() -> tuple[int, ...]:
    return tuple(m.objects.count() for m in (
        AuditEntry, FormToken, Tournament, Player, Evening, Arrival, Seat, TableResult,
        Penalty, Appeal, Discipline, CarryOver, Draw, ClosingEvent))


def _pages(t, pen) -> list[str]:
    tb = [t.slug, DATE]
    return [
        "/", reverse("standings"), reverse("tournament_standings", args=[t.slug]),
        reverse("tournament_evening", args=[t.slug, DATE]),
        reverse("tournament_players", args=[t.slug]),
        f"/api/tournaments/{t.slug}/standings", f"/api/tournaments/{t.pk}/standings",
        reverse("referee_home"), reverse("console_tournament", args=[t.slug]),
        reverse("console_stages", args=[t.slug]), reverse("console_evening", args=tb),
        reverse("console_checkin", args=tb), reverse("console_seating", args=tb),
        reverse("console_penalties", args=tb), reverse("console_table", args=[*tb, 1]),
        reverse("console_table", args=[*tb, 2]), reverse("console_appeal", args=[*tb, pen.pk]),
        reverse("board_entry", args=[*tb, 2]), reverse("closing_dice", args=[*tb, 1]),
        reverse("console_audit", args=[t.slug]),
    ]


def _refused(r) -> bool:
    body = r.content.decode("utf-8", "replace")
    message = ("errorlist" in body or "save-errors" in body or "messages" in body
               or r["Content-Type"].startswith("text/plain"))
    return 400 <= r.status_code < 500 and bool(body.strip()) and message


def test_random_bad_values_are_refused_and_nothing_is_written(played, make_user):
    t, e, pen = played
    c = Client()
    c.force_login(make_user("arbitro", "referee", "committee"))  # merging is the committee's
    endpoints = _endpoints(t, e, pen)
    before = _facts()

    @settings(max_examples=250, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(st.data())
    def post_bad(data):
        url, valid, fields = data.draw(st.sampled_from(endpoints))
        field = data.draw(st.sampled_from(sorted(fields)))
        value = data.draw(st.sampled_from(BAD[fields[field]]))
        r = c.post(url, {**valid, field: value})
        assert _refused(r), (url, field, value[:40], r.status_code,
                             r.content.decode("utf-8", "replace")[:300])
        assert _facts() == before, (url, field, value[:40])

    post_bad()
    for page in _pages(t, pen):
        assert c.get(page).status_code == 200, page
    assert c.get(reverse("console_merge_players")).status_code == 200


SUPPORT = ["-1", "abc", "1.5", HUGE, "-" + HUGE, "99999999999", "a\x00b", "x" * 10_000]
ARMIES = ["0", "", "401", *SUPPORT]
CARDS = ["Zanzibar", "a\x00b", "x" * 10_000, ",,,", "jolly," * 500]


def test_random_bad_values_to_the_tools_apis_and_the_login_are_refused(played, settings, make_user):
    """The referee's calculators answer bad numbers and names with 400 and the reason (JSON:
    ``error``), the pages with their forms with a message; a login with a NUL, a 10 kB name
    or a wrong type is refused as a failed login (never a 500, on PostgreSQL either)."""
    settings.RISIKO_LOGIN_MAX_FAILURES = 10_000
    settings.RISIKO_LOGIN_MAX_FAILURES_PER_ADDRESS = 10_000
    t, _e, pen = played
    c = Client()
    c.force_login(make_user("arbitro", "referee"))
    apis = [
        (reverse("attack_api"), {"attacker": "5", "defender": "3"},
         {"attacker": ARMIES, "defender": ARMIES, "support": SUPPORT,
          "ruleset": BAD["choice"]}),
        (reverse("card_set_api"), {"cards": "Alaska,Alberta,jolly", "hand": "3"},
         {"cards": CARDS, "owned": CARDS[:3], "hand": BAD["int"],
          "ruleset": BAD["choice"]}),
    ]
    forms = [
        (reverse("attack_check"), {"attacker": "5", "defender": "3"},
         {"attacker": ARMIES, "defender": ARMIES, "support": SUPPORT}),
        (reverse("card_set"), {}, {"card1": BAD["choice"], "hand": BAD["int"]}),
    ]
    login = (reverse("login"), {"username": "arbitro", "password": "tavolo-rosso-42"},
             {"username": BAD["name"][1:], "password": BAD["text"]})
    before = _facts()

    @settings_(max_examples=150, deadline=None, database=None,
               suppress_health_check=[HealthCheck.too_slow])
    @given(st.data())
    def ask_bad(data):
        kind = data.draw(st.sampled_from(["api", "form", "login"]))
        url, valid, fields = data.draw(st.sampled_from(
            apis if kind == "api" else forms if kind == "form" else [login]))
        field = data.draw(st.sampled_from(sorted(fields)))
        value = data.draw(st.sampled_from(fields[field]))
        if kind == "login":
            r = Client().post(url, {**valid, field: value})
            body = r.content.decode()
            # Django's login answers a failed login with its form again (200) and a message
            assert r.status_code == 200 and "errorlist" in body, (field, value[:40])
            assert "_auth_user_id" not in r.client.session
            return
        r = c.get(url, {**valid, field: value})
        if kind == "api":
            assert r.status_code == 400 and json.loads(r.content)["error"], (
                url, field, value[:40], r.status_code, r.content[:200])
        else:
            assert r.status_code in (200, 400) and "errorlist" in r.content.decode(), (
                url, field, value[:40], r.status_code)

    ask_bad()
    assert _facts() == before
    for page in _pages(t, pen):
        assert c.get(page).status_code == 200, page


def test_uploads_too_deep_too_big_or_not_json_are_refused(played, settings, make_user):
    boss = Client()
    boss.force_login(make_user("comitato", "committee"))
    url = reverse("console_import")
    before = _facts()
    for content in (DEEP.encode(), b'{"name": "a\\u0000"}', b"\xff\xfe", b"{"):
        r = boss.post(url, {"file": SimpleUploadedFile("s.json", content, "application/json")})
        assert r.status_code == 400 and "errorlist" in r.content.decode(), content[:20]
    settings.RISIKO_UPLOAD_MAX_BYTES = 100_000
    big = SimpleUploadedFile("s.json", b" " * 300_000 + b"{}", "application/json")
    r = boss.post(url, {"file": big})
    # the body (300,002 bytes of file and the form's parts) and the limit in KB, rounded down
    said = r.content.decode("utf-8")
    assert r.status_code == 413 and "97 KB" in said and "293 KB" in said, said
    assert _facts() == before


@pytest.mark.parametrize("key", ["²", HUGE, "-1", "%00", "x" * 300, "0"])
def test_bad_tournament_keys_in_the_api_are_404(played, key, settings):
    settings.RISIKO_FIRST_RUN_CHECK = False
    r = Client().get(f"/api/tournaments/{key}/standings")
    assert r.status_code == 404 and "error" in json.loads(r.content)


def test_a_stored_fact_that_cannot_be_read_is_named_not_a_500(played, make_user):
    """A penalty saved by an older version with an unreadable time ("24:00"): the pages
    still answer, the console names the fact to the referees."""
    t, e, pen = played
    Penalty.objects.filter(pk=pen.pk).update(at="24:00")
    Arrival.objects.create(evening=e, player=Player.objects.get(name="Nico"), at="zz:zz")
    c = Client()
    c.force_login(make_user("arbitro", "referee"))
    for page in _pages(t, pen):
        assert c.get(page).status_code == 200, page
    page = c.get(reverse("console_tournament", args=[t.slug])).content.decode()
    assert f"penalty {pen.pk} of Bice" in page and "arrival" in page and "Nico" in page
    # and the next result of that tournament is still saved
    r = c.post(reverse("console_scores", args=[t.slug, DATE, 2]),
               {f"score_{i}": "10" for i in range(1, 6)})
    assert r.status_code == 302 and TableResult.objects.count() == 2


def test_services_refuse_by_name_what_a_database_would_refuse(played):
    t, e, _pen = played
    table = services.get_table(e, 2)
    cases = [
        (lambda: services.add_players(t, ["x" * 81], who="w"), "service.too_long"),
        (lambda: services.add_players(t, ["a\x00b"], who="w"), "service.nul"),
        (lambda: services.add_penalty(e, "Ciro", -(2**40), unit="ranking", reason="x",
                                      referee="R", who="w"), "service.out_of_range"),
        (lambda: services.add_penalty(e, "Ciro", -5, unit="ranking", reason="x" * 301,
                                      referee="R", who="w"), "service.too_long"),
        (lambda: services.add_penalty(e, "Ciro", -5, unit="ranking", reason="x",
                                      referee="R", at="24:00", who="w"), "time.out_of_range"),
        (lambda: services.set_carry_over(t, "Nico", 10**20, referee="R", who="w"),
         "service.out_of_range"),
        (lambda: services.enter_scores(table, {n: -1 for n in NAMES[5:10]}, who="w"),
         "tournament.score_negative"),
        (lambda: services.add_discipline(e, "Ezio", "warning", reason="x", referee="R" * 81,
                                         who="w"), "service.too_long"),
        (lambda: services.record_arrival(e, "Nico", "21:00", reason="a\x00", who="w"),
         "service.nul"),
    ]
    before = _facts()
    for call, code in cases:
        with pytest.raises(services.ServiceError) as err:
            call()
        assert err.value.fault.code == code, (code, err.value.faults)
        assert err.value.fault.subjects.get("evening", "2027-03-02") == "2027-03-02"
    assert _facts() == before


def test_a_write_the_database_refuses_is_a_message_naming_what_changed(played):
    """The constraints are the last line: a write that gets past the service's checks (here
    one that skips them) and breaks "one current row" is a ServiceError, on SQLite (which
    names the columns) as on PostgreSQL (which names the constraint)."""
    from risiko.web.core.writes import write

    _t, e, _pen = played
    nico = Player.objects.get(name="Nico")

    @write
    def arrive_without_the_checks():
        return Arrival.objects.create(evening=e, player=nico, at="21:00")

    arrive_without_the_checks()
    with pytest.raises(services.ServiceError) as err:
        arrive_without_the_checks()
    assert err.value.fault.code == "service.conflict_arrival"
    assert err.value.fault.params["constraint"] == "one_current_arrival"
    assert Arrival.objects.filter(player=nico).count() == 1
    services.record_arrival(e, "Nico", "21:05", reason="ora giusta",  # the service supersedes
                            who="w")
    assert Arrival.objects.current().get(player=nico).at == "21:05"


@pytest.mark.parametrize("day", ["9999-12-31", "1999-12-31", "2100-01-01"])
def test_an_evening_outside_the_years_2000_2099_is_refused_at_every_door(played, day, make_user):
    from risiko.tournament.dates import EVENING_YEARS

    assert EVENING_YEARS == (2000, 2099)
    t, _e, pen = played
    before = _facts()
    with pytest.raises(services.ServiceError) as err:
        services.open_evening(t, day, who="test")
    fault = err.value.faults[0]
    assert (fault.code, fault.params["date"]) == ("time.evening_date_range", day)
    assert f"not on {day}" in fault.message("en") and f"non il {day}" in fault.message("it")
    c = Client()
    c.force_login(make_user("arbitro", "referee"))
    r = c.post(reverse("console_open_evening", args=[t.slug]),
               {"date": day, "stage": "qualifying"})
    assert r.status_code == 400 and day in r.content.decode() and "2099" in r.content.decode()
    # a season file holding it: the console import refuses it by name
    season = services.export_season(t)
    season["name"] = "Copia"
    season["evenings"][0]["date"] = day
    boss = Client()
    boss.force_login(make_user("comitato", "committee"))
    r = boss.post(reverse("console_import"), {"file": SimpleUploadedFile(
        "s.json", json.dumps(season).encode(), "application/json")})
    assert r.status_code == 400 and day in r.content.decode(), r.content.decode()[:500]
    assert _facts() == before
    for page in _pages(t, pen):
        assert c.get(page).status_code == 200, page


def test_a_stored_evening_dated_9999_12_31_is_named_not_a_500(played, make_user):
    """A database written before dates were checked may hold an evening on the last day of
    the calendar (the standings once added a day to it: OverflowError): the pages answer,
    the console names the evening, the others are computed as before."""
    t, _e, pen = played
    Evening.objects.create(tournament=t, date="9999-12-31", stage="qualifying")
    c = Client()
    c.force_login(make_user("arbitro", "referee"))
    for page in _pages(t, pen):
        assert c.get(page).status_code == 200, page
    page = c.get(reverse("console_tournament", args=[t.slug])).content.decode()
    assert "evening 9999-12-31" in page and "2099" in page
    doc = json.loads(c.get(f"/api/tournaments/{t.slug}/standings").content)
    points = {r["player"]: r["points"] for r in doc["standings"]}
    assert points["Alba"] == 57 and points["Bice"] == 40 - 5
