"""The committee's lab page (/arbitro/laboratorio/): referees and the committee only,
Italian first, the exact closing figures of R2, a small simulation, the luck of the club's
finished online games, and what to do where matplotlib is absent."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from risiko.web import labplots
from risiko.web.clubs import default_club
from risiko.web.console.views import lab as lab_view
from risiko.web.online.models import OnlineTable
from test_lab_engine import tiny_record  # tests/ is on the path

pytestmark = [pytest.mark.db, pytest.mark.django_db, pytest.mark.usefixtures("fast_hashing")]

URL = "/arbitro/laboratorio/"


def test_the_page_refuses_an_anonymous_user_and_a_plain_account(login: Any,
                                                                referee: Any) -> None:
    assert reverse("console_lab") == URL
    res = Client().get(URL)
    assert res.status_code == 302 and "/login/" in res["Location"]
    assert login("socio").get(URL).status_code == 403


def test_italian_page_with_the_exact_closing_of_r2(ref_client: Any) -> None:
    """Club band, 4 seats: closing round 1 ends the game with 1 - (33/36)^4 = 0.294; RTU's
    2..4 with 1 - (30/36)^4 = 0.518."""
    html = ref_client.get(URL).content.decode()
    assert "Il laboratorio del comitato" in html
    assert "Dadi di chiusura (R2)" in html and "Giro di chiusura" in html
    # percentages as the command line says them, Italian style (issue: "0,294" here,
    # "29.4%" at the command line)
    assert "<td>29,4 %</td>" in html and "<td>51,8 %</td>" in html
    assert "Ancora nessuna partita online finita" in html


def test_english_page(committee: Any) -> None:
    client = Client()
    client.force_login(committee)
    client.post("/i18n/setlang/", {"language": "en", "next": URL})
    html = client.get(URL).content.decode()
    assert "The committee's lab" in html and "Closing round" in html
    assert "<td>29.4%</td>" in html


def test_a_small_simulation_and_a_bad_value(ref_client: Any) -> None:
    html = ref_client.get(URL, {"seats": 3, "games": 3, "level": 1}).content.decode()
    assert "Simulate: 3 partite di bot random (club-milano" in html
    # the regulation's word for a round is "giro" (a turn is one seat's)
    assert "Durata della partita (giri)" in html and "(turni)" not in html
    assert "Ordine dei posti" in html and "Obiettivi" in html
    bad = ref_client.get(URL, {"seats": 9, "games": 3, "level": 1})
    assert bad.status_code == 400 and "Simulate:" not in bad.content.decode()


def test_one_simulated_game_shows_no_mean_score_interval(ref_client: Any) -> None:
    """One game: no interval for a mean score ("13,0 [13,0, 13,0]" before), "[–]"."""
    html = ref_client.get(URL, {"seats": 3, "games": 1, "level": 1}).content.decode()
    assert "Simulata: 1 partita" in html and "[–]" in html
    assert not re.search(r"(\d+,\d) \[\1, \1\]", html)


def test_luck_of_a_finished_online_game(ref_client: Any) -> None:
    """The tiny record: Anna z = +0.24, Bruno -0.24 (worked out in tests/test_lab.py)."""
    home = default_club()  # the console at today's URLs: the default club's tables
    OnlineTable.objects.create(code="LAB1", name="Prova", seats=3, status="over", club=home,
                               seed="0" * 64, commitment="0" * 64, record=tiny_record())
    OnlineTable.objects.create(code="LAB2", name="Rotta", seats=3, status="over", club=home,
                               seed="0" * 64, commitment="0" * 64, record="rotto")
    html = ref_client.get(URL).content.decode()
    assert "Da 1 partita online finita." in html
    assert ("<td>Anna</td><td>2</td><td>1</td><td>1,2</td><td>0,2</td><td>0,24</td>"
            "<td>1</td><td>0</td><td>–</td>") in html
    assert "1 partita registrata non si è potuta rigiocare" in html


def test_without_matplotlib_the_page_says_how_to_enable_plots(
        ref_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(labplots, "available", lambda: False)
    html = ref_client.get(URL).content.decode()
    assert "pip install 'risiko-club[lab]'" in html and "data:image/svg+xml" not in html


def test_with_matplotlib_the_plots_are_svg_images(ref_client: Any) -> None:
    """The plots are SVG images (``data:`` URIs: inline SVG's style attributes would break
    the page's Content Security Policy)."""
    import base64
    import re

    pytest.importorskip("matplotlib")
    html = ref_client.get(URL).content.decode()
    images = re.findall(r'src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', html)
    assert images and "Giro di chiusura" in html and "<svg" not in html
    assert all(base64.b64decode(i).decode("utf-8").startswith("<svg") for i in images)


# ---------------------------------------------------------------------------- levels 1-5, bounded
def test_the_bound_of_each_level_is_said_and_kept(ref_client: Any) -> None:
    """4 seats, SIM_BUDGET 5 s: level 3 at 0.04 s a seat pays for 5 / 0.16 = 31.25 games,
    among level-2 bots for 5 / (0.04 + 3 · 0.005) = 90.9, so 90; level 4 at every seat
    (2.5 · 4 = 10 s a game) for none, among level-2 bots (2.5 + 3 · 0.005 s) for 1; level 5
    (7.5 s a seat) for none."""
    html = ref_client.get(URL).content.decode()
    assert "<td>3 (greedy)</td><td>31</td><td>90</td>" in html
    assert "<td>4 (determinised)</td><td>0</td><td>1</td>" in html
    assert "<td>5 (rollout)</td><td>0</td><td>0</td>" in html
    over = ref_client.get(URL, {"seats": 4, "games": 32, "level": 3, "opponents": 0})
    assert over.status_code == 400
    assert "Al massimo 31 partite con questi bot e posti" in over.content.decode()
    # level 4 among level-2 bots: 1 game, in the singular (it was "Al massimo 1 partite")
    one = ref_client.get(URL, {"seats": 4, "games": 2, "level": 4, "opponents": 2})
    assert "Al massimo 1 partita con questi bot e posti" in one.content.decode()
    slow = ref_client.get(URL, {"seats": 4, "games": 1, "level": 5, "opponents": 2})
    assert slow.status_code == 400 and "troppo lenti per la pagina" in slow.content.decode()


def test_level_3_among_random_bots_with_luck_by_seat_and_by_bot(ref_client: Any) -> None:
    """One game, greedy at one seat and random at the others: the luck by seat (3 rows)
    and by bot (2 rows); a game's rolls count for both sides."""
    res = ref_client.get(URL, {"seats": 3, "games": 1, "level": 3, "opponents": 1})
    assert res.status_code == 200
    html = res.content.decode()
    assert "Simulata: 1 partita di bot greedy, random, random" in html
    assert "Fortuna ai dadi, per posto" in html and "Fortuna ai dadi, per bot" in html
    seats = res.context["sim_luck_seats"]
    assert [r.player for r in seats] == ["1", "2", "3"]
    assert {r.player for r in res.context["sim_luck_bots"]} == {"greedy", "random"}
    assert sum(r.games for r in seats) == 3


def test_the_same_level_everywhere_has_no_table_by_bot(ref_client: Any) -> None:
    res = ref_client.get(URL, {"seats": 3, "games": 2, "level": 1})
    assert res.status_code == 200 and res.context["sim_luck_bots"] == []
    assert "Fortuna ai dadi, per bot" not in res.content.decode()


# ---------------------------------------------------------------------------- uploads
def _upload(client: Any, *files: tuple[str, bytes]) -> Any:
    return client.post(URL, {"records": [SimpleUploadedFile(n, b, "text/plain")
                                         for n, b in files]})


def test_uploaded_records_give_the_luck_table_and_nothing_is_stored(ref_client: Any) -> None:
    """The tiny record and another game whose first roll is 4 against 6 (Anna loses 1
    again): Anna's luck doubles, z = 0.2390·√2 = 0.338."""
    before = OnlineTable.objects.count()
    rec = tiny_record().encode("utf-8")
    other = tiny_record().replace("6 6", "4 6").encode("utf-8")
    res = _upload(ref_client, ("a.txt", rec), ("b.txt", other))
    assert res.status_code == 200
    html = res.content.decode()
    assert "Da 2 partite registrate caricate." in html
    assert ("<td>Anna</td><td>4</td><td>2</td><td>2,3</td><td>0,3</td><td>0,34</td>"
            "<td>2</td><td>0</td><td>–</td>") in html
    assert OnlineTable.objects.count() == before


def test_the_same_game_twice_is_refused_naming_the_files(ref_client: Any) -> None:
    """50 copies of one record made a player's z 1.16 · √50 = 8.2: copies of one game, as
    they are or saved again (Windows line ends, trailing spaces), are refused, named, and
    nothing is read (not even the good third file's luck)."""
    rec = tiny_record()
    crlf = rec.replace("\n", "  \r\n").encode("utf-8")
    other = rec.replace("6 6", "4 6").encode("utf-8")
    res = _upload(ref_client, ("a.txt", rec.encode("utf-8")), ("c.txt", other),
                  ("copia.txt", crlf), ("a2.txt", rec.encode("utf-8")))
    assert res.status_code == 400
    html = res.content.decode()
    assert "a.txt, copia.txt, a2.txt: la stessa partita 3 volte" in html
    assert "c.txt" not in html.split('role="alert"')[1]
    assert "<td>Anna</td>" not in html


def test_a_bad_record_is_refused_naming_file_and_line(ref_client: Any) -> None:
    """Line 6 of the tiny record is its second attack; without the defender's die it does
    not parse: the whole upload is refused, the good file too."""
    bad = tiny_record().replace("5 2", "5").encode("utf-8")
    res = _upload(ref_client, ("buono.txt", tiny_record().encode("utf-8")),
                  ("rotto.txt", bad))
    assert res.status_code == 400
    html = res.content.decode()
    assert "Le partite registrate non sono state lette" in html
    assert "rotto.txt, riga 6:" in html and "buono.txt" not in html.split("role=\"alert\"")[1]
    assert "<td>Anna</td>" not in html


def test_not_utf8_too_large_and_too_many_files_are_refused(
        ref_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    res = _upload(ref_client, ("latin.txt", "Perù".encode("latin-1")))
    assert res.status_code == 400 and "latin.txt: non è testo UTF-8 (byte 4)" in \
        res.content.decode()
    monkeypatch.setattr(lab_view, "MAX_RECORD_BYTES", 10)
    res = _upload(ref_client, ("big.txt", b"x" * 11))
    assert res.status_code == 400
    assert ("big.txt: 11 byte, una partita registrata può averne al massimo 10 byte."
            in res.content.decode())
    # 612888 bytes = 598.5 KB against 512 KB: said in KB, rounded down
    monkeypatch.setattr(lab_view, "MAX_RECORD_BYTES", 512 * 1024)
    res = _upload(ref_client, ("grande.txt", b"x" * 612888))
    assert ("grande.txt: 598 KB, una partita registrata può averne al massimo 512 KB."
            in res.content.decode())
    monkeypatch.setattr(lab_view, "MAX_RECORD_FILES", 1)
    res = _upload(ref_client, ("a.txt", b"x"), ("b.txt", b"y"))
    assert res.status_code == 400 and "Al massimo 1 file alla volta, non 2." in \
        res.content.decode()


def test_an_empty_file_is_named(ref_client: Any) -> None:
    res = _upload(ref_client, ("buono.txt", tiny_record().encode("utf-8")), ("vuoto.txt", b""))
    assert res.status_code == 400 and "vuoto.txt: il file inviato è vuoto." in \
        res.content.decode()


def test_the_page_promises_the_total_it_takes_and_says_a_larger_one_in_mb(
        ref_client: Any, settings: Any) -> None:
    """50 files of 512 KB (25 MB) went past the 4 MB request limit while the page promised
    them: the page says the total too, and the refusal says it in KB/MB, in Italian."""
    html = ref_client.get(URL).content.decode()
    assert "al massimo 512 KB ciascuno e 4 MB in tutto" in html
    settings.RISIKO_UPLOAD_MAX_BYTES = 1024 * 1024
    res = _upload(ref_client, ("a.txt", b"x" * (600 * 1024)), ("b.txt", b"y" * (600 * 1024)))
    assert res.status_code == 413
    assert "il limite è di 1 MB" in res.content.decode()
    assert "al massimo 512 KB ciascuno e 1 MB in tutto" in ref_client.get(URL).content.decode()


def test_an_upload_needs_a_file_and_a_referee(ref_client: Any, login: Any) -> None:
    assert ref_client.post(URL, {}).status_code == 400
    rec = SimpleUploadedFile("a.txt", tiny_record().encode("utf-8"))
    assert login("socio").post(URL, {"records": [rec]}).status_code == 403


def test_the_english_page_reads_uploads_too(committee: Any) -> None:
    client = Client()
    client.force_login(committee)
    client.post("/i18n/setlang/", {"language": "en", "next": URL})
    bad = tiny_record().replace("5 2", "5").encode("utf-8")
    html = _upload(client, ("broken.txt", bad)).content.decode()
    assert "The records were not read" in html and "broken.txt, line 6:" in html


def test_the_new_plots_are_images_too(ref_client: Any) -> None:
    """The simulated luck and the uploaded records' luck: SVG images, nothing inline (CSP)."""
    import re

    pytest.importorskip("matplotlib")
    html = ref_client.get(URL, {"seats": 3, "games": 1, "level": 1}).content.decode()
    assert "Fortuna ai dadi per posto (simulazione)" in html  # the plot's alt text
    up = _upload(ref_client, ("a.txt", tiny_record().encode("utf-8"))).content.decode()
    assert "Fortuna ai dadi: partite registrate caricate" in up
    for page in (html, up):
        assert "<svg" not in page and " style=" not in page
        # the site's own scripts, from files; none inline
        assert all(re.fullmatch(r'<script src="/static/[\w/.-]+\.js" defer>', tag)
                   for tag in re.findall(r"<script[^>]*>", page))
def test_one_bad_field_is_the_only_one_named(ref_client: Any) -> None:
    """issue (newcomer's trial): ?seats=9 alone called the games and the level "required"
    too; a field left out takes its default (4 seats, 0 games, level 2)."""
    bad = ref_client.get(URL, {"seats": 9})
    html = bad.content.decode()
    assert bad.status_code == 400
    assert "Assicurati che questo valore sia minore o uguale a 6." in html
    assert "obbligatorio" not in html and html.count('class="errorlist') == 1
    # games alone: the default seats (4) and level (2, heuristic) fill the rest
    done = ref_client.get(URL, {"games": 2})
    assert done.status_code == 200
    assert "Simulate: 2 partite di bot heuristic" in done.content.decode()
