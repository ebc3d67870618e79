"""The hub's MQTT side: receive, verify, store, acknowledge; report what is refused.

paho's network thread only queues what arrives; one worker thread takes the queue in batches,
checks every message (size, JSON, schema, topic, the board's key, the chain, the order, the
rules engine) and stores the good records in one transaction per batch. Only after the commit
does it acknowledge to the boards, so an acknowledged record is on disk. A message that fails a
check is refused, counted and kept in the problems list with the reason; nothing about it is
stored. Nothing a board or a stranger sends can stop the worker: an unexpected error rolls the
batch back and handles its messages one by one.

One board cannot crowd out the others (``Limits``, docs/hall.md): the network thread lets each
board's messages through at ``rate`` a second on average (bursts of ``burst``) and drops the
rest on arrival, before they are queued (a board's link resends what is not acknowledged, so
a real board loses nothing); the worker lets a board open ``games_per_hour`` new games an hour
(a refused one is not acknowledged and comes again later). Both are counted per board
(``rejected:rate``, ``rejected:games``) and listed, at most ``REJECTS_PER_WINDOW`` lines per
board and reason every ``WINDOW`` seconds, so a flood costs the store a few rows, not one each.

A store that cannot be written (a full disk) is said once when it happens and once when it is
over, never per batch: nothing is acknowledged meanwhile, and the boards resend later.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import paho.mqtt.client as mqtt

from controller.link.client import new_client
from controller.link.gamestate import GameState, rebuild
from controller.link.protocol import (
    ACK,
    ASSIGNMENT,
    BOARDS_PREFIX,
    COMMAND,
    GAME_ID,
    GENESIS,
    HUB_PRESENCE,
    MAX_PAYLOAD,
    PRESENCE,
    RECORDS,
    RESEND,
    STATE,
    VERSION,
    Envelope,
    Rejected,
    ack_payload,
    board_topic,
    canonical,
    check_seal,
    load_json,
    parse_board_topic,
    parse_envelope,
    presence_payload,
)
from controller.scoresheet.render import sheet_json
from controller.tournament.games import GAMES as GAME_NAMES

from . import failpoints
from .live import Live
from .store import Store
from .storecheck import MARKER, Held, write_marker

Acks = dict[tuple[str, str], tuple[int, int | None]]
"""(board, game) → (the last record stored, the number of a conflicting record)."""

log = logging.getLogger("damath-board.hub.ingest")
BATCH = 500
QUEUE_LIMIT = 50_000
"""Messages waiting for the worker; beyond, arrivals are dropped (counted as ``busy``)."""
WINDOW = 10.0
REJECTS_PER_WINDOW = 20
FLOOD_SECONDS = 10.0
"""A board dropped for more than this many seconds' worth of its rate within ``WINDOW`` is
flooding (a real board is never dropped at all: its bursts are a few dozen messages)."""
UNWRITABLE = ("disk is full", "disk I/O error", "readonly database", "unable to open")


HOLD_SECONDS = 600.0
"""How long the broker holds a flooding board's credential (its own broker only)."""


@dataclass(frozen=True)
class Limits:
    """What one board may send: messages a second on average and at once, new games an hour
    (and at once). A board resending a whole game after an outage sends its window (64
    records and its state) per acknowledgement: well within these."""

    rate: float = 200.0
    burst: int = 1000
    games_per_hour: int = 30
    hold_seconds: float = HOLD_SECONDS
    """How long the broker holds a flooding board's credential (0: never)."""


class Bucket:
    """A token bucket: ``burst`` at once, refilled at ``rate`` a second."""

    __slots__ = ("at", "burst", "rate", "tokens")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst, self.tokens, self.at = rate, burst, burst, now

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def unwritable(exc: BaseException) -> bool:
    """The store cannot be written at all (a full disk, a failing one), as opposed to a
    problem with one message."""
    if isinstance(exc, sqlite3.OperationalError):
        return any(text in str(exc) for text in UNWRITABLE)
    return isinstance(exc, OSError) and exc.errno in (28, 27, 122, 5, 30)  # ENOSPC EFBIG ...


@dataclass
class BrokerAddress:
    host: str
    port: int
    username: str
    password: str
    tls: bool = False
    ca_file: str | None = None


@dataclass
class GameCache:
    board: str
    game: str
    last_seq: int
    head: str
    round_id: int | None = None
    assignment: str | None = None
    state: GameState | None = None
    as_of: float = 0.0
    first_seen: float = 0.0
    problem: str | None = None
    stored_summary: dict[str, Any] | None = None
    """The summary the store kept: shown after a restart until the game is rebuilt."""
    summary: dict[str, Any] | None = None
    summary_seq: int = -1
    """The summary last computed, and at which record: the card reuses it."""


