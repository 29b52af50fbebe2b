"""The address phones on the same network should open (standard library only, no traffic).

:func:`lan_address` asks the kernel which local address it would use for a route out
(a UDP socket ``connect()`` sends no packet), then falls back to ``hostname -I`` and to the
host name's address. No outside host is ever contacted.
"""

from __future__ import annotations

import ipaddress
import socket
import subprocess
from collections.abc import Callable, Iterable

#: Any address would do: connect() on a UDP socket only picks the route, it sends nothing.
_ROUTE_PROBE = ("192.0.2.1", 9)  # TEST-NET-1 (RFC 5737), never a real host


def usable(address: str) -> bool:
    """An IPv4 address another machine could reach: not loopback, link-local, unspecified."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return (
        ip.version == 4
        and not ip.is_loopback
        and not ip.is_link_local
        and not ip.is_unspecified
        and not ip.is_multicast
    )


def route_probe(socket_factory: Callable[..., socket.socket] = socket.socket) -> str | None:
    """The local address of the default route, by a UDP ``connect()`` (no packet sent)."""
    try:
        with socket_factory(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(_ROUTE_PROBE)
            return str(sock.getsockname()[0])
    except OSError:
        return None


def parse_hostname_i(output: str) -> list[str]:
    """The usable IPv4 addresses in the output of ``hostname -I``, private ones first."""
    found = [word for word in output.split() if usable(word)]
    return sorted(found, key=lambda a: not ipaddress.ip_address(a).is_private)


def hostname_i() -> str | None:
    """The first usable address listed by ``hostname -I`` (None without the command)."""
    try:
        out = subprocess.run(
            ["hostname", "-I"], capture_output=True, text=True, timeout=2, check=False
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = parse_hostname_i(out)
    return found[0] if found else None


def host_name_address() -> str | None:
    """The address the machine's own name resolves to (hosts file / local resolver)."""
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:
        return None


def lan_address(
    probes: Iterable[Callable[[], str | None]] = (route_probe, hostname_i, host_name_address),
) -> str | None:
    """The first usable address the probes give, or None."""
    for probe in probes:
        address = probe()
        if address and usable(address):
            return address
    return None
