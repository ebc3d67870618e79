"""The federation's wall: every hall's boards as their hubs' bridges send them, kept in memory
and pushed to every open page; a page shows each hall's top boards (table 1 first).

``Reader`` reads the broker cluster with the federation's own user, over TLS, one node at a
time, in a persistent session whose queue is a quorum queue on every node (``cluster``): when
the node it reads from is lost (killed, its network cut), it goes on to the next node of the
list at once and finds there everything the halls sent meanwhile. The halls' bridges fail
over the same way (Mosquitto's ``address`` with several nodes).

**Each board's current state, once, in order.** A state can reach the wall twice (a QoS 1
message sent again after a node's loss or a hall's cut link) or late (a node's retained copy,
older than what the wall shows). So a card changes only for what is newer: a board's state by
its game (game ids begin with the time the game began) and the number of its records, a
presence by the board's clock, an assignment by its round; an equal state is a repeat. A state
without a game (a board between games) does not hide the game just shown.

**Each game with its own table.** A board's state names the board's newest table (its
``assignment``), which is the next round's once that is sent, while the game it shows may still
be the last round's, finished. So the wall ties each game to the table its state named when the
wall first saw it, moved to a newer one only while no move is played (the hub's own rule,
docs/mqtt.md), and a card says which table its game was played at (``game_table``): the page
shows a finished game as the previous one, with its own pairing, never under the next pairing.
A game the wall first saw already over has no known table (``None``): the page calls it the
board's last game, and names no one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from controller.link.protocol import MAX_PAYLOAD, VERSION, Rejected, is_version, load_json

from .cluster import HALLS, LEAVES, WALL_CLIENT, parse_hall_topic

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
KEEP = 8
"""Tables and games remembered per board (a game's own table, shown with it)."""


def card_of(hall: str, board: str, data: dict[str, Any], at: float) -> dict[str, Any]:
    """A board's card from its state message (only the fields the wall shows)."""
    card: dict[str, Any] = {k: data.get(k) for k in KEPT}
    return {"hall": hall, "board": board, "online": True, "at": at, **card}


def table_of(data: dict[str, Any]) -> dict[str, Any]:
    """What the wall shows of a board's assignment: round, table and the players' names."""

    def name(side: str) -> str:
        person = data.get(side)
        return str(person.get("name", ""))[:60] if isinstance(person, dict) else ""

    ident = data.get("id")
    return {
        "id": ident[:64] if isinstance(ident, str) else None,
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
        self.stale = 0
        """States, presences and tables dropped as repeats or older than the card's."""
        self.places: dict[tuple[str, str], dict[str, Any]] = {}
        """Each card's news by kind, where it stands (``newer``)."""
        self.broker: ReaderStatus | None = None
        """The reader's connection to the cluster (shown with the wall's data)."""
        self.tables: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}
        """Each board's tables by their id, the last few (a game's own, shown with it)."""
        self.ties: dict[tuple[str, str], dict[str, tuple[str | None, bool]]] = {}
        """Each board's games, the last few: the id of the table each was played at (None:
        not known), and whether a move had been played when the wall first saw it."""

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

    def update(self, card: dict[str, Any], order: tuple[str, Any] | None = None) -> bool:
        """From the reader's thread: a board's card changed (its state, its presence or its
        table: what a message does not say is kept from the card as it was). ``order``: the
        kind of news and its place (``newer``); news no newer than the card's is dropped.
        True if the card changed."""
        key = (card["hall"], card["board"])
        with self.lock:
            old = self.cards.get(key, {"assignment": None, "online": True})
            seen = self.places.setdefault(key, {})
            if order is not None:
                kind, place = order
                if kind in seen and not newer(kind, place, seen[kind]):
                    self.stale += 1
                    return False
                seen[kind] = place
            elif card.get("assignment", "") is None:
                seen.pop("assignment", None)  # a table taken back: the next one is news
            card = {**old, **card, "pushed": time.time()}
            known = key in self.cards
            self.cards[key] = card
            if known and _visible(card) == _visible(old):
                return False  # nothing a page shows has changed (a presence said again)
            self.received += 1
            subs = [(s, self._shown(card, s.top)) for s in self.subscribers]
        for sub, shown in subs:
            if not shown:
                continue
            try:
                sub.loop.call_soon_threadsafe(self._deliver, sub, key, card)
            except RuntimeError:  # the page's loop has closed
                self.unsubscribe(sub)
        return True

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
        if not isinstance(data, dict) or not is_version(data.get("v"), VERSION):
            return
        now = time.time()
        if leaf == "state" and data.get("board") == board:
            place = state_place(data)
            if place is not None:
                card = card_of(hall, board, data, now)
                with self.lock:
                    card["game_table"] = self._tie(hall, board, data)
                self.update(card, ("state", place))
        elif leaf == "presence" and isinstance(data.get("online"), bool):
            t = data.get("t")
            clock = float(t) if isinstance(t, int | float) and not isinstance(t, bool) else None
            self.update(
                {"hall": hall, "board": board, "online": data["online"], "at": now},
                ("presence", (clock, data["online"])) if clock is not None else None,
            )
        elif leaf == "assignment":
            table = table_of(data)
            with self.lock:
                known = self.tables.setdefault((hall, board), {})
                if table["id"] is not None:
                    known[table["id"]] = table
                    while len(known) > KEEP:
                        del known[next(iter(known))]
                shown = self.cards.get((hall, board), {})
                mine = self._table_of_game(hall, board, shown.get("game"))
            change: dict[str, Any] = {"hall": hall, "board": board, "assignment": table}
            if shown.get("game") is not None:
                change["game_table"] = mine  # its table's names, now that they are known
            self.update(change, ("assignment", (table["round"] or 0, table)))

    def _tie(self, hall: str, board: str, data: dict[str, Any]) -> dict[str, Any] | None:
        """The table the state's game was played at (under the lock): the one its state named
        when the wall first saw it; a newer one while no move is played; none known for a game
        first seen over."""
        game = data.get("game")
        if not isinstance(game, str):
            return None
        asg = data.get("assignment")
        asg = asg[:64] if isinstance(asg, str) else None
        ties = self.ties.setdefault((hall, board), {})
        unplayed = data.get("ply") == 0 and data.get("phase") != "over"
        if game not in ties:
            ties[game] = (None if data.get("phase") == "over" else asg, unplayed)
            while len(ties) > KEEP:
                del ties[next(iter(ties))]
        elif ties[game][1]:  # no move yet when last seen: the table in force now is its own
            ties[game] = (asg, unplayed)
        return self._table_of_game(hall, board, game)

    def _table_of_game(self, hall: str, board: str, game: Any) -> dict[str, Any] | None:
        if not isinstance(game, str):
            return None
        asg, _unplayed = self.ties.get((hall, board), {}).get(game, (None, False))
        if asg is None:
            return None
        return self.tables.get((hall, board), {}).get(asg) or {"id": asg}


def _visible(card: dict[str, Any]) -> dict[str, Any]:
    """What a page shows of a card (not when its news came)."""
    return {k: v for k, v in card.items() if k not in ("at", "pushed")}


def state_place(data: dict[str, Any]) -> tuple[str, int, str] | None:
    """A state's place among its board's: its game, its records, and its content (an equal
    place is a repeat; a state of the same records that says something else is news)."""
    game, seq = data.get("game"), data.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool):
        return None
    if game is None:
        return ("", seq, canonical_text(data))
    return (str(game)[:64], seq, canonical_text(data)) if isinstance(game, str) else None


