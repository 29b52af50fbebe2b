"""The console after the qualifying evenings: a season file imported by the committee, a tie
across the semifinal cut settled by a draw of lots, the semifinal and the final seated from
the ranking (R18), their results entered like any table, the final standings; the exports
and the printable pages. The expected results are those of ``examples/season-2027.json``
(worked out by hand in tests/tournament/test_season_2027.py)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from risiko.tournament.season import compute_season, parse_season
from risiko.web import selectors
from risiko.web.auditlog.models import AuditEntry
from risiko.web.tournaments.models import Tournament

pytestmark = [pytest.mark.db, pytest.mark.django_db, pytest.mark.usefixtures("fast_hashing")]

SEASON = Path(__file__).resolve().parents[2] / "examples" / "season-2027.json"


def _upload(data: object, name: str = "torneo.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, json.dumps(data).encode(), "application/json")


def _qualifying_only() -> dict:
    """The example season without its semifinal, final and draw of lots."""
    data = json.loads(SEASON.read_text(encoding="utf-8"))
    data["evenings"] = [e for e in data["evenings"] if e["stage"] == "qualifying"]
    data["draws"] = []
    return data


def _seats(t: Tournament, date: str) -> list[list[str]]:
    e = t.evenings.get(date=date)
    return [[s.player.name for s in tb.seats.current().order_by("position")]
            for tb in e.tables.order_by("number")]


def _enter(c: Client, t: Tournament, date: str, number: int, scores: dict[str, int]):
    seats = _seats(t, date)[number - 1]
    data = {f"score_{i}": scores[name] for i, name in enumerate(seats, start=1)}
    return c.post(reverse("console_scores", args=[t.slug, date, number]), data)


def test_import_draw_semifinal_final_and_the_final_standings(login):
    full = json.loads(SEASON.read_text(encoding="utf-8"))
    expected = compute_season(full)
    boss = login("comitato", "committee")
    r = boss.post(reverse("console_import"), {"file": _upload(_qualifying_only()), "name": ""})
    t = Tournament.objects.get(name="Torneo sociale 2027")
    assert r.status_code == 302 and r["Location"] == reverse("console_tournament",
                                                             args=[t.slug])
    ref = login("arbitro", "referee")
    stages_url = reverse("console_stages", args=[t.slug])

    # Dora and Ezio share the 10th place: the semifinal waits for a draw of lots (said in
    # Italian, the console's language)
    page = ref.get(stages_url).content.decode()
    assert "Dora e Ezio condividono il 10º posto" in page
    assert "Sorteggio" in page and "Dora\nEzio</textarea>" in page
    r = ref.post(reverse("console_seat_stage", args=[t.slug]),
                 {"stage": "semifinal", "date": "2027-03-30", "chief_referee": "Luca"})
    assert r.status_code == 400 and "la semifinale non si può ancora generare" in r.content.decode()
    r = ref.post(reverse("console_open_evening", args=[t.slug]),
                 {"date": "2027-03-30", "stage": "semifinal", "chief_referee": "Luca"})
    assert r.status_code == 400 and "la semifinale non si può ancora generare" in r.content.decode()
    assert not t.evenings.filter(stage="semifinal").exists()
    r = ref.post(reverse("console_draw", args=[t.slug]),
                 {"stage": "semifinal", "order": "Ezio\nDora", "referee": "Luca",
                  "note": "10th place"})
    assert r.status_code == 302
    page = ref.get(stages_url).content.decode()
    assert "condividono il 10º posto" not in page and "Tavoli di semifinale (R18)" in page

    # the semifinal, seated by R18, then its results
    r = ref.post(reverse("console_seat_stage", args=[t.slug]),
                 {"stage": "semifinal", "date": "2027-03-30", "chief_referee": "Luca"})
    assert r.status_code == 302
    assert r["Location"] == reverse("console_seating", args=[t.slug, "2027-03-30"])
    checkin = ref.get(reverse("console_checkin", args=[t.slug, "2027-03-30"])).content.decode()
    assert checkin.count('class="checkin-row') == 10  # the semifinalists only
    assert "non arrivati: <strong>10</strong>" in checkin
    semi = next(e for e in full["evenings"] if e["stage"] == "semifinal")
    assert sorted(map(sorted, _seats(t, "2027-03-30"))) == sorted(
        sorted(tb["seats"]) for tb in semi["tables"])
    for tb in semi["tables"]:
        number = next(i for i, seats in enumerate(_seats(t, "2027-03-30"), start=1)
                      if set(seats) == set(tb["seats"]))
        assert _enter(ref, t, "2027-03-30", number, tb["scores"]).status_code == 302
    page = ref.get(stages_url).content.decode()
    assert "Ordine dopo la semifinale" in page
    assert "Finalisti (ordine di scelta del posto)" in page

    # the final: the finalists in seat-choice order
    r = ref.post(reverse("console_open_evening", args=[t.slug]),  # as the stages page does
                 {"stage": "final", "date": "2027-04-06", "chief_referee": "Luca"})
    assert r.status_code == 302
    assert r["Location"] == reverse("console_checkin", args=[t.slug, "2027-04-06"])
    assert _seats(t, "2027-04-06") == [expected["finalists"]]
    page = ref.get(reverse("console_seating", args=[t.slug, "2027-04-06"])).content.decode()
    assert "ordine di scelta del posto" in page
    final = next(e for e in full["evenings"] if e["stage"] == "final")
    assert _enter(ref, t, "2027-04-06", 1, final["tables"][0]["scores"]).status_code == 302

    report = selectors.season_report_of(t)
    assert report["final_winner"] == expected["final_winner"]
    assert report["final_standings"] == expected["final_standings"]
    assert report["standings"] == expected["standings"]
    page = ref.get(stages_url).content.decode()
    assert "Classifica finale" in page and f"<strong>{expected['final_winner']}</strong>" in page
    printed = ref.get(reverse("console_standings_print", args=[t.slug])).content.decode()
    assert "Classifica finale" in printed and "Classifica generale" in printed
    assert "data-print" in printed and "print-page" in printed

    # the season file exported reads back to the same season
    r = ref.get(reverse("console_season_export", args=[t.slug]))
    assert r["Content-Disposition"] == f'attachment; filename="{t.slug}.json"'
    exported = json.loads(r.content)
    again = compute_season(exported)
    for key in ("standings", "semifinal_tables", "finalists", "final_winner",
                "final_standings"):
        assert again[key] == expected[key], key
    assert parse_season(exported).name == "Torneo sociale 2027"
    assert {e.who for e in AuditEntry.objects.filter(tournament=t.name)} == {"comitato",
                                                                              "arbitro"}


def test_standings_csv_and_json(login):
    boss = login("comitato", "committee")
    boss.post(reverse("console_import"), {"file": _upload(json.loads(SEASON.read_text()))})
    t = Tournament.objects.get()
    expected = compute_season(json.loads(SEASON.read_text()))
    r = boss.get(reverse("console_standings_csv", args=[t.slug]))
    assert r["Content-Type"].startswith("text/csv")
    assert "attachment" in r["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(r.content.decode())))
    assert list(rows[0]) == ["rank", "player", "points", "games", "risiko", "best",
                             "penalties", "eligible", "table_points", "bonus", "wins"]
    assert [row["player"] for row in rows] == [s["player"] for s in expected["standings"]]
    assert rows[0]["points"] == str(expected["standings"][0]["points"])
    r = boss.get(reverse("console_standings_json", args=[t.slug]))
    data = json.loads(r.content)
    assert data["standings"] == expected["standings"]
    assert data["final_standings"] == expected["final_standings"]
    assert "evenings" not in data


def test_import_refusals_are_shown_and_nothing_is_created(login):
    boss = login("comitato", "committee")
    url = reverse("console_import")
    r = boss.post(url, {"file": SimpleUploadedFile("x.json", b'{"name": ', "application/json")})
    assert r.status_code == 400 and "JSON non valido" in r.content.decode()
    bad = _qualifying_only()
    bad["evenings"][0]["tables"][0]["seats"][0] = "Zeno"
    r = boss.post(url, {"file": _upload(bad)})
    assert r.status_code == 400
    assert "Zeno" in r.content.decode() and 'class="errorlist nonfield"' in r.content.decode()
    assert not Tournament.objects.exists() and not AuditEntry.objects.exists()
    boss.post(url, {"file": _upload(_qualifying_only())})
    r = boss.post(url, {"file": _upload(_qualifying_only())})
    assert "esiste già un torneo" in r.content.decode()
    r = boss.post(url, {"file": _upload(_qualifying_only()), "name": "Copia 2027"})
    assert r.status_code == 302 and Tournament.objects.count() == 2


def test_the_console_can_draw_the_lots(login):
    login("comitato", "committee").post(reverse("console_import"),
                                          {"file": _upload(_qualifying_only())})
    t = Tournament.objects.get()
    ref = login("arbitro", "referee")
    r = ref.post(reverse("console_draw", args=[t.slug]), {
        "stage": "semifinal", "order": "Dora\nEzio", "shuffle": "on", "referee": "Luca"})
    assert r.status_code == 302
    draw = t.draws.get()
    assert sorted(draw.order) == ["Dora", "Ezio"] and draw.note == "sorteggio fatto dalla console"
    assert selectors.season_report_of(t)["semifinal_tables"] is not None


def test_the_print_stylesheet_and_the_console_script_are_served():
    css = finders.find("console/console.css")
    js = finders.find("console/console.js")
    assert css and js
    text = Path(css).read_text(encoding="utf-8")
    assert "@media print" in text and ".table-card" in text
    assert "Europe/Rome" in Path(js).read_text(encoding="utf-8")
