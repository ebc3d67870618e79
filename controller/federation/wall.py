"""The federation's wall: every hall's boards as their hubs' bridges send them, kept in memory
and pushed to every open page; a page shows each hall's top boards (table 1 first).

``Reader`` reads the broker cluster with the federation's own user, one node at a time: when
the node it reads from is lost (killed, its network cut), it goes on to the next node of the
list at once, so a node's loss costs the wall the moment of reconnecting, not the broadcast.
The halls' bridges fail over the same way (Mosquitto's ``address`` with several nodes).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from controller.link.protocol import MAX_PAYLOAD, VERSION, Rejected, load_json

from .cluster import HALLS, LEAVES, parse_hall_topic

log = logging.getLogger("damath-board.federation.wall")
KEPT = (
    "game",
    "seq",
    "phase",
    "paused",
    "variant",
    "rules",
    "ply",
    "to_move",
    "position",
    "totals",
    "clocks",
    "last_move",
    "result",
)
"""What a card keeps of a board's state (docs/mqtt.md): what the wall draws."""


def card_of(hall: str, board: str, data: dict[str, Any], at: float) -> dict[str, Any]:
    """A board's card from its state message (only the fields the wall shows)."""
    card: dict[str, Any] = {k: data.get(k) for k in KEPT}
    return {"hall": hall, "board": board, "online": True, "at": at, **card}


def table_of(data: dict[str, Any]) -> dict[str, Any]:
    """What the wall shows of a board's assignment: round, table and the players' names."""

    def name(side: str) -> str:
        person = data.get(side)
        return str(person.get("name", ""))[:60] if isinstance(person, dict) else ""

    return {
        "round": data.get("round") if isinstance(data.get("round"), int) else None,
        "table": str(data.get("table", ""))[:8],
        "blue": name("blue"),
        "red": name("red"),
    }


def table_key(card: dict[str, Any]) -> tuple[int, str]:
    """Top boards first: the lowest table number (a Swiss puts the leaders there)."""
    asg = card.get("assignment") or {}
    table = str(asg.get("table") or "")
    return (int(table) if table.isdigit() else 10**6, card["board"])


@dataclass(eq=False)
class Subscriber:
    top: int
    """How many boards of each hall the page shows (0: every board)."""
    loop: asyncio.AbstractEventLoop
    pending: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    def take(self) -> list[dict[str, Any]]:
        cards = list(self.pending.values())
        self.pending.clear()
        self.wake.clear()
        return cards


class Wall:
    """Every hall's boards; a slow page skips states rather than falling behind."""

    def __init__(self) -> None:
        self.cards: dict[tuple[str, str], dict[str, Any]] = {}
        self.subscribers: set[Subscriber] = set()
        self.lock = threading.Lock()
        self.received = 0
        self.broker: ReaderStatus | None = None
        """The reader's connection to the cluster (shown with the wall's data)."""

    def subscribe(self, top: int) -> Subscriber:
        sub = Subscriber(top, asyncio.get_running_loop())
        with self.lock:
            self.subscribers.add(sub)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        with self.lock:
            self.subscribers.discard(sub)

    def snapshot(self, top: int) -> list[dict[str, Any]]:
        with self.lock:
            return [c for c in self.cards.values() if self._shown(c, top)]

    def _shown(self, card: dict[str, Any], top: int) -> bool:
        if top <= 0:
            return True
        hall = card["hall"]
        ranked = sorted((c for c in self.cards.values() if c["hall"] == hall), key=table_key)
        return any(c["board"] == card["board"] for c in ranked[:top])

    def update(self, card: dict[str, Any]) -> None:
        """From the reader's thread: a board's card changed (its state, its presence or its
        table: what a message does not say is kept from the card as it was)."""
        key = (card["hall"], card["board"])
        with self.lock:
            old = self.cards.get(key, {"assignment": None, "online": True})
            card = {**old, **card, "pushed": time.time()}
            self.cards[key] = card
            self.received += 1
            subs = [(s, self._shown(card, s.top)) for s in self.subscribers]
        for sub, shown in subs:
            if not shown:
                continue
            try:
                sub.loop.call_soon_threadsafe(self._deliver, sub, key, card)
            except RuntimeError:  # the page's loop has closed
                self.unsubscribe(sub)

    @staticmethod
    def _deliver(sub: Subscriber, key: tuple[str, str], card: dict[str, Any]) -> None:
        sub.pending[key] = card
        sub.wake.set()

    def message(self, topic: str, payload: bytes) -> None:
        """A bridged message: a board's state or presence. Anything else is ignored (the
        cluster's permissions let only halls publish there)."""
        where = parse_hall_topic(topic)
        if where is None or len(payload) > MAX_PAYLOAD:
            return
        if not payload:  # a retained message cleared: an assignment taken back
            if where[2] == "assignment":
                self.update({"hall": where[0], "board": where[1], "assignment": None})
            return
        hall, board, leaf = where
        try:
            data = load_json(payload)
        except Rejected:
            return
        if not isinstance(data, dict) or data.get("v") != VERSION:
            return
        now = time.time()
        if leaf == "state" and data.get("board") == board:
            self.update(card_of(hall, board, data, now))
        elif leaf == "presence" and isinstance(data.get("online"), bool):
            self.update({"hall": hall, "board": board, "online": data["online"], "at": now})
        elif leaf == "assignment":
            self.update({"hall": hall, "board": board, "assignment": table_of(data)})


