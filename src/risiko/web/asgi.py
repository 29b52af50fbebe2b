"""ASGI entry point (``risiko serve`` runs it with uvicorn).

HTTP goes to Django behind :class:`BodyLimit` (a request body larger than the limit is
refused with 413 before Django reads it) and
:class:`~risiko.web.public.polled.PolledReads` (the polled standings - the JSON API, the
live partial - answered from the bytes Django gave for the current snapshot); WebSockets
(``ws/online/<code>/``, the online tables; ``ws/live/``, the live pages:
:mod:`risiko.web.live`) to Django Channels, behind the session and authentication of the
site and an origin check (the host among ``ALLOWED_HOSTS``, then scheme, host and port
the site's own: :mod:`risiko.web.online.limits`); the lifespan starts the online tables'
deadline scheduler.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "risiko.web.settings")
django_application = get_asgi_application()  # sets Django up before the routes import models

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.http import parse_cookie  # noqa: E402
from django.urls import Resolver404, resolve  # noqa: E402
from django.utils import translation  # noqa: E402

from risiko.web.core.limits import (  # noqa: E402
    request_limit,
    size_text,
    upload_request_limit,
)
from risiko.web.live.routing import websocket_urlpatterns as live_urlpatterns  # noqa: E402
from risiko.web.online.limits import SameOriginValidator  # noqa: E402
from risiko.web.online.routing import websocket_urlpatterns  # noqa: E402
from risiko.web.online.scheduler import LifespanApp  # noqa: E402
from risiko.web.public.polled import PolledReads  # noqa: E402

Scope = dict[str, Any]  # as Django's ASGIHandler types them (it is wrapped here)
Message = Mapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[..., Awaitable[None]]  # Django's handler and Channels' apps


def body_limit(path: str) -> int:
    """The largest request body accepted at ``path``, in bytes: the upload limit and room
    for the form around the file (:func:`~risiko.web.core.limits.upload_request_limit`)
    for a view that takes a file (``@limit_upload``), else
    :func:`~risiko.web.core.limits.request_limit` (``RISIKO_REQUEST_MAX_BYTES``)."""
    try:
        view = resolve(path).func
    except Resolver404:
        return request_limit()
    return upload_request_limit() if getattr(view, "takes_upload", False) else request_limit()


class BodyLimit:
    """An ASGI wrapper refusing (413) an HTTP request whose body is larger than
    :func:`body_limit` of its path, before the application reads any of it.

    A ``Content-Length`` above the limit is refused at once: not a byte of the body is
    read. A body without one (chunked) is counted as it arrives: the chunk that passes the
    limit ends the request for the application (it sees the client leave, as Django does
    when a phone drops, and writes nothing) and the client gets the 413. Nothing is read
    beyond the limit, so nothing is spooled: Django keeps a body up to the limit in memory
    (``FILE_UPLOAD_MAX_MEMORY_SIZE`` is the largest limit). The message is Italian, or
    English for a browser that chose English (the language cookie)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # most requests are far below every limit: their path is looked up only past the
        # lowest one
        path = str(scope.get("path") or "/")
        limit = min(request_limit(), upload_request_limit())
        resolved = False
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            limit, resolved = body_limit(path), True
            if declared > limit:
                await _too_large(scope, send, limit)
                return
        received = 0
        over = False
        started = False

        async def counted() -> Message:
            nonlocal received, over, limit, resolved
            if over:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit and not resolved:
                    limit, resolved = body_limit(path), True
                if received > limit:
                    over = True
                    return {"type": "http.disconnect"}
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        await self.app(scope, counted, watched)
        if over and not started:
            await _too_large(scope, send, limit)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _too_large(scope: Scope, send: Send, limit: int) -> None:
    """The 413 answer, in the browser's language (Italian unless it chose English)."""
    cookies: dict[str, str] = {}
    for name, value in scope.get("headers", ()):
        if name.lower() == b"cookie":
            cookies.update(parse_cookie(value.decode("latin-1")))
    language = "en" if cookies.get(settings.LANGUAGE_COOKIE_NAME) == "en" else "it"
    with translation.override(language):
        text = translation.gettext(
            "The request is too large: the limit is %(limit)s. Nothing was read or "
            "saved.") % {"limit": size_text(limit, language)}
    body = text.encode()
    await send({"type": "http.response.start", "status": 413, "headers": [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]})
    await send({"type": "http.response.body", "body": body})


application = ProtocolTypeRouter({
    "http": BodyLimit(PolledReads(django_application)),
    "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(
        [*websocket_urlpatterns, *live_urlpatterns]))),
    "lifespan": LifespanApp(),
})
