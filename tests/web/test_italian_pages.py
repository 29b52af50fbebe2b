"""Every page in Italian (issue 18 §2): a crawl of the console and the public pages of a whole
season (examples/season-2027.json) in ``it``, as a referee who is also on the committee sees
them, following every link of the site (each URL pattern at most twice). It fails on any
message looked up while rendering that has no Italian translation in the catalogues (the
``it`` translation is watched: a msgid it does not hold is one the page showed in English),
and on a short list of English words that must never show on an Italian page."""

from __future__ import annotations

import json
import re
from collections import Counter, deque
from collections.abc import Iterator
from contextlib import contextmanager
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.core.cache import cache
from django.test import Client
from django.urls import Resolver404, resolve
from django.utils.translation import trans_real

from risiko.web import services

pytestmark = [pytest.mark.db, pytest.mark.django_db]

SEASON = Path(__file__).resolve().parents[2] / "examples" / "season-2027.json"
START = ["/", "/arbitro/", "/strumenti/", "/online/", "/regulation/"]
#: not pages to read in Italian: files, the admin (Django's own), the English regulation,
#: the language switch and logging out
SKIP = re.compile(r"^/(static|admin|i18n|logout|login)/|^/regulation/en/|\.(csv|json|svg|txt)$")
#: English words that must never show on an Italian page (visible text, whole words)
ENGLISH = ["none yet", "Expecting", "on_time", "enter result", "swap seats", "Penaltys",
           "the target", "the", "and", "of", "Players", "Evening", "Table", "Standings",
           "Penalty", "Referee", "Correct", "Save", "Logout", "points", "qualifying",
           "semifinal", "sheet", "scores", "left the game", "late", "on time", "excluded",
           "None", "Yes", "arrivals", "tables", "results", "penalties", "from"]
WORDS = re.compile(r"\b(" + "|".join(re.escape(w) for w in ENGLISH) + r")\b")
PER_PATTERN = 2


@contextmanager
def untranslated() -> Iterator[Counter[str]]:
    """The msgids the ``it`` translation was asked for and does not hold, while inside."""
    it = trans_real.translation("it")
    missed: Counter[str] = Counter()

    def known(message: Any) -> bool:
        return message in it._catalog or (message, it.plural(1)) in it._catalog

    def gettext(message: str) -> str:
        if not known(message):
            missed[message] += 1
        return type(it).gettext(it, message)

    def ngettext(singular: str, plural: str, n: int) -> str:
        if (singular, 0) not in it._catalog:
            missed[singular] += 1
        return type(it).ngettext(it, singular, plural, n)

    it.gettext, it.ngettext = gettext, ngettext  # type: ignore[method-assign]
    try:
        yield missed
    finally:
        del it.gettext, it.ngettext


def _visible(html: str) -> str:
    # scripts, styles, and JSON shown as it is stored (a format's parameters, an audit
    # entry's values: codes, not words)
    html = re.sub(r"<(script|style|textarea|pre)\b.*?</\1>", " ", html, flags=re.S | re.I)
    html = re.sub(r'<form[^>]*class="language-switch".*?</form>', " ", html, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def _links(html: str) -> list[str]:
    out = []
    for href in re.findall(r'href="(/[^"#?]*)', html):
        if not href.startswith("//") and not SKIP.search(href):
            out.append(unescape(href))
    return out


def _crawl(client: Client) -> dict[str, str]:
    """Every page reachable from :data:`START` (each URL pattern at most
    :data:`PER_PATTERN` times): path -> visible text."""
    seen: set[str] = set()
    per_pattern: Counter[str] = Counter()
    pages: dict[str, str] = {}
    queue = deque(START)
    while queue:
        path = queue.popleft()
        if path in seen:
            continue
        seen.add(path)
        try:
            match = resolve(path)
        except Resolver404:
            continue
        if per_pattern[match.route] >= PER_PATTERN:
            continue
        per_pattern[match.route] += 1
        response = client.get(path, follow=True)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        html = response.content.decode()
        pages[path] = _visible(html)
        queue.extend(_links(html))
    return pages


def test_every_page_is_in_italian():
    cache.clear()
    season = json.loads(SEASON.read_text(encoding="utf-8"))
    # the referees' notes are data, as typed (in English in the example): Italian here
    for value in season["carry_over"].values():
        value["note"] = "R17: nuovo socio, 2 partite nel torneo 2026"
    for draw in season.get("draws", ()):
        draw["note"] = "Dora ed Ezio a pari merito al 10º posto"
    services.import_season(season, who="test")
    user = User.objects.create_user("arbitro", password="tavolo-rosso-42")
    user.groups.add(*(Group.objects.get_or_create(name=g)[0] for g in ("referee", "committee")))
    client = Client()
    client.force_login(user)
    with untranslated() as missed:
        pages = _crawl(client)
    # the crawl reached the console, the tools, the public pages and the regulation
    routes = {resolve(p).route for p in pages}
    print(len(pages), "pages,", len(routes), "URL patterns")
    assert len(pages) > 40, sorted(pages)
    for part in ("arbitro/", "strumenti/", "t/<slug:slug>/", "regulation/"):
        assert any(r.startswith(part) for r in routes), (part, sorted(routes))
    assert not missed, "messages without an Italian translation:\n" + "\n".join(
        f"{n}× {m!r}" for m, n in missed.most_common())
    found = {(m.group(1), path, text[max(0, m.start() - 60):m.end() + 60])
             for path, text in pages.items() for m in WORDS.finditer(text)}
    assert not found, "English on Italian pages:\n" + "\n".join(
        f"{word!r} on {path}: …{around}…" for word, path, around in sorted(found))
