"""Live pages by club (issue 21 item 1): a club's pages (``/c/<club>/...``) are followed in
their club, and a change at one club's tournament reaches that club's pages and consoles,
never another club's page of a tournament with the same slug. Milano is the default club
(today's URLs), Roma has a tournament of the same name; the result saved at Roma is Alba 100
(RisiKo!), Bice 40, Ciro 30, Dora 20 (Club Milano's formula: the table scores, R15)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from channels.layers import channel_layers

from risiko.web import services
from risiko.web.clubs import club_scope, default_club
from risiko.web.core import writes
from risiko.web.live import render
from risiko.web.live.groups import REGISTRY, Page, console_group, page_of, referee_at
from risiko.web.live.hub import HUB
from risiko.web.national.models import Club
from risiko.web.public import data
from risiko.web.site.models import ClubMembership

pytestmark = [pytest.mark.online, pytest.mark.db, pytest.mark.django_db(transaction=True)]

WHO = "arbitro"
SLUG = "torneo-in-diretta"
NAMES = ["Alba", "Bice", "Ciro", "Dora"]


@pytest.fixture(autouse=True)
def _live(settings: Any) -> Any:
    settings.RISIKO_ONLINE_SCHEDULER = False
    settings.RISIKO_FIRST_RUN_CHECK = False
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    data.clear_cache()
    REGISTRY.clear()
    HUB.forget()
    yield
    REGISTRY.clear()
    data.clear_cache()


def _build(club: Club) -> Any:
    with club_scope(club):
        t = services.create_tournament("Torneo in diretta", who=WHO)
        services.add_players(t, NAMES, who=WHO)
        evening = services.open_evening(t, "2027-03-02", who=WHO)
        (table,) = services.set_tables(evening, [NAMES], who=WHO)
    return t, table


def _points(html: str) -> list[tuple[str, str]]:
    body = html[html.index('<table class="standings">'):]
    body = body[:body.index("</table>")]
    cells = [[re.sub(r"<[^>]+>|†", "", c).strip()
              for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", tr, re.S)]
             for tr in re.findall(r"<tr class=[^>]*>(.*?)</tr>", body, re.S)]
    return [(c[1], c[2]) for c in cells]


def test_a_change_at_one_club_reaches_its_pages_only() -> None:
    milano = default_club()
    roma = Club.objects.create(key="ROMA", name="ROMA [Roma Club]", slug="roma")
    milano_t, _ = _build(milano)
    roma_t, roma_table = _build(roma)
    assert milano_t.slug == roma_t.slug == SLUG
    services.enter_scores(roma_table, {"Alba": 100, "Bice": 40, "Ciro": 30, "Dora": 20},
                          risiko=["Alba"], who=WHO)

    at_roma = page_of(f"/c/roma/t/{SLUG}/", "it", referee=False)
    at_milano = page_of(f"/t/{SLUG}/", "it", referee=False)
    assert at_roma == Page("public", f"/c/roma/t/{SLUG}/", SLUG, "it")
    assert (at_roma.club, at_milano.club) == ("roma", None)
    assert at_roma.group != at_milano.group
    assert _points(render.page_fragment(at_roma)) == [
        ("Alba", "100"), ("Bice", "40"), ("Ciro", "30"), ("Dora", "20")]
    assert "/c/roma/t/torneo-in-diretta/giocatori/Alba/" in render.page_fragment(at_roma)
    # Milano's tournament of the same slug has no result yet: no standings on its page
    assert '<table class="standings">' not in render.page_fragment(at_milano)

    for page in (at_roma, at_milano):
        assert REGISTRY.add(page)
    groups = [g for g, _m in HUB.messages([writes.Change("enter_scores", WHO, {roma_t.pk})])]
    assert groups == [console_group(SLUG, "it", "roma"), console_group(None, "it", "roma"),
                      console_group(SLUG, "en", "roma"), console_group(None, "en", "roma"),
                      at_roma.group]


def test_a_clubs_console_page_is_followed_by_its_referees_only(make_user: Any) -> None:
    roma = Club.objects.create(key="ROMA", name="ROMA [Roma Club]", slug="roma")
    milano = Club.objects.create(key="MILANO", name="MILANO", slug="milano")
    referee = make_user("arbitro")
    ClubMembership.objects.create(user=referee, club=milano, role="referee")
    console = f"/c/roma/arbitro/t/{SLUG}/"
    assert not referee_at(referee, console)
    assert referee_at(referee, f"/c/milano/arbitro/t/{SLUG}/")
    assert not referee_at(referee, f"/c/napoli/arbitro/t/{SLUG}/")
    page = page_of(console, "it", referee=True)
    assert page is not None and page.group == console_group(SLUG, "it", "roma")
    assert page.group != console_group(SLUG, "it")
    assert roma.slug == page.club


def test_a_follower_of_one_clubs_page_gets_nothing_from_another_clubs_change() -> None:
    """Over the sockets: Roma's result reaches the phone on Roma's standings (Alba 100
    first) and nothing reaches the phone on Milano's page of the same slug."""
    import json

    from channels.db import database_sync_to_async
    from test_online_ws import WebsocketCommunicator, run

    from risiko.web.asgi import application

    milano = default_club()
    roma = Club.objects.create(key="ROMA", name="ROMA [Roma Club]", slug="roma")
    _build(milano)
    _roma_t, roma_table = _build(roma)

    async def follow(path: str) -> WebsocketCommunicator:
        comm = WebsocketCommunicator(application, f"/ws/live/?path={path}&lang=it",
                                     headers=[(b"origin", b"http://localhost"),
                                              (b"host", b"localhost")])
        ok, code = await comm.connect(timeout=5)
        assert ok, code
        return comm

    def save() -> None:
        services.enter_scores(roma_table, {"Alba": 100, "Bice": 40, "Ciro": 30, "Dora": 20},
                              risiko=["Alba"], who=WHO)

    async def go() -> None:
        at_roma = await follow(f"/c/roma/t/{SLUG}/")
        at_milano = await follow(f"/t/{SLUG}/")
        await database_sync_to_async(save)()
        m = json.loads(await at_roma.receive_from(timeout=5))
        assert _points(m["html"]) == [("Alba", "100"), ("Bice", "40"), ("Ciro", "30"),
                                      ("Dora", "20")]
        assert await at_milano.receive_nothing(timeout=0.5)
        await at_roma.disconnect()
        await at_milano.disconnect()

    run(go)
    HUB.server_loop = None
