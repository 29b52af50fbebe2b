"""An online tournament table's result never silently replaces the referee's (issue 20 item
4): his result stands, the online one waits as its own audited row, shown beside his on the
console's evening page, until he keeps one of the two with a reason; the public figures
change only then. Also when the referee saves at the very moment the table ends."""

from __future__ import annotations

import os
import threading
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.db import connection
from django.test import Client
from django.urls import reverse

from risiko.web import selectors
from risiko.web import services as club
from risiko.web.auditlog.models import AuditEntry
from risiko.web.online import services
from risiko.web.online.models import OnlineResult, OnlineTable
from risiko.web.results.models import TableResult

pytestmark = [pytest.mark.online, pytest.mark.db]
PASSWORD = "tavolo-rosso-42"
DATE = "2027-03-02"
NAMES = ["Alba", "Bice", "Ciro", "Dora", "Ezio", "Fede", "Gino", "Ilia", "Lino", "Mara",
         "Nico", "Olga"]
#: what the referee types for table 1 (R1: each at most the objective score, 100)
TYPED = {"Alba": 57, "Bice": 40, "Ciro": 12, "Dora": 30}
REFEREE = services.Actor("referee", None, "arbitro")


@pytest.fixture(autouse=True)
def _setup(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.RISIKO_ONLINE_SCHEDULER = False
    if not os.environ.get("REDIS_URL"):
        settings.CHANNEL_LAYERS = {"default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer"}}
    services.clear_cache()


def _evening(tables: int) -> tuple[Any, Any, list[OnlineTable]]:
    """A tournament evening seated by hand (tables of 4, seat order = turn order), its online
    tables opened and started (the members' turns time out until they come, R11)."""
    t = club.create_tournament("Online", who="t")
    club.add_players(t, NAMES, who="t")
    ev = club.open_evening(t, DATE, who="t")
    club.set_tables(ev, [NAMES[4 * i:4 * i + 4] for i in range(tables)], who="arbitro")
    online = services.open_evening(ev, who="arbitro", settings={"clock_seconds": 0})
    for table in online:
        services.start_now(table.pk, who="arbitro")
    return t, ev, online


def _end(table: OnlineTable) -> None:
    reply = services.referee(table.pk, REFEREE, {"kind": "end_game", "reason": "fine"})
    assert not reply.faults, reply.faults


def _points(t: Any) -> dict[str, int]:
    standings = selectors.standings(t)
    return {n: standings.row(n).table_points for n in NAMES[:4]}


def _sheet_points(row: OnlineResult) -> dict[str, int]:
    from risiko.ruleset import get_ruleset
    from risiko.sheet import parse_sheet, score_sheet

    scored = score_sheet(parse_sheet(row.sheet), get_ruleset("club-milano"))
    return {s.player: s.score for s in scored.seats}


def _referee_client() -> Client:
    user = User.objects.create_user("arbitro", password=PASSWORD)
    user.groups.add(Group.objects.get_or_create(name="referee")[0])
    c = Client()
    c.force_login(user)
    return c


@pytest.mark.django_db
def test_a_table_without_a_result_gets_the_online_one_at_once() -> None:
    _t, _ev, (table,) = _evening(1)
    _end(table)
    result = TableResult.objects.get(table=table.game_table, superseded=False)
    assert result.entered_by == f"online:{table.code}" and result.sheet is not None
    assert not OnlineResult.objects.exists()


