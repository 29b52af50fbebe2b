"""Online tables by club (issue 21 item 1): two clubs, MILANO and ROMA, on one server.

A casual table belongs to the club whose lobby created it, a tournament's table to its
tournament's club; a club's lobby lists its own tables; another club's table under a club's
prefix is not found (page, seat, socket); a club's referee is a referee at his club's tables
only; a player with the link at the right club's URL sits down as before.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from channels.layers import channel_layers
from django.contrib.auth.models import Group
from django.test import Client
from test_online_ws import WebsocketCommunicator, run

from risiko.web import services as club_services
from risiko.web.asgi import application
from risiko.web.clubs import club_scope, default_club
from risiko.web.national.models import Club
from risiko.web.online import services
from risiko.web.online.models import OnlineSeat, OnlineTable
from risiko.web.site.models import ClubMembership

pytestmark = [pytest.mark.online, pytest.mark.db, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _online(settings: Any) -> None:
    settings.RISIKO_ONLINE_SCHEDULER = False
    settings.RISIKO_FIRST_RUN_CHECK = False
    if not os.environ.get("REDIS_URL"):
        settings.CHANNEL_LAYERS = {"default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    services.clear_cache()


@pytest.fixture
def clubs(db: Any) -> dict[str, Any]:
    milano = Club.objects.create(key="MILANO", name="MILANO [Club Milano]", slug="milano")
    roma = Club.objects.create(key="ROMA", name="ROMA [Roma Club]", slug="roma")
    return {
        "milano": milano, "roma": roma,
        "t_milano": services.create_table(name="Tavolo Navigli", seats=3, who="x", club=milano),
        "t_roma": services.create_table(name="Tavolo Trastevere", seats=3, who="x", club=roma),
        "t_home": services.create_table(name="Tavolo di casa", seats=3, who="x"),
    }


def _referee_of(django_user_model: Any, club: Club, name: str = "arbitro") -> Any:
    user = django_user_model.objects.create_user(name, password="x")
    ClubMembership.objects.create(user=user, club=club, role="referee")
    return user


def test_a_table_belongs_to_its_lobbys_club_and_a_tournaments_to_its_club(clubs, django_user_model):
    assert clubs["t_home"].club == default_club()  # no club given, outside a request
    user = django_user_model.objects.create_user("gioca", password="x")
    browser = Client()
    browser.force_login(user)
    r = browser.post("/c/roma/online/nuovo/", {"name": "Da Roma", "seats": "4",
                                              "clock_minutes": "3"})
    assert r.status_code == 302
    made = OnlineTable.objects.get(name="Da Roma")
    assert made.club == clubs["roma"]
    assert r["Location"] == f"/c/roma/online/t/{made.code}/"
    with club_scope(clubs["roma"]):
        t = club_services.create_tournament("Torneo Roma", who="setup")
    table = services.create_table(name="Serata", seats=4, who="x", tournament=t,
                                  kind="tournament", club=clubs["milano"])
    assert table.club == clubs["roma"]  # the tournament's club, whatever the lobby


def test_each_clubs_lobby_lists_its_own_tables_only(clubs):
    browser = Client()
    page = {where: browser.get(url).content.decode()
            for where, url in (("milano", "/c/milano/online/"), ("roma", "/c/roma/online/"),
                               ("home", "/online/"))}
    assert "Tavolo Navigli" in page["milano"] and "Tavolo Trastevere" not in page["milano"]
    assert "Tavolo Trastevere" in page["roma"] and "Tavolo Navigli" not in page["roma"]
    assert "Tavolo di casa" in page["home"]
    assert "Tavolo Navigli" not in page["home"] and "Tavolo Trastevere" not in page["home"]
    assert "Tavolo di casa" not in page["milano"] + page["roma"]


def test_another_clubs_table_under_a_clubs_prefix_is_not_found(clubs):
    browser = Client()
    code = clubs["t_roma"].code
    assert browser.get(f"/c/roma/online/t/{code}/").status_code == 200
    assert browser.get(f"/c/milano/online/t/{code}/").status_code == 404
    assert browser.get(f"/online/t/{code}/").status_code == 404  # today's URLs: the default
    assert browser.post(f"/c/milano/online/t/{code}/siedi/",
                        {"guest_name": "Intrusa"}).status_code == 404
    assert not OnlineSeat.objects.filter(table=clubs["t_roma"], guest_name="Intrusa").exists()


def test_a_player_with_the_link_at_the_right_clubs_url_sits_down(clubs):
    browser = Client()
    code = clubs["t_roma"].code
    r = browser.post(f"/c/roma/online/t/{code}/siedi/", {"guest_name": "Giulia"})
    assert (r.status_code, r["Location"]) == (302, f"/c/roma/online/t/{code}/")
    seat = OnlineSeat.objects.get(table=clubs["t_roma"], guest_name="Giulia")
    assert (seat.position, seat.kind) == (1, "guest")


def test_a_clubs_referee_is_a_referee_at_his_clubs_tables_only(clubs, django_user_model):
    ref = _referee_of(django_user_model, clubs["milano"])
    assert services.identify(clubs["t_milano"].code, ref, None)[1].role == "referee"
    actor = services.identify(clubs["t_roma"].code, ref, None)[1]
    assert actor.role == "spectator"
    # the default club's groups are not a referee of another club either
    home = django_user_model.objects.create_user("casa", password="x")
    home.groups.add(Group.objects.get_or_create(name="referee")[0])
    assert services.identify(clubs["t_home"].code, home, None)[1].role == "referee"
    assert services.identify(clubs["t_roma"].code, home, None)[1].role == "spectator"
    # under another club's prefix the table is not there at all
    assert services.identify(clubs["t_roma"].code, ref, None, club=clubs["milano"]) is None


def test_the_socket_refuses_another_clubs_table_and_the_referee_command_on_it(
        clubs, django_user_model):
    ref = _referee_of(django_user_model, clubs["milano"])
    browser = Client()
    browser.force_login(ref)
    cookie = f"sessionid={browser.cookies['sessionid'].value}".encode()
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie)]
    roma = clubs["t_roma"].code

    async def go() -> None:
        elsewhere = WebsocketCommunicator(application, f"/c/milano/ws/online/{roma}/",
                                          headers=headers)
        ok, code = await elsewhere.connect()
        assert (ok, code) == (False, 4404)
        there = WebsocketCommunicator(application, f"/c/roma/ws/online/{roma}/?lang=en",
                                      headers=headers)
        assert (await there.connect())[0]
        welcome = await there.receive_json_from(timeout=5)
        assert (welcome["type"], welcome["role"]) == ("welcome", "spectator")
        await there.receive_json_from(timeout=5)  # the state
        await there.send_json_to({"type": "referee", "id": "r1", "command": {"kind": "pause"}})
        while (m := await there.receive_json_from(timeout=5))["type"] != "refused":
            pass
        assert [f["code"] for f in m["faults"]] == ["online.not_referee"]
        await there.disconnect()
        mine = WebsocketCommunicator(
            application, f"/c/milano/ws/online/{clubs['t_milano'].code}/?lang=en",
            headers=headers)
        assert (await mine.connect())[0]
        welcome = await mine.receive_json_from(timeout=5)
        assert welcome["role"] == "referee"
        await mine.disconnect()

    run(go)


def test_a_clubs_referee_cannot_keep_another_clubs_online_result(clubs, django_user_model):
    from test_online_results import TYPED, _end, _evening

    from risiko.web.online.models import OnlineResult

    with club_scope(clubs["roma"]):
        _t, _ev, (table,) = _evening(1)
        club_services.enter_scores(table.game_table, TYPED, who="arbitro")
    assert table.club == clubs["roma"]  # an evening's table: its tournament's club
    _end(table)
    waiting = OnlineResult.objects.get(table=table)
    ref = _referee_of(django_user_model, clubs["milano"])
    browser = Client()
    browser.force_login(ref)
    r = browser.post(f"/c/milano/online/risultato/{waiting.pk}/",
                     {"keep": "online", "reason": "non è il mio club"})
    assert r.status_code == 404
    assert OnlineResult.objects.get(pk=waiting.pk).decision == ""
