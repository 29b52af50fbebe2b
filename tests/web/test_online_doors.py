"""The doors of an online table (issue 20, item 7): one seat per logged-in user and per
browser session, the names a guest or a new member types (the names rules of the rest of
the product: a fault, never a 500 on PostgreSQL), the online forms' one-time token."""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse

from risiko.web import services as club
from risiko.web.online import services
from risiko.web.online.models import Member, MemberInvite, OnlineSeat, OnlineTable

pytestmark = [pytest.mark.online, pytest.mark.db, pytest.mark.django_db]
PASSWORD = "tavolo-rosso-42"


@pytest.fixture(autouse=True)
def _setup(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.RISIKO_ONLINE_SCHEDULER = False
    settings.RISIKO_FIRST_RUN_CHECK = False
    if not os.environ.get("REDIS_URL"):
        settings.CHANNEL_LAYERS = {"default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer"}}
    services.clear_cache()


def _table() -> OnlineTable:
    return services.create_table(name="Prova", seats=4, who="test",
                                 settings={"clock_seconds": 0})


def _codes(e: pytest.ExceptionInfo[services.OnlineError]) -> list[str]:
    return [f.code for f in e.value.faults]


def test_one_login_holds_one_seat_per_table_even_as_a_guest() -> None:
    """The issue's finding: one login took three seats of a casual table (as guests). Now
    the second is refused (online.already_seated, seat 1), by the check and by the
    constraint on (table, user)."""
    anna = User.objects.create_user("anna", password=PASSWORD)
    table = _table()
    seat, _, _ = services.join(table.pk, user=anna, guest_name="Anna")
    assert seat.user_id == anna.pk
    with pytest.raises(services.OnlineError) as e:
        services.join(table.pk, user=anna, guest_name="Anna2")
    assert _codes(e) == ["online.already_seated"] and e.value.fault.params == {"seat": 1}
    assert OnlineSeat.objects.filter(table=table).exclude(kind="open").count() == 1


def test_one_browser_session_holds_one_guest_seat_per_table() -> None:
    """Through the page: a browser takes a guest seat, then posts again under another name:
    refused with the message in the page's language (Italian, the club's), one seat taken;
    another browser sits."""
    table = _table()
    browser = Client()
    url = reverse("online_join", args=[table.code])
    assert browser.post(url, {"as": "guest", "guest_name": "Bruno"}).status_code == 302
    r = browser.post(url, {"as": "guest", "guest_name": "Carla"}, follow=True)
    assert "occupi già il posto 1 qui" in r.content.decode()
    assert list(OnlineSeat.objects.filter(table=table).exclude(kind="open")
                .values_list("guest_name", flat=True)) == ["Bruno"]
    assert Client().post(url, {"as": "guest", "guest_name": "Carla"}).status_code == 302
    with pytest.raises(services.OnlineError) as e:  # the service, without the page
        services.join(table.pk, guest_name="Dario",
                      session_key=browser.session.session_key)
    assert _codes(e) == ["online.already_seated"]


@pytest.mark.parametrize(("name", "codes"), [
    ("\u200b\u200b", ["name.invisible", "name.no_letter"]),  # only zero-width spaces
    ("\u3164", ["name.invisible", "name.no_letter"]),  # a Hangul filler: a blank letter
    ("Anna\u202e", ["name.invisible"]),  # a right-to-left override
    ("<b>Anna</b>", ["name.markup"]),
    ("\u0410nna", ["name.lookalike"]),  # a Cyrillic А
    ("A" * 41, ["online.name_too_long"]),
    ("An\x00na", ["online.name_control"]),
])
def test_a_guest_name_breaking_the_names_rules_is_refused(name: str, codes: list[str]) -> None:
    table = _table()
    with pytest.raises(services.OnlineError) as e:
        services.join(table.pk, guest_name=name)
    assert _codes(e) == codes
    assert not OnlineSeat.objects.filter(table=table).exclude(kind="open").exists()


def _invite() -> str:
    club.create_tournament("Torneo", who="t")
    club.add_players(club.get_tournament("Torneo"), ["Dario"], who="t")
    committee = Client()
    user = User.objects.create_user("comitato", password=PASSWORD)
    user.groups.add(Group.objects.get_or_create(name="committee")[0])
    committee.login(username="comitato", password=PASSWORD)
    link = committee.post(reverse("online_invites"), {"player": "Dario"}).context["link"]
    return str(link).rstrip("/").rsplit("/", 1)[1]


