"""The online scheduler at the end of the process (issue 20): a server whose event loop runs
in a daemon thread (a test's server, a program that embeds one) is still ticking when the
interpreter exits; its executors take no more work then ("cannot schedule new futures
after interpreter shutdown"). The scheduler stops with one log line: no traceback, no
line every tick until the process is gone."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.online]

#: a process with the scheduler in a daemon thread's loop (ticking every 10 ms, the
#: heartbeat each tick), its database calls stubbed (no database needed: what is tested is
#: the scheduler's timer and its executor); its main thread ends, then an exit handler
#: sleeps 0.5 s while the daemon thread runs on: the interpreter is shutting down under it
SCRIPT = textwrap.dedent("""
    import asyncio, atexit, logging, os, sys, threading, time
    os.environ["DJANGO_SETTINGS_MODULE"] = "risiko.web.settings"
    import django
    django.setup()
    from django.conf import settings
    settings.RISIKO_ONLINE_TICK = 0.01
    settings.RISIKO_ONLINE_HEARTBEAT = 0.01
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    from risiko.web.online import scheduler, services
    calls = []
    services.beat = lambda: calls.append("beat") or 0.0
    services.heartbeat = lambda seats: None
    services.sweep_presence = lambda: []
    services.keep_tables_alive = lambda: []
    services.due_deadlines = lambda: calls.append("due") or []
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(levelname)s %(name)s %(message)s")
    started = threading.Event()

    async def serve():
        scheduler.ensure_started()
        started.set()
        await asyncio.Event().wait()

    threading.Thread(target=lambda: asyncio.run(serve()), daemon=True).start()
    started.wait(10)
    time.sleep(0.3)
    assert calls, "the scheduler never ticked"
    atexit.register(time.sleep, 0.5)  # runs after the threads' exit: the loop ticks on
    print("main thread done", flush=True)
""")


def test_a_scheduler_ticking_when_the_interpreter_exits_stops_with_one_line(
        tmp_path: Path) -> None:
    env = {**os.environ, "RISIKO_DATA_DIR": str(tmp_path), "PYTHONWARNINGS": "ignore"}
    env.pop("REDIS_URL", None)
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "main thread done\n"
    assert "Traceback" not in done.stderr, done.stderr
    lines = [x for x in done.stderr.splitlines() if "risiko.web.online.scheduler" in x]
    assert lines == ["INFO risiko.web.online.scheduler online scheduler: stopped, "
                     "the process is shutting down"], done.stderr


def _through(executor: Any) -> Any:
    """An ``in_thread`` that runs its calls in ``executor`` (None: the loop's default, as on
    a database server)."""
    def wrap(func: Any) -> Any:
        async def call(*args: Any) -> Any:
            return await asyncio.get_running_loop().run_in_executor(executor, func, *args)
        return call
    return wrap


def test_the_scheduler_asks_its_threads_whether_they_take_work_never_an_errors_text(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Working threads (the real ``in_thread``, a live pool): not stopping, whatever
    ``RuntimeError`` a call raised before; a pool shut down, or the loop's default executor
    shut down (``asyncio.run``'s end): stopping. The main thread is alive throughout, so
    only the threads' state answers."""
    from risiko.web.online import consumers, scheduler

    assert not scheduler.shutting_down()
    assert asyncio.run(scheduler.takes_no_work()) is False  # the real in_thread
    pool = ThreadPoolExecutor(1)
    monkeypatch.setattr(consumers, "in_thread", _through(pool))
    assert asyncio.run(scheduler.stopping()) is False
    pool.shutdown()
    assert asyncio.run(scheduler.takes_no_work()) is True
    assert asyncio.run(scheduler.stopping()) is True
    monkeypatch.setattr(consumers, "in_thread", _through(None))

    async def after_default_shut() -> tuple[bool, bool]:
        before = await scheduler.takes_no_work()
        await asyncio.get_running_loop().shutdown_default_executor()
        return before, await scheduler.takes_no_work()

    assert asyncio.run(after_default_shut()) == (False, True)
