"""Every page keeps working under the Content-Security-Policy: a real browser
(Debian's Chromium, Playwright), logged in as a committee member, walks every same-site
link from the public home, the referee console, the referee tools and the admin, on a
tournament with a whole season (examples/season-2027.json), and no page reports a policy
violation (the browser's ``securitypolicyviolation`` events and console) or a script error.
Skipped when Playwright or Chromium is missing."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from urllib.parse import urldefrag, urlsplit

import pytest
from browser_kit import browser_marks, launch
from django.contrib.auth.models import Group, User

from risiko.web import services

playwright = pytest.importorskip("playwright.sync_api")
pytestmark = browser_marks()

SEASON = Path(__file__).parents[2] / "examples" / "season-2027.json"
PASSWORD = "tavolo-rosso-42"
WATCH = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', e => window.__csp.push(
  e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sample || '')));
"""
SKIP = re.compile(r"/logout/|/static/|\.csv$|\.json$|/admin/logout|/i18n/|/delete/|"
                  r"/history/|/password/|/add/")
LIMIT = 90


def test_no_page_breaks_the_content_security_policy(live_server, settings):
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop + the ORM
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    user = User.objects.create_user("comitato", password=PASSWORD)
    for g in ("referee", "committee"):
        user.groups.add(Group.objects.get_or_create(name=g)[0])
    t = services.import_season(json.loads(SEASON.read_text(encoding="utf-8")), who="test")
    evening = t.evenings.order_by("date").first()
    assert evening is not None
    base = live_server.url
    table = f"/strumenti/tavolo/{t.slug}/{evening.date}/1/"
    start = ["/", "/arbitro/", "/strumenti/", "/strumenti/tabellone/", table + "tabellone/",
             table + "chiusura/", table + "orologio/", "/admin/", "/regulation/"]
    problems: list[str] = []
    with playwright.sync_playwright() as p:
        browser = launch(p)
        context = browser.new_context(locale="it-IT")
        context.set_default_timeout(15_000)
        context.add_init_script(WATCH)
        page = context.new_page()
        page.on("pageerror", lambda err: problems.append(f"{page.url}: {err}"))
        page.on("console", lambda msg: problems.append(f"{page.url}: {msg.text}")
                if "Content Security Policy" in msg.text or msg.type == "error" else None)
        page.goto(base + "/login/")
        page.fill("input[name=username]", "comitato")
        page.fill("input[name=password]", PASSWORD)
        page.click("main button[type=submit]")
        page.wait_for_load_state()
        seen: set[str] = set()
        queue = list(start)
        visited = 0
        while queue and visited < LIMIT:
            path = queue.pop(0)
            if path in seen:
                continue
            seen.add(path)
            response = page.goto(base + path)
            visited += 1
            page.wait_for_load_state("networkidle")
            assert response is not None and response.status == 200, (path, response)
            assert response.headers.get("content-security-policy"), path
            problems += [f"{path}: {v}" for v in page.evaluate("window.__csp || []")]
            for href in page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)"):
                link = urldefrag(href).url
                parts = urlsplit(link)
                if not link.startswith(base) or SKIP.search(parts.path):
                    continue
                local = parts.path + (f"?{parts.query}" if parts.query else "")
                if local not in seen and local not in queue:
                    queue.append(local)
        browser.close()
    assert visited >= 40, sorted(seen)  # the walk reached the console, tools and admin pages
    assert any(s.startswith("/arbitro/t/") for s in seen)
    assert any(s.startswith("/admin/") and s.count("/") > 3 for s in seen)
    assert problems == []
