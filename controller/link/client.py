"""One way to make the paho-mqtt client, for the board's link and for the hub alike: VERSION2
callbacks, credentials, TLS, a retained last will, reconnecting with back-off.

paho-mqtt 2 wakes its network thread through a pair of sockets it makes by connecting a TCP
socket to 127.0.0.1 (a Windows habit). On the board that is wrong twice over: the service may
reach nothing but its hub (``IPAddressDeny=any``, loopback included) and, without a hub's
drop-in, has no network at all (``PrivateNetwork=yes``), so the link could not even start.
A Unix socket pair does the same job inside the process and needs no network: it replaces
paho's, once, here (tests/hub/test_service_network.py starts a board with no network at all).
"""

from __future__ import annotations

import socket
import ssl
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion


def _local_socketpair() -> tuple[socket.socket, socket.socket]:
    first, second = socket.socketpair()
    first.setblocking(False)
    second.setblocking(False)
    return first, second


if hasattr(mqtt, "_socketpair_compat"):
    mqtt._socketpair_compat = _local_socketpair


def new_client(
    client_id: str,
    username: str,
    password: str,
    *,
    will: tuple[str, bytes],
    clean_session: bool,
    tls: bool = False,
    ca_file: str | None = None,
    reconnect: tuple[float, float] = (1, 8),
    inflight: int = 20,
    handlers: dict[str, Callable[..., Any]],
) -> mqtt.Client:
    """A client (MQTT 3.1.1) not yet connected; ``handlers`` maps ``on_connect``, ... to
    callbacks with paho's VERSION2 signatures."""
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=client_id,
        clean_session=clean_session,
        protocol=mqtt.MQTTv311,
    )
    client.username_pw_set(username, password)
    if tls:
        client.tls_set(ca_certs=ca_file or None, tls_version=ssl.PROTOCOL_TLS_CLIENT)
    topic, payload = will
    client.will_set(topic, payload, qos=1, retain=True)
    # paho declares whole seconds but computes with any number (the hub waits 0.5 s at first)
    client.reconnect_delay_set(
        min_delay=reconnect[0],  # type: ignore[arg-type]
        max_delay=reconnect[1],  # type: ignore[arg-type]
    )
    client.max_inflight_messages_set(inflight)
    for name, handler in handlers.items():
        setattr(client, name, handler)
    return client