@pytest.mark.parametrize(("username", "said"), [  # the page speaks Italian, the club's
    ("d" * 200, "nome utente: al massimo 150 caratteri, non 200"),
    ("dar\x00io", "nome utente: i caratteri di controllo non sono ammessi"),
    ("d\u0430rio", "nome utente: 'd\u0430rio' mescola lettere che si somigliano"),  # Cyrillic а
    ("dario\u202e", "nome utente: caratteri invisibili e segni di direzione"),
    ("<b>dario", "nome utente: i caratteri &lt; e &gt; non sono ammessi"),
    ("dario rossi", "Immetti un nome utente valido"),  # Django's own rule: no space
])
def test_the_invitations_username_follows_the_names_rules(username: str, said: str) -> None:
    """Refused with the rule said on the page (200, never a 500: PostgreSQL refuses a NUL
    byte in a query), nothing created, the invitation still unused."""
    token = _invite()
    dario = Client()
    dario.get(reverse("online_accept", args=[token]))  # the link: its token into the session
    r = dario.post(reverse("online_accept_form"), {
        "username": username, "password1": "pietra-verde-77", "password2": "pietra-verde-77"})
    assert r.status_code == 200
    assert said in r.content.decode().replace("&#x27;", "'")
    assert not Member.objects.exists() and User.objects.count() == 1
    assert MemberInvite.objects.get().used is None


def test_the_online_forms_carry_a_one_time_token_and_a_form_sent_twice_writes_once() -> None:
    """The issue's finding: 5 posts of the new-table form made 5 tables. The lobby's form
    carries ``once``; the same token posted 5 times makes one table."""
    User.objects.create_user("anna", password=PASSWORD)
    browser = Client()
    browser.login(username="anna", password=PASSWORD)
    page = browser.get(reverse("online_lobby")).content.decode()
    assert 'name="once"' in page
    # the token the lobby's form carries (bound to the session and to the address it posts to)
    token = page.split('name="once" value="', 1)[1].split('"', 1)[0]
    for _ in range(5):
        r = browser.post(reverse("online_create"), {"name": "Serata", "seats": "3",
                                                    "clock_minutes": "0", "once": token})
        assert r.status_code == 302
    assert OnlineTable.objects.filter(name="Serata").count() == 1
    table = OnlineTable.objects.get(name="Serata")
    page = browser.get(reverse("online_table", args=[table.code])).content.decode()
    assert page.count('name="once"') == 1  # start (a join is once by its seat rule)
    start = page.split('name="once" value="', 1)[1].split('"', 1)[0]
    for _ in range(2):  # the start form's own token: accepted, then "already recorded"
        r = browser.post(reverse("online_start", args=[table.code]), {"once": start})
        assert r.status_code == 302
    table.refresh_from_db()
    assert table.status == "playing"


def _anonymous_with_session(live_server: Any) -> Any:
    """A browser without a login that already holds a session (its cookie)."""
    from importlib import import_module

    from concurrency_kit import Session
    from django.conf import settings

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store.create()
    browser = Session.logged_in(live_server.url)
    browser.cookies[settings.SESSION_COOKIE_NAME] = store.session_key
    return browser


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("who", ["user", "session"])
def test_eight_joins_at_the_same_instant_sit_one_seat(live_server: Any, who: str) -> None:
    """One login (as a guest under eight names), or one browser session, posts the join
    form 8 times at the same instant at a 6-seat table: one seat taken, the other 7 told
    (the constraints behind the rule, SQLite and PostgreSQL)."""
    from concurrency_kit import Session, fire

    table = services.create_table(name="Prova", seats=6, who="test",
                                  settings={"clock_seconds": 0})
    if who == "user":
        browser = Session.logged_in(live_server.url,
                                    User.objects.create_user("anna", password=PASSWORD))
    else:
        browser = _anonymous_with_session(live_server)
    answers = fire(browser, reverse("online_join", args=[table.code]),
                   [{"as": "guest", "guest_name": f"Ospite {i}"} for i in range(8)])
    assert [a.status for a in answers] == [302] * 8  # each back to the table page
    taken = OnlineSeat.objects.filter(table=table).exclude(kind="open")
    assert taken.count() == 1


def test_an_invitation_for_a_name_with_a_nul_byte_is_no_player_not_a_500() -> None:
    User.objects.create_user("comitato", password=PASSWORD).groups.add(
        Group.objects.get_or_create(name="committee")[0])
    committee = Client()
    committee.login(username="comitato", password=PASSWORD)
    r = committee.post(reverse("online_invites"), {"player": "Da\x00rio"})
    assert r.status_code == 200 and r.context["error"] and r.context["link"] is None
    assert not MemberInvite.objects.exists()
