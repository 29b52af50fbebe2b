"""What the public pages compute: the fast loader gives the row-by-row oracle's tournament, the
snapshot gives the season report and the ranking evening by evening, the cache never serves
stale data; the chart's geometry; the pending lines in Italian; the catalogues compiled."""

from __future__ import annotations

import datetime as _dt
import gettext
import json
import threading
from pathlib import Path

import pytest
from django.contrib.admin.models import ADDITION, LogEntry
from django.contrib.auth.models import User
from django.utils import translation
from oracle_loader import load_tournament_row_by_row
from test_public_pages import WHO, _second_table_result, build

from risiko.tournament.season import season_report
from risiko.tournament.standings import compute_standings
from risiko.web import services
from risiko.web.public import chart, data, texts
from risiko.web.results.models import GameTable, TableResult

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
LOCALE = Path(__file__).resolve().parents[2] / "src" / "risiko" / "web" / "public" / "locale"


@pytest.fixture(autouse=True)
def _clear():
    data.clear_cache()
    yield
    data.clear_cache()


def _season():
    season = json.loads((EXAMPLES / "season-2027.json").read_text(encoding="utf-8"))
    return services.import_season(season, who=WHO)


@pytest.mark.db
@pytest.mark.django_db
def test_the_loader_gives_the_selectors_tournament():
    t = build()
    for tournament in (t, _season()):
        domain = data.load_tournament(tournament)
        assert domain == load_tournament_row_by_row(tournament)
        report = season_report(domain)
        report.pop("evenings")
        assert data.Snapshot(domain).report == report  # sheets scored once: same report
    # corrections, voided penalties and superseded appeals are not facts any more
    table = t.evenings.get(date="2027-03-02").tables.get(number=2)
    services.enter_scores(table, {"Ezio": 50, "Fede": 33, "Gino": 35, "Ivo": 0},
                          abandoned=["Ivo"], reason="Ivo è andato via", who=WHO)
    pen = t.evenings.get(date="2027-03-02").penalties.get(player__name="Ciro")
    services.decide_appeal(pen, "annulled", referee="Sara", who=WHO)
    bice = t.evenings.get(date="2027-03-02").penalties.get(player__name="Bice")
    services.void_penalty(bice, reason="wrong player", who=WHO)
    domain = data.load_tournament(t)
    assert domain == load_tournament_row_by_row(t)
    row = data.Snapshot(domain).row_of
    assert (row["Ezio"]["points"], row["Ciro"]["points"], row["Bice"]["points"]) == (110, 30, 40)


@pytest.mark.db
@pytest.mark.django_db
def test_the_ranking_evening_by_evening_is_compute_standings_until_each_evening():
    t = _season()
    domain = data.load_tournament(t)
    history = data.Snapshot(domain).history
    dates = [e.date for e in domain.stage_evenings("qualifying")]
    assert len(dates) == 4
    for date in dates:
        for row in compute_standings(domain, until=date).rows:
            point = next(p for p in history[row.player] if p.date == date)
            assert (point.points, point.rank) == (row.points, row.rank)
    # Mara: 100, 135, 179, 240 (examples: tests/tournament/test_season_2027.py)
    assert [p.points for p in history["Mara"]] == [100, 135, 179, 240]
    assert [p.date for p in history["Nico"]] == dates  # absent on 03-09: still ranked
    assert history["Nico"][0].points == history["Nico"][1].points == 12


@pytest.mark.db
@pytest.mark.django_db
def test_the_cache_is_used_until_something_changes(django_assert_max_num_queries,
                                                  django_capture_on_commit_callbacks):
    t = build()
    first = data.snapshot(t)
    with django_assert_max_num_queries(6):  # the change key only
        assert data.snapshot(t) is first
    _second_table_result(t)  # through the services: an audit entry
    second = data.snapshot(t)
    assert second is not first and second.row_of["Bice"]["points"] == 103
    result = TableResult.objects.filter(superseded=False).order_by("-id").first()
    assert result is not None
    result.scores = {"Bice": 71, "Ciro": 20, "Fede": 45, "Ivo": 25}
    with django_capture_on_commit_callbacks(execute=True):
        result.save()  # a model save in this process, without the services
    third = data.snapshot(t)
    assert third is not second and third.row_of["Bice"]["points"] == 104
    TableResult.objects.filter(pk=result.pk).update(
        scores={"Bice": 72, "Ciro": 20, "Fede": 45, "Ivo": 25})
    LogEntry.objects.create(user=User.objects.create_user("comitato"), action_flag=ADDITION,
                            object_repr="x")  # an admin change from another process
    assert data.snapshot(t).row_of["Bice"]["points"] == 105