@pytest.mark.django_db
def test_the_referees_result_stands_and_the_online_one_waits_until_he_keeps_one() -> None:
    t, _ev, (table,) = _evening(1)
    gt = table.game_table
    club.enter_scores(gt, TYPED, who="arbitro")
    before = _points(t)
    assert before == TYPED  # one table each: the table points are the typed scores
    referee = _referee_client()
    _end(table)
    # his result stands, nothing superseded, no "correct result"; the online one waits
    current = TableResult.objects.get(table=gt, superseded=False)
    assert (current.entered_by, current.scores) == ("arbitro", TYPED)
    assert TableResult.objects.filter(table=gt).count() == 1
    assert not AuditEntry.objects.filter(action="correct result").exists()
    waiting = OnlineResult.objects.get(table=table)
    assert (waiting.decision, waiting.beside_id) == ("", current.pk)
    assert waiting.sheet["seats"][0]["player"] == "Alba"
    audit = AuditEntry.objects.get(action="online result waiting")
    assert audit.who == f"online:{table.code}"
    assert _points(t) == before  # the public figures: unchanged
    # the console's evening page shows both side by side, and the form
    page = referee.get(reverse("console_evening", args=[t.slug, DATE])).content.decode()
    assert 'id="online-results"' in page and f'id="waiting-{waiting.pk}"' in page
    online_points = _sheet_points(waiting)
    side = page[page.index('class="side online-side"'):]
    for name in TYPED:  # each player's sheet score shows on the online side
        assert f"<td>{name}</td>" in side
    assert f"<strong>{online_points['Alba']}</strong>" in side
    assert reverse("online_keep_result", args=[waiting.pk]) in page
    # no reason: refused, nothing changes
    url = reverse("online_keep_result", args=[waiting.pk])
    r = referee.post(url, {"keep": "online", "reason": "  "}, follow=True)
    assert "serve un motivo" in r.content.decode() or "needs a reason" in r.content.decode()
    assert OnlineResult.objects.get(pk=waiting.pk).decision == ""
    assert _points(t) == before
    # kept with a reason, with the one-time token the page's form carries (bound to the
    # form's own address): the online result is the table's, audited as a correction
    form = page[page.index(f'action="{url}"'):]
    once = form.split('name="once" value="', 1)[1].split('"', 1)[0]
    r = referee.post(url, {"keep": "online", "reason": "il foglio del tavolo online",
                           "once": once})
    assert r.status_code == 302
    current = TableResult.objects.get(table=gt, superseded=False)
    assert current.entered_by == "arbitro" and current.sheet == waiting.sheet
    assert current.reason == "il foglio del tavolo online"
    correction = AuditEntry.objects.get(action="correct result")
    assert correction.data["replaced"]["scores"] == TYPED
    kept = OnlineResult.objects.get(pk=waiting.pk)
    assert (kept.decision, kept.decided_by, kept.reason) == (
        "online", "arbitro", "il foglio del tavolo online")
    assert AuditEntry.objects.filter(action="online result kept").count() == 1
    assert _points(t) == online_points  # the public figures change now
    # once only: a second decision is refused and writes nothing
    r = referee.post(url, {"keep": "referee", "reason": "ripensamento"}, follow=True)
    assert OnlineResult.objects.get(pk=waiting.pk).decision == "online"
    assert TableResult.objects.filter(table=gt).count() == 2
    assert 'id="online-results"' not in r.content.decode()  # nothing waits any more


@pytest.mark.django_db
def test_the_referee_keeps_his_own_and_nothing_else_changes() -> None:
    t, _ev, (table,) = _evening(1)
    club.enter_scores(table.game_table, TYPED, who="arbitro")
    _end(table)
    waiting = OnlineResult.objects.get(table=table)
    with pytest.raises(services.OnlineError) as e:
        services.keep_result(waiting, "both", reason="x", who="arbitro")
    assert e.value.faults[0].code == "online.result_choice"
    services.keep_result(waiting, "referee", reason="il foglio era sbagliato", who="arbitro")
    assert TableResult.objects.filter(table=table.game_table).count() == 1
    assert _points(t) == TYPED
    assert OnlineResult.objects.get(pk=waiting.pk).decision == "referee"


