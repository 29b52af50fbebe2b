"""Live pages in a real browser (Debian's Chromium driven by Playwright) against an ASGI
server in a thread (uvicorn with WebSockets, as tests/web/test_online_browser.py): a phone
on the standings sees a saved result without reloading within a second or two; a referee
typing in a console form is not reloaded under his hands but told "Aggiornato da arbitro"
with a button to reload, while the console page of a referee not typing reloads itself.
Skipped when Playwright or Chromium is missing.

The result saved is Alba 100, Bice 40, Ciro 30, Dora 20 (Club Milano: the ranking points
are the table scores, R15), so the pushed standings read Alba 100 first, Dora 20 fourth.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_kit import browser_marks
from test_online_browser import AsgiServer, _db, _page, chromium, server  # noqa: F401

from risiko.web import services
from risiko.web.live.groups import REGISTRY

playwright = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.online, *browser_marks()]

NAMES = ["Alba", "Bice", "Ciro", "Dora"]
SLUG = "torneo-in-diretta"


def _following(n: int) -> None:
    """Wait until ``n`` public pages have their socket open (the server is in this process)."""
    import time

    deadline = time.monotonic() + 15
    while len(REGISTRY.pages()) < n and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(REGISTRY.pages()) >= n


def test_a_phone_sees_the_result_and_a_referee_typing_is_told(
        server: AsgiServer, chromium: Any) -> None:  # noqa: F811 (the fixtures imported)
    from django.contrib.auth.models import Group, User
    from django.test import Client

    def setup() -> tuple[Any, str]:
        t = services.create_tournament("Torneo in diretta", who="arbitro")
        services.add_players(t, NAMES, who="arbitro")
        evening = services.open_evening(t, "2027-03-02", who="arbitro")
        (table,) = services.set_tables(evening, [NAMES], who="arbitro")
        ref = User.objects.create_user("sara", password="x")
        ref.groups.add(Group.objects.get_or_create(name="referee")[0])
        c = Client()
        c.force_login(ref)
        return table, str(c.cookies["sessionid"].value)

    REGISTRY.clear()
    table, session = _db(setup)
    errors: list[str] = []
    phone = _page(chromium, errors)
    phone.goto(f"{server.url}/t/{SLUG}/")
    phone.evaluate("() => { window.notReloaded = true; }")
    _following(1)
    typing = _page(chromium, errors)
    idle = _page(chromium, errors)
    console = f"{server.url}/arbitro/t/{SLUG}/2027-03-02/tavolo/1/"
    for pg in (typing, idle):
        pg.context.add_cookies([{"name": "sessionid", "value": session, "url": server.url}])
        pg.goto(console)
        pg.evaluate("() => { window.notReloaded = true; }")
    typing.locator("input[name=score_1]").fill("55")  # a form being filled
    import time

    time.sleep(1.0)  # the consoles' sockets open
    _db(lambda: services.enter_scores(
        table, {"Alba": 100, "Bice": 40, "Ciro": 30, "Dora": 20}, who="arbitro"))
    row = phone.locator("table.standings tbody tr").first
    playwright.expect(row).to_contain_text("Alba", timeout=3000)
    playwright.expect(row).to_contain_text("100", timeout=3000)
    playwright.expect(phone.locator("table.standings tbody tr").nth(3)).to_contain_text("20")
    assert phone.evaluate("() => window.notReloaded === true")  # swapped, not reloaded
    notice = typing.locator(".live-notice")
    playwright.expect(notice).to_contain_text("Aggiornato da arbitro", timeout=3000)
    playwright.expect(notice).to_contain_text("un risultato")
    assert typing.locator("input[name=score_1]").input_value() == "55"  # untouched
    assert typing.evaluate("() => window.notReloaded === true")
    idle.wait_for_function("() => window.notReloaded === undefined", timeout=3000)
    typing.click("[data-live-reload]")
    typing.wait_for_function("() => window.notReloaded === undefined", timeout=5000)
    assert errors == []
