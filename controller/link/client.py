"""One way to make the paho-mqtt client, for the board's link and for the hub alike: VERSION2
callbacks, credentials, TLS, a retained last will, reconnecting with back-off."""

from __future__ import annotations

import ssl
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion


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
    client.reconnect_delay_set(min_delay=reconnect[0], max_delay=reconnect[1])
    client.max_inflight_messages_set(inflight)
    for name, handler in handlers.items():
        setattr(client, name, handler)
    return client
