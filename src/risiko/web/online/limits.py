"""What one table socket may do: its origin, its messages, how many there are.

- **Origin**: a browser's socket is accepted only from the site's own origin, scheme, host
  and port compared (``http://club:8000`` is not ``http://club:8001`` nor
  ``https://club:8000``), or from an origin of ``CSRF_TRUSTED_ORIGINS`` (an HTTPS proxy in
  front: Django's own rule for forms). A socket without ``Origin`` is refused (Channels'
  rule); the remote-bot client sends its server's origin.
- **Messages**: each socket has a bucket of ``RISIKO_ONLINE_MESSAGE_BURST`` messages (60)
  refilled at ``RISIKO_ONLINE_MESSAGES_PER_SECOND`` (20); a message over it is refused with
  the fault ``online.too_fast`` and the socket closed (:data:`CLOSE_LIMIT`).
- **Sockets**: at most ``RISIKO_ONLINE_SOCKETS_PER_USER`` table sockets (30) at once per
  user (a logged-in user, else a browser session, else a seat's token: a remote bot's socket
  counts as its seat's from its ``auth`` message) and
  ``RISIKO_ONLINE_SOCKETS_PER_ADDRESS`` (500: the phones of a venue share its Wi-Fi's
  address) per client address, counted per worker process; one more is accepted, told the
  fault (``online.too_many_sockets_user`` / ``_address``) and closed.

Close codes (RFC 6455): :data:`CLOSE_MALFORMED` 1003 for a frame that is not one JSON object
in text, :data:`CLOSE_LIMIT` 1008 for a limit, 1000 after ``leave``.
"""

from __future__ import annotations

import collections
import time
from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import OriginValidator
from django.conf import settings

from risiko.faults import define

CLOSE_NORMAL = 1000
CLOSE_MALFORMED = 1003
CLOSE_LIMIT = 1008

TOO_FAST = define("online.too_fast", "",
                  "too many messages: at most {rate} a second (bursts of {burst}); "
                  "this connection closes")
TOO_MANY_SOCKETS_USER = define("online.too_many_sockets_user", "",
                               "too many table connections of yours: at most {most} at once")
TOO_MANY_SOCKETS_ADDRESS = define(
    "online.too_many_sockets_address", "",
    "too many table connections from your network address: at most {most} at once")
NOT_TEXT = define("online.not_text", "", "a message is JSON text, not binary data")
NOT_JSON = define("online.not_json", "", "a message is one JSON object: this one is not")

#: this process's open table sockets by user key and by address
BY_USER: collections.Counter[str] = collections.Counter()
BY_ADDRESS: collections.Counter[str] = collections.Counter()


def clock() -> float:
    """Seconds, for the buckets (``time.monotonic``; a test stops it here, not the loop's)."""
    return time.monotonic()


def _setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


class Bucket:
    """A socket's message allowance: ``burst`` messages, refilled at ``rate`` a second.

    >>> b = Bucket(rate=2, burst=3, now=0.0)
    >>> [b.take(0.0) for _ in range(4)]
    [True, True, True, False]
    >>> b.take(0.5)  # half a second at 2 a second: one message back
    True
    >>> b.take(0.5)
    False
    """

    def __init__(self, rate: float | None = None, burst: float | None = None,
                 now: float | None = None) -> None:
        self.rate = _setting("RISIKO_ONLINE_MESSAGES_PER_SECOND", 20) if rate is None else rate
        self.burst = _setting("RISIKO_ONLINE_MESSAGE_BURST", 60) if burst is None else burst
        self.level = self.burst
        self.at = clock() if now is None else now

    def take(self, now: float | None = None) -> bool:
        """One message: True when the allowance has it (it is spent), else False."""
        now = clock() if now is None else now
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level < 1:
            return False
        self.level -= 1
        return True

    def fault(self) -> Any:
        """The refusal of a message over the allowance."""
        return TOO_FAST(rate=_number(self.rate), burst=_number(self.burst))


