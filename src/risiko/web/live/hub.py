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

A write made by another process on the same database (``risiko tournament scores`` at the
command line, a script) runs no hook here: while this process's sockets follow a page, the
hub's thread looks at the database's change key (:func:`risiko.web.public.data.stored_change_key`,
one query) every :data:`WATCH_INTERVAL` seconds, and when it moved since the last round of a
followed tournament, without a change of this process queued for it, runs a round for those
tournaments (a change from :data:`ELSEWHERE`): their pages that changed are sent, the
referees' consoles get no notice (who wrote is not known). Each round notes the key it read
before reading the standings; a look with the key unmoved costs that one query. With nobody
following a page in this process the thread ends (no look at all).

The national ranking's pages (``audience`` ``national``, issue 21) are followed the same
way: a change of the ranking (:attr:`.Change.national`, the years it changed, handed by
:func:`risiko.web.core.writes.touch_national` after a publication, a decision, a merge or a
suspension) renders each followed national page of those years and every followed player's
page once per language, after the tournaments' pages of the round, and sends what changed;
it gives the consoles no notice. A look also reads :func:`national_change_key` while a
national page is followed here, and when it moved since the last national round, runs one
for every year (a decision made by ``risiko national approve`` in another process).

Ways it dies, each kept to itself: a page whose render raises is logged and skipped (the
others are sent; the phones on it keep polling); a send that fails is logged (the other
groups get theirs); a round that fails altogether is logged and the thread takes the next;
the save is never touched (it committed before); a look that fails (the database away) is
logged and the next one runs. Messages go out on the server's event loop
(the one the sockets were accepted on; the in-memory channel layer's queues belong to it);
a process without a socket and with Redis sends on a loop of its own. A change nobody
follows (no socket on any page, in any worker) is not queued at all.
"""

from __future__ import annotations

import asyncio
import contextlib
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
from django.http import Http404

from risiko.web.clubs import serving, url_club
from risiko.web.core.writes import EVERY_YEAR, Change

from . import render
from .groups import LANGUAGES, REGISTRY, Page, console_group

NATIONAL = ("national",)

log = logging.getLogger(__name__)
SEND_TIMEOUT = 5.0  # seconds a round waits for its messages to leave
#: seconds between two looks at the database's change key while a page is followed here: a
#: write made by another process reaches the followed pages within it (and a round)
WATCH_INTERVAL = 2.0
#: the service of a change noticed in the database, made by another process
ELSEWHERE = "elsewhere"


def enabled() -> bool:
    """False when ``RISIKO_LIVE`` is off (the pages then only poll)."""
    return bool(getattr(settings, "RISIKO_LIVE", True))


class Hub:
    """The queue of committed changes and the thread rendering and sending them."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[Change] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()
        self._stopping = threading.Event()
        self.server_loop: asyncio.AbstractEventLoop | None = None
        self._own_loop: asyncio.AbstractEventLoop | None = None
        self._last: dict[str, str] = {}  # group -> digest of the fragment it last got
        # tournament id -> the database's change key read before its last round
        self._seen: dict[int, tuple[Any, ...]] = {}
        # the national ranking's change key read before its last round (None: none yet)
        self._national_seen: tuple[Any, ...] | None = None
        self.looks = 0  # looks at the change key (tests)
        self.rounds = 0  # rounds done (tests, benchmarks)
        self.renders = 0  # pages rendered (tests, benchmarks)
        self.cpu = 0.0  # thread CPU seconds spent in rounds (benchmarks)

    # ---------------------------------------------------------------- the writing thread

    def changed(self, change: Change) -> None:
        """Queue a committed change (instant; the hub's thread does the rest)."""
        if not enabled() or not self.listening():
            return
        self._queue.put(change)
        self._ensure_thread()

    def first_render(self, page: Page) -> str | None:
        """The fragment of a public ``page`` its first socket here asks for, or None when it
        does not answer 200 (the socket is refused). Noted as what the page shows (a round
        sends it again only when it changed) with the database's change key read before it
        (a look renders its tournament only when that key moved since)."""
        from risiko.web.public import data
        from risiko.web.public.views import current_tournament
        from risiko.web.tournaments.models import Tournament

        if page.audience == "national":
            try:
                key = national_change_key()
                fragment = render.page_fragment(page)
            except Exception:
                return None
            self._last[page.group] = render.digest(fragment)
            if self._national_seen is None:
                self._national_seen = key
            return fragment
        try:
            key = data.stored_change_key()
            fragment = render.page_fragment(page)
            with serving(page.club):  # the page's club's tournaments
                if page.slug is None:
                    current = current_tournament()
                    pk = None if current is None else current.pk
                else:
                    pk = Tournament.objects.filter(slug=page.slug).values_list(
                        "pk", flat=True).first()
        except Exception:
            return None
        self._last[page.group] = render.digest(fragment)
        if pk is not None:
            self._seen.setdefault(pk, key)
        return fragment

    def follow(self) -> None:
        """A socket of this process follows a page (counted in the registry before): the
        thread runs, to look at the writes of other processes."""
        if enabled():
            self._ensure_thread()

    def _ensure_thread(self) -> None:
        with self._start:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="live-hub",
                                                daemon=True)
                self._thread.start()

    def _keep_running(self) -> bool:
        """False (and the thread is forgotten) when nothing is queued and no socket of this
        process follows a page; under the lock :meth:`_ensure_thread` takes, so a socket
        arriving meanwhile starts a new thread."""
        with self._start:
            if REGISTRY.local_pages() or not self._queue.empty():
                return True
            self._thread = None
            return False

    def listening(self) -> bool:
        """True when a socket follows a page: in this process, or, with Redis, in any
        worker (:meth:`.groups.Registry.any`)."""
        loop = self.server_loop
        if loop is None or not loop.is_running():
            return bool(os.environ.get("REDIS_URL")) and REGISTRY.any()
        return REGISTRY.any()

    # ---------------------------------------------------------------- the hub's thread

    def _run(self) -> None:
        next_look = time.monotonic() + WATCH_INTERVAL
        while True:
            batch: list[Change] = []
            with contextlib.suppress(queue.Empty):  # a change, or the time of a look
                batch.append(self._queue.get(
                    timeout=max(0.0, next_look - time.monotonic())))
            while True:  # what else came while the last round ran: one round for all
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            if self._stopping.is_set():
                return  # :meth:`stop`: no round begins (the last round's connection closed)
            try:
                if time.monotonic() >= next_look:
                    next_look = time.monotonic() + WATCH_INTERVAL
                    if not batch and not self._keep_running():
                        return  # nobody follows a page here: no look, the thread ends
                    batch.extend(self.look(batch))
                if batch:
                    self.publish(batch)
            except Exception:
                log.exception("live pages: a round failed (%d changes)", len(batch))
            finally:
                connections.close_all()  # this thread's: nothing held between rounds

    def look(self, batch: Sequence[Change] = ()) -> list[Change]:
        """One look at the database's change key: ``[Change(ELSEWHERE, tournaments)]`` for
        the tournaments followed in this process whose last round read another key (a write
        of another process, or nothing rendered for them yet), leaving out those ``batch``
        (this process's changes, about to be rendered) touches; ``[]`` when none."""
        from risiko.web.public import data

        self.looks += 1
        found = []
        if (not any(c.national for c in batch)
                and any(p.audience == "national" for p in REGISTRY.local_pages())
                and national_change_key() != self._national_seen):
            found.append(Change(ELSEWHERE, national={EVERY_YEAR}))
        followed = self._followed_tournaments() - set().union(*(c.tournaments for c in batch))
        if not followed:
            return found
        key = data.stored_change_key()
        stale = {pk for pk in followed if self._seen.get(pk) != key}
        return [*found, Change(ELSEWHERE, tournaments=stale)] if stale else found

    def _followed_tournaments(self) -> set[int]:
        """The ids of the tournaments whose public pages this process's sockets follow."""
        from risiko.web.public.views import current_tournament
        from risiko.web.tournaments.models import Tournament

        pages = [p for p in REGISTRY.local_pages() if p.audience == "public"]
        found: set[int] = set()
        for club in {p.club for p in pages}:  # each club's pages in its scope
            mine = [p for p in pages if p.club == club]
            slugs = {p.slug for p in mine if p.slug is not None}
            try:
                with serving(club):
                    found |= set(Tournament.objects.filter(slug__in=slugs).values_list(
                        "pk", flat=True))
                    if any(p.slug is None for p in mine):
                        current = current_tournament()
                        if current is not None:
                            found.add(current.pk)
            except Http404:  # a club that is gone
                continue
        return found

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
        key = data.stored_change_key()  # before the standings: they show at least this
        touched = set().union(*(c.tournaments for c in batch))
        tournaments = list(Tournament.all_clubs.filter(pk__in=touched).select_related("club"))
        for t in tournaments:
            self._seen[t.pk] = key
        # (club part of the URL, slug) of every touched tournament: a club's pages are at
        # /c/<club>/..., the default club's at today's URLs (its /c/<club>/ pages poll)
        places = {(url_club(t.club), t.slug) for t in tournaments}
        clubs = {c for c, _ in places}
        # the notice: who wrote here, in a tournament (a national change has no console)
        local = [c for c in batch if c.service != ELSEWHERE and c.tournaments]
        noticed = sorted({(url_club(t.club), t.slug) for t in tournaments
                          if any(t.pk in ch.tournaments for ch in local)},
                         key=lambda p: (p[0] or "", p[1]))
        homes = sorted({c for c, _ in noticed}, key=lambda c: c or "") or [None]
        for lang in LANGUAGES if local else ():
            try:
                html = render.notice(local, lang)
            except Exception:
                log.exception("live pages: the console notice failed")
                continue
            text = _encode("notice", seq, html)
            for club, slug in (*noticed, *((c, None) for c in homes)):
                yield (console_group(slug, lang, club),
                       {"type": "live.fragment", "text": text})
        pages = [p for p in REGISTRY.pages()
                 if (p.club, p.slug) in places or (p.slug is None and p.club in clubs)]
        for club in {p.club for p in pages if p.slug is None}:  # its current tournament
            try:
                with serving(club):
                    current = current_tournament()
            except Http404:
                current = None
            if current is None or current.pk not in touched:
                pages = [p for p in pages if p.slug is not None or p.club != club]
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
        yield from self._national_messages(batch)

    def _national_messages(self, batch: Sequence[Change]
                           ) -> Iterator[tuple[str, dict[str, Any]]]:
        """The followed national pages a change of the ranking touched (issue 21): the
        year's list, its tournaments and its clubs' pages of each year changed, every
        player's page (it shows every year); each rendered once per language, sent when it
        changed. Pages of every club part (``/c/<club>/nazionale/...``) alike: the national
        ranking is every club's."""
        years = set().union(*(c.national for c in batch))
        if not years:
            return
        pages = [p for p in REGISTRY.pages(NATIONAL)
                 if p.slug is None or EVERY_YEAR in years or int(p.slug) in years]
        if not pages:
            return
        self._national_seen = national_change_key()  # before the render: shows at least it
        seq = time.time_ns()
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

    def stop(self, timeout: float = 10.0) -> bool:
        """Stop the hub's thread and wait up to ``timeout`` seconds for it to end (a round
        under way finishes first; the changes still queued are dropped): nothing of this
        process reads the database afterwards (tests, before their database is emptied: the
        look's query, holding the audit log while it waits for the admin's log, deadlocked
        with PostgreSQL's ``TRUNCATE`` taking them the other way round). True when no thread
        runs; a page followed later starts a new one."""
        with self._start:
            thread = self._thread
            self._stopping.set()
        if thread is not None:
            self._queue.put(Change(ELSEWHERE))  # wakes it from its wait
            thread.join(timeout)
        with self._start:
            if thread is not None and thread.is_alive():
                return False
            self._thread = None
            self._stopping.clear()
            while True:
                try:
                    self._queue.get_nowait()
                except queue.Empty:
                    break
        return True

    def forget(self) -> None:
        """Forget the fragments sent and the keys read (tests: the next round sends every
        page again)."""
        self._last.clear()
        self._seen.clear()
        self._national_seen = None