def canonical_text(data: dict[str, Any]) -> str:
    return json.dumps({k: data.get(k) for k in KEPT}, sort_keys=True, separators=(",", ":"))


def newer(kind: str, place: Any, seen: Any) -> bool:
    """Whether news of ``kind`` at ``place`` is newer than what the card shows (at ``seen``)."""
    if kind == "state":  # (game, records, content)
        game, seq, content = place
        old_game, old_seq, old_content = seen
        if not game:  # a board between games: the game shown stays (its result, its end)
            return not old_game and (seq, content) != (old_seq, old_content)
        if (game, seq) != (old_game, old_seq):
            return bool((game, seq) > (old_game, old_seq))
        return bool(content != old_content)
    if kind == "presence":  # (the board's clock, online)
        return bool(place[0] > seen[0])
    round_no, table = place  # an assignment: a later round, or this round's table changed
    return bool(round_no > seen[0] or (round_no == seen[0] and table != seen[1]))


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
        client_id: str = WALL_CLIENT,
        ca_file: str | None = None,
    ) -> None:
        self.nodes = [_split(n) for n in nodes]
        self.username, self.password = username, password
        self.on_message = on_message
        self.client_id = client_id
        self.ca_file = ca_file
        self.status = ReaderStatus()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="federation-wall", daemon=True)
        self._client: mqtt.Client | None = None
        self._in: tuple[str, int] | None = None

    def start(self) -> Reader:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._client is not None:
            with contextlib.suppress(Exception):
                self._client.disconnect()  # the session stays: the queue keeps the halls' news
        self._thread.join(5)

    def _make(self) -> mqtt.Client:
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=self.client_id,
            clean_session=False,  # the session's quorum queue survives a node (cluster.py)
            protocol=mqtt.MQTTv311,
        )
        # TLS only: the cluster's certificate checked against its CA and the node's name
        client.tls_set(ca_certs=self.ca_file, tls_version=ssl.PROTOCOL_TLS_CLIENT)
        client.username_pw_set(self.username, self.password)
        client.on_connect = self._on_connect
        client.on_message = lambda _c, _u, m: self.on_message(m.topic, bytes(m.payload))
        return client

    def _on_connect(self, client: mqtt.Client, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        if reason.is_failure:
            self.status.problem = f"refused: {reason}"
            client.disconnect()
            return
        host, port = self._in or ("", 0)
        self.status.connects += 1
        if self.status.connects > 1:
            self.status.failovers += 1
        self.status.node, self.status.problem = f"{host}:{port}", ""
        client.subscribe([(f"{HALLS}/+/boards/+/{leaf}", 1) for leaf in LEAVES])

    def _run(self) -> None:
        turn = 0
        while not self._stop.is_set():
            host, port = self._in = self.nodes[turn % len(self.nodes)]
            turn += 1
            client = self._client = self._make()
            try:
                client.connect(host, port, keepalive=5)
            except OSError as exc:  # refused, unreachable, or a certificate not the cluster's
                self.status.node = ""
                self.status.problem = f"{host}:{port}: {exc}"
                if turn % len(self.nodes) == 0:
                    self._stop.wait(1.0)  # every node tried: a breath before the next round
                continue
            since = time.monotonic()
            while not self._stop.is_set():
                if client.loop(timeout=0.2) != mqtt.MQTT_ERR_SUCCESS:
                    break
            was = self.status.node
            self.status.node = ""
            with contextlib.suppress(Exception):
                client.disconnect()
            if was and not self._stop.is_set():
                log.warning("the broker node %s is lost; reading from the next", was)
            if time.monotonic() - since < 2.0:
                # a node that takes the connection and drops it at once (RabbitMQ's MQTT while
                # its cluster settles after a loss): a breath, not thousands of logins a minute
                self._stop.wait(1.0)


def _split(node: str) -> tuple[str, int]:
    host, _, port = node.rpartition(":")
    return host.strip("[]"), int(port)


def encode(event: str, data: Any) -> str:
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"
