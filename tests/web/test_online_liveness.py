"""Online tables that never stall.

Every way a seat's socket ends runs the disconnection (the seat's live count, the channel
groups left, the grace period, the stand-in bot, the R13 request); presence expires by
heartbeat when no worker learns of it; and every table in play always has someone who will
act (a present human, a running clock, a scheduled bot, a pending grace period), checked
after every change and by the scheduler at start-up.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
import zoneinfo
from typing import Any
from unittest import mock

import pytest
from django.utils import timezone
from test_online_ws import _online, checked, connect, make_table, run  # noqa: F401

from risiko.web.asgi import application
from risiko.web.online import consumers, scheduler, services
from risiko.web.online.models import Deadline, OnlineSeat, OnlineTable, TableEvent

pytestmark = [pytest.mark.online, pytest.mark.db, pytest.mark.django_db(transaction=True)]


def _due_now(table: OnlineTable, kind: str) -> None:
    """The table's pending deadlines of ``kind`` due a second ago (the same tick)."""
    Deadline.objects.filter(table=table, kind=kind, fired=None).update(
        due=timezone.now() - dt.timedelta(seconds=1))


def _bot_deadlines(table: OnlineTable) -> list[tuple[int, int]]:
    """The pending bot deadlines as (seat, guard)."""
    return list(Deadline.objects.filter(table=table, kind="bot", fired=None)
                .values_list("seat", "guard"))


# ----------------------------------------------------- every table in play has someone to act
@pytest.mark.parametrize("absent", [2, 3])
def test_grace_periods_ending_in_one_tick_leave_a_bot_to_act_with_no_clock(absent: int) -> None:
    """Anna (seat 1, to act: the initial placement, which no clock times) and one or two
    others disconnect; their grace periods end in the same scheduler tick. Each end writes
    "a bot plays for ..." (one event each), so the stand-in's deadline for Anna, guarded by
    the seq after the first of them, is stale after the second: the invariant schedules it
    again at the final seq, and the bot places for Anna."""
    table, _ = make_table(grace_seconds=1, bot_delay_ms=0)
    for position in range(1, absent + 1):
        services.connected(table.pk, position)
        services.disconnected(table.pk, position)
    table.refresh_from_db()
    seq = table.seq
    assert services.game_of(table).to_act == 0 and table.turn_deadline is None
    _due_now(table, "grace_end")

    fired = asyncio.run(scheduler.tick())  # one tick: every grace end, then the stand-in

    table.refresh_from_db()
    # the grace ends: one event each ("a bot plays for ..."); then the bot, due at once
    # (bot_delay_ms 0), fires in the same tick only if it was due when the tick read them;
    # either way a bot stands in for each absent seat and one is scheduled for Anna
    seats = {x.position: x for x in OnlineSeat.objects.filter(table=table)}
    assert all(seats[p].stand_in for p in range(1, absent + 1))
    texts = list(TableEvent.objects.filter(table=table, seq__gt=seq, seq__lte=seq + absent)
                 .values_list("text", flat=True))
    assert texts == [f"# a bot plays for {n} until back" for n in ["Anna", "Bruno", "Carla"]
                     ][:absent]
    assert fired == absent
    assert table.seq == seq + absent
    # guarded by the seq after the last (the first one, guarded by an older seq, is stale)
    assert (1, table.seq) in _bot_deadlines(table)
    # the next tick: the stand-in places Anna's armies (an action of bot:1)
    asyncio.run(scheduler.tick())
    assert TableEvent.objects.filter(table=table, actor="bot:1").count() == 1
    table.refresh_from_db()
    assert table.seq == seq + absent + 1


