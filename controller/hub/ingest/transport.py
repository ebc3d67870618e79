"""The hub's MQTT session with its broker: the client (a persistent session, so the broker
keeps what arrives while the hub is down), what it subscribes to, the hub's retained presence
(online, and whether a tournament holds the boards' clocks), and everything the hub publishes
to the boards: acknowledgements, assignments, the desk's commands, a rebuild's request to send
every game again, a retired board's retained messages cleared.

paho's network thread calls ``arrived`` for each message; nothing else of the intake runs on
it."""

from __future__ import annotations

import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from controller.link.client import new_client
from controller.link.protocol import (
    ACK,
    ASSIGNMENT,
    COMMAND,
    HUB_PRESENCE,
    PRESENCE,
    RECORDS,
    RESEND,
    STATE,
    VERSION,
    ack_payload,
    board_topic,
    canonical,
    presence_payload,
)

from ..store import Store
from .model import BrokerAddress

log = logging.getLogger("damath-board.hub.ingest")


class Transport:
    def __init__(
        self,
        store: Store,
        address: BrokerAddress | None,
        clock: Callable[[], float],
        client_id: str,
        arrived: Callable[[str, bytes], None],
    ) -> None:
        self.store = store
        self.address = address
        self.clock = clock
        self.arrived = arrived
        self.tournament: Callable[[], bool] = lambda: False
        """Whether the hub runs a tournament: said in its presence, so that every board holds
        its clocks until the round starts (docs/mqtt.md)."""
        self.tournament_said: bool | None = None
        self.resend: dict[str, Any] | None = None
        """The rebuild's request to every board (sent retained at every connect), or None."""
        self.resend_until = 0.0
        self.connected = False
        self.connects = 0
        """How often the hub has connected to its broker (1 unless it was dropped)."""
        self.last_ack: mqtt.MQTTMessageInfo | None = None
        """The newest acknowledgement handed to the broker (a failpoint lets it arrive)."""
        self.client = self._make_client(client_id) if address is not None else None

    def _make_client(self, client_id: str) -> mqtt.Client:
        a = self.address
        assert a is not None
        client = new_client(
            client_id,
            a.username,
            a.password,
            will=(HUB_PRESENCE, presence_payload(False, 0.0)),
            clean_session=False,  # the broker keeps what arrives while the hub is down
            tls=a.tls,
            ca_file=a.ca_file,
            reconnect=(0.5, 4),
            inflight=200,
            handlers={
                "on_connect": self._on_connect,
                "on_disconnect": self._on_disconnect,
                "on_message": self._on_message,
            },
        )
        client.max_queued_messages_set(0)
        return client

    def start(self) -> None:
        if self.client is not None and self.address is not None:
            self.client.connect_async(self.address.host, self.address.port, keepalive=10)
            self.client.loop_start()

    def stop(self) -> None:
        """Offline said (retained) if connected, then the session closed."""
        if self.client is None:
            return
        if self.connected:
            info = self.client.publish(
                HUB_PRESENCE, presence_payload(False, self.clock()), qos=1, retain=True
            )
            info.wait_for_publish(2.0)
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason_code: Any, properties: Any
    ) -> None:
        if reason_code.is_failure:
            log.error("broker refused the hub: %s", reason_code)
            return
        self.connected = True
        self.connects += 1
        client.subscribe(
            [(board_topic("+", leaf), 1) for leaf in (RECORDS, STATE, PRESENCE)], qos=1
        )
        self.say_presence(client)
        for board, payload in self.store.current_assignments().items():
            client.publish(board_topic(board, ASSIGNMENT), canonical(payload), qos=1, retain=True)
        if self.resend is not None and time.time() < self.resend_until:
            for board in self.boards():  # each board sends every game again, once
                client.publish(board_topic(board, RESEND), canonical(self.resend), qos=1,
                               retain=True)  # fmt: skip

    def _on_disconnect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason_code: Any, properties: Any
    ) -> None:
        self.connected = False

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        self.arrived(message.topic, bytes(message.payload))

    def boards(self) -> list[str]:
        return [b["id"] for b in self.store.boards()]

    def say_presence(self, client: mqtt.Client) -> None:
        """The hub's retained presence: online, and whether it runs a tournament."""
        flag = self.tournament()
        payload = presence_payload(True, self.clock(), tournament=flag)
        client.publish(HUB_PRESENCE, payload, qos=1, retain=True)
        self.tournament_said = flag

    def presence_again(self) -> None:
        """Said again when a tournament was created (or removed) since it was last said."""
        said = self.tournament_said
        if self.client is not None and self.connected and said not in (None, self.tournament()):
            self.say_presence(self.client)

    def ask_resend(self, ident: str, until: float) -> None:
        """Every board asked (retained, at every connect until ``until``) to send every record
        of every game again from the first."""
        self.resend = {"v": VERSION, "id": ident, "from": 1}
        self.resend_until = until
        if self.client is not None and self.connected:
            for board in self.boards():
                self.client.publish(board_topic(board, RESEND), canonical(self.resend), qos=1,
                                    retain=True)  # fmt: skip

    def assignment(self, board: str, payload: dict[str, Any] | None) -> None:
        if self.client is not None:
            body = canonical(payload) if payload is not None else b""
            self.client.publish(board_topic(board, ASSIGNMENT), body, qos=1, retain=True)

    def command(self, board: str, cmd: str, by: str, asg: str | None = None) -> str:
        """The arbiter's desk tells ``board`` to pause, resume or start (``asg``: the table it
        starts); retained, so a board that is offline gets it when it comes back; it obeys
        each id once. Returns the id."""
        ident = f"c{int(self.clock() * 1000):x}-{secrets.token_hex(3)}"
        message: dict[str, Any] = {"v": VERSION, "id": ident, "cmd": cmd, "by": by[:40]}
        if asg is not None:
            message["asg"] = asg
        body = canonical(message)
        if self.client is None:
            raise RuntimeError("the hub is not connected to its broker")
        self.client.publish(board_topic(board, COMMAND), body, qos=1, retain=True)
        return ident

    def retired(self, board: str) -> None:
        """A retired board's retained assignment and command cleared."""
        if self.client is not None and self.connected:
            for leaf in (ASSIGNMENT, COMMAND):
                self.client.publish(board_topic(board, leaf), b"", qos=1, retain=True)

    def ack(self, board: str, game: str, seq: int, conflict: int | None) -> None:
        if self.client is None:
            return
        payload = ack_payload(game, seq)
        if conflict is not None:
            payload = canonical({"v": VERSION, "game": game, "seq": seq, "conflict": conflict})
        self.last_ack = self.client.publish(board_topic(board, ACK), payload, qos=1)

    def acks_out(self) -> None:
        """Until the broker has taken the acknowledgements handed to it (a failpoint dies after
        them: the worst case, a kill just after they left)."""
        if self.last_ack is not None:
            with contextlib.suppress(RuntimeError, ValueError):
                self.last_ack.wait_for_publish(2.0)