@pytest.mark.django_db(transaction=True)
def test_the_referee_saving_while_the_table_ends_loses_nothing() -> None:
    """Three tables; at each, the referee's scores and the table's end released together
    (two threads, two database connections, a barrier). Whichever the database serves first,
    the referee's result is the table's, and the online one is kept: waiting beside it (the
    end came second) or superseded by his, audited as his correction (his came second)."""
    _t, _ev, tables = _evening(3)
    corrections = 0
    for number, table in enumerate(tables):
        gt = table.game_table
        typed = dict(zip(NAMES[4 * number:4 * number + 4], [57, 40, 12, 30], strict=True))
        barrier = threading.Barrier(2)
        errors: list[BaseException] = []

        def run(fn: Any, barrier: threading.Barrier = barrier,
                errors: list[BaseException] = errors) -> None:
            try:
                barrier.wait()
                fn()
            except BaseException as e:
                errors.append(e)
            finally:
                connection.close()

        def end(table: OnlineTable = table) -> None:
            _end(table)

        def save(gt: Any = gt, typed: dict[str, int] = typed) -> None:
            # with a reason: when the table's end is served first, his save corrects the
            # online result, and a correction without a reason is refused
            club.enter_scores(gt, typed, who="arbitro", reason="punteggi dal tavolo")

        threads = [threading.Thread(target=run, args=(fn,)) for fn in (end, save)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(120)
        assert not errors, errors
        rows = list(TableResult.objects.filter(table=gt).order_by("id"))
        current = [r for r in rows if not r.superseded]
        assert len(current) == 1 and current[0].entered_by == "arbitro"
        assert current[0].scores == typed
        waiting = OnlineResult.objects.filter(table=table).first()
        online_rows = [r for r in rows if r.entered_by == f"online:{table.code}"]
        if waiting is not None:  # the end came second: it waits, nothing replaced
            assert online_rows == [] and len(rows) == 1 and waiting.decision == ""
        else:  # his save came second: the online result is there, superseded by his
            assert len(online_rows) == 1 and online_rows[0].superseded and len(rows) == 2
            corrections += 1
        assert AuditEntry.objects.filter(action="correct result",
                                         who="arbitro").count() == corrections
    assert TableResult.objects.filter(superseded=False).count() == 3


def _audit_page(client: Client, t: Any) -> str:
    """The tournament's audit log as a reader sees it: tags out, entities and spaces said
    once."""
    import html
    import re

    body = client.get(reverse("console_audit", args=[t.slug])).content.decode()
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))


@pytest.mark.django_db
def test_the_online_tables_audit_entries_are_said_in_the_readers_language() -> None:
    # issue 18 §2: the online tables' entries are values too (an online create, a referee's
    # command, a result waiting and kept), said in Italian and in English
    t, _ev, (table,) = _evening(1)
    code = table.code
    # seat 1 is Alba (seated by hand, seat order = the names' order); a penalty is negative
    reply = services.referee(table.pk, REFEREE, {"kind": "penalty", "seat": 1, "points": -2,
                                                 "reason": "gioco lento"})
    assert not reply.faults, reply.faults
    club.enter_scores(table.game_table, TYPED, who="arbitro")
    _end(table)
    waiting = OnlineResult.objects.get(table=table)
    services.keep_result(waiting, "online", reason="il foglio del tavolo online", who="arbitro")
    # an entry written before (no values) keeps the line it was written with
    AuditEntry.objects.create(who="arbitro", action="online start", tournament=t.name,
                              summary=f"online table {code} started (old)")
    referee = _referee_client()
    page = _audit_page(referee, t)
    where = f"serata {DATE} (qualificazione), tavolo 1 (tavolo online {code})"
    for italian in (
            "tavolo online creato", f"tavolo online {code}: 4 posti",
            "tavoli online aperti", f"serata {DATE} (qualificazione): 1 tavolo online",
            "tavolo online avviato", f"{where}",
            "penalità a un tavolo online", f"{where}, posto 1 (Alba): -2 punti — gioco lento",
            "partita online chiusa dall'arbitro", f"{where} — fine",
            "risultato online in attesa",
            f"{where}: il risultato online attende accanto a quello inserito da arbitro",
            "risultato online deciso",
            f"{where}: tenuto il risultato online — il foglio del tavolo online",
            f"online table {code} started (old)"):
        assert italian in page, italian
    for english in ("online create", "online penalty", "online end_game",
                    "online result waiting", "online result kept", "4 seats", "online table "
                    f"{code}:", "waits beside"):
        assert english not in page, english
    referee.post("/i18n/setlang/", {"language": "en", "next": "/"})
    page = _audit_page(referee, t)
    where = f"table 1 (online table {code})"
    for english in (
            "online table created", f"online table {code}: 4 seats", "online tables opened",
            "penalty at an online table", f"{where}, seat 1 (Alba): -2 points — gioco lento",
            "online game ended by the referee", "online result waiting",
            f"{where}: the online result waits beside the one entered by arbitro",
            "online result decided",
            f"{where}: the online result kept — il foglio del tavolo online"):
        assert english in page, english
    assert "tavolo online creato" not in page and "posto 1" not in page