@dataclass
class ReaderStatus:
    node: str = ""
    """The node read from now, or empty while none answers."""
    connects: int = 0
    failovers: int = 0
    problem: str = ""


class Reader:
    """The federation's subscription to every hall, on one node of the cluster at a time."""

    def __init__(
        self,
        nodes: list[str],
        username: str,
        password: str,
        on_message: Callable[[str, bytes], None],
        client_id: str = "damath-federation-wall",
    ) -> None:
        self.nodes = [_split(n) for n in nodes]
        self.username, self.password = username, password
        self.on_message = on_message
        self.client_id = client_id
        self.status = ReaderStatus()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="federation-wall", daemon=True)
        self._client: mqtt.Client | None = None

    def start(self) -> Reader:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._client is not None:
            with contextlib.suppress(Exception):
                self._client.disconnect()
        self._thread.join(5)

    def _make(self) -> mqtt.Client:
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=self.client_id,
            clean_session=True,
            protocol=mqtt.MQTTv311,
        )
        client.username_pw_set(self.username, self.password)
        client.on_connect = self._on_connect
        client.on_message = lambda _c, _u, m: self.on_message(m.topic, bytes(m.payload))
        return client

    def _on_connect(self, client: mqtt.Client, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        if reason.is_failure:
            self.status.problem = f"refused: {reason}"
            client.disconnect()
            return
        self.status.problem = ""
        client.subscribe([(f"{HALLS}/+/boards/+/{leaf}", 1) for leaf in LEAVES])

    def _run(self) -> None:
        turn = 0
        while not self._stop.is_set():
            host, port = self.nodes[turn % len(self.nodes)]
            turn += 1
            client = self._client = self._make()
            try:
                client.connect(host, port, keepalive=5)
            except OSError as exc:
                self.status.node = ""
                self.status.problem = f"{host}:{port}: {exc}"
                if turn % len(self.nodes) == 0:
                    self._stop.wait(1.0)  # every node tried: a breath before the next round
                continue
            self.status.connects += 1
            if self.status.connects > 1:
                self.status.failovers += 1
            self.status.node = f"{host}:{port}"
            since = time.monotonic()
            while not self._stop.is_set():
                if client.loop(timeout=0.2) != mqtt.MQTT_ERR_SUCCESS:
                    break
            self.status.node = ""
            with contextlib.suppress(Exception):
                client.disconnect()
            log.warning("the broker node %s:%s is lost; reading from the next", host, port)
            if time.monotonic() - since < 2.0:
                # a node that takes the connection and drops it at once (RabbitMQ's MQTT while
                # its cluster settles after a loss): a breath, not thousands of logins a minute
                self._stop.wait(1.0)


def _split(node: str) -> tuple[str, int]:
    host, _, port = node.rpartition(":")
    return host.strip("[]"), int(port)


def encode(event: str, data: Any) -> str:
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"
