"""Which pages can be followed live, their groups, and which have followers now.

A page is followed by its path (``/t/<slug>/``, ``/classifica/``...) and language (``it`` or
``en``). Public pages (:data:`PUBLIC_VIEWS`) have a group per path and language: every phone
on that page gets the same fragment. Console pages (a referee's, any path of the console)
have a group per tournament and language (:func:`console_group`) for the notice of a change;
a console page outside a tournament (the console's home) follows every tournament.

:data:`REGISTRY` counts the followers of each page, so a change renders only the public
pages someone has open (and is not even queued when nobody follows anything). In one
process (the in-memory channel layer) the counts are this process's; with ``REDIS_URL``
(several workers) they are kept in a Redis hash too, so the worker that saves renders for
the phones of every worker. A worker that dies leaves its counts behind: the pages are
rendered for nobody until the count is taken back (harmless).
"""

from __future__ import annotations

import collections
import hashlib
import logging
import os
import threading
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from django.urls import Resolver404, resolve

from risiko.web.clubs import club_of_path

log = logging.getLogger(__name__)

LANGUAGES = ("it", "en")
#: the public views a phone can follow (the pages of a tournament and the current one's)
PUBLIC_VIEWS = frozenset({
    "home_public", "standings", "evenings", "players", "finals", "tournament_standings",
    "tournament_finals", "tournament_evenings", "tournament_evening", "tournament_players",
    "tournament_player",
})
#: the national ranking's pages a phone can follow (issue 21): a year's list, its
#: tournaments, a club's page of a year, a player's page (every year he played)
NATIONAL_VIEWS = frozenset({
    "national_year", "national_tournaments", "national_club", "national_player",
})
#: the audiences whose pages are rendered by the hub (a console page only gets the notice)
RENDERED = ("public", "national")
MAX_PATH = 300
#: at most this many distinct public pages followed in a process (each change renders every
#: one of them): a socket asking for one more is refused
MAX_PAGES = 500


@dataclass(frozen=True)
class Page:
    """A followed page: ``audience`` ``public``, ``console`` or ``national``, its ``path``
    (decoded), the ``slug`` of its tournament (``None``: the current tournament's, or the
    console's home; a national page: its year, ``"2027"``, or ``None`` for a player's page,
    which shows every year), ``lang``."""

    audience: str
    path: str
    slug: str | None
    lang: str

    @property
    def club(self) -> str | None:
        """The club part of its path (``/c/<club>/...``; None: today's URLs, the default
        club's), :func:`risiko.web.clubs.club_of_path`."""
        return club_of_path(self.path)[0]

    @property
    def group(self) -> str:
        """The channel layer's group of the page (ASCII, under 100 characters)."""
        if self.audience == "console":
            return console_group(self.slug, self.lang, self.club)
        digest = hashlib.sha256(f"{self.path}\n{self.lang}".encode()).hexdigest()[:40]
        return f"live.p.{digest}"


def console_group(slug: str | None, lang: str, club: str | None = None) -> str:
    """The group of the referees' console pages of tournament ``slug`` (``None``: every
    tournament) in ``lang``, at the URLs of club ``club`` (None: today's URLs)."""
    text = (slug or "*") if club is None else f"{club}\x1f{slug or '*'}"
    key = hashlib.sha256(text.encode()).hexdigest()[:24]
    return f"live.c.{key}.{lang}"


def page_of(path: str, lang: str, *, referee: bool) -> Page | None:
    """The page a socket asks to follow, or None when it may not: ``path`` as the browser's
    ``location.pathname`` (percent-encoded; a club's, ``/c/<club>/...``, too), a public page
    or a national page (:data:`NATIONAL_VIEWS`) for anyone, a console page for a referee
    (``referee``: the socket's session is a referee's or the committee's at the page's
    club, :func:`referee_at`)."""
    if not path.startswith("/") or len(path) > MAX_PATH or lang not in LANGUAGES:
        return None
    decoded = unquote(path)
    try:
        match = resolve(club_of_path(decoded)[1])
    except Resolver404:
        return None
    slug = match.kwargs.get("slug")
    if match.url_name in PUBLIC_VIEWS:
        return Page("public", decoded, slug, lang)
    if match.url_name in NATIONAL_VIEWS:
        year = match.kwargs.get("year")
        return Page("national", decoded, None if year is None else str(year), lang)
    if referee and match.func.__module__.startswith("risiko.web.console."):
        return Page("console", decoded, slug, lang)
    return None


