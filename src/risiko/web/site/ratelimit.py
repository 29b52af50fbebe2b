"""Login rate limit: failed logins counted per (username, client IP) in Django's cache.

After ``RISIKO_LOGIN_MAX_FAILURES`` (default 5) failures within ``RISIKO_LOGIN_WINDOW``
seconds (default 900, i.e. 15 minutes, counted from the first failure) that username is
refused from that address, even with the right password, until the window ends. A successful
login clears the count. The default cache is local memory: the count lives in the server
process (``risiko serve`` runs one), which is what a club laptop needs.
"""

from __future__ import annotations

import hashlib
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

_PREFIX = "risiko:login-failures:"


def max_failures() -> int:
    """Failures allowed in a window."""
    return int(getattr(settings, "RISIKO_LOGIN_MAX_FAILURES", 5))


def window_seconds() -> int:
    """Length of the window in seconds."""
    return int(getattr(settings, "RISIKO_LOGIN_WINDOW", 15 * 60))


def client_ip(request: HttpRequest | None) -> str:
    """The client's address as the server sees it (``REMOTE_ADDR``)."""
    if request is None:
        return "-"
    return str(request.META.get("REMOTE_ADDR") or "-")


def _key(username: str, ip: str) -> str:
    digest = hashlib.sha256(f"{username.strip().casefold()}\n{ip}".encode()).hexdigest()
    return _PREFIX + digest


def blocked_for(username: str, ip: str) -> int:
    """Seconds left before ``username`` may try again from ``ip`` (0: not blocked)."""
    entry = cache.get(_key(username, ip))
    if not entry:
        return 0
    count, started = entry
    left = int(started + window_seconds() - time.time())
    if count >= max_failures() and left > 0:
        return left
    return 0


def record_failure(username: str, ip: str) -> int:
    """Count one failure; return the failures in the current window."""
    key = _key(username, ip)
    now = time.time()
    entry = cache.get(key)
    if entry and entry[1] + window_seconds() > now:
        count, started = entry[0] + 1, entry[1]
    else:
        count, started = 1, now
    timeout = max(1, int(started + window_seconds() - now))
    cache.set(key, (count, started), timeout)
    return int(count)


def clear(username: str, ip: str) -> None:
    """Forget the failures of ``username`` from ``ip`` (after a successful login)."""
    cache.delete(_key(username, ip))
