"""An online member's arrival (issue 20 item 6): only at an online evening, only when he takes
his online seat, within that evening's times, classified by R3 as at the venue on the club's
clock (Europe/Rome). The door ``POST /online/serata/<slug>/<date>/arrivo/`` refuses anything
else with the fault (400) and writes nothing: no arrival, no seat taken.

R3 (club-milano, docs/RULES.md): on time until 21:10, late (3 penalised turns) 21:11-21:20,
excluded after 21:20 without a phone notice. The evening's times: from 12:00 of its date to
06:00 of the next (a time after midnight is 24:xx of the evening, R3's clock)."""

from __future__ import annotations

import datetime as dt
import os
import zoneinfo
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from risiko.web import services as club
from risiko.web.evenings.models import Arrival
from risiko.web.online import services
from risiko.web.online.models import Member, OnlineSeat, OnlineTable

pytestmark = [pytest.mark.online, pytest.mark.db, pytest.mark.django_db]
PASSWORD = "tavolo-rosso-42"
ROME = zoneinfo.ZoneInfo("Europe/Rome")
DATE = "2027-03-02"
NAMES = ["Alba", "Bice", "Ciro", "Dora", "Ezio"]


@pytest.fixture(autouse=True)
def _setup(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.RISIKO_ONLINE_SCHEDULER = False
    if not os.environ.get("REDIS_URL"):
        settings.CHANNEL_LAYERS = {"default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer"}}
    services.clear_cache()


def _at(day: str, hhmm: str) -> Any:
    """The club's clock stopped at ``day`` ``hhmm``, Europe/Rome."""
    y, mo, d = map(int, day.split("-"))
    h, mi = map(int, hhmm.split(":"))
    return mock.patch("risiko.web.online.services.evenings.club_now",
                      return_value=dt.datetime(y, mo, d, h, mi, tzinfo=ROME))


@pytest.fixture
def club_evening() -> dict[str, Any]:
    """Two evenings: 2 March online (Alba..Dora at one online table, Ezio not seated),
    9 March at the venue (seated, no online table). Every player is a member."""
    t = club.create_tournament("Online", who="t")
    club.add_players(t, NAMES, who="t")
    ev = club.open_evening(t, DATE, who="t")
    venue = club.open_evening(t, "2027-03-09", who="t")
    club.set_tables(ev, [NAMES[:4]], who="arbitro")
    club.set_tables(venue, [NAMES[:4]], who="arbitro")
    (table,) = services.open_evening(ev, who="arbitro")
    browsers = {}
    for n in NAMES:
        user = User.objects.create_user(n.lower(), password=PASSWORD)
        Member.objects.create(user=user, player=club.entry_player(t, n))
        c = Client()
        c.force_login(user)
        browsers[n] = c
    return {"t": t, "ev": ev, "venue": venue, "table": table, "browsers": browsers}


def _door(c: Client, slug: str, date: str) -> Any:
    return c.post(reverse("online_evening_arrive", args=[slug, date]))


def _seated(table: OnlineTable, name: str) -> bool:
    return OnlineSeat.objects.get(table=table, player__name=name).user_id is not None


@pytest.mark.parametrize(("hhmm", "at", "arrival_class", "turns"), [
    ("21:05", "21:05", "on_time", 0),  # by 21:10
    ("21:10", "21:10", "on_time", 0),  # the last minute on time
    ("21:15", "21:15", "late", 3),  # 21:11-21:20: three penalised turns
])
def test_the_door_takes_his_seat_and_times_his_arrival_by_r3(
        club_evening: dict[str, Any], hhmm: str, at: str, arrival_class: str,
        turns: int) -> None:
    from risiko.web.console.common import ruling_of

    t, ev, table = club_evening["t"], club_evening["ev"], club_evening["table"]
    alba = club_evening["browsers"]["Alba"]
    with _at(DATE, hhmm):
        r = _door(alba, t.slug, DATE)
    assert (r.status_code, r["Location"]) == (302, reverse("online_table", args=[table.code]))
    assert _seated(table, "Alba")
    arrival = Arrival.objects.get(evening=ev, player__name="Alba", superseded=False)
    assert (arrival.at, arrival.recorded_by) == (at, f"online:{table.code}")
    ruling = ruling_of(ev, arrival)
    assert ruling is not None
    assert (ruling.arrival_class, ruling.penalty_turns) == (arrival_class, turns)
    # the door again: his table, no second arrival
    with _at(DATE, "21:40"):
        r = _door(alba, t.slug, DATE)
    assert r.status_code == 302
    assert Arrival.objects.filter(evening=ev, player__name="Alba").count() == 1


def test_a_late_arrival_plays_its_penalised_turns(club_evening: dict[str, Any]) -> None:
    t, table = club_evening["t"], club_evening["table"]
    for n in NAMES[:4]:  # Dora last, at 21:15 (late): the table starts with her seat
        with _at(DATE, "21:15" if n == "Dora" else "21:00"):
            assert _door(club_evening["browsers"][n], t.slug, DATE).status_code == 302
    table.refresh_from_db()
    assert table.status == "playing"
    view = services.state_message(table, "spectator", None)["game"]
    assert {s["player"]: s["late_turns"] for s in view["seats"]} == {
        "Alba": 0, "Bice": 0, "Ciro": 0, "Dora": 3}


@pytest.mark.parametrize(("day", "hhmm", "code"), [
    ("2027-03-01", "21:00", "online.arrival_closed"),  # the evening before: future evening
    ("2027-03-03", "21:00", "online.arrival_closed"),  # the evening after: past evening
    ("2027-03-02", "10:00", "online.arrival_closed"),  # its morning: not open yet
    ("2027-03-02", "21:25", "online.arrival_excluded"),  # after 21:20: excluded (R3)
    ("2027-03-03", "00:30", "online.arrival_excluded"),  # 24:30 of the evening: excluded
])
def test_outside_the_evenings_times_or_excluded_the_door_refuses_and_writes_nothing(
        club_evening: dict[str, Any], day: str, hhmm: str, code: str) -> None:
    t, ev, table = club_evening["t"], club_evening["ev"], club_evening["table"]
    with _at(day, hhmm):
        r = _door(club_evening["browsers"]["Alba"], t.slug, DATE)
        with pytest.raises(services.OnlineError) as e:  # the same rule at the table's join
            services.join(table.pk, user=User.objects.get(username="alba"))
    assert r.status_code == 400
    assert [f.code for f in e.value.faults] == [code]
    page = r.content.decode()
    if code == "online.arrival_closed":
        assert "gli arrivi alla serata del 2027-03-02 si registrano quella sera" in page
    else:
        assert "non può giocare (R3)" in page
    assert not Arrival.objects.filter(evening=ev).exists()
    assert not _seated(table, "Alba")


def test_a_venue_evening_or_no_online_seat_is_refused(club_evening: dict[str, Any]) -> None:
    t, venue, ev = club_evening["t"], club_evening["venue"], club_evening["ev"]
    with _at("2027-03-09", "21:00"):
        r = _door(club_evening["browsers"]["Alba"], t.slug, "2027-03-09")
    assert r.status_code == 400
    assert "non ha tavoli online: gli arrivi si registrano in sede" in r.content.decode()
    assert not Arrival.objects.filter(evening=venue).exists()
    with _at(DATE, "21:00"):  # Ezio is not seated at the online evening
        r = _door(club_evening["browsers"]["Ezio"], t.slug, DATE)
    assert r.status_code == 400
    assert "Ezio non ha un posto ai tavoli online" in r.content.decode()
    assert not Arrival.objects.filter(evening=ev).exists()
