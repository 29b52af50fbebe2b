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
  address) per client address; one more is accepted, told the fault
  (``online.too_many_sockets_user`` / ``_address``) and closed. With the in-memory channel
  layer (one process) they are counted in this process (:data:`BY_USER`,
  :data:`BY_ADDRESS`); with the Redis layer (``REDIS_URL``: several workers) in its Redis too
  (:class:`SharedCounts`), so the caps hold across the workers, and a killed worker's
  sockets stop counting once its beat expires (``RISIKO_ONLINE_SOCKET_EXPIRY`` seconds,
  3 heartbeats: 30).

Close codes (RFC 6455): :data:`CLOSE_MALFORMED` 1003 for a frame that is not one JSON object
in text, :data:`CLOSE_LIMIT` 1008 for a limit, 1000 after ``leave``.
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
import logging
import os
import secrets
import threading
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

log = logging.getLogger(__name__)

#: this process's open table sockets by user key and by address
BY_USER: collections.Counter[str] = collections.Counter()
BY_ADDRESS: collections.Counter[str] = collections.Counter()
_LOCK = threading.Lock()  # the counters above, from the loop and the Redis threads


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


def _most() -> tuple[int, int]:
    return (int(_setting("RISIKO_ONLINE_SOCKETS_PER_USER", 30)),
            int(_setting("RISIKO_ONLINE_SOCKETS_PER_ADDRESS", 500)))


def _refusal(which: int, most_user: int, most_address: int) -> Any | None:
    if which == 1:
        return TOO_MANY_SOCKETS_USER(most=most_user)
    if which == 2:
        return TOO_MANY_SOCKETS_ADDRESS(most=most_address)
    return None


def claim(user: str, address: str) -> Any | None:
    """Count one more table socket of ``user`` and ``address`` in this process; the fault
    when a cap is reached (nothing counted then). The in-memory layer's count
    (:func:`claim_socket` chooses)."""
    most_user, most_address = _most()
    with _LOCK:
        if user and BY_USER[user] >= most_user:
            return TOO_MANY_SOCKETS_USER(most=most_user)
        if address and BY_ADDRESS[address] >= most_address:
            return TOO_MANY_SOCKETS_ADDRESS(most=most_address)
        _count(BY_USER, BY_ADDRESS, user, address, 1)
    return None


def _count(by_user: collections.Counter[str], by_address: collections.Counter[str],
           user: str, address: str, step: int) -> None:
    """Add ``step`` (1 or -1) to the counts of ``user`` and ``address`` (empty: not
    counted); a count back to 0 is deleted."""
    for counter, key in ((by_user, user), (by_address, address)):
        if key and (step > 0 or counter[key] > 0):
            counter[key] += step
            if not counter[key]:
                del counter[key]


def release(user: str, address: str) -> None:
    """One table socket of ``user`` and ``address`` closed (counted by :func:`claim`)."""
    with _LOCK:
        _count(BY_USER, BY_ADDRESS, user, address, -1)


#: the claim, atomic in Redis: every live worker's count of the user and of the address
#: (a field per worker in a hash per key; a worker is live while its beat key lasts, a dead
#: one's field is dropped on the way), refused at the cap (1 user, 2 address), else counted
_CLAIM = """
local worker, alive = ARGV[1], ARGV[5]
local most_user, most_address, expiry = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
redis.call('SET', alive .. worker, '1', 'PX', expiry)
local function total(key)
  local fields = redis.call('HGETALL', key)
  local n = 0
  for i = 1, #fields, 2 do
    local w = fields[i]
    if w == worker or redis.call('EXISTS', alive .. w) == 1 then
      n = n + tonumber(fields[i + 1])
    else
      redis.call('HDEL', key, w)
    end
  end
  return n
end
if ARGV[6] == '1' and total(KEYS[1]) >= most_user then return 1 end
if ARGV[7] == '1' and total(KEYS[2]) >= most_address then return 2 end
for i = 1, 2 do
  if ARGV[5 + i] == '1' then
    redis.call('HINCRBY', KEYS[i], worker, 1)
    redis.call('PEXPIRE', KEYS[i], expiry)
  end
end
return 0
"""


