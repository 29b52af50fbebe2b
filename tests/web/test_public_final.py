"""R18 on the public pages: once the final is played, the general ranking is the final
standings (the winner first, the others in their order after the semifinal)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.test import Client

from risiko.tournament.season import compute_season
from risiko.web import services
from risiko.web.public import data

pytestmark = [pytest.mark.db, pytest.mark.django_db]

SEASON = Path(__file__).resolve().parents[2] / "examples" / "season-2027.json"


def test_after_the_final_the_general_ranking_is_the_final_standings(settings) -> None:
    settings.RISIKO_FIRST_RUN_CHECK = False
    data.clear_cache()
    season = json.loads(SEASON.read_text(encoding="utf-8"))
    expected = compute_season(season)["final_standings"]
    t = services.import_season(season, who="test")
    page = Client().get(f"/t/{t.slug}/").content.decode()
    block = page.split('<ol class="final-standings">', 1)[1].split("</ol>", 1)[0]
    assert re.findall(r'/">([^<]+)</a></li>', block) == expected
    winner = expected[0]
    player = Client().get(f"/t/{t.slug}/giocatori/{winner}/").content.decode()
    assert re.search(r"<dd>\s*1\s*</dd>", player)