@pytest.mark.parametrize("order", [(1, 2, 3), (2, 3, 1)])
def test_grace_periods_ending_in_one_tick_bring_the_chosen_levels_stand_in_to_act(
        order: tuple[int, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    """A table whose stand-ins are level 3 (``greedy``); Anna (seat 1) is to act in the
    initial placement (no clock). All three disconnect (in ``order``: Anna's grace ending
    first, whose stand-in deadline the next two ends make stale, or last); their grace
    periods end in one tick. Then the stand-in that places for Anna is the greedy bot (no
    other bot asked), and after it every table in play has someone who will act: the seat
    to act is a stand-in with its bot deadline pending at the table's seq."""
    from risiko.online import adapter

    asked: list[tuple[int, str]] = []
    real = adapter.bot_action

    def spy(game: Any, seat: int, bot: str, rng: int) -> Any:
        asked.append((seat, bot))
        return real(game, seat, bot, rng)

    monkeypatch.setattr(adapter, "bot_action", spy)
    table, _ = make_table(grace_seconds=1, bot_delay_ms=0, stand_in_level=3)
    for position in order:
        services.connected(table.pk, position)
        services.disconnected(table.pk, position)
    table.refresh_from_db()
    seq = table.seq
    _due_now(table, "grace_end")
    assert Deadline.objects.filter(table=table, kind="grace_end", fired=None).count() == 3

    asyncio.run(scheduler.tick())  # the three grace ends in one tick

    assert [x.stand_in for x in OnlineSeat.objects.filter(table=table).order_by("position")
            ] == [True, True, True]
    assert TableEvent.objects.filter(table=table, seq__gt=seq, text__startswith="# a bot plays"
                                     ).count() == 3
    for _ in range(3):  # the stand-in's deadline, due at once, fires by the next tick
        if TableEvent.objects.filter(table=table, actor="bot:1").exists():
            break
        asyncio.run(scheduler.tick())
    assert TableEvent.objects.filter(table=table, actor="bot:1").count() == 1
    assert asked and asked[0] == (0, "greedy")
    assert {bot for _, bot in asked} == {"greedy"}
    # the invariant, after: someone acts at every table in play, and it is scheduled
    table.refresh_from_db()
    game = services.game_of(table)
    seats = services._seats(table)
    assert services._someone_acts(table, game, seats, timezone.now()) == "bot"
    assert (game.to_act + 1, table.seq) in _bot_deadlines(table)
    assert services.keep_tables_alive() == []  # nothing was missing


def test_a_deadline_that_raises_is_set_aside_and_the_others_of_the_tick_fire(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Two tables, each with a stand-in (level 2, ``heuristic``) to act and its bot deadline
    due in the same tick; the first table's bot raises (a fault of the server, not a
    refusal). That deadline is logged once (with its traceback) and set aside (fired,
    outcome ``failed: RuntimeError``), and its move is made by the level-1 bot (``random``,
    recorded as the bot's: one bot deadline per seq, so without a move the table would
    wait for ever); the second table's bot still plays in that tick. Before, the exception
    ended the tick: the second table's deadline waited behind the first, every tick."""
    from risiko.online import adapter

    tables = []
    for _ in range(2):
        table, _ = make_table(bot_delay_ms=0)
        OnlineSeat.objects.filter(table=table, position=1).update(
            stand_in=True, absent_since=timezone.now(), absence_epoch=1)
        tables.append(table)
    assert len(services.keep_tables_alive()) == 2  # a bot deadline each, due now
    due = services.due_deadlines()  # the tick's order: the first one raises
    assert len(due) == 2
    first = Deadline.objects.get(pk=due[0])
    tables.sort(key=lambda t: t.pk != first.table_id)  # the broken one first
    real = adapter.bot_action
    asked: list[str] = []

    def broken_once(game: Any, seat: int, bot: str, rng: int) -> Any:
        asked.append(bot)
        if len(asked) == 1:
            raise RuntimeError("a bug")
        return real(game, seat, bot, rng)

    monkeypatch.setattr(adapter, "bot_action", broken_once)
    seqs = [OnlineTable.objects.get(pk=t.pk).seq for t in tables]
    with caplog.at_level(logging.INFO, logger="risiko.web.online"):
        assert asyncio.run(scheduler.tick()) == 2
    assert asked == ["heuristic", "random", "heuristic"]
    first.refresh_from_db()
    assert first.fired is not None and first.outcome == "failed: RuntimeError"
    for table, seq in zip(tables, seqs, strict=True):
        assert OnlineTable.objects.get(pk=table.pk).seq == seq + 1
        assert TableEvent.objects.filter(table=table, actor="bot:1").count() == 1
    failed = [r for r in caplog.records if r.name == "risiko.web.online.scheduler"]
    assert [r.getMessage() for r in failed] == [
        f"online scheduler: deadline {first.pk} failed; set aside"]
    assert failed[0].exc_info is not None


def test_a_table_left_stalled_in_the_database_is_moved_by_the_scheduler_at_start_up(
        settings: Any) -> None:
    """A table in play whose seat to act (Anna, a stand-in) has no bot deadline (what the
    bug of grace periods ending together left: a table stuck across restarts), and another
    whose absent seat to act has no grace period pending: the scheduler's first round at
    start-up schedules both, and its ticks play the stand-in's placement."""
    stuck, _ = make_table(bot_delay_ms=0)
    OnlineSeat.objects.filter(table=stuck, position=1).update(
        stand_in=True, absent_since=timezone.now(), absence_epoch=1)
    lost, _ = make_table(grace_seconds=600)
    OnlineSeat.objects.filter(table=lost, position=1).update(
        absent_since=timezone.now(), absence_epoch=1)
    assert not Deadline.objects.filter(table__in=[stuck, lost], fired=None).exists()
    settings.RISIKO_ONLINE_SCHEDULER = True

    async def go() -> None:
        scheduler.ensure_started()
        try:
            for _ in range(200):
                if await _count_bot_events(stuck):
                    return
                await asyncio.sleep(0.05)
        finally:
            await scheduler.stop()
        raise AssertionError("the stand-in never played")

    run(go)
    assert TableEvent.objects.filter(table=stuck, actor="bot:1").count() == 1
    lost.refresh_from_db()
    grace = Deadline.objects.get(table=lost, kind="grace_end", seat=1, guard=1)
    # made due at once: the grace of a seat whose deadline was lost is not given again
    assert grace.due <= timezone.now()


async def _count_bot_events(table: OnlineTable) -> int:
    return await consumers.in_thread(
        lambda: TableEvent.objects.filter(table=table, actor="bot:1").count())()


def test_someone_acts_says_who_for_each_kind_of_seat() -> None:
    """The invariant's answer, worked out from the table: a present guest to act (human),
    the same guest absent with her grace pending (absence), a running clock (clock), a
    stand-in (bot); a paused table has nobody to act."""
    table, _ = make_table(grace_seconds=60)
    now = timezone.now()

    def who() -> str:
        table.refresh_from_db()
        seats = services._seats(table)
        return services._someone_acts(table, services.game_of(table), seats, now)

    assert who() == "human"
    services.connected(table.pk, 1)
    services.disconnected(table.pk, 1)
    assert who() == "absence"
    OnlineSeat.objects.filter(table=table, position=1).update(stand_in=True)
    assert who() == "bot"
    OnlineTable.objects.filter(pk=table.pk).update(status="paused")
    assert who() == "none"
    clocked, _ = make_table(clock_seconds=60)
    OnlineTable.objects.filter(pk=clocked.pk).update(turn_deadline=now)
    clocked.refresh_from_db()
    assert services._someone_acts(clocked, services.game_of(clocked),
                                  services._seats(clocked), now) == "clock"


def test_a_seat_that_never_opens_the_table_is_made_absent_after_the_stale_limit(
        settings: Any) -> None:
    """Carla sat down (a guest) and never opened the table: no connection ever counted,
    no disconnection ever comes. Once the table has played 30 s without her, the sweep
    makes her absent and her grace period starts; before, nothing."""
    settings.RISIKO_ONLINE_PRESENCE_STALE = 30.0
    table, _ = make_table(grace_seconds=60)
    t0 = timezone.now()
    for position in (1, 2):
        services.connected(table.pk, position, now=t0)
    ids = list(OnlineSeat.objects.filter(table=table, position__in=(1, 2))
               .values_list("pk", flat=True))
    assert services.sweep_presence(t0 + dt.timedelta(seconds=20)) == []
    t31 = t0 + dt.timedelta(seconds=31)
    services.heartbeat(ids, now=t31)
    assert len(services.sweep_presence(t31)) == 1  # Carla alone
    carla = OnlineSeat.objects.get(table=table, position=3)
    assert (carla.absent_since, carla.connections) == (t31, 0)
    assert TableEvent.objects.filter(table=table).latest("seq").text == (
        "# Carla: connection lost")
    assert Deadline.objects.get(table=table, kind="grace_end", seat=3).due == (
        t31 + dt.timedelta(seconds=60))
    assert services.sweep_presence(t31 + dt.timedelta(seconds=1)) == []  # once


# ----------------------------------------------- every way a socket ends runs the disconnection
class Spy:
    """The channel layer's ``group_discard`` calls (the groups a socket left), on the
    in-memory layer as on Redis."""

    def __init__(self) -> None:
        from channels.layers import get_channel_layer

        self.layer = get_channel_layer()
        self.left: list[str] = []
        self._discard = self.layer.group_discard

        async def discard(group: str, channel: str) -> None:
            self.left.append(group)
            await self._discard(group, channel)

        self.layer.group_discard = discard


def _disconnected(table: OnlineTable, spy: Spy) -> OnlineSeat:
    """Anna's socket has ended: her seat counts no connection, no beat in this process,
    both her groups left, she is absent and her grace period is pending (R11, R13)."""
    anna = OnlineSeat.objects.get(table=table, position=1)
    assert anna.pk not in consumers.LIVE_SEATS
    assert sorted(spy.left) == sorted([services.public_group(table.pk),
                                       services.seat_group(table.pk, 1)])
    assert anna.connections == 0 and anna.absent_since is not None
    assert Deadline.objects.filter(table=table, kind="grace_end", seat=1, fired=None,
                                   guard=anna.absence_epoch).exists()
    assert TableEvent.objects.filter(table=table).latest("seq").text == "# Anna disconnected"
    return anna


async def _anna(table: OnlineTable, token: str) -> tuple[Any, Spy]:
    """Anna's socket, open (her seat beats in this process); the spy on the groups."""
    comm = await connect(table, token)
    assert list(consumers.LIVE_SEATS.values()) == [1]
    return comm, Spy()


@pytest.mark.parametrize("frame", [{"text_data": "not json {"}, {"text_data": "[1, 2]"},
                                   {"bytes_data": b"\x00\x01"}])
def test_a_malformed_frame_is_answered_with_a_fault_closed_1003_and_the_seat_disconnected(
        frame: dict[str, Any], caplog: pytest.LogCaptureFixture) -> None:
    """Text that is not JSON, JSON that is not an object, binary data: an ``error`` with the
    fault in the viewer's language, a close with 1003, one log line and no traceback; the
    seat's disconnection runs (it used to stay connected while the worker ran)."""
    table, tokens = make_table(grace_seconds=60)
    code = "online.not_text" if "bytes_data" in frame else "online.not_json"

    async def go() -> Spy:
        comm, spy = await _anna(table, tokens[0])
        await comm.send_to(**frame)
        error = checked(await comm.receive_json_from(timeout=5))
        assert error["type"] == "error" and error["close"] == 1003
        assert [f["code"] for f in error["faults"]] == [code]
        assert (await comm.receive_output(timeout=5)) == {"type": "websocket.close",
                                                          "code": 1003}
        await comm.wait(timeout=5)
        return spy

    with caplog.at_level(logging.INFO, logger="risiko.web.online"):
        spy = asyncio.run(go())
    _disconnected(table, spy)
    lines = [r for r in caplog.records if r.name.startswith("risiko.web.online")]
    assert [r.getMessage() for r in lines] == [
        f"online table {table.pk}: connection closed (1003): {code}"]
    assert all(r.exc_info is None for r in caplog.records)


def test_a_normal_close_disconnects_and_the_grace_period_brings_the_stand_in() -> None:
    table, tokens = make_table(grace_seconds=60)

    async def go() -> Spy:
        comm, spy = await _anna(table, tokens[0])
        await comm.disconnect()
        return spy

    spy = asyncio.run(go())
    anna = _disconnected(table, spy)
    grace = Deadline.objects.get(table=table, kind="grace_end", seat=1, guard=anna.absence_epoch)
    assert services.fire(grace.pk) is not None
    anna.refresh_from_db()
    assert anna.stand_in  # a casual table with bots for the absent
    table.refresh_from_db()
    assert (1, table.seq) in _bot_deadlines(table)  # Anna is to act: the bot will


def _scope(table: OnlineTable) -> dict[str, Any]:
    return {"type": "websocket", "path": f"/ws/online/{table.code}/",
            "query_string": b"lang=en",
            "headers": [(b"origin", b"http://localhost"), (b"host", b"localhost")],
            "subprotocols": []}


async def _until_state(sent: list[dict[str, Any]], states: int = 1) -> None:
    for _ in range(200):
        if sum(1 for m in sent
               if m.get("text") and json.loads(m["text"])["type"] == "state") >= states:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("no state")


async def _open_seat(inbox: asyncio.Queue[dict[str, Any]], sent: list[dict[str, Any]],
                     token: str) -> None:
    """Open the socket (a spectator's state), then take the seat by ``auth`` (its state)."""
    await inbox.put({"type": "websocket.connect"})
    await _until_state(sent)
    await inbox.put({"type": "websocket.receive",
                     "text": json.dumps({"type": "auth", "token": token})})
    await _until_state(sent, 2)


def test_a_tab_closed_while_an_answer_is_on_its_way_disconnects() -> None:
    """The client goes away; the server is sending it an answer (its ``sync``): sending
    fails (uvicorn's ClientDisconnected is an OSError) before any ``websocket.disconnect``
    reaches the consumer. The disconnection runs all the same."""
    table, tokens = make_table(grace_seconds=60)

    async def go() -> Spy:
        inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        sent: list[dict[str, Any]] = []
        gone = asyncio.Event()

        async def send(message: dict[str, Any]) -> None:
            if gone.is_set():
                raise OSError("the client went away")
            sent.append(message)

        task = asyncio.ensure_future(application(_scope(table), inbox.get, send))
        await _open_seat(inbox, sent, tokens[0])
        spy = Spy()
        gone.set()
        await inbox.put({"type": "websocket.receive", "text": json.dumps({"type": "sync"})})
        await asyncio.wait_for(task, timeout=20)  # ended, the OSError said in one line
        return spy

    _disconnected(table, asyncio.run(go()))


def test_a_cancelled_socket_task_still_disconnects() -> None:
    """The server cancels the socket's task (a shutdown, a lost connection): the
    disconnection is shielded from the cancellation and runs to its end."""
    table, tokens = make_table(grace_seconds=60)

    async def go() -> Spy:
        inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        sent: list[dict[str, Any]] = []

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        task = asyncio.ensure_future(application(_scope(table), inbox.get, send))
        await _open_seat(inbox, sent, tokens[0])
        spy = Spy()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        while consumers._LEAVING:
            await asyncio.sleep(0.02)
        return spy

    _disconnected(table, asyncio.run(go()))


def test_an_exception_in_a_handler_disconnects_then_is_raised(monkeypatch: Any) -> None:
    """A fault of the server itself (here the action's service raising) ends the socket
    with the exception (the server logs it); the seat is disconnected first."""
    table, tokens = make_table(grace_seconds=60)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    async def go() -> Spy:
        comm, spy = await _anna(table, tokens[0])
        monkeypatch.setattr(services, "apply", broken)
        await comm.send_json_to({"type": "act", "id": "a1", "action": {"kind": "end"}})
        with pytest.raises(RuntimeError, match="a bug"):
            await comm.receive_output(timeout=10)
        return spy

    _disconnected(table, asyncio.run(go()))


def test_the_database_failing_mid_message_refuses_it_and_keeps_the_socket(
        monkeypatch: Any, caplog: pytest.LogCaptureFixture) -> None:
    """Anna's ``end`` arrives while the database fails (``OperationalError``: SQLite
    locked, PostgreSQL's connection lost): that message is refused with ``online.busy`` in
    her language (nothing written: the table's seq stays), one log line, no traceback; her
    socket stays open and her seat connected (no disconnection, no grace period); the same
    message sent again is applied (ack, seq + 1)."""
    from django.db import OperationalError

    table, tokens = make_table(grace_seconds=60)
    real = services.apply
    calls: list[int] = []

    def failing_once(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:
            raise OperationalError("database is locked")
        return real(*args, **kwargs)

    seq = table.seq

    async def go() -> tuple[dict[str, Any], dict[str, Any], int]:
        comm, _ = await _anna(table, tokens[0])
        monkeypatch.setattr(services, "apply", failing_once)
        game = await consumers.in_thread(lambda: services.game_of(
            OnlineTable.objects.get(pk=table.pk)))()
        from test_online_ws import _intention

        from risiko.online import adapter

        body = _intention(adapter.bot_action(game, 0, "random", 1))
        await comm.send_json_to({"type": "act", "id": "a1", "action": body})
        refused = checked(await comm.receive_json_from(timeout=10))
        connections = await consumers.in_thread(
            lambda: OnlineSeat.objects.get(table=table, position=1).connections)()
        await comm.send_json_to({"type": "act", "id": "a1", "action": body})
        ack = None
        for _ in range(10):
            m = checked(await comm.receive_json_from(timeout=10))
            if m["type"] == "ack":
                ack = m
                break
        assert ack is not None
        await comm.disconnect()
        return refused, ack, connections

    with caplog.at_level(logging.INFO, logger="risiko.web.online"):
        refused, ack, connections = asyncio.run(go())
    assert refused["type"] == "refused" and refused["id"] == "a1"
    assert [f["code"] for f in refused["faults"]] == ["online.busy"]
    assert refused["faults"][0]["message"] == (
        "the table's database did not answer this moment: nothing was changed; send it again")
    assert connections == 1  # still connected after the refusal
    assert (ack["seq"], ack["duplicate"]) == (seq + 1, False)
    assert not TableEvent.objects.filter(table=table, text__endswith="disconnected",
                                         seq__lte=seq + 1).exists()
    lines = [r for r in caplog.records if r.name == "risiko.web.online.consumers"]
    assert [r.getMessage() for r in lines] == [
        f"online table {table.pk}: a 'act' message refused, the database failing "
        "(OperationalError)"]
    assert all(r.exc_info is None for r in caplog.records)


def test_a_tournament_members_socket_dying_leads_to_the_r13_request(settings: Any) -> None:
    """At a tournament table (clock 60 s, grace 1 s, absence limit 1 s) Alba's socket (her
    member's session) ends on a frame that is not JSON: she is absent, never given a bot;
    her grace ends (her turns time out, R11), then the referee is asked to declare R13."""
    from django.contrib.auth.models import User
    from django.test import Client

    from risiko.web import services as club
    from risiko.web.online.models import Member

    names = ["Alba", "Bice", "Ciro"]
    t = club.create_tournament("Online R13", who="t")
    club.add_players(t, names, who="t")
    ev = club.open_evening(t, "2027-03-02", who="t")
    club.set_tables(ev, [names], who="t")
    (table,) = services.open_evening(ev, who="arbitro", settings={
        "clock_seconds": 60, "grace_seconds": 1, "absence_limit_seconds": 1})
    users = {}
    # taking the seat is the arrival (R3): on the evening, on time (21:00 club time)
    evening_time = dt.datetime(2027, 3, 2, 21, 0, tzinfo=zoneinfo.ZoneInfo("Europe/Rome"))
    with mock.patch("risiko.web.online.services.evenings.club_now", return_value=evening_time):
        for n in names:
            users[n] = User.objects.create_user(n.lower(), password="x")
            Member.objects.create(user=users[n], player=club.entry_player(t, n))
            services.join(table.pk, user=users[n])
    browser = Client()
    browser.force_login(users["Alba"])
    cookie = f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"

    async def go() -> None:
        from test_online_ws import WebsocketCommunicator

        comm = WebsocketCommunicator(
            application, f"/ws/online/{table.code}/?lang=en",
            headers=[(b"origin", b"http://localhost"), (b"host", b"localhost"),
                     (b"cookie", cookie.encode())])
        ok, _ = await comm.connect(timeout=5)
        assert ok
        welcome = checked(await comm.receive_json_from(timeout=5))
        assert (welcome["role"], welcome["seat"]) == ("seat", 1)
        await comm.send_to(text_data="{not json")
        for _ in range(20):
            if (await comm.receive_output(timeout=5))["type"] == "websocket.close":
                break
        await comm.wait(timeout=5)

    asyncio.run(go())
    alba = OnlineSeat.objects.get(table=table, position=1)
    assert alba.connections == 0 and alba.absent_since is not None
    grace = Deadline.objects.get(table=table, kind="grace_end", seat=1, guard=alba.absence_epoch)
    services.fire(grace.pk)
    alba.refresh_from_db()
    assert not alba.stand_in  # never a bot for a member at a tournament table
    limit = Deadline.objects.get(table=table, kind="absence_limit", seat=1)
    services.fire(limit.pk)
    alba.refresh_from_db()
    assert alba.r13_requested


def test_a_worker_freezes_what_it_built_while_warming_up_once_with_a_seat_connected(
        settings: Any) -> None:
    """``RISIKO_ONLINE_WARM_FREEZE`` 30: not at 10 s (still warming up), not at 40 s without
    a seat connected to this worker; at 40 s with 3 seats the objects alive are frozen
    (the frozen count grows) and the scheduler is told never to ask again; 0 turns it off
    (nothing frozen, never asked again)."""
    import gc

    settings.RISIKO_ONLINE_WARM_FREEZE = 30
    gc.unfreeze()
    try:
        assert scheduler.freeze_after_warm_up(10.0, 3) is False
        assert scheduler.freeze_after_warm_up(40.0, 0) is False
        assert gc.get_freeze_count() == 0
        keep = [[i] for i in range(1000)]  # objects alive now, tracked by the collector
        assert scheduler.freeze_after_warm_up(40.0, 3) is True
        assert gc.get_freeze_count() >= len(keep)
        gc.unfreeze()
        settings.RISIKO_ONLINE_WARM_FREEZE = 0
        assert scheduler.freeze_after_warm_up(40.0, 3) is True
        assert gc.get_freeze_count() == 0
    finally:
        gc.unfreeze()


def test_the_warm_up_freeze_happens_once_while_every_tick_raises(settings: Any) -> None:
    """The scheduler with a seat connected, every look at the deadlines raising (a database
    down): the worker still freezes once after the warm-up (0.2 s here) and goes on ticking
    (at least 5 looks, all failed and logged), never freezing a second time."""
    settings.RISIKO_ONLINE_SCHEDULER = True
    settings.RISIKO_ONLINE_TICK = 0.02
    settings.RISIKO_ONLINE_WARM_FREEZE = 0.2
    looks: list[int] = []

    def down() -> list[int]:
        looks.append(1)
        raise RuntimeError("database down")

    async def go() -> None:
        scheduler.ensure_started()
        try:
            await asyncio.sleep(0.8)
        finally:
            await scheduler.stop()

    consumers.LIVE_SEATS[999_999] += 1
    try:
        with mock.patch.object(scheduler, "freeze_startup_objects") as freeze, \
                mock.patch.object(services, "due_deadlines", down), \
                mock.patch.object(scheduler, "presence", mock.AsyncMock(return_value=0)):
            run(go)
    finally:
        del consumers.LIVE_SEATS[999_999]
    assert freeze.call_count == 1
    assert len(looks) >= 5
