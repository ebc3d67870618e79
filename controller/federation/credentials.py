"""An event's credential: the file the federation gives a hub's organiser for one event.

``damath-board federation event add`` writes it; the hub reads it to import the event's players
by ID, to submit the finished event, and to bridge its live boards to the federation's broker.
Every mistake in it is one sentence naming the file and the field::

    # the event's credential at the federation: keep it secret
    [federation]
    url = "https://fed.example.org:8443"   # where hubs submit (HTTPS)
    ca_file = "federation-ca.pem"         # the CA of that address ("" for the system's)

    [event]
    id = "ncr-2026-12"
    token = "..."     # proves the event to the federation (only its hash is kept there)
    key = "..."       # 64 hex digits: the hub signs the submission with it

    [broker]          # the federation's broker cluster, for the hall's live bridge (TLS)
    nodes = ["fed1.example.org:8883", "fed2.example.org:8883", "fed3.example.org:8883"]
    ca_file = "broker-ca.pem"             # the CA of the cluster's certificates ("": the system's)
    username = "hall-ncr-2026-12"
    password = "..."
    hall = "ncr-2026-12"

The token travels only to the federation, over HTTPS; the key never travels (the federation
keeps its copy); the broker's password lets the hall publish its live boards and nothing else,
and crosses the network only inside TLS, to a cluster whose certificate the hall's Mosquitto
checks against ``ca_file``.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.i18n import _
from controller.record.toml_text import toml_string as q

EVENT_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
"""An event's id is also its hall's name on the federation's broker (a topic level and, in
RabbitMQ, a word of a routing key): lower-case letters, digits and ``-``."""
NODE = re.compile(r"^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9A-Fa-f:]+\]:\d{1,5}$")


class CredentialError(ValueError):
    """The credential file is missing, unreadable or wrong; the message says where."""


def check_event_id(raw: str) -> str:
    if not isinstance(raw, str) or not EVENT_ID.match(raw):
        raise CredentialError(
            _(
                "event id {id!r}: 1 to 40 lower-case letters, digits or '-', starting with a "
                "letter or digit"
            ).format(id=str(raw)[:60])
        )
    return raw


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class EventCredential:
    url: str
    ca_file: str
    event: str
    token: str
    key: bytes
    nodes: tuple[str, ...] = ()
    username: str = ""
    password: str = ""
    hall: str = ""
    name: str = ""
    broker_ca: str = ""
    """The cluster's CA file (relative to the credential's folder), "" for the system's."""
    folder: Path = field(default=Path("."), compare=False)

    @classmethod
    def new(
        cls,
        event: str,
        url: str,
        ca_file: str,
        nodes: tuple[str, ...],
        name: str = "",
        broker_ca: str = "",
    ) -> EventCredential:
        return cls(
            url=url,
            ca_file=ca_file,
            event=check_event_id(event),
            token=secrets.token_urlsafe(32),
            key=secrets.token_bytes(32),
            nodes=nodes,
            username=f"hall-{event}",
            # hex: a password starting with "-" would be read as an option by rabbitmqctl
            password=secrets.token_hex(24),
            hall=event,
            name=name,
            broker_ca=broker_ca,
        )

    @property
    def ca_path(self) -> str | None:
        """The CA file as a path (relative to the credential's folder), or None."""
        return self._path(self.ca_file)

    @property
    def broker_ca_path(self) -> str | None:
        """The cluster's CA file as a path, or None (the system's CAs)."""
        return self._path(self.broker_ca)

    def _path(self, name: str) -> str | None:
        if not name:
            return None
        path = Path(name)
        return str(path if path.is_absolute() else self.folder / path)

    def render(self) -> str:
        nodes = ", ".join(q(n) for n in self.nodes)
        return (
            "# The event's credential at the federation (damath-board federation event add).\n"
            "# Keep it secret: it submits the event's results and signs them.\n"
            "[federation]\n"
            f"url = {q(self.url)}\n"
            f"ca_file = {q(self.ca_file)}\n\n"
            "[event]\n"
            f"id = {q(self.event)}\n"
            f"name = {q(self.name)}\n"
            f"token = {q(self.token)}\n"
            f"key = {q(self.key.hex())}\n\n"
            "[broker]\n"
            f"nodes = [{nodes}]\n"
            f"ca_file = {q(self.broker_ca)}\n"
            f"username = {q(self.username)}\n"
            f"password = {q(self.password)}\n"
            f"hall = {q(self.hall)}\n"
        )

    def write(self, path: Path) -> Path:
        """The file, whole and readable by its owner only."""
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(self.render())
        os.replace(tmp, path)
        return path


def load(path: str | Path) -> EventCredential:
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CredentialError(_("{path}: no such file").format(path=path)) from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CredentialError(
            _("{path}: cannot be read ({error})").format(path=path, error=exc)
        ) from None
    return parse(data, str(path), path.parent)


def _text(table: Any, name: str, where: str, required: bool = True) -> str:
    value = table.get(name, "") if isinstance(table, dict) else None
    if not isinstance(value, str) or (required and not value):
        raise CredentialError(
            _("{where}: '{name}' must be a non-empty string").format(where=where, name=name)
        )
    return value


LOOPBACK = re.compile(r"^http://(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])(:\d{1,5})?(/|$)")


def federation_url(url: str) -> bool:
    """An address a hub may submit to: ``https://`` with a host, or ``http://`` to this very
    computer only (a test, a federation tried on one laptop): an event's token and its
    results never cross a network in clear."""
    return bool(re.match(r"^https://[^\s/]+", url) or LOOPBACK.match(url))


def parse(data: dict[str, Any], where: str, folder: Path = Path(".")) -> EventCredential:
    fed, ev, broker = data.get("federation"), data.get("event"), data.get("broker", {})
    url = _text(fed, "url", f"{where} [federation]")
    if not federation_url(url):
        raise CredentialError(
            _(
                "{where} [federation]: 'url' must start with https:// (http:// only for this "
                "computer: localhost, 127.0.0.1)"
            ).format(where=where)
        )
    key_hex = _text(ev, "key", f"{where} [event]")
    try:
        key = bytes.fromhex(key_hex)
    except ValueError:
        key = b""
    if len(key) != 32:
        raise CredentialError(_("{where} [event]: 'key' must be 64 hex digits").format(where=where))
    nodes = broker.get("nodes", []) if isinstance(broker, dict) else None
    if not isinstance(nodes, list) or not all(isinstance(n, str) and NODE.match(n) for n in nodes):
        raise CredentialError(
            _("{where} [broker]: 'nodes' must be a list of \"host:port\"").format(where=where)
        )
    return EventCredential(
        url=url.rstrip("/"),
        ca_file=_text(fed, "ca_file", f"{where} [federation]", required=False),
        event=check_event_id(_text(ev, "id", f"{where} [event]")),
        token=_text(ev, "token", f"{where} [event]"),
        key=key,
        nodes=tuple(nodes),
        username=_text(broker, "username", f"{where} [broker]", required=bool(nodes)),
        password=_text(broker, "password", f"{where} [broker]", required=bool(nodes)),
        hall=_text(broker, "hall", f"{where} [broker]", required=bool(nodes)),
        name=_text(ev, "name", f"{where} [event]", required=False),
        broker_ca=_text(broker, "ca_file", f"{where} [broker]", required=False),
        folder=folder,
    )
