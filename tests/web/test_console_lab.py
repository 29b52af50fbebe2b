"""The committee's lab page (/arbitro/laboratorio/): referees and the committee only,
Italian first, the exact closing figures of R2, a small simulation, the luck of the club's
finished online games, and what to do where matplotlib is absent."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from risiko.web import labplots
from risiko.web.clubs import default_club
from risiko.web.online.models import OnlineTable
from test_lab import tiny_record  # the hand-made record of tests/test_lab.py (tests/ on the path)

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
    assert "Simulate: 3 partite di bot random" in html
    assert "Ordine dei posti" in html and "Obiettivi" in html
    bad = ref_client.get(URL, {"seats": 9, "games": 3, "level": 1})
    assert bad.status_code == 400 and "Simulate:" not in bad.content.decode()


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