async def _send_all(layer: Any, messages: Sequence[tuple[str, dict[str, Any]]]) -> None:
    for group, message in messages:
        try:
            await layer.group_send(group, message)
        except Exception:
            log.exception("live pages: sending to %s failed", group)


def national_change_key() -> tuple[Any, ...]:
    """What moves with every change of the national ranking, by any process on the database
    (``risiko national approve`` at the command line): the last id of the audit log's
    ``national.*`` and ``register.*`` entries (every publication, decision, import, merge,
    suspension writes one; the log is append-only and its ids are never reused, so the last
    id alone moves with each: no count of every national entry each look) and the last id
    of the admin's log (an edit in the admin). Two queries, each reading the newest rows
    by the primary key's index; the hub's look reads it only while a national page is
    followed."""
    from django.contrib.admin.models import LogEntry
    from django.db.models import Q

    from risiko.web.auditlog.models import AuditEntry

    audit = AuditEntry.objects.filter(
        Q(action__startswith="national.") | Q(action__startswith="register.")).order_by(
        "-id").values_list("id", flat=True).first()
    admin = LogEntry.objects.order_by("-id").values_list("id", flat=True).first()
    return (audit, admin)


def _encode(kind: str, seq: int, html: str) -> str:
    return json.dumps({"kind": kind, "seq": seq, "html": html}, ensure_ascii=False)


HUB = Hub()


def changed(change: Change) -> None:
    """The write path's hook (:data:`risiko.web.core.writes.AFTER_COMMIT`)."""
    HUB.changed(change)
