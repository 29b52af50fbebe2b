"""The client's address and scheme behind a reverse proxy (HTTPS in front of ``risiko serve``).

``RISIKO_TRUSTED_PROXIES`` (comma list of addresses or networks, e.g.
``127.0.0.1,10.0.0.0/8``; default none) names the proxies whose ``X-Forwarded-For`` and
``X-Forwarded-Proto`` headers are believed. From any other peer both headers are dropped, so
no client can claim another address (the login limit counts per address) or claim HTTPS.
Behind trusted proxies the client is the right-most address of ``X-Forwarded-For`` that is
not itself a trusted proxy (each proxy appends the address it saw, a client can only forge
what is to the left).

>>> chain = parse_networks("127.0.0.1, 10.0.0.0/8")
>>> client_address("127.0.0.1", "203.0.113.9, 10.1.1.1", chain)
'203.0.113.9'
>>> client_address("127.0.0.1", "6.6.6.6, 198.51.100.7", chain)  # 6.6.6.6 was forged
'198.51.100.7'
>>> client_address("192.0.2.1", "203.0.113.9", chain)  # not a trusted proxy: ignored
'192.0.2.1'
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(text: str | Iterable[str]) -> tuple[Network, ...]:
    """Addresses and networks from a comma list (or a list); ValueError naming a bad one."""
    items = text.split(",") if isinstance(text, str) else list(text)
    out = []
    for item in (i.strip() for i in items):
        if not item:
            continue
        try:
            out.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ValueError(f"RISIKO_TRUSTED_PROXIES: {item!r} is not an address or network")\
                from None
    return tuple(out)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [v6]:port
        text = text[1:text.index("]")]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":", 1)[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def is_trusted(address: str, proxies: Sequence[Network]) -> bool:
    """True when ``address`` is one of the trusted ``proxies``."""
    ip = _address(address)
    return ip is not None and any(ip in net for net in proxies)


def client_address(peer: str, forwarded_for: str, proxies: Sequence[Network]) -> str:
    """The client's address: ``peer`` unless it is a trusted proxy; then the right-most
    address of ``forwarded_for`` that is not a trusted proxy (the left-most one when all
    are; ``peer`` when the header is empty or holds something that is not an address)."""
    if not proxies or not is_trusted(peer, proxies):
        return peer
    hops = [h.strip() for h in forwarded_for.split(",") if h.strip()]
    found = peer
    for hop in reversed(hops):
        ip = _address(hop)
        if ip is None:
            break
        found = str(ip)
        if not any(ip in net for net in proxies):
            break
    return found
