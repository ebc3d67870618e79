"""The hub's MQTT side: receive, verify, store, acknowledge; report what is refused.

paho's network thread only queues what arrives; one worker thread takes the queue in batches,
checks every message (size, JSON, schema, topic, the board's key, the chain, the order, the
rules engine) and stores the good records in one transaction per batch. Only after the commit
does it acknowledge to the boards, so an acknowledged record is on disk. A message that fails a
check is refused, counted and kept in the problems list with the reason; nothing about it is
stored. Nothing a board or a stranger sends can stop the worker: an unexpected error rolls the
batch back and handles its messages one by one.
"""

from __future__ import annotations

import json
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
    COMMAND,
    GAME_ID,
    GENESIS,
    HUB_PRESENCE,
    MAX_PAYLOAD,
    PRESENCE,
    RECORDS,
    STATE,
    VERSION,
    Envelope,
    Rejected,
    ack_payload,
    board_topic,
    canonical,
    check_seal,
    parse_board_topic,
    parse_envelope,
    presence_payload,
)
from controller.scoresheet.render import sheet_json

from .live import Live
from .store import Store

Acks = dict[tuple[str, str], tuple[int, int | None]]
"""(board, game) → (the last record stored, the number of a conflicting record)."""

log = logging.getLogger("damath-board.hub.ingest")
BATCH = 500


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
    ) -> None:
        self.store = store
        self.live = live
        self.address = address
        self.clock = clock
        self.queue: queue.Queue[tuple[str, str, bytes, float]] = queue.Queue()
        self.games: dict[tuple[str, str], GameCache] = {}
        self.meta: dict[str, BoardMeta] = {}
        self.keys: dict[str, bytes] = {}
        self.connected = False
        self.processed = 0
        self._assignments: dict[str, dict[str, Any]] | None = None
        self._stopping = threading.Event()
        self._worker: threading.Thread | None = None
        self._load()
        self.client = self._make_client(client_id) if address is not None else None

    # ------------------------------------------------------------------ start and stop

    def _load(self) -> None:
        for (board, game), (seq, head) in self.store.heads().items():
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
        client.subscribe(
            [(board_topic("+", leaf), 1) for leaf in (RECORDS, STATE, PRESENCE)], qos=1
        )
        client.publish(HUB_PRESENCE, presence_payload(True, self.clock()), qos=1, retain=True)
        for board, payload in self.store.current_assignments().items():
            client.publish(board_topic(board, ASSIGNMENT), canonical(payload), qos=1, retain=True)

    def _on_disconnect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason_code: Any, properties: Any
    ) -> None:
        self.connected = False

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        self.queue.put(("mqtt", message.topic, bytes(message.payload), self.clock()))

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

    def publish_command(self, board: str, cmd: str, by: str) -> str:
        """The arbiter's desk tells ``board`` to pause or resume (retained, so a board that is
        offline gets it when it comes back; it obeys each id once). Returns the id."""
        ident = f"c{int(self.clock() * 1000):x}-{secrets.token_hex(3)}"
        body = canonical({"v": VERSION, "id": ident, "cmd": cmd, "by": by[:40]})
        if self.client is None:
            raise RuntimeError("the hub is not connected to its broker")
        self.client.publish(board_topic(board, COMMAND), body, qos=1, retain=True)
        return ident

    # ------------------------------------------------------------------ the worker

    def _work(self) -> None:
        while not self._stopping.is_set():
            first = self.queue.get()
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
        """Handle a batch in one transaction; on an unexpected error, one by one."""
        try:
            return self._process(batch)
        except Exception:
            log.exception("hub: a batch failed; handling its messages one by one")
            self._forget([topic for _, topic, _, _ in batch])
        out = []
        for item in batch:
            try:
                out += self._process([item])
            except Exception as exc:
                log.exception("hub: cannot handle a message on %s", item[1])
                self._forget([item[1]])
                out.append(Outcome("internal", str(exc)))
                try:
                    with self.store.transaction() as db:
                        board = (parse_board_topic(item[1]) or (None, ""))[0]
                        self.store.reject(
                            db, item[3], board, item[1], "internal", str(exc), item[2]
                        )
                except Exception:
                    log.exception("hub: cannot even record the failure")
        return out

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
        outcomes = []
        touched: dict[tuple[str, str], GameCache] = {}
        # Only records are acknowledged, so only a batch with records must be on the disk
        # before the hub says so; states and presences are kept at the next such commit.
        durable = any(src == "mqtt" and topic.endswith("/" + RECORDS) for src, topic, _, _ in batch)
        with self.store.transaction(durable=durable) as db:
            for source, topic, payload, at in batch:
                if source == "show":  # a page opened a board large: push its detail
                    changed.add(topic)
                    outcomes.append(Outcome("show"))
                    continue
                if source == "refusal":
                    kind, user = topic.split("\n", 1)
                    reason = "login" if kind == "login" else "topic"
                    board = user if self._key(user) is not None else None
                    self.store.reject(db, at, board, "(broker)", reason, payload.decode(), b"")
                    if board:
                        self.meta[board].refused = [payload.decode(), *self.meta[board].refused][:5]
                        changed.add(board)
                    outcomes.append(Outcome(reason, payload.decode()))
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
        self.processed += len(batch)
        for (board, game), (seq, conflict) in acks.items():  # only once it is on the disk
            self._ack(board, game, seq, conflict)
        return outcomes

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

    def _ack(self, board: str, game: str, seq: int, conflict: int | None) -> None:
        if self.client is None:
            return
        payload = ack_payload(game, seq)
        if conflict is not None:
            payload = canonical({"v": VERSION, "game": game, "seq": seq, "conflict": conflict})
        self.client.publish(board_topic(board, ACK), payload, qos=1)

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
            self.store.reject(db, at, None, topic, "topic", "not a board topic", payload)
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
            self.store.reject(db, at, known, topic, exc.reason, str(exc), payload)
            if known:
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
            cache = GameCache(board, env.game, 0, GENESIS, first_seen=at)
            self.games[(board, env.game)] = cache
        state = self._state(cache)
        # The game is played under the assignment the board holds at its first move (the
        # board puts a new assignment on a game only before that): until then a newer one
        # retags it, e.g. a game started before the next round's pairing arrived.
        open_game = state.phase != "over" and (state.game is None or state.game.ply == 0)
        info = state.apply(env.record)
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
        return Outcome("stored")

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
        try:
            data = json.loads(payload) if payload else None
        except (ValueError, UnicodeDecodeError):
            raise Rejected("malformed", "not JSON") from None
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
            "problems": meta.problems + meta.refused,
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
        return {
            "board": board,
            "game": g.game,
            "sheet": sheet_json(sheet) if sheet else None,
            "moves": moves,
        }


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