def test_chart_geometry():
    points = [data.Point(_dt.date(2027, 3, 2), -25, 8), data.Point(_dt.date(2027, 3, 9), 0, 8),
              data.Point(_dt.date(2027, 3, 16), 75, 3)]
    with translation.override("en"):
        c = chart.points_chart("Ivo", points)
    assert c is not None
    assert [d.x for d in c.dots] == [chart.LEFT, (chart.LEFT + c.right) / 2, c.right]
    assert [t.label for t in c.y_ticks] == ["-40", "-20", "0", "20", "40", "60", "80"]
    assert c.y_ticks[0].at == c.bottom and c.y_ticks[-1].at == chart.TOP
    assert c.dots[2].y < c.dots[1].y < c.dots[0].y  # more points, higher up
    assert c.zero is not None and c.dots[1].y == c.zero == c.y_ticks[2].at
    assert c.line == " ".join(f"{d.x},{d.y}" for d in c.dots)
    assert c.title == "Ranking points of Ivo, evening by evening"
    assert c.dots[0].tooltip == "March 2, 2027: -25 points, rank 8"
    assert chart.points_chart("Ivo", []) is None
    one = chart.points_chart("Ugo", points[:1])
    assert one is not None and one.dots[0].x == (chart.LEFT + one.right) / 2
    many = [data.Point(_dt.date(2027, 1, 1) + _dt.timedelta(weeks=k), k, 1) for k in range(30)]
    labelled = chart.points_chart("Ugo", many)
    assert labelled is not None and len(labelled.x_ticks) <= chart.MAX_X_LABELS + 1
    assert labelled.x_ticks[-1].at == labelled.dots[-1].x


def test_nice_steps():
    assert [chart.nice_step(s) for s in (0, 4, 10, 37, 100, 265, 1000)] == [
        1, 1, 2, 10, 20, 100, 200]


def test_pending_lines_in_italian():
    """What the season report waits for are values: each is said by its code in
    the page's language, with this app's catalogue (no English sentence is re-read)."""
    from risiko.faults import Severity
    from risiko.tournament import finals

    w = Severity.WARNING
    lines = [
        (finals.NO_RESULT({"evening": "2027-03-09", "stage": "qualifying", "table": 2}, w),
         "Serata del 9 Marzo 2027 (qualificazione), tavolo 2: risultato non ancora inserito"),
        (finals.TOO_FEW_ELIGIBLE({"stage": "semifinal"}, w, count=8, need=10),
         "Semifinale: in classifica ci sono 8 giocatori ammissibili, la semifinale ne "
         "richiede 10"),
        (finals.TOO_FEW_RANKED({"stage": "final"}, w, count=4, need=5),
         "Finale: in classifica ci sono 4 giocatori, la finale ne richiede 5"),
        (finals.SHARED_QUALIFYING({"stage": "semifinal"}, w, players=["Dora", "Ezio"],
                                  place=10, cut="semifinal"),
         "Semifinale: Dora e Ezio sono pari in posizione 10 a cavallo di un taglio: si "
         "attende il sorteggio"),
        (finals.SHARED_AFTER({"stage": "final"}, w, players=["Ada", "Bea", "Cloe"], place=5,
                             cut="final"),
         "Finale: Ada, Bea e Cloe sono pari in posizione 5 a cavallo di un taglio: si "
         "attende il sorteggio"),
        (finals.WAITING_SEMIFINAL(severity=w, tables=[1, 2]),
         "Ordine dopo la semifinale: si attende il risultato del tavolo 1 e 2 della "
         "semifinale"),
        (finals.NO_SEMIFINAL_EVENING(severity=w),
         "Ordine dopo la semifinale: la serata di semifinale non c&#x27;è ancora"),
        (finals.WAITING_FINAL(severity=w),
         "Classifica finale: si attende il risultato della finale"),
        (finals.NO_FINAL_EVENING(severity=w),
         "Classifica finale: la serata di finale non c&#x27;è ancora"),
        # any other code: the words of the fault catalogue, in Italian
        (finals.WINNERS_TIE({"stage": "final"}, w, players=["Ada", "<b>"], number=1,
                            score=50),
         "finale: Ada e &lt;b&gt; vincono a pari merito il tavolo 1 della semifinale con 50 e "
         "condividono la posizione dopo la semifinale: registrare un sorteggio (draws: fase "
         "&#x27;final&#x27;)"),
    ]
    with translation.override("it"):
        for fault, italian in lines:
            assert texts.pending_line(fault) == italian, fault.code
            assert texts.pending_line(fault.to_dict()) == italian, fault.code


