"""The addresses the hub can be reached at, for its banner: the laptop's own IPv4 addresses when
it listens on every address (``0.0.0.0``), so the organiser reads the one the boards and the
hall's screen use (``http://192.168.50.10:8080/desk``), not ``127.0.0.1``. Linux's interface
list, from the standard library only; loopback last."""

from __future__ import annotations

import contextlib
import fcntl
import ipaddress
import socket
import struct

SIOCGIFADDR = 0x8915
"""Linux: an interface's IPv4 address (``netdevice(7)``)."""
EVERY = ("0.0.0.0", "::", "")


def interface_addresses() -> list[str]:
    """Every IPv4 address of this machine's interfaces that are up (loopback included)."""
    found: list[str] = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _index, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            try:
                answer = fcntl.ioctl(s.fileno(), SIOCGIFADDR, request)
            except OSError:  # no IPv4 address, or down
                continue
            address = socket.inet_ntoa(answer[20:24])
            if address not in found:
                found.append(address)
    return found


def reachable(host: str) -> list[str]:
    """Where the hub bound to ``host`` is reached: that host, or for every address the
    machine's own (the hall's network first, loopback last)."""
    if host not in EVERY:
        return [host]
    found = interface_addresses()
    outside = [a for a in found if not ipaddress.ip_address(a).is_loopback]
    return [*outside, "127.0.0.1"]


def urls(host: str, port: int, path: str = "/") -> list[str]:
    return [f"http://{a}:{port}{path}" for a in reachable(host)]
