"""Online writes at the same instant (issue 20: "every write is exactly-once ... prove it
with concurrent requests"), on SQLite and PostgreSQL, each thread with its own connection:
the referee's ``bot_level`` sent twice at once (a resend: one change, one log entry, one
audit) or together with the seat being taken; a late member's two joins at once (R3's
``Late`` applied once, one log entry, one arrival); and (with Redis) the socket caps
claimed at once from two workers: exactly the cap admitted."""

from __future__ import annotations

import collections
import os
import threading
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.auth.models import User
from test_online_arrivals import DATE, NAMES, PASSWORD, _at
from test_online_ws import make_table

from risiko.web import services as club
from risiko.web.auditlog.models import AuditEntry
from risiko.web.evenings.models import Arrival
from risiko.web.online import limits, services
from risiko.web.online.models import Member, OnlineSeat, OnlineTable, TableEvent

pytestmark = [pytest.mark.online, pytest.mark.db, pytest.mark.django_db(transaction=True)]
REFEREE = services.Actor("referee", name="arbitro")


@pytest.fixture(autouse=True)
def _setup(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.RISIKO_ONLINE_SCHEDULER = False
    settings.RISIKO_FIRST_RUN_CHECK = False
    if not os.environ.get("REDIS_URL"):
        settings.CHANNEL_LAYERS = {"default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer"}}
    services.clear_cache()


def at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run ``calls`` in threads released together; each closes its connection. An
    exception is returned as the call's result."""
    from django.db import connection

    barrier = threading.Barrier(len(calls))

    def one(call: Callable[[], Any]) -> Any:
        try:
            barrier.wait(timeout=60)
            return call()
        except Exception as e:
            return e
        finally:
            connection.close()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(one, calls))


def _bot_level_events(table: OnlineTable) -> list[str]:
    return list(TableEvent.objects.filter(table=table, text__startswith="# bot level")
                .values_list("text", flat=True))


def _audits(kind: str) -> int:
    return AuditEntry.objects.filter(action=f"online {kind}").count()


# ------------------------------------------------------------------------------ bot_level
def test_bot_level_sent_twice_at_once_is_applied_once() -> None:
    """The referee's page sends ``bot_level`` for seat 1 (level 1) and, its answer late,
    sends it again with the same message id: one change (seat 1's stand-in is ``random``),
    one log entry, one audit entry; the other reply says duplicate, at the same seq."""
    table, _ = make_table()
    seq = table.seq
    command = {"kind": "bot_level", "seat": 1, "level": 1}
    replies = at_once([lambda: services.referee(table.pk, REFEREE, command, client_id="m1")] * 2)
    assert not any(isinstance(r, Exception) for r in replies), replies
    assert sorted(r.duplicate for r in replies) == [False, True]
    assert {r.seq for r in replies} == {seq + 1}
    assert _bot_level_events(table) == ["# bot level 1 1"]
    assert OnlineSeat.objects.get(table=table, position=1).bot == "random"
    assert _audits("bot_level") == 1
    # the same id once more, later: still nothing more
    again = services.referee(table.pk, REFEREE, command, client_id="m1")
    assert (again.duplicate, again.seq) == (True, seq + 1)
    assert _bot_level_events(table) == ["# bot level 1 1"] and _audits("bot_level") == 1


def test_two_bot_levels_for_one_seat_at_once_both_apply_in_one_order() -> None:
    """Two referees set seat 2's stand-in at once, level 1 and level 3 (two messages): both
    are applied, one after the other (seqs +1, +2); the seat keeps the level of the one
    logged last."""
    table, _ = make_table()
    seq = table.seq
    replies = at_once([
        lambda: services.referee(table.pk, REFEREE, {"kind": "bot_level", "seat": 2,
                                                     "level": 1}, client_id="a"),
        lambda: services.referee(table.pk, services.Actor("referee", name="vice"),
                                 {"kind": "bot_level", "seat": 2, "level": 3},
                                 client_id="b")])
    assert not any(isinstance(r, Exception) or r.faults for r in replies), replies
    assert sorted(r.seq for r in replies) == [seq + 1, seq + 2]
    texts = _bot_level_events(table)
    assert sorted(texts) == ["# bot level 2 1", "# bot level 2 3"]
    assert OnlineSeat.objects.get(table=table, position=2).bot == {
        "# bot level 2 1": "random", "# bot level 2 3": "greedy"}[texts[-1]]


