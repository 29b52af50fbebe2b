"""An outbox's messages reach their groups in their order, whatever the channel layer: with
channels-redis's publish/subscribe layer in one Redis pipeline (``consumers.group_send_all``,
docs/benchmarks.md "Online tables"), with the in-memory layer one ``group_send`` each."""

from __future__ import annotations

import asyncio
import os
import uuid
from typing import Any

import pytest

from risiko.web.online import consumers


def _layers() -> list[Any]:
    from channels.layers import InMemoryChannelLayer

    out: list[Any] = [InMemoryChannelLayer()]
    if os.environ.get("REDIS_URL"):
        from channels_redis.pubsub import RedisPubSubChannelLayer

        out.append(RedisPubSubChannelLayer(hosts=[os.environ["REDIS_URL"]],
                                           prefix=f"test-layer-{uuid.uuid4().hex[:12]}"))
    return out


@pytest.mark.parametrize("index", [0, 1], ids=["memory", "redis"])
def test_group_send_all_delivers_every_message_once_in_order(index: int) -> None:
    """Three messages to two groups (a seat's and the public one, as an action's outbox):
    a connection in both groups receives the three in the order sent, each once; one in the
    public group only receives the public two. With Redis, the layer's own connection is
    the one the messages go through (one pipeline)."""
    layers = _layers()
    if index >= len(layers):
        pytest.skip("needs Redis (REDIS_URL)")
    layer = layers[index]

    async def go() -> tuple[list[int], list[int], bool, bool]:
        seat, watcher = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("seat-1", seat)
        await layer.group_add("public", seat)
        await layer.group_add("public", watcher)
        await asyncio.sleep(0.1)  # Redis: the subscriptions are in place
        sends = [("seat-1", {"type": "online.message", "n": 1}),
                 ("public", {"type": "online.message", "n": 2}),
                 ("public", {"type": "online.message", "n": 3})]
        await consumers.group_send_all(layer, sends)
        got_seat = [(await asyncio.wait_for(layer.receive(seat), 5))["n"] for _ in range(3)]
        got_watcher = [(await asyncio.wait_for(layer.receive(watcher), 5))["n"]
                       for _ in range(2)]
        more = True
        try:
            await asyncio.wait_for(layer.receive(watcher), 0.3)
        except TimeoutError:
            more = False
        piped = consumers._one_redis(layer) is not None
        await layer.flush()
        return got_seat, got_watcher, more, piped

    got_seat, got_watcher, more, piped = asyncio.run(go())
    assert got_seat == [1, 2, 3]
    assert got_watcher == [2, 3]
    assert not more
    assert piped == (index == 1)
