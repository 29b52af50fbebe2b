"""``live_pages`` in every template: whether a page may open its live socket."""

from __future__ import annotations

from typing import Any

from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest

from .hub import enabled


def live_pages(request: HttpRequest) -> dict[str, Any]:
    """``live_pages``: True when the push is on (``RISIKO_LIVE``) and the page is served by
    the ASGI server, which has the ``ws/live/`` route (a WSGI server - ``runserver``, the
    tests' live server - has no WebSocket: the page only polls, without a failing socket)."""
    return {"live_pages": enabled() and isinstance(request, ASGIRequest)}
