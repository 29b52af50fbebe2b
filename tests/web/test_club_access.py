"""Clubs on one server (issue 21 item 1): every console URL, across two clubs.

Two clubs, MILANO and ROMA, each with a tournament ``torneo`` (the same slug: slugs are
unique per club) and an evening with a table, a result, an arrival and a penalty; ROMA also
has ``solo-roma``. Milano's referee and committee act on Milano's pages under ``/c/milano/``
and get 403 on every page and form of Roma's (``/c/roma/...``) and 404 for Roma's tournament
under Milano's address; nothing they send to Roma is written. The national officer reads
every club's console and sends no form. Today's URLs are the default club's.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, reverse

from risiko.web import services
from risiko.web.auditlog.models import AuditEntry
from risiko.web.clubs import club_scope
from risiko.web.console.urls import urlpatterns
from risiko.web.national.models import Club
from risiko.web.site.models import ClubMembership
from risiko.web.tournaments.models import Tournament

pytestmark = [pytest.mark.db, pytest.mark.django_db, pytest.mark.usefixtures("fast_hashing")]

NAMES = ["Alba", "Bice", "Ciro", "Dora", "Ezio"]
DATE = "2027-03-02"
PATTERNS = [p for p in urlpatterns if isinstance(p, URLPattern)]
#: the console's committee pages (a referee gets 403 at his own club too)
COMMITTEE_ONLY = {"console_import", "console_merge_players"}
#: the pages that answer a GET with 405 (forms sent only)
POST_ONLY = {"console_make_current", "console_seat", "console_swap", "console_abandon",
             "console_void_penalty", "console_arrival", "console_add_players",
             "console_open_evening", "console_carry_over", "console_seat_stage", "console_draw",
             "console_set_tables", "console_add_penalty", "console_discipline",
             "console_scores", "console_sheet"}


def _season(club: Club, slug_name: str = "Torneo") -> dict[str, Any]:
    with club_scope(club):
        t = services.create_tournament(slug_name, who="setup")
        services.add_players(t, NAMES, who="setup")
        e = services.open_evening(t, DATE, who="setup")
        services.record_arrival(e, "Alba", "21:00", who="setup")
        services.set_tables(e, [NAMES], who="setup")
        services.enter_scores(services.get_table(e, 1), dict.fromkeys(NAMES, 20), who="setup")
        pen = services.add_penalty(e, "Bice", -5, unit="ranking", reason="x", referee="R",
                                   who="setup")
    alba = t.entries.get(player__name="Alba").player
    return {"slug": t.slug, "date": DATE, "number": 1, "player": alba.pk, "pk": pen.pk}


@pytest.fixture
def clubs(db) -> dict[str, Any]:
    milano = Club.objects.create(key="MILANO", name="MILANO [Club Milano]", slug="milano",
                                 region="Lombardia", official=True)
    roma = Club.objects.create(key="ROMA", name="ROMA [Roma Club]", slug="roma",
                               region="Lazio")
    return {"milano": milano, "roma": roma, "milano_kw": _season(milano),
            "roma_kw": _season(roma), "solo_roma": _season(roma, "Solo Roma")}


def _member(make_user, name: str, club: Club, *roles: str, groups: tuple[str, ...] = ()) -> Client:
    user = make_user(name, *groups)
    for role in roles:
        ClubMembership.objects.create(user=user, club=club, role=role)
    client = Client()
    client.force_login(user)
    return client


def _url(club: Club | None, pattern: URLPattern, kw: dict[str, Any]) -> str:
    keys = pattern.pattern.converters.keys()
    path = reverse(pattern.name, kwargs={k: kw[k] for k in keys})
    return path if club is None else f"/c/{club.slug}{path}"


IDS = [p.name for p in PATTERNS]


@pytest.mark.parametrize("pattern", PATTERNS, ids=IDS)
def test_a_clubs_committee_opens_every_console_page_of_its_club(clubs, make_user, pattern):
    client = _member(make_user, "capo", clubs["milano"], "committee")
    url = _url(clubs["milano"], pattern, clubs["milano_kw"])
    r = client.get(url)
    assert r.status_code == (405 if pattern.name in POST_ONLY else 200), r.content[:300]
    # a form sent to his own club passes the door (written, or refused for its content)
    assert client.post(url, {}).status_code not in (403, 404)


@pytest.mark.parametrize("pattern", PATTERNS, ids=IDS)
def test_a_clubs_referee_opens_his_clubs_pages_but_not_the_committees(clubs, make_user,
                                                                      pattern):
    client = _member(make_user, "arbitro", clubs["milano"], "referee")
    r = client.get(_url(clubs["milano"], pattern, clubs["milano_kw"]))
    expected = 403 if pattern.name in COMMITTEE_ONLY else (
        405 if pattern.name in POST_ONLY else 200)
    assert r.status_code == expected


@pytest.mark.parametrize("pattern", PATTERNS, ids=IDS)
@pytest.mark.parametrize("role", ["referee", "committee"])
def test_a_clubs_people_get_403_on_every_page_and_form_of_another_club(clubs, make_user,
                                                                     pattern, role):
    client = _member(make_user, "arbitro", clubs["milano"], role)
    url = _url(clubs["roma"], pattern, clubs["roma_kw"])
    written = AuditEntry.objects.count()
    assert client.get(url).status_code == 403
    assert client.post(url, {"name": "X", "names": "Zeno", "points": "-5"}).status_code == 403
    assert AuditEntry.objects.count() == written


TOURNAMENT_PATTERNS = [p for p in PATTERNS if "slug" in p.pattern.converters]


@pytest.mark.parametrize("pattern", TOURNAMENT_PATTERNS, ids=[p.name for p in TOURNAMENT_PATTERNS])
def test_another_clubs_tournament_under_ones_own_club_is_not_found(clubs, make_user, pattern):
    client = _member(make_user, "capo", clubs["milano"], "committee")
    url = _url(clubs["milano"], pattern, clubs["solo_roma"])
    written = AuditEntry.objects.count()
    assert client.get(url).status_code == (405 if pattern.name in POST_ONLY else 404)
    assert client.post(url, {"name": "X", "points": "-5"}).status_code == 404
    assert AuditEntry.objects.count() == written


@pytest.mark.parametrize("pattern", PATTERNS, ids=IDS)
def test_the_national_officer_reads_every_club_and_sends_no_form(clubs, make_user, pattern):
    client = _member(make_user, "ufficiale", clubs["milano"], groups=("national_officer",))
    for club in ("milano", "roma"):
        url = _url(clubs[club], pattern, clubs[f"{club}_kw"])
        r = client.get(url)
        assert r.status_code == (405 if pattern.name in POST_ONLY else 200), (club, url)
        written = AuditEntry.objects.count()
        assert client.post(url, {"name": "X"}).status_code == 403
        assert AuditEntry.objects.count() == written


def test_the_same_slug_at_two_clubs_is_two_tournaments(clubs):
    rows = sorted(Tournament.all_clubs.values_list("club__slug", "slug"))
    assert rows == [("milano", "torneo"), ("roma", "solo-roma"), ("roma", "torneo")]
    assert Tournament.objects.count() == 3  # no club scope outside a request: every club


def test_an_unknown_club_is_not_found(clubs, make_user):
    client = _member(make_user, "capo", clubs["milano"], "committee")
    assert client.get("/c/napoli/arbitro/").status_code == 404
    assert client.get("/c/napoli/").status_code == 404


def test_pages_of_a_club_link_inside_the_club(clubs, make_user):
    client = _member(make_user, "capo", clubs["milano"], "committee")
    page = client.get("/c/milano/arbitro/t/torneo/").content.decode()
    assert 'href="/c/milano/arbitro/t/torneo/2027-03-02/"' in page
    assert 'href="/arbitro/t/torneo/' not in page
    public = client.get("/c/roma/t/solo-roma/").content.decode()
    assert "ROMA [Roma Club]" in public
    assert 'href="/c/roma/t/solo-roma/serate/"' in public


def test_todays_urls_are_the_default_clubs_and_its_groups_act_there(clubs, make_user):
    Club.objects.filter(pk=clubs["milano"].pk).update(is_default=True)
    legacy = _member(make_user, "arbitro", clubs["roma"], groups=("referee",))
    kw = clubs["milano_kw"]
    assert legacy.get(f"/arbitro/t/torneo/{DATE}/").status_code == 200
    assert legacy.get("/arbitro/t/solo-roma/").status_code == 404
    # the group is the role at the default club only
    assert legacy.get("/c/roma/arbitro/t/torneo/").status_code == 403
    assert legacy.get(f"/c/milano/arbitro/t/torneo/{kw['date']}/").status_code == 200
    public = Client().get("/t/torneo/giocatori/")
    assert public.status_code == 200


def test_a_tournament_created_at_a_club_belongs_to_it(clubs, make_user):
    client = _member(make_user, "capo", clubs["roma"], "committee")
    r = client.post("/c/roma/arbitro/", {"name": "Coppa Roma", "ruleset": "club-milano@2",
                                           "format": "club-milano"})
    assert r.status_code in (200, 302), r.content[:500]
    t = Tournament.all_clubs.get(name="Coppa Roma")
    assert t.club == clubs["roma"]


def _tools_patterns() -> list[URLPattern]:
    from risiko.web.tools.urls import urlpatterns as tools

    return [p for p in tools if isinstance(p, URLPattern) and "slug" in p.pattern.converters]


TOOLS = _tools_patterns()


@pytest.mark.parametrize("pattern", TOOLS, ids=[p.name for p in TOOLS])
def test_the_referee_tools_at_a_table_are_the_clubs_too(clubs, make_user, pattern):
    client = _member(make_user, "arbitro", clubs["milano"], "referee")
    own = _url(clubs["milano"], pattern, clubs["milano_kw"])
    assert client.get(own).status_code in (200, 405)
    assert client.post(own, {}).status_code not in (403, 404)
    written = AuditEntry.objects.count()
    other = _url(clubs["roma"], pattern, clubs["roma_kw"])
    assert client.get(other).status_code == 403
    assert client.post(other, {}).status_code == 403
    missing = _url(clubs["milano"], pattern, clubs["solo_roma"])
    assert {client.get(missing).status_code, client.post(missing, {}).status_code} in (
        {404}, {404, 405})  # a page read only answers a form with 405
    assert AuditEntry.objects.count() == written


def test_a_club_console_page_is_never_stored(clubs, make_user):
    client = _member(make_user, "arbitro", clubs["milano"], "referee")
    r = client.get("/c/milano/arbitro/t/torneo/")
    assert "no-store" in r["Cache-Control"]


PUBLIC = ["/", "/classifica/", "/serate/", "/giocatori/", "/tornei/", "/t/{slug}/",
          "/t/{slug}/serate/", "/t/{slug}/serate/2027-03-02/", "/t/{slug}/giocatori/",
          "/t/{slug}/giocatori/Alba/", "/t/{slug}/classifica/live/"]


@pytest.mark.parametrize("path", PUBLIC)
def test_a_clubs_public_pages_show_its_tournaments_only(clubs, make_user, path):
    make_user("arbitro")  # past the first run
    anyone = Client()
    assert anyone.get("/c/roma" + path.format(slug="solo-roma")).status_code == 200
    if "{slug}" in path:
        assert anyone.get("/c/milano" + path.format(slug="solo-roma")).status_code == 404


def test_a_clubs_json_api_lists_its_tournaments_only(clubs, make_user):
    make_user("arbitro")  # past the first run
    anyone = Client()
    milano = anyone.get("/c/milano/api/tournaments").json()
    roma = anyone.get("/c/roma/api/tournaments").json()
    assert sorted(t["slug"] for t in _rows(milano)) == ["torneo"]
    assert sorted(t["slug"] for t in _rows(roma)) == ["solo-roma", "torneo"]
    assert anyone.get("/c/milano/api/tournaments/solo-roma/standings").status_code == 404
    assert anyone.get("/c/roma/api/tournaments/solo-roma/standings").status_code == 200


def _rows(answer: Any) -> list[dict[str, Any]]:
    return answer["tournaments"] if isinstance(answer, dict) else answer


def test_who_is_a_national_officer(clubs, make_user):
    from django.contrib.auth.models import AnonymousUser

    from risiko.web.site.permissions import is_committee, is_national_officer, is_referee

    officer = make_user("ufficiale", "national_officer")
    capo = make_user("capo", "committee")
    boss = make_user("boss", is_superuser=True)
    gone = make_user("gone", "national_officer", is_active=False)
    assert [is_national_officer(u) for u in (officer, capo, boss, gone, AnonymousUser())] == [
        True, False, True, False, False]
    # reading every club is not acting at one: no role anywhere
    assert not is_referee(officer, clubs["roma"]) and not is_committee(officer, None)


def test_a_national_officers_page_is_his_alone(clubs, make_user):
    from django.contrib.auth.models import AnonymousUser
    from django.core.exceptions import PermissionDenied
    from django.http import HttpResponse
    from django.test import RequestFactory

    from risiko.web.site.permissions import national_officer_required

    @national_officer_required
    def approve(request):
        return HttpResponse("ok")

    def answer(user, method="post"):
        request = getattr(RequestFactory(), method)("/c/roma/nazionale/approva/")
        request.user, request.club = user, clubs["roma"]
        try:
            return approve(request).status_code
        except PermissionDenied:
            return 403

    roma_committee = make_user("capo")
    ClubMembership.objects.create(user=roma_committee, club=clubs["roma"], role="committee")
    assert answer(make_user("ufficiale", "national_officer")) == 200
    assert answer(roma_committee) == 403
    assert answer(roma_committee, "get") == 403
    assert answer(AnonymousUser()) == 302  # to the login


def test_a_form_sent_twice_at_a_club_opens_one_evening_there(clubs, make_user):
    from concurrency_kit import client_token

    client = _member(make_user, "arbitro", clubs["roma"], "referee")
    path = "/c/roma/arbitro/t/solo-roma/serate/"
    token = client_token(client, path)
    form = {"date": "2027-03-09", "stage": "qualifying", "once": token}
    first, second = client.post(path, form), client.post(path, form)
    assert (first.status_code, first["Location"]) == (
        302, "/c/roma/arbitro/t/solo-roma/2027-03-09/arrivi/")
    assert (second.status_code, second["Location"]) == (302, first["Location"])
    roma = Tournament.all_clubs.get(club=clubs["roma"], slug="solo-roma")
    same_slug = Tournament.all_clubs.get(club=clubs["milano"], slug="torneo")
    assert sorted(str(d) for d in roma.evenings.values_list("date", flat=True)) == [
        "2027-03-02", "2027-03-09"]
    assert same_slug.evenings.count() == 1


def test_a_clubs_lists_name_its_tournaments_only(clubs, make_user):
    client = _member(make_user, "capo", clubs["milano"], "committee")
    console = client.get("/c/milano/arbitro/").content.decode()
    public = client.get("/c/milano/tornei/").content.decode()
    roma = client.get("/c/roma/tornei/").content.decode()
    assert 'href="/c/milano/arbitro/t/torneo/"' in console and "Solo Roma" not in console
    assert 'href="/c/milano/t/torneo/"' in public and "Solo Roma" not in public
    assert 'href="/c/roma/t/solo-roma/"' in roma and 'href="/c/roma/t/torneo/"' in roma
