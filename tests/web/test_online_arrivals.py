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


# ------------------------------------------------------------------------------ R3 after the start
# The referee started the table before Dora (seat 4) came: the start fixed its late seats
# without her. Her arrival then applies R3 to her seat (the engine's Late, recorded as the
# referee's line "R late 4"): her first 3 turns of play are penalised, those already past
# counted among them (lost absent; R3: "i primi tre turni di gioco").
def _started_without_dora(club_evening: dict[str, Any]) -> OnlineTable:
    t, table = club_evening["t"], club_evening["table"]
    for n in NAMES[:3]:
        with _at(DATE, "21:00"):
            assert _door(club_evening["browsers"][n], t.slug, DATE).status_code == 302
    services.start_now(table.pk, who="arbitro")
    table.refresh_from_db()
    assert table.status == "playing" and table.settings["late"] == []
    return table


def _play_until(table: OnlineTable, test: Any) -> Any:
    """Every seat's moves made by the random bot (Dora's absent turns too) until ``test``."""
    from test_online_ws import _intention

    from risiko.online import adapter

    for _ in range(3000):
        table.refresh_from_db()
        game = services.game_of(table)
        if test(game):
            return game
        seat = game.to_act
        action = adapter.bot_action(game, seat, "random", table.seq)
        reply = services.apply(table.pk, services.Actor("seat", seat), _intention(action),
                               client_id=f"x{table.seq}")
        assert not reply.faults, reply.faults
    raise AssertionError("never")


def _dora_arrives(club_evening: dict[str, Any], table: OnlineTable, hhmm: str) -> Any:
    with _at(DATE, hhmm):
        r = _door(club_evening["browsers"]["Dora"], club_evening["t"].slug, DATE)
    assert r.status_code == 302 and _seated(table, "Dora")
    table.refresh_from_db()
    services.clear_cache()  # what follows is read back from the database
    return services.game_of(table)


def _late_events(table: OnlineTable) -> list[Any]:
    from risiko.web.online.models import TableEvent

    return list(TableEvent.objects.filter(table=table, text__startswith="R late"))


def test_late_after_the_start_in_the_initial_placement_gives_three_turns(
        club_evening: dict[str, Any]) -> None:
    """Dora at 21:15 (late), the table in its initial placement: no turn of play begun,
    so 3 penalised turns; the event says so in Italian and English."""
    table = _started_without_dora(club_evening)
    game = _dora_arrives(club_evening, table, "21:15")
    assert game.phase == "setup"
    assert [game.state.late_left[s] for s in range(4)] == [0, 0, 0, 3]
    (event,) = _late_events(table)
    assert (event.text, event.seat) == ("R late 4", 4)
    assert event.value == {"code": "log.late", "params": {"player": "Dora"}}
    assert services.entry_of(event)["messages"] == {
        "it": "Dora è arrivato in ritardo a partita iniziata: "
              "i suoi primi turni di gioco sono penalizzati",
        "en": "Dora arrived late, the game begun: his first turns of play are penalised"}
    game = _play_until(table, lambda g: g.round == 1 and g.to_act == 3)
    assert game.penalised_turn and game.state.late_left[3] == 2


def test_on_time_after_the_start_changes_nothing(club_evening: dict[str, Any]) -> None:
    """Dora at 21:08 (on time) after the referee's start: no R3, no event."""
    table = _started_without_dora(club_evening)
    game = _dora_arrives(club_evening, table, "21:08")
    assert list(game.state.late_left) == [0, 0, 0, 0] and not _late_events(table)


def test_late_after_her_first_turn_leaves_two(club_evening: dict[str, Any]) -> None:
    """Round 2, Alba to act: Dora's round-1 turn is past (1 of the 3), so 2 are left: her
    turns of rounds 2 and 3 penalised, round 4's not."""
    table = _started_without_dora(club_evening)
    _play_until(table, lambda g: (g.round, g.to_act) == (2, 0))
    game = _dora_arrives(club_evening, table, "21:16")
    assert [game.state.late_left[s] for s in range(4)] == [0, 0, 0, 2]
    view = services.state_message(table, "spectator", None)["game"]
    assert {s["player"]: s["late_turns"] for s in view["seats"]} == {
        "Alba": 0, "Bice": 0, "Ciro": 0, "Dora": 2}
    for rnd in (2, 3, 4):
        game = _play_until(table, lambda g, r=rnd: (g.round, g.to_act) == (r, 3) or g.over)
        if game.over:
            break
        assert game.penalised_turn is (rnd <= 3), rnd
        game = _play_until(table, lambda g, r=rnd: g.to_act != 3 or g.over)


def test_late_in_her_own_turn_penalises_it(club_evening: dict[str, Any]) -> None:
    """Round 1, Dora to place her reinforcements when she comes at 21:20 (late): this turn
    is her 1st of the 3, penalised from now on: what she had to place is forfeited under
    R3, she may only end it; 2 more are left."""
    table = _started_without_dora(club_evening)
    before = _play_until(table, lambda g: (g.round, g.to_act, g.phase) == (1, 3, "reinforce"))
    to_place = before.pending
    assert to_place > 0 and before.forfeits(3)["R3"] == 0  # her reinforcements, unplaced
    game = _dora_arrives(club_evening, table, "21:20")
    assert (game.phase, game.pending, game.penalised_turn) == ("attack", 0, True)
    assert game.forfeits(3) == {"R3": to_place, "R4": 0, "R11": 0}
    assert game.state.late_left[3] == 2
    legal = services.state_message(table, "seat", 3)["game"]["late_turn"]
    assert legal is True
