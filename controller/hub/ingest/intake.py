"""The intake's worker: it takes the queue in batches, checks every message and stores the
good records in one transaction per batch, then acknowledges (``Ingest``); the parts it is
made of are ``transport`` (MQTT), ``limits`` (what one board may cost), ``verify`` (the
checks that need no store) and ``cards`` (what the pages show)."""

from __future__ import annotations

import contextlib
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from controller.link.gamestate import GameState, rebuild
from controller.link.protocol import (
    BOARDS_PREFIX,
    GENESIS,
    PRESENCE,
    RECORDS,
    STATE,
    Envelope,
    Rejected,
    check_seal,
    parse_board_topic,
    parse_envelope,
)

from .. import failpoints
from ..live import Live
from ..store import Store
from ..storecheck import MARKER, Held, write_marker
from . import cards, verify
from .limits import QUEUE_LIMIT, Arrivals, Dropped, Floods, Limits, Listing, NewGames
from .model import Acks, BoardMeta, BrokerAddress, GameCache, Item, Outcome, unwritable
from .transport import Transport

log = logging.getLogger("damath-board.hub.ingest")
BATCH = 500


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
        self.clock = clock
        self.limits = limits or Limits()
        self.arrivals = Arrivals(self.limits)
        self.listing = Listing()
        self.floods = Floods(self.limits)
        self.new_games = NewGames(self.limits)
        self.hold: Callable[[str, float], bool] | None = None
        """Holds a board's credential at the broker until a time (the hub's own broker)."""
        self.release_due: Callable[[], list[str]] = lambda: []
        self._retired: set[str] = set()
        """Boards whose retirement the pages and the broker know of."""
        self._last_tick = 0.0
        self.rebuild_until = 0.0
        """Until then (a rebuild from the boards), new games are not limited."""
        self.store_problem = ""
        """Why the store cannot be written now (a full disk), or empty."""
        self.held = Held(0, 0)
        """Games and records in the store (as committed): written to ``hub.expect``."""
        self._held_written = 0.0
        self._held_noted = Held(-1, -1)
        self.queue: queue.Queue[Item] = queue.Queue()
        self.games: dict[tuple[str, str], GameCache] = {}
        self.meta: dict[str, BoardMeta] = {}
        self.keys: dict[str, bytes] = {}
        self.processed = 0
        self._assignments: dict[str, dict[str, Any]] | None = None
        self._stopping = threading.Event()
        self._worker: threading.Thread | None = None
        self._load()
        self.transport = Transport(store, address, clock, client_id, self.arrived)

    @property
    def client(self) -> mqtt.Client | None:
        return self.transport.client

    @property
    def connected(self) -> bool:
        return self.transport.connected

    @property
    def connects(self) -> int:
        return self.transport.connects

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
        self.transport.start()

    def stop(self) -> None:
        self.transport.stop()
        self._stopping.set()
        self.queue.put(("", "", b"", 0.0))
        if self._worker is not None:
            self._worker.join(10)
        with contextlib.suppress(OSError):
            write_marker(self.store.path.parent, self.held)

    # ------------------------------------------------------------------ what comes in

    def arrived(self, topic: str, payload: bytes) -> None:
        """paho's network thread: each board's messages through its bucket; the rest dropped
        here, counted, never queued (this is what keeps a flood from growing the hub)."""
        board = (
            topic[len(BOARDS_PREFIX) :].split("/", 1)[0] if topic.startswith(BOARDS_PREFIX) else ""
        )
        if self.arrivals.admit(board, self.queue.qsize(), time.monotonic()):
            self.queue.put(("mqtt", topic, payload, self.clock()))

    def keys_known(self) -> list[str]:
        return self.transport.boards()

    def ask_resend(self, ident: str, until: float) -> None:
        """A rebuild: every board asked (retained, at every connect until ``until``) to send
        every record of every game again from the first; new games are not limited meanwhile."""
        self.rebuild_until = until
        self.transport.ask_resend(ident, until)

    def refusal(self, kind: str, user: str, detail: str) -> None:
        """The broker refused a login or a publish (from its log): report it."""
        self.queue.put(("refusal", f"{kind}\n{user}", detail.encode(), self.clock()))

    def show(self, board: str) -> None:
        """A page shows ``board`` large: compute its detail in the worker and push it."""
        self.queue.put(("show", board, b"", self.clock()))

    def publish_assignment(self, board: str, payload: dict[str, Any] | None) -> None:
        self._assignments = None  # read again with the new one
        self.transport.assignment(board, payload)
        self.live.update(self.card(board))

    def publish_command(self, board: str, cmd: str, by: str, asg: str | None = None) -> str:
        """The desk's pause, resume or start for ``board`` (``Transport.command``)."""
        return self.transport.command(board, cmd, by, asg)

    # ------------------------------------------------------------------ the worker

    def _work(self) -> None:
        while not self._stopping.is_set():
            self._tick()
            try:
                first = self.queue.get(timeout=1.0)
            except queue.Empty:
                if self.arrivals.any_dropped():  # a flood's count is listed even when idle
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

    def process(self, batch: list[Item]) -> list[Outcome]:
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
        self.transport.presence_again()
        self._retire()
        try:
            released = self.release_due()
        except OSError as exc:
            log.error("hub: cannot give back a held credential: %s", exc)
            return
        for board in released:
            meta = self.meta.setdefault(board, BoardMeta())
            meta.held_until = None
            meta.refuse(f"{board}: its credential is given back (it may connect again)")
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
            self.transport.retired(board)
            self._retired.add(board)

    def _flood(self, board: str, dropped: int, now: float) -> str | None:
        """Count a board's drops; once they pass ``FLOOD_SECONDS`` of its rate within a
        window, hold its credential at the broker. The line to list, if it was held now."""
        start, count = self.floods.add(board, dropped, now)
        meta = self.meta.get(board)
        if self.hold is None or meta is None or not self.limits.hold_seconds:
            return None
        if not self.floods.flooding(count):
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
            f"{board} flooded the hub ({int(count)} messages over its limit in "
            f"{int(now - start) + 1} s): the broker holds its credential until {stamp} "
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

    def _process(self, batch: list[Item]) -> list[Outcome]:
        acks: Acks = {}
        changed: set[str] = set()
        outcomes: list[Outcome] = []
        touched: dict[tuple[str, str], GameCache] = {}
        # Only records are acknowledged, so only a batch with records must be on the disk
        # before the hub says so; states and presences are kept at the next such commit.
        durable = any(src == "mqtt" and topic.endswith("/" + RECORDS) for src, topic, _, _ in batch)
        dropped = self.arrivals.take()
        try:
            self._transaction(batch, durable, dropped, acks, changed, outcomes, touched)
            if acks:
                failpoints.reach("ingest.committed", self.transport.acks_out)
        except BaseException:
            self.arrivals.give_back(dropped)  # counted with the next batch that is written
            raise
        stored = sum(1 for o in outcomes if o.result == "stored")
        if stored:
            opened = sum(1 for o in outcomes if o.result == "stored" and o.detail == "new")
            self.held = Held(self.held.games + opened, self.held.records + stored)
            self._note_held()
        for (board, game), (seq, conflict) in acks.items():  # only once it is on the disk
            self.transport.ack(board, game, seq, conflict)
        if acks:
            failpoints.reach("ingest.acked", self.transport.acks_out)
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
        batch: list[Item],
        durable: bool,
        dropped: Dropped,
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
                failpoints.reach("ingest.stored", self.transport.acks_out)

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
        more = self.listing.line(board, reason, at, count)
        if more is None:
            self.store.count(db, board, f"rejected:{reason}", count)
            return False
        self.store.reject(db, at, board, topic, reason, detail + more, payload, count)
        return True

    def _refused(self, board: str, text: str) -> None:
        """A line for the board's card and the organiser's list (its last five)."""
        self.meta.setdefault(board, BoardMeta()).refuse(text)

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
                return self._record(db, board, payload, at, acks, changed, touched)
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
            if time.time() >= self.rebuild_until:  # a rebuild sends every game again
                self.new_games.check(board, env.game, time.monotonic())
            cache = GameCache(board, env.game, 0, GENESIS, first_seen=at)
            self.games[(board, env.game)] = cache
        state = self._state(cache)
        # The game is played under the assignment the board holds at its first move (the
        # board puts a new assignment on a game only before that): until then a newer one
        # retags it, e.g. a game started before the next round's pairing arrived.
        open_game = state.phase != "over" and state.ply == 0
        info = self._reapply(board, env, cache, state, new)
        problem = verify.disagreement(env, info)
        if problem and not cache.problem:
            cache.problem = problem
        if env.asg and env.asg != cache.assignment and (cache.assignment is None or open_game):
            cache.assignment = env.asg
            asg = self.store.assignment(env.asg)
            if asg and isinstance(asg.get("round"), int):
                cache.round_id = self.store.round_id(db, asg["round"])
        cache.last_seq, cache.head, cache.as_of = env.seq, env.hash, at
        if new:  # the game's row first (its records refer to it), with what it supersedes
            self._upsert(db, cache, verify.supersedes(env))
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
        why = verify.refused_by_rules(env, state, broken)
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
        data = verify.read_status(board, leaf, payload, self._key(board) is not None)
        if data is None:
            return Outcome(leaf)  # a retained message cleared
        meta = self.meta[board]
        fields = verify.status_fields(meta, board, leaf, data, at)
        self.store.touch_board(db, board, meta.last_contact or at, **fields)
        changed.add(board)
        return Outcome(leaf)

    # ------------------------------------------------------------------ what pages show

    def current(self, board: str) -> GameCache | None:
        return cards.current(self.games.values(), board)

    def card(self, board: str) -> dict[str, Any]:
        if self._assignments is None:
            self._assignments = self.store.current_assignments()
        meta = self.meta.get(board, BoardMeta())
        g = self.current(board)
        held = self._assignments.get(board)
        played = None
        if g is not None and g.assignment and g.assignment != (held or {}).get("id"):
            played = self.store.assignment(g.assignment)  # an earlier table's game, still shown
        return cards.card(board, meta, g, self._state, held, played)

    def _detail(self, board: str) -> dict[str, Any] | None:
        if not self.live.wants_detail(board):
            return None
        return self.detail(board)

    def detail(self, board: str) -> dict[str, Any] | None:
        g = self.current(board)
        if g is None:
            return None
        return cards.detail(board, g, self._state(g))
