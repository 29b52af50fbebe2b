"""The deadline scheduler: every worker runs one; each deadline fires exactly once.

Started with the ASGI lifespan (``risiko serve``) and, for servers without lifespan, at the
first WebSocket connection. It wakes every ``RISIKO_ONLINE_TICK`` seconds (0.25) or sooner
when its process scheduled a deadline, fires what is due through :func:`services.fire`
(which claims each deadline in the transaction that applies it) and sends the outboxes.
Every ``RISIKO_ONLINE_HEARTBEAT`` seconds (10) it beats for the seats its process holds a
connection of, sweeps the seats whose heartbeat is stale and checks that every table in play
has someone who will act (:func:`presence`; at start-up too).
``RISIKO_ONLINE_SCHEDULER = False`` turns it off (tests that fire deadlines themselves).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import sys
import threading
import time
from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings
from django.db import InterfaceError, OperationalError

from . import limits, services

log = logging.getLogger(__name__)

_TASKS: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}
_WAKE: dict[asyncio.AbstractEventLoop, asyncio.Event] = {}
BEAT_EVERY = 2.0


def enabled() -> bool:
    """False when the settings turn the scheduler off."""
    return bool(getattr(settings, "RISIKO_ONLINE_SCHEDULER", True))


def ensure_started() -> None:
    """Start this event loop's scheduler once (no-op when it runs or is turned off)."""
    if not enabled():
        return
    loop = asyncio.get_running_loop()
    task = _TASKS.get(loop)
    if task is not None and not task.done():
        return
    for old in [k for k in _TASKS if k.is_closed()]:
        _TASKS.pop(old, None)
        _WAKE.pop(old, None)
    _WAKE[loop] = asyncio.Event()
    _TASKS[loop] = loop.create_task(run())


def wake(after: float = 0.0) -> None:
    """Look at the deadlines in ``after`` seconds (a deadline this process just set)."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    event = _WAKE.get(loop)
    if event is None:
        return
    if after <= 0:
        event.set()
    else:
        loop.call_later(after, event.set)


async def stop() -> None:
    """Stop this loop's scheduler (lifespan shutdown)."""
    loop = asyncio.get_running_loop()
    task = _TASKS.pop(loop, None)
    if task is not None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


async def tick() -> int:
    """Fire every due deadline once; returns how many this worker fired. A deadline whose
    firing raises (not the database: that stops the tick) is logged and set aside
    (:func:`services.set_aside`: a bot's move made by the fallback bot): the others still
    fire."""
    layer = get_channel_layer()
    from .consumers import in_thread, send_outbox

    fired = 0
    for deadline_id in await in_thread(services.due_deadlines)():
        try:
            outbox = await in_thread(services.fire)(deadline_id)
        except (OperationalError, InterfaceError):
            raise  # the database busy or gone: every deadline waits for the next tick
        except Exception as e:
            if await stopping():
                raise
            # a fault of the server in one deadline (rolled back): logged once and set
            # aside, so the other tables' deadlines of the tick still fire, now and after
            log.exception("online scheduler: deadline %s failed; set aside", deadline_id)
            outbox = await in_thread(services.set_aside)(deadline_id, type(e).__name__)
        if outbox is not None:
            fired += 1
            await send_outbox(layer, outbox)
    return fired


async def presence() -> int:
    """Beat for this process's connected seats, then sweep the seats whose workers stopped
    beating (they count as disconnected: their grace period starts), then check that every
    table in play has someone who will act (:func:`services.keep_tables_alive`: the first
    time at start-up, a table left stalled in the database). Returns how many seats this
    sweep made absent."""
    layer = get_channel_layer()
    from .consumers import LIVE_SEATS, in_thread, send_outbox

    await in_thread(services.heartbeat)(list(LIVE_SEATS))
    await limits.beat()  # this worker's sockets keep counting across the workers
    outboxes = await in_thread(services.sweep_presence)()
    for outbox in outboxes:
        await send_outbox(layer, outbox)
    for outbox in await in_thread(services.keep_tables_alive)():
        await send_outbox(layer, outbox)
    return len(outboxes)


def shutting_down() -> bool:
    """True when the interpreter exits under the scheduler: it is finalizing, or its main
    thread has stopped (a server run in a daemon thread, a test run's last moments; the
    executors refuse new work from then on, "after interpreter shutdown"). Cheap: asked
    after every tick."""
    return sys.is_finalizing() or not threading.main_thread().is_alive()