@dataclass
class BoardMeta:
    online: bool = False
    last_contact: float | None = None
    software: str | None = None
    firmware: str | None = None
    problems: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    held_until: float | None = None
    """The broker holds the board's credential until then (it flooded the hub)."""


@dataclass
class Outcome:
    """What became of one message (for tests and the counters)."""

    result: str  # stored, duplicate, out-of-order, state, presence, or a Rejected reason
    detail: str = ""


class Ingest:
    def __init__(
        self,
        store: Store,
        live: Live,
        address: BrokerAddress | None,
        clock: Callable[[], float] = time.time,
        client_id: str = "damath-hub",
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.live = live
        self.address = address
        self.clock = clock
        self.limits = limits or Limits()
        self._rates: dict[str, Bucket] = {}
        self._games_opened: dict[str, Bucket] = {}
        self._dropped: dict[tuple[str, str], int] = {}
        """(board, reason) → messages dropped on arrival since the worker last counted them."""
        self._drop_lock = threading.Lock()
        self._listed: dict[tuple[str | None, str], list[float]] = {}
        """(board, reason) → [window start, lines listed in it, refusals not listed]."""
        self.hold: Callable[[str, float], bool] | None = None
        """Holds a board's credential at the broker until a time (the hub's own broker)."""
        self.release_due: Callable[[], list[str]] = lambda: []
        self.tournament: Callable[[], bool] = lambda: False
        """Whether the hub runs a tournament: said in its presence, so that every board holds
        its clocks until the round starts (docs/mqtt.md)."""
        self._tournament_said: bool | None = None
        self._retired: set[str] = set()
        """Boards whose retirement the pages and the broker know of."""
        self._flooding: dict[str, list[float]] = {}
        """board → [window start, messages dropped in it]."""
        self._last_tick = 0.0
        self.rebuild_until = 0.0
        """Until then (a rebuild from the boards), new games are not limited."""
        self.store_problem = ""
        """Why the store cannot be written now (a full disk), or empty."""
        self.held = Held(0, 0)
        """Games and records in the store (as committed): written to ``hub.expect``."""
        self._held_written = 0.0
        self._held_noted = Held(-1, -1)
        self.resend: dict[str, Any] | None = None
        """The rebuild's request to every board (sent retained at every connect), or None."""
        self.queue: queue.Queue[tuple[str, str, bytes, float]] = queue.Queue()
        self.games: dict[tuple[str, str], GameCache] = {}
        self.meta: dict[str, BoardMeta] = {}
        self.keys: dict[str, bytes] = {}
        self.connected = False
        self.connects = 0
        """How often the hub has connected to its broker (1 unless it was dropped)."""
        self.processed = 0
        self._assignments: dict[str, dict[str, Any]] | None = None
        self._stopping = threading.Event()
        self._worker: threading.Thread | None = None
        self._load()
        self.client = self._make_client(client_id) if address is not None else None
        self._last_ack: mqtt.MQTTMessageInfo | None = None
        """The newest acknowledgement handed to the broker (a failpoint lets it arrive)."""

    # ------------------------------------------------------------------ start and stop

    def _load(self) -> None:
        heads = self.store.heads()
        self.held = Held(len(heads), sum(seq for seq, _ in heads.values()))
        for (board, game), (seq, head) in heads.items():
            self.games[(board, game)] = GameCache(board, game, seq, head)
        for g in self.store.games():
            cache = self.games.get((g["board_id"], g["game_id"]))
            if cache is not None:
                cache.first_seen = g["first_seen"]
                cache.as_of = g["last_seen"]
                cache.assignment = g["assignment_id"]
                cache.stored_summary = g["summary"]
                # a disagreement found before the restart stays the game's problem
                problem = (g["summary"] or {}).get("problem")
                cache.problem = problem if isinstance(problem, str) else None
        for b in self.store.boards():
            self.meta[b["id"]] = BoardMeta(
                False, b["last_contact"], b["software"], b["firmware"], b["problems"]
            )

    def start(self) -> None:
        self._worker = threading.Thread(target=self._work, name="hub-ingest", daemon=True)
        self._worker.start()
        for board in self.meta:
            self.live.update(self.card(board))
        if self.client is not None and self.address is not None:
            self.client.connect_async(self.address.host, self.address.port, keepalive=10)
            self.client.loop_start()

    def stop(self) -> None:
        if self.client is not None:
            if self.connected:
                info = self.client.publish(
                    HUB_PRESENCE, presence_payload(False, self.clock()), qos=1, retain=True
                )
                info.wait_for_publish(2.0)
            self.client.disconnect()
            self.client.loop_stop()
        self._stopping.set()
        self.queue.put(("", "", b"", 0.0))
        if self._worker is not None:
            self._worker.join(10)
        with contextlib.suppress(OSError):
            write_marker(self.store.path.parent, self.held)

    # ------------------------------------------------------------------ MQTT

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
        self._say_presence(client)
        for board, payload in self.store.current_assignments().items():
            client.publish(board_topic(board, ASSIGNMENT), canonical(payload), qos=1, retain=True)
        if self.resend is not None and time.time() < self.rebuild_until:
            for board in self.keys_known():  # each board sends every game again, once
                client.publish(board_topic(board, RESEND), canonical(self.resend), qos=1,
                               retain=True)  # fmt: skip

    def _on_disconnect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason_code: Any, properties: Any
    ) -> None:
        self.connected = False

    def _say_presence(self, client: mqtt.Client) -> None:
        """The hub's retained presence: online, and whether it runs a tournament."""
        flag = self.tournament()
        payload = presence_payload(True, self.clock(), tournament=flag)
        client.publish(HUB_PRESENCE, payload, qos=1, retain=True)
        self._tournament_said = flag

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        """paho's network thread: each board's messages through its bucket; the rest dropped
        here, counted, never queued (this is what keeps a flood from growing the hub)."""
        topic = message.topic
        board = (
            topic[len(BOARDS_PREFIX) :].split("/", 1)[0] if topic.startswith(BOARDS_PREFIX) else ""
        )
        now = time.monotonic()
        bucket = self._rates.get(board)
        if bucket is None:
            if len(self._rates) > 10_000:  # ids the broker lets through are boards' ids
                board = ""
            bucket = self._rates.setdefault(board, Bucket(self.limits.rate, self.limits.burst, now))
        reason = None
        if not bucket.take(now):
            reason = "rate"
        elif self.queue.qsize() >= QUEUE_LIMIT:
            reason = "busy"
        if reason is not None:
            with self._drop_lock:
                self._dropped[(board, reason)] = self._dropped.get((board, reason), 0) + 1
            return
        self.queue.put(("mqtt", topic, bytes(message.payload), self.clock()))

    def keys_known(self) -> list[str]:
        return [b["id"] for b in self.store.boards()]

    def ask_resend(self, ident: str, until: float) -> None:
        """A rebuild: every board asked (retained, at every connect until ``until``) to send
        every record of every game again from the first; new games are not limited meanwhile."""
        self.resend = {"v": VERSION, "id": ident, "from": 1}
        self.rebuild_until = until
        if self.client is not None and self.connected:
            for board in self.keys_known():
                self.client.publish(board_topic(board, RESEND), canonical(self.resend), qos=1,
                                    retain=True)  # fmt: skip

    def refusal(self, kind: str, user: str, detail: str) -> None:
        """The broker refused a login or a publish (from its log): report it."""
        self.queue.put(("refusal", f"{kind}\n{user}", detail.encode(), self.clock()))

    def show(self, board: str) -> None:
        """A page shows ``board`` large: compute its detail in the worker and push it."""
        self.queue.put(("show", board, b"", self.clock()))

    def publish_assignment(self, board: str, payload: dict[str, Any] | None) -> None:
        self._assignments = None  # read again with the new one
        if self.client is not None:
            body = canonical(payload) if payload is not None else b""
            self.client.publish(board_topic(board, ASSIGNMENT), body, qos=1, retain=True)
        self.live.update(self.card(board))

    def publish_command(self, board: str, cmd: str, by: str, asg: str | None = None) -> str:
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

    # ------------------------------------------------------------------ the worker

    def _work(self) -> None:
        while not self._stopping.is_set():
            self._tick()
            try:
                first = self.queue.get(timeout=1.0)
            except queue.Empty:
                if self._dropped:  # a flood's count is listed even while nothing else comes
                    self.process([])
                if self._held_noted != self.held:  # the last second's records too
                    self._note_held(force=True)
                continue
            if self._stopping.is_set():
                return
            batch = [first]
            while len(batch) < BATCH:
                try:
                    batch.append(self.queue.get_nowait())
                except queue.Empty:
                    break
            self.process(batch)

    def process(self, batch: list[tuple[str, str, bytes, float]]) -> list[Outcome]:
        """Handle a batch in one transaction; on an unexpected error, one by one. A store that
        cannot be written fails the batch as a whole: said once, nothing acknowledged."""
        try:
            out = self._process(batch)
        except Exception as exc:
            self._forget([topic for _, topic, _, _ in batch])
            if unwritable(exc):
                self._unwritable(str(exc))
                return [Outcome("unwritable", str(exc)) for _ in batch]
            log.exception("hub: a batch failed; handling its messages one by one")
        else:
            self._written()
            return out
        out = []
        for item in batch:
            try:
                out += self._process([item])
            except Exception as exc:
                self._forget([item[1]])
                if unwritable(exc):
                    self._unwritable(str(exc))
                    out.append(Outcome("unwritable", str(exc)))
                    continue
                log.exception("hub: cannot handle a message on %s", item[1])
                out.append(Outcome("internal", str(exc)))
                try:
                    with self.store.transaction() as db:
                        board = (parse_board_topic(item[1]) or (None, ""))[0]
                        self._reject(db, item[3], board, item[1], "internal", str(exc), item[2])
                except Exception as again:
                    if unwritable(again):
                        self._unwritable(str(again))
                    else:
                        log.exception("hub: cannot even record the failure")
        return out

    def _tick(self) -> None:
        """Once a second: credentials held long enough are given back; the hub's presence
        said again when a tournament was created (or removed) since."""
        now = time.monotonic()
        if now - self._last_tick < 1.0:
            return
        self._last_tick = now
        said = self._tournament_said
        if self.client is not None and self.connected and said not in (None, self.tournament()):
            self._say_presence(self.client)
        self._retire()
        try:
            released = self.release_due()
        except OSError as exc:
            log.error("hub: cannot give back a held credential: %s", exc)
            return
        for board in released:
            meta = self.meta.setdefault(board, BoardMeta())
            meta.held_until = None
            self._refused(board, f"{board}: its credential is given back (it may connect again)")
            self.live.update(self.card(board))

    def _retire(self) -> None:
        """Boards retired (``hub board-remove``, by this hub or the command line beside it)
        leave the pages, and their retained assignment and command are cleared."""
        try:
            removed = self.store.removed_boards() - self._retired
        except sqlite3.Error:
            return
        for board in removed:
            self.meta.pop(board, None)
            self.live.remove(board)
            if self.client is not None and self.connected:
                for leaf in (ASSIGNMENT, COMMAND):
                    self.client.publish(board_topic(board, leaf), b"", qos=1, retain=True)
            self._retired.add(board)

    def _flood(self, board: str, dropped: int, now: float) -> str | None:
        """Count a board's drops; once they pass ``FLOOD_SECONDS`` of its rate within a
        window, hold its credential at the broker. The line to list, if it was held now."""
        window = self._flooding.get(board)
        if window is None or now - window[0] >= WINDOW:
            window = self._flooding[board] = [now, 0.0]
        window[1] += dropped
        meta = self.meta.get(board)
        if self.hold is None or meta is None or not self.limits.hold_seconds:
            return None
        if window[1] < self.limits.rate * FLOOD_SECONDS:
            return None
        if meta.held_until and meta.held_until > time.time():
            return None
        until = time.time() + self.limits.hold_seconds
        try:
            if not self.hold(board, until):
                return None
        except OSError as exc:
            log.error("hub: cannot hold %s's credential: %s", board, exc)
            return None
        meta.held_until = until
        stamp = time.strftime("%H:%M", time.localtime(until))
        return (
            f"{board} flooded the hub ({int(window[1])} messages over its limit in "
            f"{int(now - window[0]) + 1} s): the broker holds its credential until {stamp} "
            "(its connection dropped, its logins refused)"
        )

    def _unwritable(self, why: str) -> None:
        """The store cannot be written: one line when that starts (not one per batch)."""
        if not self.store_problem:
            log.error(
                "hub: the store cannot be written (%s): nothing is acknowledged until it can; "
                "the boards keep everything and resend it (free some disk space)",
                why,
            )
        self.store_problem = why

    def _written(self) -> None:
        if self.store_problem:
            log.warning("hub: the store is written again; the boards' records are coming in")
            self.store_problem = ""

    def _forget(self, topics: list[str]) -> None:
        """Drop cached games of these boards: they are read again from the store."""
        boards = {b for b, _ in filter(None, map(parse_board_topic, topics))}
        for key in [k for k in self.games if k[0] in boards]:
            del self.games[key]
        for (board, game), (seq, head) in self.store.heads().items():
            if board in boards:
                self.games[(board, game)] = GameCache(board, game, seq, head)

    def _process(self, batch: list[tuple[str, str, bytes, float]]) -> list[Outcome]:
        acks: Acks = {}
        changed: set[str] = set()
        outcomes: list[Outcome] = []
        touched: dict[tuple[str, str], GameCache] = {}
        # Only records are acknowledged, so only a batch with records must be on the disk
        # before the hub says so; states and presences are kept at the next such commit.
        durable = any(src == "mqtt" and topic.endswith("/" + RECORDS) for src, topic, _, _ in batch)
        with self._drop_lock:
            dropped, self._dropped = self._dropped, {}
        try:
            self._transaction(batch, durable, dropped, acks, changed, outcomes, touched)
            if acks:
                failpoints.reach("ingest.committed", self._acks_out)
        except BaseException:
            with self._drop_lock:  # counted with the next batch that is written
                for key, n in dropped.items():
                    self._dropped[key] = self._dropped.get(key, 0) + n
            raise
        stored = sum(1 for o in outcomes if o.result == "stored")
        if stored:
            opened = sum(1 for o in outcomes if o.result == "stored" and o.detail == "new")
            self.held = Held(self.held.games + opened, self.held.records + stored)
            self._note_held()
        for (board, game), (seq, conflict) in acks.items():  # only once it is on the disk
            self._ack(board, game, seq, conflict)
        if acks:
            failpoints.reach("ingest.acked", self._acks_out)
        self.processed += len(batch)  # counted once its acknowledgements are out: what waits on it
        return outcomes

    def _note_held(self, force: bool = False) -> None:
        """``hub.expect``: what the store holds, at most a second behind it (never ahead: it
        is written after the commit). The check at start compares the store with it."""
        now = time.monotonic()
        if not force and now - self._held_written < 1.0:
            return
        self._held_written = now
        self._held_noted = self.held
        try:
            write_marker(self.store.path.parent, self.held)
        except OSError as exc:
            self._unwritable(f"{MARKER}: {exc}")

    def _transaction(
        self,
        batch: list[tuple[str, str, bytes, float]],
        durable: bool,
        dropped: dict[tuple[str, str], int],
        acks: Acks,
        changed: set[str],
        outcomes: list[Outcome],
        touched: dict[tuple[str, str], GameCache],
    ) -> None:
        with self.store.transaction(durable=durable) as db:
            now = self.clock()
            for (board, reason), n in dropped.items():
                known = board if self._key(board) is not None else None
                word = "a second" if reason == "rate" else "waiting"
                limit = self.limits.rate if reason == "rate" else QUEUE_LIMIT
                detail = f"{n} messages over the limit ({limit:g} {word}) dropped on arrival"
                where = f"(from {board or '?'})"
                if self._reject(db, now, known, where, reason, detail, b"", n) and known:
                    self._refused(known, f"{board}: {detail} (a flood?)")
                    changed.add(known)
                held = self._flood(known, n, now) if known and reason == "rate" else None
                if held and known:
                    self._reject(db, now, known, where, "held", held, b"")
                    self._refused(known, held)
                    changed.add(known)
            for source, topic, payload, at in batch:
                if source == "show":  # a page opened a board large: push its detail
                    changed.add(topic)
                    outcomes.append(Outcome("show"))
                    continue
                if source == "refusal":
                    kind, user = topic.split("\n", 1)
                    reason = {"login": "login", "takeover": "takeover"}.get(kind, "topic")
                    who = user if self._key(user) is not None else None
                    text = payload.decode()
                    if self._reject(db, at, who, "(broker)", reason, text, b"") and who:
                        self._refused(who, text)
                        changed.add(who)
                    outcomes.append(Outcome(reason, text))
                    continue
                outcome = self._one(db, topic, payload, at, acks, changed, touched)
                outcomes.append(outcome)
            for cache in touched.values():  # each game's row once per batch, as it stands
                self._upsert(db, cache)
            # The wall shows what the hub has checked at once: spectators need not wait for
            # the disk (measured: the commit's fsync was most of the hub's part of the
            # latency at 10x pace, docs/benchmarks.md). A commit that fails is rolled back
            # and the boards resend; the next update shows the store again.
            for board in changed:
                self.live.update(self.card(board), self._detail(board))
            if acks:
                failpoints.reach("ingest.stored", self._acks_out)

    def _reject(
        self,
        db: sqlite3.Connection,
        at: float,
        board: str | None,
        topic: str,
        reason: str,
        detail: str,
        payload: bytes,
        count: int = 1,
    ) -> bool:
        """Count ``count`` refusals; list this one unless the board's refusals for this reason
        already filled their lines of the window (then it is counted into the next line).
        True if it was listed."""
        key = (board, reason)
        window = self._listed.get(key)
        if window is None or at - window[0] >= WINDOW:
            window = self._listed[key] = [at, 0.0, 0.0]
            if len(self._listed) > 5000:
                self._listed = {key: window}
        if window[1] >= REJECTS_PER_WINDOW:
            window[2] += count
            self.store.count(db, board, f"rejected:{reason}", count)
            return False
        window[1] += 1
        if window[2]:
            detail += f" (and {int(window[2])} more refused for the same reason since)"
            window[2] = 0
        self.store.reject(db, at, board, topic, reason, detail, payload, count)
        return True

    def _refused(self, board: str, text: str) -> None:
        """A line for the board's card and the organiser's list (its last five)."""
        meta = self.meta.setdefault(board, BoardMeta())
        meta.refused = [text, *meta.refused][:5]

    def _upsert(
        self, db: sqlite3.Connection, cache: GameCache, supersedes: str | None = None
    ) -> None:
        state = self._state(cache)
        summary = {**state.summary(), "problem": cache.problem or state.broken}
        cache.summary, cache.summary_seq = summary, cache.last_seq
        self.store.upsert_game(
            db,
            cache.board,
            cache.game,
            cache.last_seq,
            cache.head,
            cache.as_of,
            summary,
            cache.round_id,
            cache.assignment,
            supersedes,
        )

    def _acks_out(self) -> None:
        """Until the broker has taken the acknowledgements handed to it (a failpoint dies after
        them: the worst case, a kill just after they left)."""
        if self._last_ack is not None:
            with contextlib.suppress(RuntimeError, ValueError):
                self._last_ack.wait_for_publish(2.0)

    def _ack(self, board: str, game: str, seq: int, conflict: int | None) -> None:
        if self.client is None:
            return
        payload = ack_payload(game, seq)
        if conflict is not None:
            payload = canonical({"v": VERSION, "game": game, "seq": seq, "conflict": conflict})
        self._last_ack = self.client.publish(board_topic(board, ACK), payload, qos=1)

    # ------------------------------------------------------------------ one message

    def _one(
        self,
        db: sqlite3.Connection,
        topic: str,
        payload: bytes,
        at: float,
        acks: Acks,
        changed: set[str],
        touched: dict[tuple[str, str], GameCache],
    ) -> Outcome:
        where = parse_board_topic(topic)
        if where is None:
            self._reject(db, at, None, topic, "topic", "not a board topic", payload)
            return Outcome("topic", "not a board topic")
        board, leaf = where
        try:
            if leaf == RECORDS:
                return self._record(db, board, topic, payload, at, acks, changed, touched)
            if leaf in (STATE, PRESENCE):
                return self._status(db, board, leaf, payload, at, changed)
            raise Rejected("topic", f"{leaf!r} is not a topic a board publishes")
        except Rejected as exc:
            known = board if board in self.meta or self._key(board) else None
            if self._reject(db, at, known, topic, exc.reason, str(exc), payload) and known:
                changed.add(board)
            return Outcome(exc.reason, str(exc))

    def _key(self, board: str) -> bytes | None:
        key = self.keys.get(board)
        if key is None:
            key = self.store.board_key(board)  # a board added while the hub runs
            if key is not None:
                self.keys[board] = key
                self.meta.setdefault(board, BoardMeta())
        return key

    def _record(
        self,
        db: sqlite3.Connection,
        board: str,
        topic: str,
        payload: bytes,
        at: float,
        acks: Acks,
        changed: set[str],
        touched: dict[tuple[str, str], GameCache],
    ) -> Outcome:
        env = parse_envelope(payload, board)
        key = self._key(board)
        if key is None:
            raise Rejected("unknown-board", f"no board {board!r} in this hub (hub board-add)")
        check_seal(env, key)
        meta = self.meta[board]
        meta.last_contact = at
        self.store.touch_board(db, board, at)
        self.store.count(db, board, "received")
        cache = self.games.get((board, env.game))
        last_seq = cache.last_seq if cache else 0
        head = cache.head if cache else GENESIS
        if env.seq <= last_seq:
            stored = self.store.record_hash(board, env.game, env.seq)
            if stored != env.hash:
                acks[(board, env.game)] = (last_seq, env.seq)
                raise Rejected(
                    "conflict", f"game {env.game} record {env.seq}: another record is stored"
                )
            self.store.count(db, board, "duplicate")
            acks[(board, env.game)] = (last_seq, None)
            return Outcome("duplicate")
        if env.seq > last_seq + 1:
            self.store.count(db, board, "out-of-order")
            acks[(board, env.game)] = (last_seq, None)
            return Outcome("out-of-order", f"record {env.seq} before {last_seq + 1}")
        if env.prev != head:
            raise Rejected("chain", f"game {env.game} record {env.seq} does not follow {last_seq}")
        new = cache is None
        if cache is None:
            self._may_open(board, env)
            cache = GameCache(board, env.game, 0, GENESIS, first_seen=at)
            self.games[(board, env.game)] = cache
        state = self._state(cache)
        # The game is played under the assignment the board holds at its first move (the
        # board puts a new assignment on a game only before that): until then a newer one
        # retags it, e.g. a game started before the next round's pairing arrived.
        open_game = state.phase != "over" and state.ply == 0
        info = self._reapply(board, env, cache, state, new)
        problem = _disagreement(env, info)
        if problem and not cache.problem:
            cache.problem = problem
        if env.asg and env.asg != cache.assignment and (cache.assignment is None or open_game):
            cache.assignment = env.asg
            asg = self.store.assignment(env.asg)
            if asg and isinstance(asg.get("round"), int):
                cache.round_id = self.store.round_id(db, asg["round"])
        cache.last_seq, cache.head, cache.as_of = env.seq, env.hash, at
        if new:  # the game's row first (its records refer to it), with what it supersedes
            self._upsert(db, cache, _supersedes(env))
        else:  # the row is brought up to date once, at the end of the batch
            touched[(board, env.game)] = cache
        self.store.insert_record(db, env, at)
        self.store.count(db, board, "stored")
        acks[(board, env.game)] = (env.seq, None)
        changed.add(board)
        return Outcome("stored", "new" if new else "")

    def _reapply(
        self, board: str, env: Envelope, cache: GameCache, state: GameState, new: bool
    ) -> dict[str, Any]:
        """The record re-applied with its game's rules (``state``); what it meant. Rejected
        when it is of another game than the game's first record, or its game's rules refuse
        it: then nothing of it is kept (the game is rebuilt from the store when next needed)."""
        broken = state.broken
        info = state.apply(env.record)
        why = None
        if state.kind != env.game_kind:
            why = Rejected(
                "schema",
                f"game {env.game} record {env.seq}: a record of {env.game_kind}, "
                f"in a game of {state.kind}",
            )
        elif state.broken is not None and broken is None:
            why = Rejected("rules", f"game {env.game} ({state.kind}): {state.broken}")
        if why is None:
            return info
        cache.state = None
        if new:
            self.games.pop((board, env.game), None)
        line = f"{board}: {why}"
        meta = self.meta.setdefault(board, BoardMeta())
        if why.reason == "rules" and line not in meta.refused:
            self._refused(board, line)
        raise why

    def _may_open(self, board: str, env: Envelope) -> None:
        """Rejected('games') when the board has opened its games of the hour (not while the
        hub rebuilds its store from the boards: they send every game again)."""
        if time.time() < self.rebuild_until:
            return
        now = time.monotonic()
        per_hour = self.limits.games_per_hour
        bucket = self._games_opened.get(board)
        if bucket is None:
            bucket = self._games_opened[board] = Bucket(per_hour / 3600, per_hour, now)
        if not bucket.take(now):
            raise Rejected(
                "games",
                f"game {env.game}: more than {per_hour} new games in an hour from this board; "
                "refused for now (the board sends it again later)",
            )

    def _state(self, cache: GameCache) -> GameState:
        if cache.state is None:
            cache.state = rebuild(self.store.records(cache.board, cache.game))
        return cache.state

    def _status(
        self,
        db: sqlite3.Connection,
        board: str,
        leaf: str,
        payload: bytes,
        at: float,
        changed: set[str],
    ) -> Outcome:
        if len(payload) > MAX_PAYLOAD:
            raise Rejected("oversized", f"{len(payload)} bytes (at most {MAX_PAYLOAD})")
        if self._key(board) is None:
            raise Rejected("unknown-board", f"no board {board!r} in this hub")
        data = load_json(payload) if payload else None
        if data is None:
            return Outcome(leaf)  # a retained message cleared
        if not isinstance(data, dict) or data.get("v") != VERSION:
            raise Rejected("schema", f"a {leaf} message must be a version {VERSION} object")
        meta = self.meta[board]
        if leaf == PRESENCE:
            online = data.get("online")
            if not isinstance(online, bool):
                raise Rejected("schema", "'online' must be true or false")
            meta.online = online
            if online:
                meta.last_contact = at
            fields: dict[str, Any] = {"online": int(online)}
            if isinstance(data.get("software"), str):
                meta.software = data["software"][:40]
                fields["software"] = meta.software
            if online and data.get("plays") in GAME_NAMES:  # the game it is set to play
                fields["plays"] = data["plays"]
            self.store.touch_board(db, board, meta.last_contact or at, **fields)
        else:
            if data.get("board") != board:
                raise Rejected("topic", f"state of {data.get('board')!r} on {board!r}'s topic")
            problems = data.get("problems") or []
            if not isinstance(problems, list) or not all(isinstance(p, str) for p in problems):
                raise Rejected("schema", "'problems' must be a list of sentences")
            meta.problems = [p[:200] for p in problems[:10]]
            for name in ("software", "firmware"):
                value = data.get(name)
                if isinstance(value, str):
                    setattr(meta, name, value[:40])
            meta.last_contact = at
            self.store.touch_board(
                db,
                board,
                at,
                software=meta.software,
                firmware=meta.firmware,
                problems=meta.problems,
                state=data,
            )
        changed.add(board)
        return Outcome(leaf)

    # ------------------------------------------------------------------ what pages show

    def current(self, board: str) -> GameCache | None:
        games = [g for (b, _), g in self.games.items() if b == board]
        return max(games, key=lambda g: (g.first_seen, g.game)) if games else None

    def card(self, board: str) -> dict[str, Any]:
        meta = self.meta.get(board, BoardMeta())
        g = self.current(board)
        summary = None
        if g is not None and g.state is None and g.stored_summary:
            summary = g.stored_summary  # no need to rebuild every game to show the wall
        elif g is not None and g.summary is not None and g.summary_seq == g.last_seq:
            summary = dict(g.summary)
        elif g is not None:
            summary = self._state(g).summary()
            summary["problem"] = g.problem or summary.get("problem")
        if self._assignments is None:
            self._assignments = self.store.current_assignments()
        asg = self._assignments.get(board)
        return {
            "board": board,
            "online": meta.online,
            "last_contact": meta.last_contact,
            "software": meta.software,
            "firmware": meta.firmware,
            "problems": meta.problems + _held(board, meta) + meta.refused,
            "assignment": asg,
            "game": g.game if g else None,
            "seq": g.last_seq if g else 0,
            "as_of": g.as_of if g else None,
            "summary": summary,
        }

    def _detail(self, board: str) -> dict[str, Any] | None:
        if not self.live.wants_detail(board):
            return None
        return self.detail(board)

    def detail(self, board: str) -> dict[str, Any] | None:
        g = self.current(board)
        if g is None:
            return None
        state = self._state(g)
        sheet = state.sheet()
        moves = [
            {"ply": n, "side": "blue" if side == 0 else "red", "move": str(m)}
            for n, (side, m) in enumerate(state.game.played(), start=1)
        ] if state.game else []  # fmt: skip
        exported = state.export() if state.other is not None else None
        return {
            "board": board,
            "game": g.game,
            "kind": state.kind,
            "sheet": sheet_json(sheet) if sheet else None,
            "moves": moves,
            "record": exported[1] if exported is not None else None,
        }


def _held(board: str, meta: BoardMeta) -> list[str]:
    """The line that says the board is held at the broker, while it is."""
    if meta.held_until is None or meta.held_until < time.time():
        return []
    stamp = time.strftime("%H:%M", time.localtime(meta.held_until))
    return [f"{board} flooded the hub: the broker holds its credential until {stamp}"]


def _supersedes(env: Envelope) -> str | None:
    """The game a board's first record says this one continues (a repaired journal)."""
    value = env.info.get("supersedes") if env.seq == 1 else None
    return value if isinstance(value, str) and GAME_ID.match(value) else None


def _disagreement(env: Envelope, info: dict[str, Any]) -> str | None:
    """Where the board's own reading of a record differs from the hub's (never expected)."""
    for name in ("move", "score", "totals", "result"):
        if name in env.info and name in info and env.info[name] != info[name]:
            return (
                f"record {env.seq}: the board says {name} {env.info[name]!r}, "
                f"the hub computes {info[name]!r}"
            )
    return None