def _po_entries(po: Path) -> dict[object, str]:
    entries: dict[object, str] = {}
    key: object = None
    ctx = None
    field = ""
    values: dict[str, str] = {}

    def flush() -> None:
        if key:
            full = f"{ctx}\x04{key}" if ctx else key
            if "msgstr" in values:
                entries[full] = values["msgstr"]
            for name, text in values.items():
                if name.startswith("msgstr["):
                    entries[(full, int(name[7:-1]))] = text

    for line in [*po.read_text(encoding="utf-8").splitlines(), ""]:
        if line.startswith("msgctxt "):
            flush()
            values, key, field, ctx = {}, None, "msgctxt", json.loads(line[8:])
        elif line.startswith("msgid "):
            if field != "msgctxt":
                flush()
                values, ctx = {}, None
            field, key = "msgid", json.loads(line[6:])
        elif line.startswith(("msgstr", "msgid_plural")):
            field, _, rest = line.partition(" ")
            values[field] = json.loads(rest)
        elif line.startswith('"') and field:
            if field == "msgid":
                key = str(key or "") + json.loads(line)
            elif field in values:
                values[field] += json.loads(line)
        elif not line.strip():
            field = ""
    flush()
    return entries


def test_the_catalogues_are_translated_and_compiled():
    for lang in ("it", "en"):
        folder = LOCALE / lang / "LC_MESSAGES"
        with (folder / "django.mo").open("rb") as fh:
            compiled = gettext.GNUTranslations(fh)._catalog  # type: ignore[attr-defined]
        entries = _po_entries(folder / "django.po")
        assert len(entries) > 100, lang
        flags = [line for line in (folder / "django.po").read_text(encoding="utf-8")
                 .splitlines() if line.startswith("#,")]
        assert not [f for f in flags if "fuzzy" in f], f"{lang}: fuzzy entries are not used"
        for msgid, msgstr in entries.items():
            assert msgstr, f"{lang}: {msgid!r} has no translation"
            assert compiled.get(msgid) == msgstr, f"{lang}: {msgid!r}: compile the catalogue"



def _join_snapshot_threads() -> None:
    for th in threading.enumerate():
        if th.name.startswith("snapshot-"):
            th.join(30)


@pytest.mark.db
@pytest.mark.django_db(transaction=True)  # the computing thread reads what was committed
def test_on_the_server_phones_get_the_standings_from_before_while_a_thread_computes(
        settings):
    settings.RISIKO_PUBLIC_BACKGROUND = True
    t = build()
    first = data.snapshot(t)  # no snapshot yet: computed by the request itself
    assert first.row_of["Bice"]["points"] == 33  # 40 at the first evening, -7 table penalty
    _second_table_result(t)  # 70 at the second evening: 103
    assert data.snapshot(t) is first  # answered at once with the one from before
    _join_snapshot_threads()
    assert data.snapshot(t).row_of["Bice"]["points"] == 103
    # the console never gets an old one
    table = GameTable.objects.get(evening__tournament=t, evening__date="2027-03-09", number=2)
    services.enter_scores(table, {"Bice": 60, "Ciro": 30, "Fede": 45, "Ivo": 25},
                          reason="corrected", who=WHO)
    assert data.snapshot(t, fresh=True).row_of["Bice"]["points"] == 93
    _join_snapshot_threads()


@pytest.mark.db
@pytest.mark.django_db(transaction=True)
def test_a_failed_computation_in_a_thread_is_computed_again_by_the_next_request(
        settings, monkeypatch):
    settings.RISIKO_PUBLIC_BACKGROUND = True
    t = build()
    first = data.snapshot(t)
    real = data.load_tournament
    calls: list[int] = []

    def broken_once(tournament):
        calls.append(tournament.pk)
        if len(calls) == 1:
            raise RuntimeError("a fault nobody foresaw")
        return real(tournament)

    monkeypatch.setattr(data, "load_tournament", broken_once)
    monkeypatch.setattr(threading, "excepthook", lambda args: None)  # the thread's traceback
    _second_table_result(t)
    assert data.snapshot(t) is first  # the thread fails
    _join_snapshot_threads()
    second = data.snapshot(t)  # computed by this request, not left to another thread
    assert calls == [t.pk, t.pk] and second.row_of["Bice"]["points"] == 103