# ------------------------------------------------------------------------------ R3, joins
@pytest.fixture
def evening() -> Iterator[dict[str, Any]]:
    """The online evening of test_online_arrivals: Alba, Bice, Ciro at the table at 21:00,
    started by the referee without Dora (seat 4), who comes at 21:15 (late, R3)."""
    t = club.create_tournament("Online", who="t")
    club.add_players(t, NAMES, who="t")
    ev = club.open_evening(t, DATE, who="t")
    club.set_tables(ev, [NAMES[:4]], who="arbitro")
    (table,) = services.open_evening(ev, who="arbitro")
    users = {}
    for n in NAMES[:4]:
        users[n] = User.objects.create_user(n.lower(), password=PASSWORD)
        Member.objects.create(user=users[n], player=club.entry_player(t, n))
    with _at(DATE, "21:00"):
        for n in NAMES[:3]:
            services.join(table.pk, user=users[n])
    services.start_now(table.pk, who="arbitro")
    table.refresh_from_db()
    assert table.status == "playing"
    with _at(DATE, "21:15"):
        yield {"t": t, "ev": ev, "table": table, "users": users}


def test_a_late_members_two_joins_at_once_apply_r3_once(evening: dict[str, Any]) -> None:
    """Dora's two tabs take her seat at once at 21:15: one join takes it (her arrival,
    late, one; R3's ``R late 4`` once: 3 penalised turns, the table in its initial
    placement), the other is refused as already seated and writes nothing."""
    table, dora = evening["table"], evening["users"]["Dora"]
    seq = table.seq
    results = at_once([lambda: services.join(table.pk, user=dora)] * 2)
    taken = [r for r in results if isinstance(r, tuple)]
    refused = [r for r in results if isinstance(r, services.OnlineError)]
    assert (len(taken), len(refused)) == (1, 1), results
    assert refused[0].fault.code == "online.already_seated"
    assert list(TableEvent.objects.filter(table=table, text__startswith="R late")
                .values_list("text", flat=True)) == ["R late 4"]
    assert Arrival.objects.filter(evening=evening["ev"], player__name="Dora").count() == 1
    table.refresh_from_db()
    assert table.seq == seq + 1
    services.clear_cache()
    assert list(services.game_of(table).state.late_left) == [0, 0, 0, 3]


def test_bot_level_together_with_the_seat_taken_both_apply(evening: dict[str, Any]) -> None:
    """The referee sets seat 4's bot (level 1) while Dora takes it at 21:15: both are
    applied under the table's lock, in one order: the seat is hers and keeps the level;
    one bot-level entry, one ``R late 4``."""
    table, dora = evening["table"], evening["users"]["Dora"]
    seq = table.seq
    results = at_once([
        lambda: services.join(table.pk, user=dora),
        lambda: services.referee(table.pk, REFEREE, {"kind": "bot_level", "seat": 4,
                                                     "level": 1}, client_id="r1")])
    assert not any(isinstance(r, Exception) for r in results), results
    assert not results[1].faults
    seat = OnlineSeat.objects.get(table=table, position=4)
    assert (seat.user_id, seat.bot) == (dora.pk, "random")
    assert _bot_level_events(table) == ["# bot level 4 1"]
    assert TableEvent.objects.filter(table=table, text="R late 4").count() == 1
    table.refresh_from_db()
    assert table.seq == seq + 2


# ------------------------------------------------------------------------------ socket caps
needs_redis = pytest.mark.skipif(not os.environ.get("REDIS_URL"),
                                 reason="the shared caps need Redis (REDIS_URL: make unit-redis)")


@pytest.fixture
def prefix() -> Iterator[str]:
    import redis

    name = f"test-races-{uuid.uuid4().hex[:12]}"
    yield name
    r = redis.Redis.from_url(os.environ["REDIS_URL"])
    for key in r.scan_iter(f"{name}:*"):
        r.delete(key)


@needs_redis
@pytest.mark.parametrize(("user", "address", "most_user", "most_address", "cap", "code"), [
    ("user:1", "10.0.0.7", 5, 500, 5, 1),  # one user's sockets: the user's cap
    ("", "10.0.0.9", 30, 7, 7, 2),  # nobody's sockets from one address: the address's cap
])
def test_connects_at_once_from_two_workers_admit_exactly_the_cap(
        prefix: str, user: str, address: str, most_user: int, most_address: int, cap: int,
        code: int) -> None:
    """24 claims at once, 12 at each of two workers (the claim is one Lua script in Redis):
    exactly ``cap`` are counted, split between the workers as they came; the others are
    refused with the cap's code and count nothing."""
    workers = [limits.SharedCounts(os.environ["REDIS_URL"], prefix, worker=name, expiry=30,
                                   by_user=collections.Counter(),
                                   by_address=collections.Counter())
               for name in ("a", "b")]
    calls = [lambda w=w: w.claim(user, address, most_user, most_address)
             for w in workers for _ in range(12)]
    answers = at_once(calls)
    assert sorted(answers) == [0] * cap + [code] * (24 - cap)
    key = user or address
    counts = [(w.by_user if user else w.by_address)[key] for w in workers]
    assert sum(counts) == cap
    assert counts == [answers[:12].count(0), answers[12:].count(0)]
    # one released at a: one more is admitted (at b), then refused again
    workers[0].release(user, address) if counts[0] else workers[1].release(user, address)
    assert workers[1].claim(user, address, most_user, most_address) == 0
    assert workers[0].claim(user, address, most_user, most_address) == code
