"""A connection's own plumbing, kept as channels' and asgiref's (docs/benchmarks.md, "Online
tables": a worker's CPU per message): the order its messages are dispatched in
(``consumers._dispatch_each``), the frames' way to the server (``consumers._server_send``),
the hop to a thread on a database server (``consumers._pooled``)."""

from __future__ import annotations

import asyncio
import contextvars
import threading
from typing import Any

import pytest

from risiko.web.online import consumers


def test_dispatch_each_serves_one_at_a_time_client_first_then_cancels() -> None:
    """Two receivers (the client's, the channel's): messages dispatched one at a time in
    the order they come; two ready at once, the client's first (as channels'
    ``await_many_dispatch``); a message that arrives while one is being dispatched waits
    for it; the dispatch's exception ends the loop and cancels both receivers."""

    async def go() -> tuple[list[str], list[bool]]:
        client: asyncio.Queue[str] = asyncio.Queue()
        channel: asyncio.Queue[str] = asyncio.Queue()
        seen: list[str] = []
        busy = [False]
        overlapped = []

        async def dispatch(message: str) -> None:
            overlapped.append(busy[0])
            busy[0] = True
            seen.append(message)
            if message == "c1":  # the channel's next one arrives meanwhile
                channel.put_nowait("c2")
                await asyncio.sleep(0.01)
            busy[0] = False
            if message == "stop":
                raise LookupError("stop")

        client.put_nowait("a1")
        channel.put_nowait("c1")  # both ready at the first look: the client's first
        loop = asyncio.create_task(consumers._dispatch_each([client.get, channel.get],
                                                            dispatch))
        await asyncio.sleep(0.05)
        client.put_nowait("a2")
        await asyncio.sleep(0.01)
        client.put_nowait("stop")
        with pytest.raises(LookupError):
            await loop
        return seen, overlapped

    seen, overlapped = asyncio.run(go())
    assert seen == ["a1", "c1", "c2", "a2", "stop"]
    assert overlapped == [False] * 5


def test_server_send_is_the_server_s_own_under_the_session_wrapper() -> None:
    """Under channels' session wrapper, its ``real_send`` (the server's); any other send is
    itself."""
    from channels.sessions import InstanceSessionWrapper

    async def server_send(message: dict[str, Any]) -> None:
        pass

    wrapper = InstanceSessionWrapper.__new__(InstanceSessionWrapper)
    wrapper.real_send = server_send
    assert consumers._server_send(wrapper.send) is server_send
    assert consumers._server_send(server_send) is server_send


WHO: contextvars.ContextVar[str] = contextvars.ContextVar("who", default="nobody")


def test_pooled_runs_in_a_pool_thread_with_the_caller_s_context() -> None:
    """The call runs in another thread than the event loop's, sees the caller's context
    variables, gets its arguments and returns its value; its exception reaches the
    caller."""

    def work(a: int, *, b: int) -> tuple[int, str, bool]:
        return a + b, WHO.get(), threading.current_thread() is threading.main_thread()

    def fail() -> None:
        raise KeyError("x")

    async def go() -> tuple[tuple[int, str, bool], bool]:
        WHO.set("seat 2")
        result = await consumers._pooled(work)(3, b=4)
        try:
            await consumers._pooled(fail)()
        except KeyError:
            return result, True
        return result, False

    assert asyncio.run(go()) == ((7, "seat 2", False), True)
