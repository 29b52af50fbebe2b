"""The push: a committed change queued, rendered once per page and language, sent to the
groups (one thread per process).

:func:`changed` (the write path's ``AFTER_COMMIT`` hook) only queues the change: the
save's answer never waits for a render. The hub's thread takes every change queued since its
last round together (two saves in one tick are coalesced: one render, the notice naming
both), computes the touched tournaments' standings once (the snapshot the polls read too),
renders each followed page of them once per language (:func:`.render.page_fragment`) and the
console notice once per language, and sends each fragment, encoded once, to its group. Every
message carries ``seq``: for a page, nanoseconds when its round had read the standings (the
fragment shows at least every change committed before it); for the consoles' notice, when
the round began. A page applies a fragment only when newer than the one it shows, so rounds
arrive in order or are ignored.

Ways it dies, each kept to itself: a page whose render raises is logged and skipped (the
others are sent; the phones on it keep polling); a send that fails is logged (the other
groups get theirs); a round that fails altogether is logged and the thread takes the next;
the save is never touched (it committed before). Messages go out on the server's event loop
(the one the sockets were accepted on; the in-memory channel layer's queues belong to it);
a process without a socket and with Redis sends on a loop of its own. A change nobody
follows (no socket on any page, in any worker) is not queued at all.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import queue
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connections

from risiko.web.core.writes import Change

from . import render
from .groups import LANGUAGES, REGISTRY, Page, console_group

log = logging.getLogger(__name__)
SEND_TIMEOUT = 5.0  # seconds a round waits for its messages to leave


def enabled() -> bool:
    """False when ``RISIKO_LIVE`` is off (the pages then only poll)."""
    return bool(getattr(settings, "RISIKO_LIVE", True))


class Hub:
    """The queue of committed changes and the thread rendering and sending them."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[Change] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()
        self.server_loop: asyncio.AbstractEventLoop | None = None
        self._own_loop: asyncio.AbstractEventLoop | None = None
        self._last: dict[str, str] = {}  # group -> digest of the fragment it last got
        self.rounds = 0  # rounds done (tests, benchmarks)
        self.renders = 0  # pages rendered (tests, benchmarks)
        self.cpu = 0.0  # thread CPU seconds spent in rounds (benchmarks)

    # ---------------------------------------------------------------- the writing thread

    def changed(self, change: Change) -> None:
        """Queue a committed change (instant; the hub's thread does the rest)."""
        if not enabled() or not self.listening():
            return
        self._queue.put(change)
        if self._thread is None or not self._thread.is_alive():
            with self._start:
                if self._thread is None or not self._thread.is_alive():
                    self._thread = threading.Thread(target=self._run, name="live-hub",
                                                    daemon=True)
                    self._thread.start()

    def listening(self) -> bool:
        """True when a socket follows a page: in this process, or, with Redis, in any
        worker (:meth:`.groups.Registry.any`)."""
        loop = self.server_loop
        if loop is None or not loop.is_running():
            return bool(os.environ.get("REDIS_URL")) and REGISTRY.any()
        return REGISTRY.any()

    # ---------------------------------------------------------------- the hub's thread

    def _run(self) -> None:
        while True:
            batch = [self._queue.get()]
            while True:  # what else came while the last round ran: one round for all
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            try:
                self.publish(batch)
            except Exception:
                log.exception("live pages: a round failed (%d changes)", len(batch))
            finally:
                connections.close_all()  # this thread's: nothing held between rounds

    def publish(self, batch: Sequence[Change]) -> list[tuple[str, dict[str, Any]]]:
        """One round: render what ``batch`` touched and send each fragment as soon as it is
        rendered (the consoles' notice first, then page by page); returns the messages
        sent (group, message) (tests call it directly)."""
        started = time.thread_time()
        sent = []
        for message in self.messages(batch):
            try:
                self.send([message])
            except Exception:  # the loop too busy or gone: the next fragments still go
                log.exception("live pages: a fragment for %s was not sent", message[0])
                continue
            sent.append(message)
        self.rounds += 1
        self.cpu += time.thread_time() - started
        return sent

    def messages(self, batch: Sequence[Change]) -> Iterator[tuple[str, dict[str, Any]]]:
        """The messages of a round: the console notice in each language, then each followed
        public page of a touched tournament that changed, in its language."""
        from risiko.web.public import data
        from risiko.web.public.views import current_tournament
        from risiko.web.tournaments.models import Tournament

        seq = time.time_ns()
        touched = set().union(*(c.tournaments for c in batch))
        tournaments = list(Tournament.objects.filter(pk__in=touched))
        slugs = {t.slug for t in tournaments}
        for lang in LANGUAGES:
            try:
                html = render.notice(batch, lang)
            except Exception:
                log.exception("live pages: the console notice failed")
                continue
            text = _encode("notice", seq, html)
            for slug in (*sorted(slugs), None):
                yield console_group(slug, lang), {"type": "live.fragment", "text": text}
        pages = [p for p in REGISTRY.pages() if p.slug in slugs or p.slug is None]
        if any(p.slug is None for p in pages):
            current = current_tournament()
            if current is None or current.pk not in touched:
                pages = [p for p in pages if p.slug is not None]
        for t in tournaments:
            if pages:
                try:  # the standings once per change, for every page and the polls
                    data.snapshot(t, fresh=True)
                except Exception:
                    log.exception("live pages: the standings of %s failed", t.slug)
        seq = time.time_ns()  # the pages show at least every change committed before it
        for page in sorted(pages, key=lambda p: (p.path, p.lang)):
            message = self._page_message(page, seq)
            if message is not None:
                yield page.group, message

    def _page_message(self, page: Page, seq: int) -> dict[str, Any] | None:
        try:
            html = render.page_fragment(page)
        except render.NotRendered:
            return None
        except Exception:
            log.exception("live pages: %s (%s) could not be rendered", page.path, page.lang)
            return None
        finally:
            self.renders += 1
        mark = render.digest(html)
        if self._last.get(page.group) == mark:
            return None  # the page did not change
        self._last[page.group] = mark
        return {"type": "live.fragment", "text": _encode("page", seq, html)}

    def send(self, messages: Sequence[tuple[str, dict[str, Any]]]) -> None:
        """Send the messages on the server's loop (or, with Redis and no socket in this
        process, on the hub's own); each group's failure is logged, the others still go."""
        layer = get_channel_layer()
        if layer is None:
            return
        loop = self.server_loop
        if loop is not None and loop.is_running() and not loop.is_closed():
            asyncio.run_coroutine_threadsafe(_send_all(layer, messages), loop).result(
                timeout=SEND_TIMEOUT)
        elif type(layer).__name__ != "InMemoryChannelLayer":
            if self._own_loop is None:
                self._own_loop = asyncio.new_event_loop()
            self._own_loop.run_until_complete(
                asyncio.wait_for(_send_all(layer, messages), SEND_TIMEOUT))

    def forget(self) -> None:
        """Forget the fragments sent (tests: the next round sends every page again)."""
        self._last.clear()


async def _send_all(layer: Any, messages: Sequence[tuple[str, dict[str, Any]]]) -> None:
    for group, message in messages:
        try:
            await layer.group_send(group, message)
        except Exception:
            log.exception("live pages: sending to %s failed", group)


def _encode(kind: str, seq: int, html: str) -> str:
    return json.dumps({"kind": kind, "seq": seq, "html": html}, ensure_ascii=False)


HUB = Hub()


def changed(change: Change) -> None:
    """The write path's hook (:data:`risiko.web.core.writes.AFTER_COMMIT`)."""
    HUB.changed(change)
