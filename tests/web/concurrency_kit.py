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

from risiko.web.core.tokens import new_token


def client_token(client: Client, path: str) -> str:
    """A one-time form token for the form posting to ``path`` in the test client's session."""
    cookie = client.cookies.get(settings.SESSION_COOKIE_NAME)
    return new_token(cookie.value if cookie is not None else None, path)


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

    def token(self, path: str) -> str:
        """A one-time form token for the form posting to ``path`` in this session."""
        return new_token(self.cookies.get(settings.SESSION_COOKIE_NAME), path)

    def _headers(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        return {
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
            "X-CSRFToken": self.cookies[settings.CSRF_COOKIE_NAME],
            "Content-Type": "application/x-www-form-urlencoded",
            **(extra or {}),
        }

    def request(self, method: str, path: str, data: Mapping[str, Any] | None = None,
                headers: Mapping[str, str] | None = None,
                files: Mapping[str, tuple[str, bytes]] | None = None) -> Answer:
        """One request over its own connection (``files``: field -> (file name, content),
        sent as multipart/form-data with ``data``)."""
        url = urlsplit(self.base_url)
        conn = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=120)
        try:
            body: bytes | str | None
            if files:
                body, kind = _multipart(data or {}, files)
                headers = {**(headers or {}), "Content-Type": kind}
            else:
                body = urlencode(dict(data or {}), doseq=True) if data is not None else None
            conn.request(method, path, body=body, headers=self._headers(headers))
            r = conn.getresponse()
            return Answer(r.status, r.getheader("Location") or "",
                          r.read().decode("utf-8", "replace"))
        finally:
            conn.close()

    def post(self, path: str, data: Mapping[str, Any],
             headers: Mapping[str, str] | None = None,
             files: Mapping[str, tuple[str, bytes]] | None = None) -> Answer:
        return self.request("POST", path, data, headers, files)

    def get(self, path: str) -> Answer:
        return self.request("GET", path)


def _multipart(data: Mapping[str, Any], files: Mapping[str, tuple[str, bytes]]
               ) -> tuple[bytes, str]:
    """The body and Content-Type of a multipart/form-data post."""
    boundary = "----kit" + secrets.token_hex(12)
    parts: list[bytes] = []
    for name, value in data.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
                     f"{value}\r\n".encode())
    for name, (filename, content) in files.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
                     f'filename="{filename}"\r\nContent-Type: application/octet-stream'
                     "\r\n\r\n".encode() + content + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def fire(session: Session, path: str, data: Mapping[str, Any] | Sequence[Mapping[str, Any]],
         n: int = 8, headers: Mapping[str, str] | None = None,
         files: Mapping[str, tuple[str, bytes]] | None = None) -> list[Answer]:
    """Post ``data`` (or each of a list of ``n`` payloads) to ``path`` ``n`` times at once
    (with ``files``: as multipart/form-data)."""
    payloads = list(data) if isinstance(data, Sequence) else [data] * n
    barrier = threading.Barrier(len(payloads))

    def one(payload: Mapping[str, Any]) -> Answer:
        barrier.wait(timeout=60)
        return session.post(path, payload, headers, files)

    with ThreadPoolExecutor(len(payloads)) as pool:
        return list(pool.map(one, payloads))
