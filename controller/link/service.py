"""The service's opening to its hub: what ``systemd/install.sh --hub BOARD.toml`` installs.

Without a hub the unit has no network at all (``PrivateNetwork=yes``, ``AF_UNIX`` only). With
one, it needs exactly one thing: a TCP connection to the hub's broker. So the installer resolves
the hub's host once, now, writes the address into the installed connection file (the board then
needs no DNS at run time) and writes a drop-in that lets the service use the network of the host
(``PrivateNetwork=no``), the one address family of that address, and that address only
(``IPAddressAllow=``; the unit's ``IPAddressDeny=any`` stays). If the hub's address changes,
the installer is run again with the connection file (docs/hall.md).

``python -m controller.link.service BOARD.toml ETC_DIR``: checks the file, writes
``ETC_DIR/hub.toml`` (and ``ETC_DIR/hub-ca.pem`` with TLS), prints the drop-in. Exit code 2 and
one line on a wrong file or a host that does not resolve.
"""

from __future__ import annotations

import ipaddress
import shutil
import socket
import sys
from dataclasses import replace
from pathlib import Path

from .config import ConfigError, LinkConfig, load, write

HUB_FILE = "hub.toml"
CA_FILE = "hub-ca.pem"


def resolve(host: str, port: int) -> str:
    """One address of the hub (IPv4 preferred: a hall's Wi-Fi is IPv4), or ValueError."""
    literal = host.strip("[]")
    try:
        return str(ipaddress.ip_address(literal))
    except ValueError:
        pass
    try:
        found = socket.getaddrinfo(literal, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise ValueError(f"cannot resolve the hub's host {host!r} now ({exc})") from None
    addresses = [str(info[4][0]) for info in found]  # the host part: text for IPv4 and IPv6
    v4 = [a for a in addresses if ":" not in a]
    if not addresses:
        raise ValueError(f"the hub's host {host!r} has no address")
    return (v4 or addresses)[0]


def is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def installed_config(config: LinkConfig) -> tuple[LinkConfig, str]:
    """The connection file as installed (the host replaced by its address) and the address."""
    if config.tls and not is_address(config.host):
        raise ValueError(
            f"with TLS the connection file must name the hub by its address, not {config.host!r} "
            "(the hub's certificate names that address: docs/hall.md, TLS); "
            "run 'damath-board hub board-add --host ADDRESS'"
        )
    address = resolve(config.host, config.port)
    host = f"[{address}]" if ":" in address else address
    return replace(config, host=host), address


def drop_in(address: str, port: int, hub_file: str) -> str:
    family = "AF_INET6" if ":" in address else "AF_INET"
    return (
        f"# Written by systemd/install.sh --hub: the board publishes to its hub {address} "
        f"(port {port})\n"
        "# and may reach nothing else. If the hub's address changes, run install.sh again.\n"
        "[Service]\n"
        f"Environment=DAMATH_HUB={hub_file}\n"
        "ExecStart=\n"
        'ExecStart=/opt/damath-board/.venv/bin/damath-board run --profile "${DAMATH_PROFILE}" '
        '--hub "${DAMATH_HUB}"\n'
        "PrivateNetwork=no\n"
        f"RestrictAddressFamilies=AF_UNIX {family}\n"
        f"IPAddressAllow={address}\n"
    )


def install(conn: str, etc: str, etc_in_unit: str = "/etc/damath-board") -> str:
    """Write the installed connection file (and CA) into ``etc``; the drop-in's text."""
    config = load(conn)
    installed, address = installed_config(config)
    target = Path(etc)
    ca = ""
    if config.tls and config.ca_file:
        shutil.copyfile(config.ca_file, target / CA_FILE)
        ca = CA_FILE
    write(target / HUB_FILE, installed, ca)
    return drop_in(address, config.port, f"{etc_in_unit}/{HUB_FILE}")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python -m controller.link.service BOARD.toml ETC_DIR", file=sys.stderr)
        return 2
    try:
        print(install(args[0], args[1]), end="")
    except (ConfigError, ValueError, OSError) as exc:
        print(f"{exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