def _nothing() -> None:
    """The call :func:`takes_no_work` sends to the scheduler's threads."""


async def takes_no_work() -> bool:
    """True when the threads the scheduler's database calls run in take no more work: a
    call of nothing through :func:`consumers.in_thread` (the same threads: the loop's
    default executor on a database server, asgiref's one thread on SQLite) is refused with
    a ``RuntimeError`` (the executor shut down, the loop's default executor shut down or
    the loop closed). The executor's state is asked by trying it, never read from another
    error's text. Asked only after a call raised."""
    from .consumers import in_thread

    try:
        await in_thread(_nothing)()
    except RuntimeError:
        return True
    return False


async def stopping() -> bool:
    """The process is ending under the scheduler (:func:`shutting_down`) or its threads
    take no more work (:func:`takes_no_work`): the scheduler then stops with one log line,
    not a traceback each tick. Asked when a tick raised."""
    return shutting_down() or await takes_no_work()


async def run() -> None:
    """The loop: beat, presence, fire, sleep until woken or the next tick."""
    loop = asyncio.get_running_loop()
    event = _WAKE[loop]
    interval = float(getattr(settings, "RISIKO_ONLINE_TICK", 0.25))
    every = float(getattr(settings, "RISIKO_ONLINE_HEARTBEAT", 10.0))
    last_beat = last_presence = 0.0
    started, warm = time.monotonic(), False
    from .consumers import LIVE_SEATS, in_thread

    while True:
        try:
            now = time.monotonic()
            if not warm:
                warm = freeze_after_warm_up(now - started, len(LIVE_SEATS))
            if now - last_beat >= BEAT_EVERY:
                await in_thread(services.beat)()
                last_beat = now
            if now - last_presence >= every:
                await presence()
                last_presence = now
            await tick()
        except asyncio.CancelledError:
            raise
        except (OperationalError, InterfaceError) as e:  # busy or gone: the next tick
            log.warning("online scheduler: database busy (%s); trying again", e)
        except Exception:  # a database hiccup must not stop the clock for good
            if await stopping():
                log.info("online scheduler: stopped, the process is shutting down")
                return
            log.exception("online scheduler")
        if shutting_down():
            log.info("online scheduler: stopped, the process is shutting down")
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout=interval)
        event.clear()


def freeze_startup_objects() -> int:
    """Move every object alive now (the modules, Django's apps, settings, URL patterns,
    templates' caches: what a worker builds before it serves) out of the garbage collector's
    reach (:func:`gc.freeze`): a full collection then walks only what was made since, not
    the tens of thousands of start-up objects that live as long as the process (a full
    collection of a started worker with 100 tables in play: 48 ms of CPU, 0.4 ms with them
    frozen and the cached games bounded; the event loop stops meanwhile: every action in
    flight waits). Only in a process the server owns, its event loop in the main thread (a
    uvicorn worker, ``risiko serve``): a server run in a thread of another program (a test)
    freezes nothing of that program. Returns how many objects are frozen."""
    if threading.current_thread() is threading.main_thread():
        gc.collect()
        gc.freeze()
    return gc.get_freeze_count()


def freeze_after_warm_up(running: float, live_seats: int) -> bool:
    """Freeze once more what the worker built while it warmed up (:func:`gc.freeze`, as
    :func:`freeze_startup_objects`): the modules its first connections and actions imported
    (classes, typing's unions, the channel layer's and the protocol's objects) and the
    sockets then open: about 55,000 objects each full collection of a worker of
    ``bench_online.py`` walked (docs/benchmarks.md, "the tables act in step"). Done by the
    scheduler once it has run ``RISIKO_ONLINE_WARM_FREEZE`` seconds (30; 0: never) with a
    seat connected to this worker; an object frozen then that becomes cyclic garbage later
    (a cached game replaced) stays until the process ends: a bounded, one-time amount.
    Returns True when it froze (the scheduler then never asks again)."""
    after = float(getattr(settings, "RISIKO_ONLINE_WARM_FREEZE", 30.0))
    if after <= 0:
        return True  # turned off: nothing to wait for
    if running < after or live_seats <= 0:
        return False
    freeze_startup_objects()
    return True


class LifespanApp:
    """ASGI lifespan: start the scheduler with the server, stop it with the server; at the
    start, the worker's start-up objects are frozen (:func:`freeze_startup_objects`)."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                freeze_startup_objects()
                ensure_started()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await stop()
                await send({"type": "lifespan.shutdown.complete"})
                return
