"""Login rate limit, kept in the database: atomic, and shared by every server worker.

Counters over a window of ``RISIKO_LOGIN_WINDOW`` seconds (default 900, i.e. 15 minutes, from
the first attempt counted). A browser that is not a known device for the username typed takes
a slot from three:

- per **username and client address** (username case-insensitive):
  ``RISIKO_LOGIN_MAX_FAILURES`` (default 5) attempts: a stranger guessing from one address is
  stopped after 5, and only for that address;
- per **client address**, for any username: ``RISIKO_LOGIN_MAX_FAILURES_PER_ADDRESS``
  (default 30). Higher, because a venue's phones share one Wi-Fi address: one referee
  mistyping their password is refused after 5 tries, the others still log in;
- per **username**, from any address: ``RISIKO_LOGIN_MAX_FAILURES_PER_USERNAME`` (default
  20): guesses spread over many addresses stay few.

A **known device** is a browser where this username logged in before: a successful login
gives it a signed cookie (:data:`DEVICE_COOKIE`, a random id bound to a hash of the username,
HttpOnly, a year). Its attempts for that username count on their own key (``device``,
``RISIKO_LOGIN_MAX_FAILURES``) and on nothing else, so strangers' failures, at the venue's
address or anywhere, never lock the referee's own phone out.

An attempt takes its slots *before* its password is checked, each with one
``UPDATE ... SET attempts = attempts + 1 WHERE attempts < limit`` (atomic on SQLite and on
PostgreSQL, whatever the number of workers): 60 wrong passwords sent at once from one
address get at most 5 of them checked, and the right password sent after them is refused like
the rest until the window ends. A successful login clears its own counter (username and
address, or device) and gives the address and username slots back; a failed one keeps them.
The counters are stored under a SHA-256 of what they count
(:class:`~risiko.web.site.models.LoginThrottle`), never the text typed.

The client address is ``REMOTE_ADDR`` as :class:`~risiko.web.site.middleware.TrustedProxyMiddleware`
leaves it: the proxy's ``X-Forwarded-For`` is believed only from ``RISIKO_TRUSTED_PROXIES``.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import secrets
import time
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.db.models import Case, DateTimeField, F, IntegerField, Q, Value, When
from django.http import HttpRequest

USER = "user"  # username and address
ADDRESS = "address"
USERNAME = "username"  # username, any address
DEVICE = "device"  # username on a known device
#: The known-device cookie's name.
DEVICE_COOKIE = "risiko_device"
DEVICE_MAX_AGE = 365 * 24 * 3600  # seconds
_DEVICE_SALT = "risiko.web.site.ratelimit.device"


@dataclass(frozen=True)
class Refusal:
    """An attempt refused before its password was checked: ``scope`` is ``"user"`` (this
    username had too many attempts, from this address, from this device or in all) or
    ``"address"`` (this client address had), ``seconds`` left before the window ends."""

    scope: str
    seconds: int


def max_failures() -> int:
    """Attempts allowed per username in a window."""
    return int(getattr(settings, "RISIKO_LOGIN_MAX_FAILURES", 5))


def max_failures_per_address() -> int:
    """Attempts allowed per client address (any username) in a window."""
    return int(getattr(settings, "RISIKO_LOGIN_MAX_FAILURES_PER_ADDRESS", 30))


def max_failures_per_username() -> int:
    """Attempts allowed per username from browsers that are not its known devices, all
    addresses together, in a window."""
    return int(getattr(settings, "RISIKO_LOGIN_MAX_FAILURES_PER_USERNAME", 20))


def window_seconds() -> int:
    """Length of the window in seconds."""
    return int(getattr(settings, "RISIKO_LOGIN_WINDOW", 15 * 60))


def client_ip(request: HttpRequest | None) -> str:
    """The client's address (``REMOTE_ADDR``, set right behind a trusted proxy)."""
    if request is None:
        return "-"
    return str(request.META.get("REMOTE_ADDR") or "-")


def _name(username: str) -> str:
    return username.strip().casefold()


def _key(scope: str, value: str, *more: str) -> str:
    """The counter's key: ``scope:`` and a SHA-256 of what it counts (a username is
    case-insensitive and comes first)."""
    text = "\x00".join([_name(value) if scope != ADDRESS else value.strip(), *more])
    return f"{scope}:" + hashlib.sha256(text.encode()).hexdigest()


def device_cookie(username: str) -> str:
    """A new known-device cookie's value for ``username``: a random id and a hash of the
    username, signed with the site's secret."""
    name = hashlib.sha256(_name(username).encode()).hexdigest()[:32]
    value = f"{name}:{secrets.token_urlsafe(18)}"
    return signing.get_cookie_signer(salt=_DEVICE_SALT).sign(value)


def known_device(request: HttpRequest | None, username: str) -> str | None:
    """The id of the browser's known-device cookie when it was given to ``username``
    (signature good, a year at most); None otherwise."""
    raw = request.COOKIES.get(DEVICE_COOKIE) if request is not None else None
    if not raw:
        return None
    try:
        value = signing.get_cookie_signer(salt=_DEVICE_SALT).unsign(raw)
    except signing.BadSignature:
        return None
    name, _sep, device = value.partition(":")
    if not device or name != hashlib.sha256(_name(username).encode()).hexdigest()[:32]:
        return None
    return device


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


def _counters(username: str, ip: str, device: str | None) -> list[tuple[str, str, int]]:
    """(scope, key, limit) of every counter an attempt takes a slot from."""
    if device is not None:
        return [(USER, _key(DEVICE, username, device), max_failures())]
    return [(USER, _key(USER, username, ip), max_failures()),
            (ADDRESS, _key(ADDRESS, ip), max_failures_per_address()),
            (USER, _key(USERNAME, username), max_failures_per_username())]


def reserve(username: str, ip: str, device: str | None = None) -> Refusal | None:
    """Take a slot for one login attempt of ``username`` from ``ip`` (on the known device
    ``device``, see :func:`known_device`), before its password is checked; a
    :class:`Refusal` when a counter has none left (nothing is taken then)."""
    now = _now()
    _forget_old(now)
    taken: list[str] = []
    for scope, key, limit in _counters(username, ip, device):
        if not _take(key, limit, now):
            for done in taken:
                _give_back(done)
            return Refusal(scope, max(1, _seconds_left(key, limit, now)))
        taken.append(key)
    return None


def succeeded(username: str, ip: str, device: str | None = None) -> None:
    """A login succeeded: clear its own counter (username and address, or device), give
    the others their slot back."""
    from .models import LoginThrottle

    own, *shared = _counters(username, ip, device)
    LoginThrottle.objects.filter(key=own[1]).delete()
    for _scope, key, _limit in shared:
        _give_back(key)


def blocked_for(username: str, ip: str, device: str | None = None) -> int:
    """Seconds left before ``username`` may try again from ``ip`` (on ``device``), 0: not
    blocked, any counter; reads only."""
    now = _now()
    return max(_seconds_left(key, limit, now)
               for _scope, key, limit in _counters(username, ip, device))


def take_slot(scope: str, value: str, limit: int) -> bool:
    """Take one of ``limit`` slots of ``value`` under ``scope`` in the current window (the
    same atomic counter as the login's, for other doors: ``"publish-address"``, the client
    address of a report sent to the national server); False when none is left."""
    return _take(_key(scope, value), limit, _now())
