"""The site foundation's pages: base layout and nav, language switch, home, regulation,
static files (htmx vendored), error pages."""

from __future__ import annotations

import gettext
import json
import re
import sys
from pathlib import Path

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group, User
from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.test import Client
from django.urls import include, path

from risiko.web.site import regulation
from risiko.web.tournaments.models import Tournament

pytestmark = [pytest.mark.db, pytest.mark.django_db]

SEED = Path(__file__).resolve().parents[3] / "shared" / "seed" / "regolamento-club-milano.txt"
LOCALE = Path(__file__).resolve().parents[2] / "src" / "risiko" / "web" / "locale"


@pytest.fixture(autouse=True)
def _fast_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _a_user_exists(db):
    """Past the first run: pages are served."""
    User.objects.create_user("arbitro", password="tavolo-rosso-42")


def _lang(html: bytes) -> str:
    match = re.search(rb'<html lang="([a-z-]+)"', html)
    assert match
    return match.group(1).decode()


def test_italian_is_the_default_and_english_comes_with_the_switch(client):
    home = client.get("/")
    assert _lang(home.content) == "it"
    page = home.content.decode()
    assert "Classifica" in page and "Regolamento" in page and "Tornei" in page
    assert '<button type="submit" name="language" value="en" lang="en">English</button>' in page
    switched = client.post("/i18n/setlang/", {"language": "en", "next": "/regulation/"})
    assert switched.status_code == 302 and switched["Location"] == "/regulation/"
    home = client.get("/")
    assert _lang(home.content) == "en"
    page = home.content.decode()
    assert "Standings" in page and "Regulation" in page and "Tournaments" in page
    assert "Classifica" not in page
    assert '<button type="submit" name="language" value="it" lang="it">Italiano</button>' in page
    back = client.post("/i18n/setlang/", {"language": "it", "next": "/"})
    assert back.status_code == 302 and _lang(client.get("/").content) == "it"


def test_a_browser_in_english_still_gets_italian_until_the_switch(client, settings):
    english = {"Accept-Language": "en-US,en;q=0.9"}
    assert _lang(client.get("/", headers=english).content) == "it"
    client.post("/i18n/setlang/", {"language": "en"})
    assert _lang(client.get("/", headers=english).content) == "en"
    settings.RISIKO_BROWSER_LANGUAGE = True
    assert _lang(Client().get("/", headers=english).content) == "en"


def test_the_base_layout(client):
    page = client.get("/").content.decode()
    assert '<meta name="viewport"' in page
    assert "/static/site/css/site.css" in page
    assert "/static/site/js/htmx.min.js" in page
    assert "hx-headers='{\"X-CSRFToken\": \"" in page  # htmx requests carry the CSRF token
    assert "Risiko! Club Milano" in page
    assert '<a href="/classifica/">Classifica</a>' in page  # the public app's standings
    assert '<a href="/login/">Login</a>' in page


def test_static_files_are_served_without_collectstatic(client):
    assert finders.find("site/js/htmx.min.js")
    js = client.get("/static/site/js/htmx.min.js")
    assert js.status_code == 200
    assert b"htmx" in b"".join(js.streaming_content)[:200]
    assert client.get("/static/site/css/site.css").status_code == 200


def test_home_lists_the_tournaments_with_their_links(client):
    assert "Ancora nessun torneo." in client.get("/").content.decode()
    Tournament.objects.create(name="Torneo 2026", slug="torneo-2026", is_current=False)
    Tournament.objects.create(name="Torneo 2027", slug="torneo-2027")
    page = client.get("/").content.decode()
    assert '<a href="/t/torneo-2027/"><strong>Torneo 2027</strong></a>' in page
    assert '<a href="/t/torneo-2026/"><strong>Torneo 2026</strong></a>' in page
    assert page.index("Torneo 2027") < page.index("Torneo 2026")  # newest first
    assert page.count("in corso") == 1


def test_the_regulation_in_italian_and_english(client):
    it = client.get("/regulation/").content.decode()
    assert "PUNTEGGIO E CLASSIFICA GENERALE" in it
    assert 'id="r1"' in it and 'id="r18"' in it
    assert '<a href="/regulation/en/" lang="en">English rendering</a>' in it
    en = client.get("/regulation/en/").content.decode()
    assert "SCORING AND GENERAL RANKING" in en and 'id="r8"' in en
    assert '<a href="/regulation/it/" lang="it">Testo originale in italiano</a>' in en
    assert client.get("/regulation/it/").content.decode().count('class="clause"') == 18
    assert client.get("/regulation/fr/").status_code == 404
    client.post("/i18n/setlang/", {"language": "en"})
    assert "SCORING AND GENERAL RANKING" in client.get("/regulation/").content.decode()


