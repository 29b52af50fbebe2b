"""Login rate limit, kept in the database: atomic, and shared by every server worker.

Two counters, each over a window of ``RISIKO_LOGIN_WINDOW`` seconds (default 900, i.e. 15
minutes, from the first attempt counted):

- per **username** (case-insensitive), from any address: ``RISIKO_LOGIN_MAX_FAILURES``
  (default 5) attempts;
- per **client address**, for any username: ``RISIKO_LOGIN_MAX_FAILURES_PER_ADDRESS``
  (default 30). Higher, because a venue's phones share one Wi-Fi address: one referee
  mistyping their password is refused after 5 tries, the others still log in.

An attempt takes a slot from both counters *before* its password is checked, each with one
``UPDATE ... SET attempts = attempts + 1 WHERE attempts < limit`` (atomic on SQLite and on
PostgreSQL, whatever the number of workers): 60 wrong passwords sent at once get at most 5
of them checked, and the right password sent after them is refused like the rest until the
window ends. A successful login gives its address slot back and clears the username's count;
a failed one keeps both. The counters are stored under a SHA-256 of the username or address
(:class:`~risiko.web.site.models.LoginThrottle`), never the text typed.

The client address is ``REMOTE_ADDR`` as :class:`~risiko.web.site.middleware.TrustedProxyMiddleware`
leaves it: the proxy's ``X-Forwarded-For`` is believed only from ``RISIKO_TRUSTED_PROXIES``.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import time
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Case, DateTimeField, F, IntegerField, Q, Value, When
from django.http import HttpRequest

USER = "user"
ADDRESS = "address"


@dataclass(frozen=True)
class Refusal:
    """An attempt refused before its password was checked: ``scope`` is ``"user"`` (this
    username had too many attempts) or ``"address"`` (this client address had), ``seconds``
    left before the window ends."""

    scope: str
    seconds: int


def max_failures() -> int:
    """Attempts allowed per username in a window."""
    return int(getattr(settings, "RISIKO_LOGIN_MAX_FAILURES", 5))


def max_failures_per_address() -> int:
    """Attempts allowed per client address (any username) in a window."""
    return int(getattr(settings, "RISIKO_LOGIN_MAX_FAILURES_PER_ADDRESS", 30))


def window_seconds() -> int:
    """Length of the window in seconds."""
    return int(getattr(settings, "RISIKO_LOGIN_WINDOW", 15 * 60))


def client_ip(request: HttpRequest | None) -> str:
    """The client's address (``REMOTE_ADDR``, set right behind a trusted proxy)."""
    if request is None:
        return "-"
    return str(request.META.get("REMOTE_ADDR") or "-")


def _key(scope: str, value: str) -> str:
    text = value.strip().casefold() if scope == USER else value.strip()
    return f"{scope}:" + hashlib.sha256(text.encode()).hexdigest()


def _now() -> _dt.datetime:
    return _dt.datetime.fromtimestamp(time.time(), tz=_dt.UTC)


def _take(key: str, limit: int, now: _dt.datetime) -> bool:
    """Take one slot of ``key`` (a new window if the last one ended); False when none is
    left. One INSERT-if-missing and one conditional UPDATE: atomic on both databases."""
    from .models import LoginThrottle

    cutoff = now - _dt.timedelta(seconds=window_seconds())
    LoginThrottle.objects.bulk_create(
        [LoginThrottle(key=key, attempts=0, started=now)], ignore_conflicts=True
    )
    ended = Q(started__lte=cutoff)
    taken = LoginThrottle.objects.filter(Q(key=key) & (ended | Q(attempts__lt=limit))).update(
        attempts=Case(When(ended, then=Value(1)), default=F("attempts") + 1,
                      output_field=IntegerField()),
        started=Case(When(ended, then=Value(now)), default=F("started"),
                     output_field=DateTimeField()),
    )
    return taken == 1


def _give_back(key: str) -> None:
    from .models import LoginThrottle

    LoginThrottle.objects.filter(key=key, attempts__gt=0).update(attempts=F("attempts") - 1)


def _seconds_left(key: str, limit: int, now: _dt.datetime) -> int:
    from .models import LoginThrottle

    row = LoginThrottle.objects.filter(key=key).values_list("attempts", "started").first()
    if row is None:
        return 0
    attempts, started = row
    left = int((started - now).total_seconds()) + window_seconds()
    return left if attempts >= limit and left > 0 else 0


def _forget_old(now: _dt.datetime) -> None:
    from .models import LoginThrottle

    LoginThrottle.objects.filter(
        started__lt=now - _dt.timedelta(seconds=2 * window_seconds())
    ).delete()


def reserve(username: str, ip: str) -> Refusal | None:
    """Take a slot for one login attempt of ``username`` from ``ip``, before its password is
    checked; a :class:`Refusal` when the username or the address has none left (nothing is
    taken then)."""
    now = _now()
    _forget_old(now)
    user_key, address_key = _key(USER, username), _key(ADDRESS, ip)
    if not _take(user_key, max_failures(), now):
        return Refusal(USER, max(1, _seconds_left(user_key, max_failures(), now)))
    if not _take(address_key, max_failures_per_address(), now):
        _give_back(user_key)
        limit = max_failures_per_address()
        return Refusal(ADDRESS, max(1, _seconds_left(address_key, limit, now)))
    return None


def succeeded(username: str, ip: str) -> None:
    """A login succeeded: clear the username's count, give the address its slot back."""
    from .models import LoginThrottle

    LoginThrottle.objects.filter(key=_key(USER, username)).delete()
    _give_back(_key(ADDRESS, ip))


def blocked_for(username: str, ip: str) -> int:
    """Seconds left before ``username`` may try again from ``ip`` (0: not blocked), either
    counter; reads only."""
    now = _now()
    return max(_seconds_left(_key(USER, username), max_failures(), now),
               _seconds_left(_key(ADDRESS, ip), max_failures_per_address(), now))
