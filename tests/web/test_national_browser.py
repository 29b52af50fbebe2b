"""The national list on a 390 px phone (Debian's Chromium through ``browser_kit``): the
table's caption is for screen readers only (it showed, cut, as "Giocato..." above the table:
``.visually-hidden`` was in the public pages' CSS only) and the table scrolls inside its own
box, the page no wider than the screen. The report is national_kit's open of 2024."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from browser_kit import browser_marks, launch

from risiko.national.report import read_report

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "national"))
from national_kit import report

playwright = pytest.importorskip("playwright.sync_api")
pytestmark = browser_marks()


def test_the_national_list_fits_a_390_px_phone(live_server) -> None:
    from django.contrib.auth.models import User

    from risiko.web.national.services import import_report

    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop + the ORM
    User.objects.create_user("arbitro", password="tavolo-rosso-42")  # past the first run
    import_report(read_report(report(dates=("2024-03-02", "2024-03-09"))), by="t")
    with playwright.sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_context(viewport={"width": 390, "height": 844},
                                       is_mobile=True).new_page()
            response = page.goto(live_server.url + "/nazionale/2024/")
            assert response is not None and response.status == 200
            caption = page.locator("table.national caption").bounding_box()
            assert caption is not None and caption["width"] <= 1 and caption["height"] <= 1
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            wrap = page.evaluate("""() => { const w = document.querySelector('.table-wrap');
                return [w.clientWidth, w.scrollWidth, getComputedStyle(w).overflowX]; }""")
            assert wrap[0] <= 390 and wrap[2] == "auto"  # wider tables scroll in the box
        finally:
            browser.close()