def test_the_english_rendering_has_every_paragraph_of_the_italian():
    it, en = regulation.load("it"), regulation.load("en")
    assert [p.clause for p in it.paragraphs] == [p.clause for p in en.paragraphs]
    assert [p.clause for p in it.paragraphs if p.clause] == list(range(1, 19))
    assert "120" in en.paragraphs[4].text and "7 table points" in en.paragraphs[5].text


@pytest.mark.skipif(not SEED.exists(), reason="shared/seed not beside the clone")
def test_the_italian_text_is_the_seed_verbatim():
    assert regulation.FILES["it"].read_bytes() == SEED.read_bytes()


def _po_entries(po: Path) -> dict[object, str]:
    """msgid (or (msgid, n) for plurals) -> msgstr of a .po file, as gettext keys them."""
    entries: dict[object, str] = {}
    key: str | None = None
    field = ""
    values: dict[str, str] = {}

    def flush() -> None:
        if key is not None and key != "":
            if "msgstr" in values:
                entries[key] = values["msgstr"]
            for name, text in values.items():
                if name.startswith("msgstr["):
                    entries[(key, int(name[7:-1]))] = text

    for line in [*po.read_text(encoding="utf-8").splitlines(), ""]:
        if line.startswith("msgid "):
            flush()
            values, field = {}, "msgid"
            key = json.loads(line[6:])
        elif line.startswith(("msgstr", "msgid_plural")):
            field, _, rest = line.partition(" ")
            values[field] = json.loads(rest)
        elif line.startswith('"') and field:
            if field == "msgid":
                key = (key or "") + json.loads(line)
            else:
                values[field] += json.loads(line)
        elif not line.strip():
            field = ""
    flush()
    return entries


def test_the_catalogues_are_compiled():
    for lang in ("it", "en"):
        folder = LOCALE / lang / "LC_MESSAGES"
        with (folder / "django.mo").open("rb") as fh:
            compiled = gettext.GNUTranslations(fh)._catalog  # type: ignore[attr-defined]
        entries = _po_entries(folder / "django.po")
        assert entries, lang
        for msgid, msgstr in entries.items():
            assert msgstr, f"{lang}: {msgid!r} has no translation"
            assert compiled.get(msgid) == msgstr, f"{lang}: {msgid!r}: run compilemessages"


def test_error_pages_in_production(client, settings):
    settings.DEBUG = False
    missing = client.get("/no-such-page/")
    assert missing.status_code == 404
    assert "Pagina non trovata" in missing.content.decode()


def test_the_committee_sees_the_admin_link(client):
    committee = User.objects.create_user("comitato", password="tavolo-rosso-42")
    committee.groups.add(Group.objects.get(name="committee"))
    assert "Amministrazione" not in client.get("/").content.decode()
    client.force_login(committee)
    assert '<a href="/admin/">Amministrazione</a>' in client.get("/").content.decode()


# --- the nav shows pages other apps add, by URL name ----------------------------------------


def _page(request):
    return HttpResponse("page")


# the site alone (without the public, console and tools apps) plus two pages by name
urlpatterns = [
    path("serate/", _page, name="evenings"),
    path("arbitro/", _page, name="referee_tools"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("risiko.web.site.urls")),
]


def test_a_nav_link_to_an_unknown_url_name_is_an_error_not_a_silent_gap(client, settings):
    """The nav no longer renders nothing for a URL name that does not exist
    (here "players"): like {% url %}, it fails loudly."""
    from django.urls import NoReverseMatch

    settings.ROOT_URLCONF = sys.modules[__name__]
    with pytest.raises(NoReverseMatch):
        client.get("/")


def test_the_nav_links_every_page_and_marks_the_current_one(client):
    page = client.get("/serate/").content.decode()
    for href in ("/classifica/", "/serate/", "/giocatori/", "/nazionale/", "/regulation/"):
        assert f'<a href="{href}"' in page
    assert '<a href="/serate/" aria-current="page">' in page
    assert '<a href="/nazionale/">Ranking nazionale</a>' in page
    assert "Strumenti arbitro" not in page  # for referees only
    client.force_login(User.objects.get(username="arbitro"))
    User.objects.get(username="arbitro").groups.add(Group.objects.get(name="referee"))
    assert "Strumenti arbitro" in client.get("/").content.decode()