class SharedCounts:
    """The table sockets of every worker, counted in the channel layer's Redis (``url``,
    keys under ``prefix``): one hash per user key and per address (their SHA-256: a
    session key is a secret), a field per worker holding that worker's count; the worker
    is live while its key ``<prefix>:online:sockets:alive:<worker>`` lasts (``expiry``
    seconds, refreshed by each claim and by :meth:`beat`, which the scheduler's heartbeat
    calls), so the sockets of a killed worker stop counting ``expiry`` seconds after its
    last beat. ``by_user``/``by_address``: this worker's own counts (the module's
    :data:`BY_USER` and :data:`BY_ADDRESS` for the server's). Calls block on Redis (a
    socket's timeout of 3 s): the consumer runs them in a thread (:func:`claim_socket`).
    A Redis error raises (``redis.RedisError``): the caller falls back to this process's
    count."""

    def __init__(self, url: str, prefix: str = "asgi", *, worker: str | None = None,
                 expiry: float | None = None,
                 by_user: collections.Counter[str] | None = None,
                 by_address: collections.Counter[str] | None = None) -> None:
        import redis

        self.redis = redis.Redis.from_url(url, socket_timeout=3)
        self.prefix = prefix
        self.worker = worker or f"{os.getpid()}-{secrets.token_hex(6)}"
        self.expiry = expiry
        self.by_user = BY_USER if by_user is None else by_user
        self.by_address = BY_ADDRESS if by_address is None else by_address
        self._script = self.redis.register_script(_CLAIM)

    def _expiry_ms(self) -> int:
        if self.expiry is not None:
            seconds = self.expiry
        else:
            seconds = _setting("RISIKO_ONLINE_SOCKET_EXPIRY",
                               3 * _setting("RISIKO_ONLINE_HEARTBEAT", 10.0))
        return max(1, int(seconds * 1000))

    def _key(self, kind: str, value: str) -> str:
        digest = hashlib.sha256(value.encode()).hexdigest()[:32]
        return f"{self.prefix}:online:sockets:{kind}:{digest}"

    def _alive(self) -> str:
        return f"{self.prefix}:online:sockets:alive:"

    def claim(self, user: str, address: str, most_user: int, most_address: int) -> int:
        """Count one more socket of ``user`` and ``address`` across the workers: 0 when
        counted (here and in Redis), 1 at the user's cap, 2 at the address's (nothing
        counted)."""
        which = int(self._script(
            keys=[self._key("user", user), self._key("address", address)],
            args=[self.worker, most_user, most_address, self._expiry_ms(), self._alive(),
                  "1" if user else "0", "1" if address else "0"]))
        if which == 0:
            with _LOCK:
                _count(self.by_user, self.by_address, user, address, 1)
        return which

    def release(self, user: str, address: str) -> None:
        """One socket of ``user`` and ``address`` closed: this worker's counts less one,
        then its fields in Redis set to them (a count, not a step: a write lost to a
        Redis error is put right by the next :meth:`beat`)."""
        with _LOCK:
            _count(self.by_user, self.by_address, user, address, -1)
        self.write(user, address)

    def write(self, user: str, address: str) -> None:
        """This worker's counts of ``user`` and ``address`` into Redis (0: its field gone)."""
        with _LOCK:
            now = [(k, key, c[key]) for k, key, c in (("user", user, self.by_user),
                                                        ("address", address, self.by_address))
                   if key]
        pipe = self.redis.pipeline(transaction=False)
        for kind, key, count in now:
            if count > 0:
                pipe.hset(self._key(kind, key), self.worker, count)
            else:
                pipe.hdel(self._key(kind, key), self.worker)
        pipe.execute()

    def beat(self) -> None:
        """This worker is alive: its key lasts another ``expiry``, and its counts (every
        user and address it holds sockets of) are written again, their hashes kept as
        long."""
        ms = self._expiry_ms()
        with _LOCK:
            held = ([("user", k, n) for k, n in self.by_user.items()]
                    + [("address", k, n) for k, n in self.by_address.items()])
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(self._alive() + self.worker, "1", px=ms)
        for kind, key, count in held:
            pipe.hset(self._key(kind, key), self.worker, count)
            pipe.pexpire(self._key(kind, key), ms)
        pipe.execute()


_SHARED: dict[tuple[str, str], SharedCounts] = {}


def shared_counts() -> SharedCounts | None:
    """The server's :class:`SharedCounts` when its channel layer is Redis (``REDIS_URL``:
    the layer's first host and prefix), else None (the in-memory layer: this process's
    count)."""
    layer = (getattr(settings, "CHANNEL_LAYERS", {}) or {}).get("default") or {}
    if "channels_redis" not in str(layer.get("BACKEND", "")):
        return None
    config = layer.get("CONFIG") or {}
    hosts = config.get("hosts") or []
    host = hosts[0] if hosts else None
    url = host.get("address") if isinstance(host, dict) else host
    if not isinstance(url, str) or not url:
        return None
    key = (url, str(config.get("prefix", "asgi")))
    found = _SHARED.get(key)
    if found is None:
        found = _SHARED[key] = SharedCounts(url, key[1])
    return found


async def claim_socket(user: str, address: str) -> Any | None:
    """:func:`claim` across the workers when the server has Redis (:func:`shared_counts`,
    in a thread: not on the loop), else in this process; the fault when a cap is reached.
    Redis unreachable: this process's count (one warning)."""
    shared = shared_counts()
    if shared is None:
        return claim(user, address)
    most_user, most_address = _most()
    try:
        which = await asyncio.to_thread(shared.claim, user, address, most_user, most_address)
    except Exception as e:  # redis.RedisError: the cap of this process still holds
        log.warning("online sockets: the shared count is unreachable (%s); counted here",
                    type(e).__name__)
        return claim(user, address)
    return _refusal(which, most_user, most_address)


async def release_socket(user: str, address: str) -> None:
    """:func:`release` (this process's count at once), then the shared count."""
    shared = shared_counts()
    if shared is None:
        release(user, address)
        return
    with _LOCK:
        _count(shared.by_user, shared.by_address, user, address, -1)
    try:
        await asyncio.to_thread(shared.write, user, address)
    except Exception as e:  # the next beat writes the counts again
        log.warning("online sockets: the shared count not updated (%s)", type(e).__name__)


async def beat() -> None:
    """The heartbeat's part (:func:`scheduler.presence`): this worker's sockets keep
    counting across the workers. Nothing with the in-memory layer."""
    shared = shared_counts()
    if shared is None:
        return
    try:
        await asyncio.to_thread(shared.beat)
    except Exception as e:
        log.warning("online sockets: the shared count's beat failed (%s)", type(e).__name__)


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