def referee_at(user: Any, path: str) -> bool:
    """Whether ``user`` is a referee at the club of page ``path`` (percent-encoded; an
    unknown club: no)."""
    from django.http import Http404

    from risiko.web.clubs import club_named
    from risiko.web.site.permissions import is_referee

    try:
        club = club_named(club_of_path(unquote(path))[0])
    except Http404:
        return False
    return is_referee(user, club)


class Registry:
    """How many sockets follow each public page (this process's, and all workers' through
    Redis when ``REDIS_URL`` is set)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._local: collections.Counter[Page] = collections.Counter()
        self._redis: Any = None
        self._redis_key = ""

    def _shared(self) -> Any:
        url = os.environ.get("REDIS_URL")
        if not url:
            return None
        if self._redis is None:
            import redis

            prefix = os.environ.get("RISIKO_CHANNELS_PREFIX", "asgi")
            self._redis_key = f"{prefix}:live:pages"
            self._redis = redis.Redis.from_url(url, socket_timeout=3)
        return self._redis

    @staticmethod
    def _field(page: Page) -> str:
        return "\x1f".join((page.audience, page.path, page.slug or "", page.lang))

    def followed(self, page: Page) -> bool:
        """True when a socket of this process already follows ``page``."""
        with self._lock:
            return page in self._local

    def add(self, page: Page) -> bool:
        """A socket follows ``page``; False (nothing counted) when it is a new page beyond
        :data:`MAX_PAGES`."""
        with self._lock:
            if page not in self._local and len(self._local) >= MAX_PAGES:
                return False
            self._local[page] += 1
        shared = self._shared()
        if shared is not None:
            shared.hincrby(self._redis_key, self._field(page), 1)
        return True

    def remove(self, page: Page) -> None:
        """A socket of ``page`` is gone (once per :meth:`add` that counted it)."""
        with self._lock:
            self._local[page] -= 1
            if self._local[page] <= 0:
                del self._local[page]
        shared = self._shared()
        if shared is not None and shared.hincrby(self._redis_key, self._field(page), -1) <= 0:
            shared.hdel(self._redis_key, self._field(page))

    def pages(self, audiences: tuple[str, ...] = ("public",)) -> set[Page]:
        """The pages of ``audiences`` (the public ones by default; ``("national",)``: the
        national ranking's) someone follows (in any worker)."""
        with self._lock:
            found = {p for p in self._local if p.audience in audiences}
        shared = self._shared()
        if shared is not None:
            try:
                for raw, count in shared.hgetall(self._redis_key).items():
                    if int(count) > 0:
                        audience, path, slug, lang = raw.decode().split("\x1f")
                        if audience in audiences:
                            found.add(Page(audience, path, slug or None, lang))
            except Exception:  # Redis away: this worker's followers still get the change
                log.exception("live pages: the shared registry could not be read")
        return found

    def local_pages(self) -> set[Page]:
        """The pages (public and console) the sockets of this process follow."""
        with self._lock:
            return set(self._local)

    def any(self) -> bool:
        """True when a socket follows a page, public or console, in any worker (a change
        nobody follows is not even queued)."""
        with self._lock:
            if self._local:
                return True
        shared = self._shared()
        if shared is None:
            return False
        try:
            return bool(shared.hlen(self._redis_key))
        except Exception:
            log.exception("live pages: the shared registry could not be read")
            return True

    def clear(self) -> None:
        """Forget every follower (tests)."""
        with self._lock:
            self._local.clear()
        shared = self._shared()
        if shared is not None:
            shared.delete(self._redis_key)


REGISTRY = Registry()