def _number(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x


def address_of(scope: dict[str, Any]) -> str:
    """The client's address as the server saw it (``risiko serve`` behind a trusted proxy:
    the address the proxy forwarded)."""
    client = scope.get("client") or ("", 0)
    return str(client[0] or "")


def user_key(scope: dict[str, Any], seat_id: int | None) -> str:
    """Whose socket it is: ``user:<id>`` logged in, else ``session:<key>`` (a browser
    session: a guest's seat too), else ``seat:<id>`` (a remote bot, once its ``auth`` message
    named its seat), else ``""`` (nobody's: counted by its address only)."""
    user = scope.get("user")
    if user is not None and getattr(user, "is_authenticated", False):
        return f"user:{user.pk}"
    session = scope.get("session")
    key = getattr(session, "session_key", None) if session is not None else None
    if key:
        return f"session:{key}"
    return f"seat:{seat_id}" if seat_id is not None else ""


def claim(user: str, address: str) -> Any | None:
    """Count one more table socket of ``user`` and ``address``; the fault when a cap is
    reached (nothing counted then)."""
    most_user = int(_setting("RISIKO_ONLINE_SOCKETS_PER_USER", 30))
    most_address = int(_setting("RISIKO_ONLINE_SOCKETS_PER_ADDRESS", 500))
    if user and BY_USER[user] >= most_user:
        return TOO_MANY_SOCKETS_USER(most=most_user)
    if address and BY_ADDRESS[address] >= most_address:
        return TOO_MANY_SOCKETS_ADDRESS(most=most_address)
    if user:
        BY_USER[user] += 1
    if address:
        BY_ADDRESS[address] += 1
    return None


def release(user: str, address: str) -> None:
    """One table socket of ``user`` and ``address`` closed (counted by :func:`claim`)."""
    for counter, key in ((BY_USER, user), (BY_ADDRESS, address)):
        if key and counter[key] > 0:
            counter[key] -= 1
            if not counter[key]:
                del counter[key]


def _origin(value: str) -> tuple[str, str, int] | None:
    """``scheme://host[:port]`` as (scheme, host, port), the default port filled in."""
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return parts.scheme, parts.hostname.lower(), port or (443 if parts.scheme == "https" else 80)


def same_origin(scope: dict[str, Any], origin: str) -> bool:
    """True when ``origin`` is the site's own (the socket's scheme as http/https, the
    ``Host`` it was opened on) or one of ``CSRF_TRUSTED_ORIGINS``; scheme, host and port
    all compared.

    >>> scope = {"scheme": "ws", "headers": [(b"host", b"club.example:8000")]}
    >>> same_origin(scope, "http://club.example:8000")
    True
    >>> same_origin(scope, "http://club.example:8001"), same_origin(scope, "https://club.example:8000")
    (False, False)
    """
    theirs = _origin(origin)
    if theirs is None:
        return False
    headers = dict(scope.get("headers") or [])
    host = headers.get(b"host", b"").decode("latin-1")
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    if host and _origin(f"{scheme}://{host}") == theirs:
        return True
    return any(_origin(o) == theirs for o in getattr(settings, "CSRF_TRUSTED_ORIGINS", []))


class SameOriginValidator(OriginValidator):  # type: ignore[misc]
    """Channels' origin check (the host among ``ALLOWED_HOSTS``) and then
    :func:`same_origin`: scheme, host and port (another port or scheme with the
    referee's cookie was accepted)."""

    def __init__(self, application: Any) -> None:
        super().__init__(application, [])

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        allowed = list(settings.ALLOWED_HOSTS)  # read now (as Django reads it per request)
        if settings.DEBUG and not allowed:
            allowed = ["localhost", "127.0.0.1", "[::1]"]
        self.allowed_origins = allowed
        origin = dict(scope.get("headers") or []).get(b"origin")
        if origin is not None and not same_origin(scope, origin.decode("latin-1")):
            from channels.security.websocket import WebsocketDenier

            denier = WebsocketDenier()
            return await denier(scope, receive, send)
        return await super().__call__(scope, receive, send)
