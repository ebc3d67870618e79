"""The hub's two other ties to its federation (docs/federation.md): the event's players
imported by their federation IDs, and the hall's live boards bridged to the federation's
broker cluster.

The bridge is Mosquitto's own (a ``connection`` stanza in the hub's broker's configuration,
``DIR/broker/bridge.conf``, read at the broker's start): it publishes the boards' ``state`` and
``presence`` to the cluster under ``damath/v1/halls/<hall>/``, outward only (nothing the
federation's broker holds comes back into the hall), over TLS only (the cluster's certificate
checked against the CA of the event's credential, and against the node's name), and goes on
to the next node of the cluster when the one it uses is lost. While the hall's uplink is down
its Mosquitto keeps the boards' messages for the bridge (QoS 1) and sends them, in order, when
the link is back; the federation's wall shows each board's newest (``federation/wall.py``).
"""

from __future__ import annotations

import json
import ssl
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from controller.federation.cluster import HALLS, LEAVES
from controller.federation.credentials import EventCredential
from controller.federation.ids import check_id
from controller.link.protocol import ROOT
from controller.tournament.model import Player, TournamentError
from controller.tournament.tournament import Tournament

from .broker import write_private

BRIDGE_FILE = "bridge.conf"


def fetch_player(cred: EventCredential, fed_id: str, timeout: float = 30) -> dict[str, Any]:
    """A registered player (ID, name, school, region) from the federation's registry."""
    url = f"{cred.url}/api/players/{urllib.parse.quote(fed_id)}"
    context = ssl.create_default_context(cafile=cred.ca_path) if url.startswith("https") else None
    try:
        with urllib.request.urlopen(url, timeout=timeout, context=context) as r:
            data: dict[str, Any] = json.loads(r.read())
            return data
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            raise TournamentError(
                f"federation ID {fed_id}: not in the federation's registry"
            ) from None
        raise ValueError(f"the federation at {cred.url} answered {exc.code}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise ValueError(f"cannot reach the federation at {cred.url}: {reason}") from None


def import_players(
    t: Tournament, cred: EventCredential, ids: list[str], division: str, by: str = "organiser"
) -> list[Player]:
    """The players of ``ids`` entered in ``division`` with their names and schools as the
    registry has them and their federation IDs; all or none."""
    wanted = [check_id(raw) for raw in ids]
    if len(set(wanted)) != len(wanted):
        raise TournamentError("a federation ID is given twice")
    entered = {p.fed_id for p in t.players().values() if p.fed_id}
    again = [i for i in wanted if i in entered]
    if again:
        raise TournamentError(f"federation ID {again[0]} is already entered in this event")
    found = [fetch_player(cred, fed_id) for fed_id in wanted]  # every one first: all or none
    added = t.add_players([(p["name"], p["school"], division, None) for p in found], by)
    with t.store.transaction():
        for player, fed_id in zip(added, wanted, strict=True):
            t.store.set_fed_id(player.id, fed_id)
            t.store.log(by, "player-federation-id", player=player.id, fed_id=fed_id)
    return [t.players()[p.id] for p in added]


BRIDGE_CA = "federation-broker-ca.pem"
SYSTEM_CAS = "/etc/ssl/certs"


def bridge_text(cred: EventCredential, ca_file: str | None = None) -> str:
    """The ``connection`` stanza: the boards' live topics, outward only, to the cluster, over
    TLS (``ca_file``: the cluster's CA as the hub's broker reads it; none: the system's)."""
    if not cred.nodes:
        raise ValueError("the event's credential names no broker nodes of the federation")
    local, remote = f"{ROOT}/", f"{HALLS}/{cred.hall}/"
    trust = f"bridge_cafile {ca_file}" if ca_file else f"bridge_capath {SYSTEM_CAS}"
    lines = [
        "# Written by damath-board hub federation bridge: the hall's live boards, read-only,",
        "# to the federation's broker cluster (docs/federation.md). Read at the broker's start.",
        "connection federation",
        "address " + " ".join(cred.nodes),
        "round_robin false",
        "bridge_protocol_version mqttv311",
        "try_private false",  # RabbitMQ refuses Mosquitto's bridge flag in the CONNECT
        "notifications false",
        "cleansession true",
        "start_type automatic",
        # a link back is used within 5 s (the first try at once, then 1 to 5 s apart)
        "restart_timeout 1 5",
        "keepalive_interval 10",
        f"remote_clientid {cred.username}",
        f"remote_username {cred.username}",
        f"remote_password {cred.password}",
        f"local_clientid {cred.username}-local",
        # TLS only, the cluster's certificate checked (its CA, and the node's name)
        trust,
        "bridge_insecure false",
        "bridge_tls_version tlsv1.2",
    ]
    lines += [f"topic boards/+/{leaf} out 1 {local} {remote}" for leaf in LEAVES]
    return "\n".join(lines) + "\n"


def write_bridge(folder: str | Path, cred: EventCredential) -> Path:
    """The stanza, and a copy of the cluster's CA beside it (the broker reads both at start)."""
    broker = Path(folder) / "broker"
    broker.mkdir(parents=True, exist_ok=True, mode=0o700)
    ca = None
    if cred.broker_ca_path:
        try:
            text = Path(cred.broker_ca_path).read_text(encoding="ascii")
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(
                f"{cred.broker_ca_path}: the cluster's CA cannot be read ({exc})"
            ) from None
        if "BEGIN CERTIFICATE" not in text:
            raise ValueError(f"{cred.broker_ca_path}: not a CA certificate (PEM)")
        ca = broker / BRIDGE_CA
        write_private(ca, text)
    path = broker / BRIDGE_FILE
    write_private(path, bridge_text(cred, str(ca.resolve()) if ca else None))
    return path


def remove_bridge(folder: str | Path) -> bool:
    path = Path(folder) / "broker" / BRIDGE_FILE
    (path.parent / BRIDGE_CA).unlink(missing_ok=True)
    if path.exists():
        path.unlink()
        return True
    return False
