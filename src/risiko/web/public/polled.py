"""The polled reads answered at the server's door (issue 18 §1: 50 phones polling back to
back).

The JSON API ``/api/tournaments/<id or slug>/standings`` and the standings' live partial
``/t/<slug>/classifica/live/`` (what htmx polls every 10 s) are a function of the
tournament's :class:`~risiko.web.public.data.Snapshot` and of the request's headers. The
first time Django answers one of them, its view *offers* the answer (:func:`offer`):
:class:`PolledReads`, an ASGI wrapper in front of Django, keeps the answer's bytes - status,
headers, body - under the request (method, path, host, cookies, language headers, every
other header that could change the answer) and the change key of the snapshot it was
computed from. The next request alike is answered with those bytes, without Django's
request path, while the database's change key (:func:`~risiko.web.public.data.change_key`,
one query) is still the snapshot's: the same freshness as Django's own answer, which reads
the same key and serves the same cached snapshot; after a change, the door asks
:func:`~risiko.web.public.data.snapshot` which snapshot a public request gets now - while
the new one is being computed (a thread under ``RISIKO_PUBLIC_BACKGROUND``, which the first
request after the change starts, door or Django) the one from before, and so the answer
from before, as Django's. Requests alike arriving while Django answers one of them wait
for that answer (at most ``WAIT_FOR_DJANGO``, half a second), then look again. Anything
else falls through to Django: another method or path, a query string, a request body, a
cookie other than the language's and CSRF's (a session: a logged-in referee), an answer
other than 200 or one setting a cookie, an answer from another snapshot than a request
gets now, a failing database.

What is per request in Django's answer is made again: the Content-Security-Policy's nonce
(a new one per answer; an answer whose body contains its nonce is never kept) and the live
partial's "last update" time (``<time>HH:MM:SS</time>``, the server's local time, as
``{% now "H:i:s" %}`` writes it).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import re
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import HttpRequest, parse_cookie
from django.utils import timezone

from risiko.web.site.middleware import trusted_proxies
from risiko.web.site.proxy import is_trusted

from . import data

Scope = dict[str, Any]
Message = Mapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[..., Awaitable[None]]

#: The paths answered at the door (exactly these; anything else goes to Django).
PATHS = re.compile(r"^/(?:api/tournaments/[^/]+/standings/?|t/[-a-zA-Z0-9_]+/classifica/live/)$")
#: Request headers that change nothing in these answers (left out of the key, so that
#: every phone's browser shares an entry); every other header is part of the key.
IGNORED_HEADERS = frozenset({
    b"user-agent", b"accept", b"accept-encoding", b"connection", b"keep-alive",
    b"cache-control", b"pragma", b"referer", b"dnt", b"upgrade-insecure-requests",
    b"priority", b"te", b"if-none-match", b"if-modified-since", b"x-forwarded-for",
    b"x-real-ip", b"cookie",
})
_CLOCK = re.compile(rb"<time>\d\d:\d\d:\d\d</time>")
ENTRIES = 256  # answers kept (path x language x headers); the oldest used goes first


@dataclass(frozen=True)
class Answer:
    """An answer Django gave, kept: ``tournament`` (its id), ``snapshot_key`` (the change key
    of the snapshot it shows), ``status``, ``headers`` (as sent; ``nonce`` the CSP nonce in
    them), the body split around the live partial's clock (``clock`` True: ``head`` + time
    + ``tail``)."""

    tournament: int
    snapshot_key: tuple[Any, ...]
    status: int
    headers: tuple[tuple[bytes, bytes], ...]
    nonce: bytes
    head: bytes
    tail: bytes
    clock: bool


_offered: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar(
    "risiko_polled_offer", default=None)
_answers: OrderedDict[tuple[Any, ...], Answer] = OrderedDict()
#: the requests Django is answering (so that the same ones meanwhile wait for its answer)
_asked: dict[tuple[Any, ...], asyncio.Future[None]] = {}
WAIT_FOR_DJANGO = 0.5  # seconds; then Django answers them too
_executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="polled-key")


def offer(request: HttpRequest, tournament: int, snapshot_key: tuple[Any, ...], *,
          clock: bool = False) -> None:
    """Called by a view whose answer depends only on the snapshot of change key
    ``snapshot_key`` of the tournament of id ``tournament`` and on the request's headers:
    :class:`PolledReads` may keep it.
    ``clock``: the body shows the time it was made (``<time>HH:MM:SS</time>``, once).
    Outside :class:`PolledReads` (tests' client, ``runserver``) nothing happens."""
    holder = _offered.get()
    if holder is not None and snapshot_key:
        holder.update(key=snapshot_key, tournament=tournament, clock=clock,
                      nonce=str(getattr(request, "csp_nonce", "")).encode())


def request_key(scope: Scope) -> tuple[Any, ...] | None:
    """The key of an answer kept for this request, or None when the request is not one
    answered at the door (method, path, query string, body, cookies)."""
    if scope.get("method") not in ("GET", "HEAD") or scope.get("query_string"):
        return None
    path = str(scope.get("path") or "")
    if not PATHS.match(path):
        return None
    headers = []
    cookie = b""
    for name, value in scope.get("headers", ()):
        name = name.lower()
        if name in (b"content-length", b"transfer-encoding") and value not in (b"0",):
            return None
        if name == b"cookie":
            cookie += value + b";"
        elif name not in IGNORED_HEADERS and not name.startswith((b"sec-fetch-", b"sec-ch-")):
            headers.append((name, value))
    allowed = {settings.LANGUAGE_COOKIE_NAME, settings.CSRF_COOKIE_NAME}
    cookies = parse_cookie(cookie.decode("latin-1")) if cookie else {}
    if any(name not in allowed for name in cookies):
        return None  # a session (a referee logged in) or anything else: Django answers
    # behind a trusted proxy Django keeps the forwarding headers, else drops them
    peer = str((scope.get("client") or ("",))[0])
    proxies = trusted_proxies()
    return (scope["method"], scope.get("scheme"), scope.get("root_path"), path,
            tuple(sorted(cookies.items())),
            tuple(sorted(headers)), bool(proxies) and is_trusted(peer, proxies))


def _serves(tournament: int, snapshot_key: tuple[Any, ...]) -> bool:
    """True when a public request for the tournament of id ``tournament`` gets now the
    snapshot of change key ``snapshot_key``: the key read from the database is that one
    (one query), or the database's has moved on and the snapshot after the change is being
    computed (:func:`~risiko.web.public.data.snapshot` answers the one from before
    meanwhile, and starts that computation as a public request does)."""
    from django.db import close_old_connections

    from risiko.web.tournaments.models import Tournament

    close_old_connections()  # as Django does at a request's start and end
    try:
        if data.change_key() == snapshot_key:
            return True
        t = Tournament.objects.filter(pk=tournament).first()
        return t is not None and data.snapshot(t).key == snapshot_key
    finally:
        close_old_connections()


async def _still_served(found: Answer) -> bool:
    try:
        return await asyncio.get_running_loop().run_in_executor(
            _executor, _serves, found.tournament, found.snapshot_key)
    except Exception:  # the database: Django answers (and says what went wrong)
        return False


def _keep(key: tuple[Any, ...], holder: dict[str, Any], start: Message | None,
          body: bytes) -> None:
    if start is None or start.get("status") != 200 or "key" not in holder:
        return
    headers = tuple((bytes(n), bytes(v)) for n, v in start.get("headers", ()))
    nonce: bytes = holder["nonce"]
    if any(n.lower() == b"set-cookie" for n, _v in headers) or (nonce and nonce in body):
        return
    head, tail, clock = body, b"", bool(holder["clock"])
    if clock:
        found = list(_CLOCK.finditer(body))
        if len(found) != 1:
            return
        head, tail = body[:found[0].start()], body[found[0].end():]
    _answers[key] = Answer(holder["tournament"], holder["key"], 200, headers, nonce, head,
                           tail, clock)
    _answers.move_to_end(key)
    while len(_answers) > ENTRIES:
        _answers.popitem(last=False)


def _now_stamp() -> bytes:
    return timezone.localtime().strftime("%H:%M:%S").encode()


async def _answer(found: Answer, send: Send) -> None:
    headers = list(found.headers)
    if found.nonce:
        fresh = secrets.token_urlsafe(16).encode()
        headers = [(n, v.replace(found.nonce, fresh))
                   if n.lower() == b"content-security-policy" else (n, v)
                   for n, v in headers]
    body = (found.head + b"<time>" + _now_stamp() + b"</time>" + found.tail if found.clock
            else found.head)
    await send({"type": "http.response.start", "status": found.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class PolledReads:
    """The ASGI wrapper answering the polled reads from the answers kept (see the module):
    a request alike to one Django answered from the snapshot that is still current gets
    the same bytes (a new CSP nonce, the clock now); anything else goes to Django, whose
    answer is kept when its view offered it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        key = request_key(scope) if scope["type"] == "http" else None
        if key is None:
            await self.app(scope, receive, send)
            return
        for looked in range(2):
            found = _answers.get(key)
            if found is not None and await _still_served(found):
                await _answer(found, send)
                return
            pending = _asked.get(key)
            if pending is None or looked:
                break
            # Django is answering the same request: its answer, kept, is looked at again
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(pending), WAIT_FOR_DJANGO)
        await self._through_django(key, scope, receive, send)

    async def _through_django(self, key: tuple[Any, ...], scope: Scope, receive: Receive,
                              send: Send) -> None:
        holder: dict[str, Any] = {}
        start: Message | None = None
        parts: list[bytes] = []
        complete = False

        async def captured(message: Message) -> None:
            nonlocal start, complete
            if message["type"] == "http.response.start":
                start = message
            elif message["type"] == "http.response.body":
                parts.append(bytes(message.get("body", b"")))
                complete = not message.get("more_body", False)
            await send(message)

        done: asyncio.Future[None] | None = None
        if key not in _asked:
            done = _asked[key] = asyncio.get_running_loop().create_future()
        token = _offered.set(holder)
        try:
            await self.app(scope, receive, captured)
        finally:
            _offered.reset(token)
            if complete:
                _keep(key, holder, start, b"".join(parts))
            if done is not None:
                del _asked[key]
                done.set_result(None)


def forget() -> None:
    """Forget every answer kept (tests)."""
    _answers.clear()
