"""Online tables over WebSockets: Channels' communicator against the consumer.

Every action and every refusal: wrong seat, out of turn, a spectator, an illegal attack
(R7/R8, the engine's fault in the viewer's language), a stale view, a message sent twice;
hidden information never reaches another seat or a spectator; deadlines fire once.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

import jsonschema
import pytest
from channels.layers import channel_layers
from django.db import OperationalError, connections

from risiko.board import parse_territory, territory_name
from risiko.fair import commitment
from risiko.online import adapter
from risiko.web.asgi import application
from risiko.web.online import protocol, services
from risiko.web.online.models import Deadline, OnlineSeat, OnlineTable, TableEvent

try:  # channels.testing imports daphne's live server, which this project does not use
    import daphne.testing  # noqa: F401
except ImportError:
    import sys
    import types

    _stub = types.ModuleType("daphne.testing")
    _stub.DaphneProcess = object  # type: ignore[attr-defined]
    sys.modules.setdefault("daphne", types.ModuleType("daphne"))
    sys.modules["daphne.testing"] = _stub
from asgiref.testing import ApplicationCommunicator
from channels.testing import WebsocketCommunicator as ChannelsCommunicator

pytestmark = [pytest.mark.online, pytest.mark.db, pytest.mark.django_db(transaction=True)]

SEED = bytes(range(32))


@pytest.fixture(autouse=True)
def _online(settings: Any) -> None:
    settings.RISIKO_ONLINE_SCHEDULER = False
    settings.RISIKO_FIRST_RUN_CHECK = False
    if not os.environ.get("REDIS_URL"):  # make unit-redis: the Redis layer of the settings
        settings.CHANNEL_LAYERS = {"default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    services.clear_cache()


VALIDATORS = {name: jsonschema.Draft202012Validator(schema)
              for name, schema in protocol.SERVER.items()}


def checked(m: dict[str, Any]) -> dict[str, Any]:
    """Every message the server sends matches its JSON Schema (docs/online.md)."""
    VALIDATORS[m["type"]].validate(m)
    return m


def checked_out(m: dict[str, Any]) -> dict[str, Any]:
    """A message a client sends, checked against its JSON Schema."""
    jsonschema.Draft202012Validator(protocol.CLIENT[m["type"]]).validate(m)
    return m


class WebsocketCommunicator(ChannelsCommunicator):
    """Channels' communicator without its patch making ``channels.db.close_old_connections``
    a no-op while a message goes in or out (meant for tests inside one transaction; these
    run outside, ``transaction=True``): the consumer's worker threads give their connection
    back after each call, as in production, instead of keeping it from the pool after the
    thread ends (tests/conftest.py fails a test that does)."""

    async def send_input(self, message: Any) -> None:
        await ApplicationCommunicator.send_input(self, message)

    async def receive_output(self, timeout: float = 1) -> Any:
        return await ApplicationCommunicator.receive_output(self, timeout)


def run(coro: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(coro())


def make_table(seats: int = 3, **settings: Any) -> tuple[OnlineTable, list[str]]:
    """A table of guests (Anna, Bruno, Carla, ...) on the fixed seed, started."""
    table = services.create_table(name="Prova", seats=seats, who="test",
                                  settings={"clock_seconds": 0, **settings})
    table.seed, table.commitment = SEED.hex(), commitment(SEED)
    table.save()
    tokens = []
    for name in ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"][:seats]:
        _, token, _ = services.join(table.pk, guest_name=name)
        assert token
        tokens.append(token)
    table.refresh_from_db()
    assert table.status == "playing"
    return table, tokens


def shadow(seats: int = 3) -> Any:
    """The same game in the library, to work out what the server must say."""
    return adapter.new_game(["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"][:seats],
                            "club-milano", SEED)


async def connect(table: OnlineTable, token: str | None = None,
                  lang: str = "en") -> WebsocketCommunicator:
    """A connection as a spectator, then (``token``) as the seat by its first message
    (``auth``: a token never travels in the URL)."""
    comm = WebsocketCommunicator(application, f"/ws/online/{table.code}/?lang={lang}",
                                 headers=[(b"origin", b"http://localhost"),
                                          (b"host", b"localhost")])
    ok, _ = await comm.connect()
    assert ok
    welcome = checked(await comm.receive_json_from(timeout=5))
    assert welcome["type"] == "welcome"
    state = checked(await comm.receive_json_from(timeout=5))
    assert state["type"] == "state"
    if token:
        await comm.send_json_to(checked_out({"type": "auth", "token": token}))
        welcome = checked(await comm.receive_json_from(timeout=5))
        assert (welcome["type"], welcome["role"]) == ("welcome", "seat")
        while (state := checked(await comm.receive_json_from(timeout=5)))["type"] != "state":
            pass  # the seat's coming back may reach the public group first
    comm.welcome, comm.state = welcome, state  # type: ignore[attr-defined]
    return comm


async def drain(comm: WebsocketCommunicator) -> list[dict[str, Any]]:
    out = []
    while not await comm.receive_nothing(timeout=0.2):
        out.append(checked(await comm.receive_json_from()))
    return out


async def until_event(comm: WebsocketCommunicator, seq: int) -> list[dict[str, Any]]:
    """Every message up to the event of ``seq`` (a loaded machine may be slow)."""
    out = []
    for _ in range(50):
        m = checked(await comm.receive_json_from(timeout=20))
        out.append(m)
        if m["type"] == "event" and m["seq"] >= seq:
            return out
    raise AssertionError(f"no event {seq}")


async def answer(comm: WebsocketCommunicator) -> dict[str, Any]:
    """The next ack/refused, skipping events."""
    for _ in range(50):
        m = checked(await comm.receive_json_from(timeout=20))
        if m["type"] in ("ack", "refused", "odds_result"):
            return m
    raise AssertionError("no answer")


async def answer_and_event(comm: WebsocketCommunicator) -> tuple[dict[str, Any],
                                                                list[dict[str, Any]]]:
    """The answer (``ack``/``refused``) to the message just sent and every message received
    up to the event of its seq, those before the answer included: whatever else the table's
    groups send meanwhile (a seat's presence, an earlier event) is kept, for the caller to
    pick the messages it means by type and seq, never by position."""
    before = []
    for _ in range(50):
        m = checked(await comm.receive_json_from(timeout=20))
        if m["type"] in ("ack", "refused"):
            if any(x["type"] == "event" and x["seq"] >= m["seq"] for x in before):
                return m, before
            return m, before + await until_event(comm, m["seq"])
        before.append(m)
    raise AssertionError("no answer")


def of_seq(seen: list[dict[str, Any]], seq: int) -> list[dict[str, Any]]:
    """The ``private`` and ``event`` messages of ``seq`` among ``seen``, in their order."""
    return [m for m in seen if m["type"] in ("private", "event") and m["seq"] == seq]


def test_hidden_information_reaches_its_seat_only() -> None:
    """Whatever else arrives (a presence event after the ack, an earlier event late), the
    action's messages are read by type and seq, and every message a connection received is
    checked: a ``private`` only ever reaches its own seat, none a spectator; no event
    carries a seat's secrets."""
    table, tokens = make_table()
    game = shadow()

    async def go() -> None:
        anna = await connect(table, tokens[0])
        bruno = await connect(table, tokens[1])
        watcher = await connect(table)
        assert anna.welcome["role"] == "seat" and anna.welcome["seat"] == 1
        assert watcher.welcome["role"] == "spectator" and watcher.state["private"] is None
        assert anna.state["private"]["objective"]["number"] == game.objectives[0].number
        assert bruno.state["private"]["objective"]["number"] == game.objectives[1].number
        assert anna.state["table"]["commitment"] == commitment(SEED)
        assert anna.state["table"]["seed"] is None  # revealed only at the end
        # everything Bruno and the spectator receive, after Anna places armies (what came
        # before and is not drained yet is read too, and checked alike)
        early_b, early_w = await drain(bruno), await drain(watcher)
        mine = next(t for t in range(42) if game.owner[t] == 0)
        await anna.send_json_to({"type": "act", "id": "a1", "seq": anna.state["seq"],
                                 "action": {"kind": "place", "territory": mine, "armies": 3}})
        ack, seen_a = await answer_and_event(anna)
        assert ack["type"] == "ack" and ack["id"] == "a1"
        seq = ack["seq"]
        seen_b = early_b + await until_event(bruno, seq)
        seen_w = early_w + await until_event(watcher, seq)
        # Anna's own secrets reach Anna alone, before the public event of the same seq
        assert [m["type"] for m in of_seq(seen_a, seq)] == ["private", "event"]
        assert of_seq(seen_a, seq)[0]["private"]["seat"] == 1
        assert all(m["private"]["seat"] == 1 for m in seen_a if m["type"] == "private")
        # Bruno is to act now (Anna's 3 armies ended her step): his own view, then the event
        assert [m["type"] for m in of_seq(seen_b, seq)] == ["private", "event"]
        mine_b = of_seq(seen_b, seq)[0]["private"]
        assert mine_b["seat"] == 2
        assert mine_b["objective"]["number"] == game.objectives[1].number
        # every private message Bruno received is his own; the spectator received none
        assert all(m["private"]["seat"] == 2 for m in seen_b if m["type"] == "private")
        assert [m["type"] for m in of_seq(seen_w, seq)] == ["event"]
        assert not [m for m in seen_w if m["type"] == "private"]
        anna_obj = game.objectives[0].name
        public = [m for m in seen_b + seen_w if m["type"] != "private"]
        assert len(public) >= 2  # the event of seq to each, at least
        for m in public:
            assert m.get("private") is None
            if m.get("game") is not None:
                assert m["game"]["seats"][0]["objective"] is None
            text = json.dumps(m)
            assert anna_obj not in text or anna_obj in json.dumps(m["game"]["territories"])
        for c in (anna, bruno, watcher):
            await c.disconnect()

    run(go)


def test_the_reading_by_seq_keeps_a_presence_event_out_of_the_actions_messages() -> None:
    """By hand: an ack of seq 5, then a presence event (seq 4, late), the private and the
    event of seq 5: the action's messages are the last two; a presence event of a later seq
    after them is not one of them either."""
    seen = [{"type": "event", "seq": 4}, {"type": "private", "seq": 5},
            {"type": "event", "seq": 5}, {"type": "event", "seq": 6}]
    assert of_seq(seen, 5) == seen[1:3]
    assert of_seq([{"type": "pong"}, *seen], 4) == [{"type": "event", "seq": 4}]


def test_refusals_wrong_turn_spectator_stale_bad_and_the_engines_fault_in_italian() -> None:
    table, tokens = make_table()
    game = shadow()

    async def go() -> None:
        anna = await connect(table, tokens[0])
        bruno = await connect(table, tokens[1], lang="it")
        watcher = await connect(table)
        own_b = next(t for t in range(42) if game.owner[t] == 1)
        await bruno.send_json_to({"type": "act", "id": "b1", "seq": None,
                                  "action": {"kind": "place", "territory": own_b, "armies": 1}})
        m = await answer(bruno)
        assert m["type"] == "refused" and m["faults"][0]["code"] == "online.out_of_turn"
        assert "Anna" in m["faults"][0]["message"]
        await watcher.send_json_to({"type": "act", "id": "w1", "action": {"kind": "end"}})
        m = await answer(watcher)
        assert m["faults"][0]["code"] == "online.spectator"
        # Anna on Bruno's territory: the engine refuses
        await anna.send_json_to({"type": "act", "id": "a1", "seq": None,
                                 "action": {"kind": "place", "territory": own_b, "armies": 1}})
        m = await answer(anna)
        assert m["type"] == "refused"
        # an attack during the initial placement
        mine = next(t for t in range(42) if game.owner[t] == 0)
        await anna.send_json_to({"type": "act", "id": "a2", "seq": None,
                                 "action": {"kind": "attack", "from": mine, "to": own_b}})
        assert (await answer(anna))["type"] == "refused"
        # unknown territory, malformed
        await anna.send_json_to({"type": "act", "id": "a3", "action": {
            "kind": "place", "territory": "Atlantide", "armies": 1}})
        m = await answer(anna)
        assert m["faults"][0]["code"] == "online.unknown_name"
        # stale: a view older than the last game event
        await anna.send_json_to({"type": "act", "id": "a4", "seq": 0, "action": {
            "kind": "place", "territory": mine, "armies": 1}})
        m = await answer(anna)
        assert m["type"] == "ack"
        await anna.send_json_to({"type": "act", "id": "a5", "seq": m["seq"] - 1, "action": {
            "kind": "place", "territory": mine, "armies": 1}})
        m = await answer(anna)
        assert m["faults"][0]["code"] == "online.stale"
        # the same message twice: applied once
        await anna.send_json_to({"type": "act", "id": "a6", "seq": None, "action": {
            "kind": "place", "territory": mine, "armies": 1}})
        first = await answer(anna)
        await anna.send_json_to({"type": "act", "id": "a6", "seq": None, "action": {
            "kind": "place", "territory": mine, "armies": 1}})
        again = await answer(anna)
        assert first["type"] == again["type"] == "ack"
        assert again["duplicate"] is True and again["seq"] == first["seq"]
        for c in (anna, bruno, watcher):
            await c.disconnect()

    run(go)
    assert TableEvent.objects.filter(table=table, client_id="a6").count() == 1
    # 3 + 1 armies placed by Anna's accepted messages a1? no: a1 was refused; a4 and a6
    anna_events = TableEvent.objects.filter(table=table, actor="seat:1")
    assert [e.client_id for e in anna_events] == ["a4", "a6"]


def _play_with_bots_until(table: OnlineTable, test: Callable[[Any], bool],
                          limit: int = 3000) -> Any:
    """Advance the table with server bots standing in for every seat until ``test(game)``."""
    for _ in range(limit):
        table.refresh_from_db()
        game = services.game_of(table)
        if test(game) or game.over:
            return game
        seat = game.to_act
        action = adapter.bot_action(game, seat, "random", table.seq)
        from risiko.online.client import choose  # noqa: F401 - the client's strategy exists
        reply = services.apply(table.pk, services.Actor("seat", seat),
                               _intention(action), client_id=f"x{table.seq}")
        assert not reply.faults, reply.faults
    raise AssertionError("condition never met")


def _intention(action: Any) -> dict[str, Any]:
    from risiko.actions import Attack, EndTurn, Fortify, Move, Place, Trade
    from risiko.cards import card_name

    if isinstance(action, Place):
        return {"kind": "place", "territory": action.territory, "armies": action.armies}
    if isinstance(action, Trade):
        return {"kind": "trade", "cards": [card_name(c) for c in action.cards]}
    if isinstance(action, Attack):
        return {"kind": "attack", "from": action.source, "to": action.target}
    if isinstance(action, Move):
        return {"kind": "move", "armies": action.armies}
    if isinstance(action, Fortify):
        return {"kind": "fortify", "from": action.source, "to": action.target,
                "armies": action.armies}
    assert isinstance(action, EndTurn)
    return {"kind": "end"}


def test_an_illegal_attack_is_refused_with_its_clause_and_odds_say_so_first() -> None:
    table, tokens = make_table()

    def illegal(game: Any) -> bool:
        if game.phase != "attack":
            return False
        return any(_r7r8(game, s, t) for s, t in _borders(game))

    game = _play_with_bots_until(table, illegal)
    src, dst = next((s, t) for s, t in _borders(game) if _r7r8(game, s, t))
    seat = game.to_act

    async def go() -> None:
        c = await connect(table, tokens[seat], lang="en")
        await c.send_json_to({"type": "odds", "from": src, "to": dst})
        m = await answer(c)
        assert m["type"] == "odds_result" and m["legal"] is False
        await c.send_json_to({"type": "act", "id": "illegal", "seq": c.state["seq"],
                              "action": {"kind": "attack", "from": src, "to": dst}})
        m = await answer(c)
        assert m["type"] == "refused"
        assert "R7" in m["faults"][0]["message"] or "R8" in m["faults"][0]["message"] or \
            m["faults"][0]["clause"] in ("R7", "R8")
        await c.disconnect()

    run(go)


def _borders(game: Any) -> list[tuple[int, int]]:
    seat = game.seat
    return [(s, t) for s in range(42) if game.owner[s] == seat
            for t in game.adjacency[s] if game.owner[t] != seat]


def _r7r8(game: Any, s: int, t: int) -> bool:
    fault = game.attack_fault(s, t)
    if not fault:
        return False
    clause = getattr(fault, "clause", None)  # a Fault, or the older engine's sentence
    return clause in ("R7", "R8") if clause is not None else ("R7" in fault or "R8" in fault)


def test_attack_move_fortify_end_and_timeout_through_the_socket() -> None:
    table, tokens = make_table()
    game = _play_with_bots_until(table, lambda g: g.phase == "attack" and bool(g.legal_attacks()))
    seat = game.to_act

    async def go() -> None:
        c = await connect(table, tokens[seat])
        attacks = c.state["private"]["attacks"]
        assert attacks, "the seat to act is told its legal attacks"
        a = attacks[0]
        await c.send_json_to({"type": "odds", "from": a["from"], "to": a["to"]})
        odds = await answer(c)
        assert odds["legal"] is True and 0 <= odds["conquest"] <= 1
        await c.send_json_to({"type": "act", "id": "att", "seq": c.state["seq"],
                              "action": {"kind": "attack", "from": a["from"], "to": a["to"]}})
        m = await answer(c)
        assert m["type"] == "ack"
        await c.disconnect()

    run(go)
    ev = TableEvent.objects.get(table=table, client_id="att")
    assert ev.text.startswith(f"{seat + 1} attack ")
    assert ev.draws_to > ev.draws_from  # the dice are draws of the seed
    # the clock: a turn_end deadline applies the engine's Timeout, once
    table.refresh_from_db()
    table.settings = {**table.settings, "clock_seconds": 60}
    table.save()
    game = _play_with_bots_until(table, lambda g: g.phase == "attack" and
                                 adapter.turn_number(g) > adapter.turn_number(game))
    table.refresh_from_db()
    d = Deadline.objects.filter(table=table, kind="turn_end", fired=None).latest("id")
    before = table.seq
    to_act = services.game_of(table).to_act
    results: list[Any] = []

    def fire() -> None:
        try:
            results.append(services.fire(d.pk))
        except OperationalError:  # SQLite's in-memory test database: "table is locked"
            results.append(None)
        finally:
            connections.close_all()  # this thread's connection back to the pool

    threads = [threading.Thread(target=fire) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(1 for r in results if r is not None) == 1
    table.refresh_from_db()
    timeouts = TableEvent.objects.filter(table=table, seq__gt=before, actor="clock",
                                         text__startswith="R timeout")
    assert timeouts.count() == 1
    assert services.game_of(table).to_act != to_act


def test_referee_pause_resume_undo_and_end_with_audit(django_user_model: Any) -> None:
    from django.contrib.auth.models import Group

    from risiko.web.auditlog.models import AuditEntry

    table, _tokens = make_table(clock_seconds=120)
    ref = django_user_model.objects.create_user("arbitro", password="x")
    ref.groups.add(Group.objects.get_or_create(name="referee")[0])
    referee = services.Actor("referee", None, "arbitro")
    game = _play_with_bots_until(table, lambda g: g.phase == "attack" and bool(g.legal_attacks()))
    seat = game.to_act
    src, dst = game.legal_attacks()[0]
    armies_before = (game.armies[src], game.armies[dst])
    r = services.referee(table.pk, services.Actor("seat", seat), {"kind": "pause"})
    assert r.faults[0].code == "online.not_referee"
    assert not services.referee(table.pk, referee, {"kind": "pause"}).faults
    table.refresh_from_db()
    assert table.status == "paused" and table.paused_remaining_ms is not None
    r = services.apply(table.pk, services.Actor("seat", seat), {"kind": "end"})
    assert r.faults[0].code == "online.not_playing"
    assert not services.referee(table.pk, referee, {"kind": "resume"}).faults
    r = services.apply(table.pk, services.Actor("seat", seat),
                       {"kind": "attack", "from": src, "to": dst})
    assert not r.faults
    table.refresh_from_db()
    rolled = TableEvent.objects.filter(table=table, text__contains=" attack ").latest("seq")
    assert services.referee(table.pk, referee, {"kind": "undo"}).faults[0].code == \
        "online.need_reason"
    assert not services.referee(table.pk, referee, {"kind": "undo", "reason": "mis-click"}).faults
    table.refresh_from_db()
    rolled.refresh_from_db()
    assert rolled.undone
    game = services.game_of(table)
    assert (game.armies[src], game.armies[dst]) == armies_before
    assert table.skipped_draws == list(range(rolled.draws_from, rolled.draws_to))
    services.clear_cache()  # rebuilt from the database: the same
    assert (services.game_of(table).armies[src], services.game_of(table).armies[dst]) == \
        armies_before
    assert not services.referee(table.pk, referee, {"kind": "end_game",
                                                    "reason": "late"}).faults
    table.refresh_from_db()
    assert table.status == "over" and table.seed == SEED.hex()
    # the record verifies, the undone roll's draws skipped
    from risiko.fair import verify_record

    assert verify_record(table.record).commitment == commitment(SEED)
    actions = set(AuditEntry.objects.filter(who="arbitro").values_list("action", flat=True))
    assert {"online pause", "online resume", "online undo", "online end_game"} <= actions


def test_reconnect_restores_the_exact_view_and_absence_brings_a_bot() -> None:
    table, tokens = make_table(grace_seconds=1)

    async def go() -> None:
        anna = await connect(table, tokens[0])
        first = anna.state
        await anna.disconnect()
        again = await connect(table, tokens[0])
        assert again.state["private"] == first["private"]
        assert again.state["game"] == first["game"]
        await again.disconnect()

    run(go)
    seat = OnlineSeat.objects.get(table=table, position=1)
    assert seat.absent_since is not None
    d = Deadline.objects.get(table=table, kind="grace_end", seat=1, guard=seat.absence_epoch)
    assert services.fire(d.pk) is not None
    seat.refresh_from_db()
    assert seat.stand_in  # a casual table: a bot plays for Anna
    bot = Deadline.objects.filter(table=table, kind="bot", seat=1, fired=None).first()
    assert bot is not None
    before = TableEvent.objects.filter(table=table).count()
    services.fire(bot.pk)
    assert TableEvent.objects.filter(table=table, actor="bot:1").count() == 1
    assert TableEvent.objects.filter(table=table).count() == before + 1


def test_a_tournament_table_never_gives_a_member_a_bot_and_asks_the_referee_for_r13() -> None:
    from risiko.web import services as club
    from risiko.web.online.models import Member

    names = ["Alba", "Bice", "Ciro"]
    t = club.create_tournament("Online R13", who="t")
    club.add_players(t, names, who="t")
    ev = club.open_evening(t, "2027-03-02", who="t")
    club.set_tables(ev, [names], who="t")
    (table,) = services.open_evening(ev, who="arbitro", settings={
        "clock_seconds": 60, "grace_seconds": 1, "absence_limit_seconds": 1})
    import datetime as dt
    import zoneinfo
    from unittest import mock

    from django.contrib.auth.models import User

    users = {}
    evening_time = dt.datetime(2027, 3, 2, 21, 0, tzinfo=zoneinfo.ZoneInfo("Europe/Rome"))
    for n in names:
        users[n] = User.objects.create_user(n.lower(), password="x")
        Member.objects.create(user=users[n], player=club.entry_player(t, n))
        # taking the seat is the arrival: on that evening, on time (R3)
        with mock.patch("risiko.web.online.services.evenings.club_now", return_value=evening_time):
            services.join(table.pk, user=users[n])
    table.refresh_from_db()
    assert table.status == "playing"
    services.connected(table.pk, 1)
    services.disconnected(table.pk, 1)
    seat = OnlineSeat.objects.get(table=table, position=1)
    grace = Deadline.objects.get(table=table, kind="grace_end", seat=1)
    services.fire(grace.pk)
    seat.refresh_from_db()
    assert not seat.stand_in  # never a bot for a member at a tournament table
    limit = Deadline.objects.get(table=table, kind="absence_limit", seat=1)
    services.fire(limit.pk)
    seat.refresh_from_db()
    assert seat.r13_requested
    referee = services.Actor("referee", None, "arbitro")
    assert not services.referee(table.pk, referee, {"kind": "abandon", "seat": 1}).faults
    table.refresh_from_db()
    assert services.game_of(table).status[0] == "abandoned"
    seat.refresh_from_db()
    assert not seat.r13_requested


def test_a_stopped_server_does_not_let_the_clock_run() -> None:
    """Deadlines that existed while no scheduler ran move by the length of the stop."""
    import datetime as dt

    from django.utils import timezone

    from risiko.web.online.models import SchedulerBeat

    table, _ = make_table(clock_seconds=60)
    _play_with_bots_until(table, lambda g: g.phase != "setup")
    table.refresh_from_db()
    d = Deadline.objects.filter(table=table, kind="turn_end", fired=None).latest("id")
    now = timezone.now()
    assert services.beat(now) == 0.0  # the first beat
    Deadline.objects.filter(pk=d.pk).update(created=now - dt.timedelta(seconds=400))
    SchedulerBeat.objects.filter(pk=1).update(beat=now - dt.timedelta(seconds=300))
    gap = services.beat(now)
    assert 299 < gap < 301
    moved = Deadline.objects.get(pk=d.pk)
    assert abs((moved.due - d.due).total_seconds() - gap) < 1
    assert services.beat(now + dt.timedelta(seconds=1)) == 0.0  # no stop since


def test_a_snapshot_is_a_position_that_outlives_the_engine_and_the_table_goes_on_the_same(
        monkeypatch: Any) -> None:
    """The stored snapshot is JSON (a position and its next draw), never a pickle: with the
    engine unable to (un)pickle a game and every worker's cache gone, a table goes on from
    the snapshot plus the actions since - the same dice as the game that never stopped - and
    a seat that reconnects gets exactly the view it had."""
    import pickle

    from risiko.fair import FairChance
    from risiko.game import Game

    table, tokens = make_table()
    _play_with_bots_until(table, lambda g: g.round >= 2 and g.phase == "attack")
    table.refresh_from_db()
    raw = json.loads(bytes(table.snapshot))
    assert table.snapshot_format == raw["format"] == "position-v1"
    assert 0 < table.snapshot_seq <= table.seq
    game = services.game_of(table)
    control = game.copy(chance=FairChance(SEED, adapter.draws(game)))

    def no_pickles(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a snapshot is never a pickle")

    monkeypatch.setattr(pickle, "loads", no_pickles)
    monkeypatch.setattr(pickle, "dumps", no_pickles)
    monkeypatch.setattr(Game, "__reduce_ex__", no_pickles, raising=False)
    replayed: list[int] = []
    real_replay = adapter.replay_lines

    def counted(g: Any, lines: Any) -> Any:
        lines = list(lines)
        replayed.append(len(lines))
        return real_replay(g, lines)

    monkeypatch.setattr(adapter, "replay_lines", counted)

    async def reconnect() -> None:
        first = await connect(table, tokens[0])  # the tab open before
        # a restart, or another worker: the game comes from the database
        services.clear_cache()
        again = await connect(table, tokens[0])  # another tab, the phone woken up
        for key in ("seq", "game", "private", "table", "log"):
            assert again.state[key] == first.state[key], key
        await again.disconnect()
        await first.disconnect()

    asyncio.run(reconnect())
    since = TableEvent.objects.filter(table=table, seq__gt=table.snapshot_seq).exclude(
        text__startswith="#").count()
    assert replayed and set(replayed) == {since} and since < 25  # never the whole game

    for step in range(40):  # the table and the uninterrupted game, with the same bots
        if step % 3 == 0:
            services.clear_cache()
        table.refresh_from_db()
        seat = control.to_act
        action = adapter.bot_action(control, seat, "heuristic", step)
        expected = adapter.line_of(seat, control.push(action))
        reply = services.apply(table.pk, services.Actor("seat", seat), _intention(action),
                               client_id=f"go{step}")
        assert not reply.faults, reply.faults
        assert TableEvent.objects.get(table=table, seq=reply.seq).text == expected
    table.refresh_from_db()
    assert services.game_of(table).position() == control.position()
    # a snapshot this engine cannot read (a field it no longer knows): the events replayed
    raw = json.loads(bytes(table.snapshot))
    raw["position"]["phase"] = "a phase of another engine"
    OnlineTable.objects.filter(pk=table.pk).update(snapshot=json.dumps(raw).encode())
    services.clear_cache()
    table.refresh_from_db()
    assert services.game_of(table).position() == control.position()
    everything = TableEvent.objects.filter(table=table, undone=False).exclude(
        text__startswith="#").count()
    assert max(replayed) == everything > since  # this time the whole game, once


def test_a_seat_whose_worker_died_is_disconnected_when_its_heartbeat_goes_stale(
        settings: Any) -> None:
    """Presence expires: a worker holding Anna's only connection dies (no disconnect ever
    comes); Bruno's worker lives and beats. After the stale limit (30 s) the reader shows
    Anna disconnected, the sweep makes her absent and starts her grace period, whose end
    brings the casual table's stand-in bot (R11/R13 design); Bruno stays connected."""
    import datetime as dt

    from django.utils import timezone

    settings.RISIKO_ONLINE_PRESENCE_STALE = 30.0
    table, _ = make_table(grace_seconds=60)
    t0 = timezone.now()
    services.connected(table.pk, 1, now=t0)  # on the worker that will die
    services.connected(table.pk, 2, now=t0)  # on the worker that lives
    services.connected(table.pk, 3, now=t0)  # Carla too (a seat never connected is swept)
    anna = OnlineSeat.objects.get(table=table, position=1)
    bruno = OnlineSeat.objects.get(table=table, position=2)
    carla = OnlineSeat.objects.get(table=table, position=3)

    def connected_now(at: dt.datetime) -> dict[int, bool]:
        return {x.position: services.is_connected(x, at)
                for x in OnlineSeat.objects.filter(table=table)}

    # 20 s on: both fresh; only Bruno's worker beats from now on
    t20 = t0 + dt.timedelta(seconds=20)
    assert services.heartbeat([bruno.pk, carla.pk], now=t20) == 2
    assert services.sweep_presence(t20) == []
    assert connected_now(t20) == {1: True, 2: True, 3: True}
    # 31 s on: Anna's heartbeat (t0) is stale, Bruno's (t20) is not
    t31 = t0 + dt.timedelta(seconds=31)
    assert connected_now(t31) == {1: False, 2: True, 3: True}  # the reader, before the sweep
    before = table.seq
    (outbox,) = services.sweep_presence(t31)
    anna.refresh_from_db()
    bruno.refresh_from_db()
    assert (anna.connections, anna.absent_since) == (0, t31)
    assert (bruno.connections, bruno.absent_since) == (1, None)
    ev = TableEvent.objects.get(table=table, seq=before + 1)
    assert (ev.seat, ev.text) == (1, "# Anna: connection lost")
    public = next(m for g, m in outbox.messages if g == services.public_group(table.pk))
    assert [s["connected"] for s in public["table"]["seats"]][:2] == [False, True]
    grace = Deadline.objects.get(table=table, kind="grace_end", seat=1,
                                 guard=anna.absence_epoch)
    assert grace.due == t31 + dt.timedelta(seconds=60)
    assert services.sweep_presence(t31 + dt.timedelta(seconds=1)) == []  # swept once
    # the grace period ends: at a casual table a bot stands in for her
    assert services.fire(grace.pk) is not None
    anna.refresh_from_db()
    assert anna.stand_in
    # she reconnects through a live worker: one connection (not the dead worker's 1 + 1)
    t40 = t0 + dt.timedelta(seconds=40)
    services.connected(table.pk, 1, now=t40)
    anna.refresh_from_db()
    assert (anna.connections, anna.absent_since, anna.stand_in) == (1, None, False)
    assert TableEvent.objects.filter(table=table).latest("seq").text == "# Anna is back"


def test_a_restart_forgets_the_dead_workers_connections() -> None:
    """Every worker stopped (a restart): the count of connections they held is forgotten
    when the seat connects again, so its one new connection closing makes it absent."""
    import datetime as dt

    from django.utils import timezone

    table, _ = make_table(grace_seconds=60)
    t0 = timezone.now()
    services.connected(table.pk, 1, now=t0)
    services.connected(table.pk, 1, now=t0)  # two tabs on the worker that stops
    later = t0 + dt.timedelta(minutes=5)
    services.connected(table.pk, 1, now=later)  # after the restart
    anna = OnlineSeat.objects.get(table=table, position=1)
    assert anna.connections == 1
    services.disconnected(table.pk, 1)
    anna.refresh_from_db()
    assert anna.connections == 0 and anna.absent_since is not None


def test_the_consumer_beats_for_the_seats_it_holds() -> None:
    from risiko.web.online import consumers

    table, tokens = make_table()
    anna = OnlineSeat.objects.get(table=table, position=1)

    async def go() -> None:
        a = await connect(table, tokens[0])
        b = await connect(table, tokens[0])
        assert consumers.LIVE_SEATS[anna.pk] == 2
        await a.disconnect()
        assert consumers.LIVE_SEATS[anna.pk] == 1
        await b.disconnect()
        assert anna.pk not in consumers.LIVE_SEATS

    run(go)


def test_every_action_and_its_refusals_through_the_socket_with_secrets_kept() -> None:
    """One whole turn through the socket - trade (its value shown before, R9), place,
    attack to a conquest, move, fortify - then the next seat's place and end; before each,
    the actions the phase forbids are refused with the engine's fault. Another seat sees
    only its own secrets; a spectator none; nobody sees another seat's hand or objective."""
    from risiko.cards import best_set, card_name

    table, tokens = make_table()

    def ready(g: Any) -> bool:  # a reinforcement with a set to trade and a target to take
        return (g.phase == "reinforce" and g.round >= 2 and not g.penalised_turn
                and best_set(g.hands[g.to_act]) is not None
                and any(g.armies[t] == 1 for s, t in _borders(g)))

    game = _play_with_bots_until(table, ready)
    me = game.to_act
    other = (me + 1) % 3
    hand = list(game.hands[me])
    not_mine = next(c for c in range(44) if c not in hand)
    secret = {card_name(c) for c in game.hands[other]}

    def cards_in(m: Any) -> set[str]:
        """The card names a message shows as cards (objects with a "card")."""
        if isinstance(m, dict):
            found = {m["card"]} if "card" in m else set()
            return found.union(*map(cards_in, m.values()))
        if isinstance(m, list):
            return set().union(*map(cards_in, m))
        return set()

    async def refused(c: WebsocketCommunicator, action: dict[str, Any], code: str) -> None:
        await c.send_json_to({"type": "act", "id": f"r{id(action)}", "action": action})
        m = await answer(c)
        assert m["type"] == "refused", (action, m)
        assert m["faults"][0]["code"] == code, (action, m["faults"])

    async def acked(c: WebsocketCommunicator, action: dict[str, Any]) -> int:
        await c.send_json_to({"type": "act", "id": f"a{table.pk}-{action}", "action": action})
        m = await answer(c)
        assert m["type"] == "ack", (action, m)
        return int(m["seq"])

    def _server() -> Any:
        table.refresh_from_db()
        return services.game_of(table)

    from risiko.web.online.consumers import in_thread

    server = in_thread(_server)
    text_of = in_thread(lambda seq: TableEvent.objects.get(table=table, seq=seq).text)

    async def go() -> None:
        c = await connect(table, tokens[me])
        o = await connect(table, tokens[other])
        w = await connect(table)
        priv = c.state["private"]
        pending = c.state["game"]["pending"]
        # R9: the sets she may trade, each with its value, before she trades
        assert priv["sets"] and all(s["value"] > 0 for s in priv["sets"])
        chosen = priv["sets"][0]
        # the trade button's words: the cards' territories as the board writes them (issue
        # 20 item 8: "Medio Oriente", never the record's "Medio_Oriente"; a jolly is "jolly")
        assert chosen["names"] == [
            "jolly" if code.startswith("jolly") else territory_name(parse_territory(code))
            for code in chosen["cards"]]
        assert not any("_" in n for s in priv["sets"] for n in s["names"])
        for action, code in [
            ({"kind": "end"}, "game.reinforcements_pending"),
            ({"kind": "move", "armies": 1}, "game.no_conquest"),
            ({"kind": "attack", "from": _borders(game)[0][0], "to": _borders(game)[0][1]},
             "game.reinforcements_pending"),
            ({"kind": "fortify", "from": 0, "to": 1, "armies": 1},
             "game.reinforcements_pending"),
            ({"kind": "trade", "cards": [card_name(not_mine), *chosen["cards"][1:]]},
             "game.card_not_held"),
        ]:
            await refused(c, action, code)
        seq = await acked(c, {"kind": "trade", "cards": chosen["cards"]})
        assert (await text_of(seq)).startswith(f"{me + 1} trade ")
        g = await server()
        # the set's value to place; the bonus of owned territories placed on them (R9)
        assert g.pending == pending + chosen["value"]
        assert g.totals[me] == game.totals[me] + chosen["bonus"]
        assert len(g.hands[me]) == len(hand) - 3
        # place: too many refused, then everything on the border of a 1-army target
        src, dst = next((s, t) for s, t in _borders(g) if g.armies[t] == 1)
        await refused(c, {"kind": "place", "territory": src, "armies": g.pending + 1},
                      "game.place_amount")
        await acked(c, {"kind": "place", "territory": src, "armies": g.pending})
        g = await server()
        far = next(t for t in range(42) if g.owner[t] != me and not g.neighbours[src] >> t & 1)
        await refused(c, {"kind": "attack", "from": src, "to": far}, "game.not_bordering")
        mine = next(t for t in g.adjacency[src] if g.owner[t] == me) if any(
            g.owner[t] == me for t in g.adjacency[src]) else None
        if mine is not None:
            await refused(c, {"kind": "attack", "from": src, "to": mine}, "game.own_target")
        for _ in range(20):  # attack until the 1-army territory falls
            await acked(c, {"kind": "attack", "from": src, "to": dst})
            if (await server()).phase == "move":
                break
        g = await server()
        assert g.phase == "move" and g.owner[dst] == me
        await refused(c, {"kind": "end"}, "game.move_pending")
        most = g.move_min + g.armies[g.move_from] - 1
        await refused(c, {"kind": "move", "armies": most + 1}, "game.move_amount")
        await acked(c, {"kind": "move", "armies": g.move_min})
        g = await server()
        a, b = next((s, t) for s, t in g.legal_fortifies())
        await refused(c, {"kind": "fortify", "from": a, "to": b, "armies": g.armies[a]},
                      "game.fortify_amount")
        await acked(c, {"kind": "fortify", "from": a, "to": b, "armies": 1})
        g = await server()
        assert g.to_act != me  # fortifying ended her turn
        # the next seat: place everything, then end (not before)
        nxt = g.to_act
        n = o if nxt == other else await connect(table, tokens[nxt])
        if g.phase == "reinforce" and not g.penalised_turn and g.pending:
            await refused(n, {"kind": "end"}, "game.reinforcements_pending")
            own = next(t for t in range(42) if g.owner[t] == nxt)
            must = best_set(g.hands[nxt])
            if must is not None and g.ruleset.hand_limit is not None \
                    and len(g.hands[nxt]) > g.ruleset.hand_limit:
                await acked(n, {"kind": "trade", "cards": [card_name(x) for x in must]})
                g = await server()
            await acked(n, {"kind": "place", "territory": own, "armies": g.pending})
        g = await server()
        if g.phase == "attack" and g.to_act == nxt:
            await acked(n, {"kind": "end"})
            assert (await server()).to_act != nxt
        # secrets: everything the other seat and the spectator received
        got_o, got_w = await drain(o), await drain(w)
        for m in got_o:
            if m["type"] == "private":
                assert m["private"]["seat"] == other + 1
            else:
                assert m.get("private") is None
        assert all(m["type"] != "private" and m.get("private") is None for m in got_w)
        for m in got_w + [x for x in got_o if x["type"] != "private"]:
            if m["type"] != "event":
                continue
            for s in m["game"]["seats"]:
                assert isinstance(s["cards"], int) and s["objective"] is None
        # cards by name: the spectator none, the other seat only its own, never hers
        assert set().union(*map(cards_in, got_w)) == set()
        seen_o = set().union(*map(cards_in, got_o))
        final = await server()
        assert seen_o <= secret | {card_name(x) for x in final.hands[other]}
        assert not seen_o & {card_name(x) for x in hand}
        for x in (c, o, w) + (() if n is o else (n,)):
            await x.disconnect()

    run(go)


def test_wrong_seat_not_referee_and_the_referees_refusals_through_the_socket(
        django_user_model: Any) -> None:
    """A seat's token at another table is refused there (the socket closed: 4403), a
    spectator does not act; a seat is not a referee; the
    referee's commands over the socket: a seat that is not there, a reason missing, an
    unknown command refused; a pause accepted."""
    from django.contrib.auth.models import Group
    from django.test import Client

    table, tokens = make_table()
    elsewhere, _ = make_table()
    ref = django_user_model.objects.create_user("arbitra", password="x")
    ref.groups.add(Group.objects.get_or_create(name="referee")[0])
    browser = Client()
    browser.force_login(ref)
    cookie = f"sessionid={browser.cookies['sessionid'].value}".encode()

    async def go() -> None:
        intruder = await connect(elsewhere)
        await intruder.send_json_to({"type": "auth", "token": tokens[0]})  # another table's
        refused = checked(await intruder.receive_json_from(timeout=5))
        assert [f["code"] for f in refused["faults"]] == ["online.bad_token"]
        assert (await intruder.receive_output(timeout=5))["code"] == 4403
        intruder = await connect(elsewhere)
        assert intruder.welcome["role"] == "spectator" and intruder.state["private"] is None
        await intruder.send_json_to({"type": "act", "id": "x1", "action": {"kind": "end"}})
        assert (await answer(intruder))["faults"][0]["code"] == "online.spectator"
        anna = await connect(table, tokens[0])
        await anna.send_json_to({"type": "referee", "id": "x2",
                                 "command": {"kind": "pause"}})
        assert (await answer(anna))["faults"][0]["code"] == "online.not_referee"
        comm = WebsocketCommunicator(application, f"/ws/online/{table.code}/?lang=en",
                                     headers=[(b"origin", b"http://localhost"),
                                              (b"host", b"localhost"), (b"cookie", cookie)])
        assert (await comm.connect())[0]
        welcome = checked(await comm.receive_json_from(timeout=5))
        assert (welcome["role"], welcome["seat"]) == ("referee", None)
        state = checked(await comm.receive_json_from(timeout=5))
        assert state["private"] is None  # a referee sees no seat's secrets
        for command, code in [
            ({"kind": "penalty", "seat": 9, "points": -5, "reason": "x"}, "online.wrong_seat"),
            ({"kind": "widen"}, "online.need_reason"),
            ({"kind": "shuffle", "reason": "x"}, "online.bad_command"),
            ({"kind": "penalty", "seat": 2, "points": 5, "reason": "x"}, "online.bad_setting"),
        ]:
            await comm.send_json_to({"type": "referee", "id": f"c{code}", "command": command})
            m = await answer(comm)
            assert m["type"] == "refused" and m["faults"][0]["code"] == code, (command, m)
        await comm.send_json_to({"type": "referee", "id": "ok", "command": {"kind": "pause"}})
        assert (await answer(comm))["type"] == "ack"
        for c in (intruder, anna, comm):
            await c.disconnect()

    run(go)
    table.refresh_from_db()
    assert table.status == "paused"
    assert not TableEvent.objects.filter(table=elsewhere, actor__startswith="seat:").exists()


def test_another_workers_broadcasts_bring_this_workers_cached_game_along() -> None:
    """Two workers: each action of a whole game (place, trade, attack, move, fortify, end,
    the closing dice) is applied by one (services.apply, its cache) and pushed onto the
    other's cached copy from the broadcast (``Outbox.advance``, through the consumer's
    handler of the group message); after each, the copy is the game rebuilt from the
    database: same snapshot (position, next draw, forfeits, closing rolls) and views."""
    from collections import Counter

    from risiko.web.online.consumers import TableConsumer

    table, _ = make_table(call_round=10)  # long enough for sets of cards to be traded
    other = services._rebuild(table)  # the other worker's copy, its own object
    other_seq = table.seq
    kinds: Counter[str] = Counter()
    sent: list[str] = []

    async def send(text_data: str | None = None, **kwargs: Any) -> None:
        sent.append(str(text_data))

    consumer = TableConsumer()
    consumer.send = send  # type: ignore[method-assign]
    for _ in range(3000):
        table.refresh_from_db()
        game = services.game_of(table)
        if game.over:
            break
        seat = game.to_act
        intention = _intention(adapter.bot_action(game, seat, "random", table.seq))
        kinds[intention["kind"]] += 1
        reply = services.apply(table.pk, services.Actor("seat", seat), intention,
                               client_id=f"x{table.seq}")
        assert not reply.faults and reply.outbox is not None and reply.outbox.advance
        assert reply.outbox.advance[1:3] == (other_seq, reply.seq)
        applier = services._CACHE.pop(table.pk)  # the applying worker's cache, aside
        services._cache_put(table.pk, other_seq, other)
        message = {"type": "online.message", "text": "{}",
                   "advance": list(reply.outbox.advance)}
        asyncio.run(consumer.online_message(message))
        other_seq, other = services._CACHE[table.pk]
        assert other_seq == reply.seq and other is not applier[1]
        table.refresh_from_db()
        fresh = services._rebuild(table)
        assert adapter.snapshot(other) == adapter.snapshot(fresh)
        assert adapter.public_view(other) == adapter.public_view(fresh)
        assert [adapter.private_view(other, s) for s in range(3)] == [
            adapter.private_view(fresh, s) for s in range(3)]
        services._CACHE[table.pk] = applier
    assert other.over and table.status == "over"
    assert set(kinds) == {"place", "trade", "attack", "move", "fortify", "end"}, kinds
    # every event written once, numbered without a gap, the last one in the game's record
    seqs = list(TableEvent.objects.filter(table=table).order_by("seq")
                .values_list("seq", flat=True))
    assert seqs == list(range(1, table.seq + 1))
    replayed = adapter.replay_lines(services._fresh(table), services._game_lines(table, 0))
    assert replayed.over and adapter.public_view(replayed) == adapter.public_view(other)
    assert table.record.rstrip().endswith(TableEvent.objects.get(
        table=table, seq=table.seq).text.split(" ", 1)[1])
    assert len(sent) == sum(kinds.values())  # every message passed on to the socket


def test_a_cached_game_is_advanced_only_from_its_own_seq_and_dropped_if_a_line_fails() -> None:
    table, _ = make_table()
    at = table.seq
    game = services.game_of(table)  # cached at the table's seq
    seat = game.to_act
    line = adapter.line_of(seat, adapter.bot_action(game, seat, "random", at))
    # not the cache's seq: nothing moves
    assert not services.advance_cached(table.pk, at + 5, at + 6, [line], 0)
    assert services._cache_peek(table.pk, at) is game
    # a line that does not apply (a place on another seat's territory): the game is dropped
    from risiko.actions import Place

    theirs = next(t for t in range(42) if game.owner[t] != seat)
    wrong = adapter.line_of(seat, Place(theirs, 1))
    assert not services.advance_cached(table.pk, at, at + 1, [wrong], 0)
    assert services._CACHE.get(table.pk) is None
    # the game from the database again, then the right line
    game = services.game_of(table)
    assert services.advance_cached(table.pk, at, at + 1, [line], 0)
    assert services._cache_peek(table.pk, at + 1) is game


def test_every_pooled_connection_is_given_back_after_many_actions_through_the_socket() -> None:
    """PostgreSQL's pool (settings.POSTGRES_POOL): the consumer's database calls, each in a
    thread of a pool, give their connection back: after 40 actions of three seats through
    their sockets and their disconnection, no connection is out of the pool but the test's."""
    from django.db import connections

    from risiko.web.online.consumers import in_thread

    pools = getattr(type(connections["default"]), "_connection_pools", None) or {}
    if connections["default"].vendor != "postgresql" or "default" not in pools:
        pytest.skip("PostgreSQL's pool only")
    table, tokens = make_table()

    def held() -> int:  # out of the pool, but the test's own connection
        stats = pools["default"].get_stats()
        mine = 1 if connections["default"].connection is not None else 0
        return int(stats["pool_size"] - stats["pool_available"]) - mine

    before = held()  # a thread of an earlier test may still hold one

    def now() -> Any:
        table.refresh_from_db()
        return services.game_of(table)

    async def go() -> None:
        comms = [await connect(table, token) for token in tokens]
        for i in range(40):
            game = await in_thread(now)()
            seat = game.to_act
            action = _intention(adapter.bot_action(game, seat, "random", i))
            await comms[seat].send_json_to({"type": "act", "id": f"n{i}", "action": action})
            assert (await answer(comms[seat]))["type"] == "ack"
        for comm in comms:
            await comm.disconnect(timeout=30)  # its seat's absence written (a loaded machine)

    run(go)
    assert TableEvent.objects.filter(table=table, client_id__startswith="n").count() == 40
    # a thread still finishing a call gives its connection back when done; a leaked one never
    deadline = time.monotonic() + 30
    while held() > before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert held() <= before, pools["default"].get_stats()


def test_referee_commands_refused_by_the_handlers_table_write_nothing() -> None:
    """Each refusal of ``services.referee`` leaves the table as it was (its seq unchanged):
    a kind no handler knows; a seat command naming no seat of the table; a command that
    needs a reason without one; a penalty of points that are not negative. Then ``expel``
    of seat 2 (Bruno) with a reason: the engine's abandonment of Bruno (0-based seat 1)."""
    from risiko.web.auditlog.models import AuditEntry

    table, _tokens = make_table()
    referee = services.Actor("referee", None, "arbitro")
    seq = table.seq
    refusals = [
        ({"kind": "teleport", "reason": "x"}, "online.bad_command"),
        ({"kind": "expel", "seat": 9, "reason": "x"}, "online.wrong_seat"),
        ({"kind": "expel", "seat": 2}, "online.need_reason"),
        ({"kind": "widen"}, "online.need_reason"),
        ({"kind": "penalty", "seat": 2, "points": 3, "reason": "x"}, "online.bad_setting"),
    ]
    for command, code in refusals:
        r = services.referee(table.pk, referee, command)
        assert [f.code for f in r.faults] == [code], command
        table.refresh_from_db()
        assert table.seq == seq, command
    r = services.referee(table.pk, referee, {"kind": "expel", "seat": 2, "reason": "insulti"})
    assert not r.faults
    table.refresh_from_db()
    assert table.seq > seq
    assert services.game_of(table).status[1] == "abandoned"
    assert AuditEntry.objects.filter(who="arbitro", action="online expel").count() == 1
