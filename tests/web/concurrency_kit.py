"""A small kit to fire requests at once at a live server (tests only).

``Session`` is a logged-in browser seen from outside: its session and CSRF cookies, and
``post(path, data)`` over a real HTTP connection. :func:`fire` sends the same post ``n``
times at once: each in its own thread, all waiting at a barrier and released together, each
with its own connection (so the server serves them in parallel, each with its own database
connection). The database must be a file (SQLite) or a server (PostgreSQL): an in-memory
SQLite database is one connection shared by every thread and proves nothing.
"""

from __future__ import annotations

import http.client
import secrets
import string
import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.test import Client


@dataclass(frozen=True)
class Answer:
    """One response: status, ``Location`` (redirects) and body."""

    status: int
    location: str
    body: str


@dataclass
class Session:
    """A browser seen from outside: the live server's address and the cookies it holds."""

    base_url: str
    cookies: dict[str, str] = field(default_factory=dict)

    @classmethod
    def logged_in(cls, base_url: str, user: Any = None) -> Session:
        """A session of ``user`` (None: anonymous) with a CSRF cookie."""
        csrf = "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(32))
        cookies = {settings.CSRF_COOKIE_NAME: csrf}
        if user is not None:
            client = Client()
            client.force_login(user)
            cookies[settings.SESSION_COOKIE_NAME] = client.cookies[
                settings.SESSION_COOKIE_NAME].value
        return cls(base_url, cookies)

    def _headers(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        return {
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
            "X-CSRFToken": self.cookies[settings.CSRF_COOKIE_NAME],
            "Content-Type": "application/x-www-form-urlencoded",
            **(extra or {}),
        }

    def request(self, method: str, path: str, data: Mapping[str, Any] | None = None,
                headers: Mapping[str, str] | None = None) -> Answer:
        """One request over its own connection."""
        url = urlsplit(self.base_url)
        conn = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=120)
        try:
            body = urlencode(dict(data or {}), doseq=True) if data is not None else None
            conn.request(method, path, body=body, headers=self._headers(headers))
            r = conn.getresponse()
            return Answer(r.status, r.getheader("Location") or "",
                          r.read().decode("utf-8", "replace"))
        finally:
            conn.close()

    def post(self, path: str, data: Mapping[str, Any],
             headers: Mapping[str, str] | None = None) -> Answer:
        return self.request("POST", path, data, headers)

    def get(self, path: str) -> Answer:
        return self.request("GET", path)


def fire(session: Session, path: str, data: Mapping[str, Any] | Sequence[Mapping[str, Any]],
         n: int = 8, headers: Mapping[str, str] | None = None) -> list[Answer]:
    """Post ``data`` (or each of a list of ``n`` payloads) to ``path`` ``n`` times at once."""
    payloads = list(data) if isinstance(data, Sequence) else [data] * n
    barrier = threading.Barrier(len(payloads))

    def one(payload: Mapping[str, Any]) -> Answer:
        barrier.wait(timeout=60)
        return session.post(path, payload, headers)

    with ThreadPoolExecutor(len(payloads)) as pool:
        return list(pool.map(one, payloads))
