"""The ``Link``: a board's MQTT client that publishes its journal to the hub, in its own threads.

Two threads: paho-mqtt's network thread (connects, reconnects with back-off, delivers acks and
assignments) and the link's own worker (reads the journal folder, publishes at QoS 1 what the
hub has not acknowledged, within a window, and the retained state). Nothing here is ever called
from the scan loop except ``nudge`` (sets an event) and the read-only accessors, so the board
never waits on the network. After any outage (Wi-Fi, broker, hub, the board's own power) the
worker rewinds every game to what the hub acknowledged and publishes again from there; the hub
stores each record once.

Why paho-mqtt rather than aiomqtt: the board's runtime is a synchronous scan loop, and a thread
with paho's own reconnecting network loop fits it without bringing an event loop onto the Pi;
the hub uses the same client, so both sides share one library (aiomqtt is itself built on paho).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
import time
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from controller.i18n import N_
from controller.record.games import DAMATH

from .client import new_client
from .config import LinkConfig
from .follower import Follower, Sealed
from .protocol import (
    ACK,
    ASSIGNMENT,
    COMMAND,
    GAME_ID,
    HUB_PRESENCE,
    PRESENCE,
    RECORDS,
    RESEND,
    STATE,
    VERSION,
    Rejected,
    board_topic,
    canonical,
    is_version,
    load_json,
    parse_ack,
    parse_command,
    parse_resend,
    presence_payload,
)

log = logging.getLogger("damath-board.link")


def software_version() -> str:
    try:
        return metadata.version("damath-board")
    except metadata.PackageNotFoundError:
        return "unknown"


@dataclass
class LinkStatus:
    connected: bool
    hub_online: bool | None
    unacked: int
    games: int
    last_error: str
    problems: list[str] = field(default_factory=list)
    connects: int = 0
    """How often the link has connected (more than 1: its connection was dropped)."""


_BAD_LOGIN = N_(  # translated where it is said (link/board.py)
    "the hub refused the board's credential (user name or password): check its connection file"
)
CONNECT_ERRORS = {4: _BAD_LOGIN, 5: _BAD_LOGIN, 134: _BAD_LOGIN, 135: _BAD_LOGIN}


class Link:
    """Publishes every record of a board's journal folder to the hub named in ``config``."""

    def __init__(
        self,
        config: LinkConfig,
        folder: str | os.PathLike[str],
        *,
        poll_seconds: float = 0.2,
        resend_seconds: float = 5.0,
        window: int = 64,
        keepalive: int = 10,
        firmware: str | None = None,
        client_id: str | None = None,
    ) -> None:
        self.config = config
        self.folder = Path(folder)
        self.link_dir = self.folder / "link"
        self.poll_seconds = poll_seconds
        self.resend_seconds = resend_seconds
        self.window = window
        self.keepalive = keepalive
        self.firmware = firmware
        self._lock = threading.RLock()
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._connected = False
        self._connects = 0
        self._hub_online: bool | None = None
        self._rewind = True
        self._sent: dict[str, int] = {}
        self._progress = time.monotonic()
        self._backoff = resend_seconds
        self._last_error = ""
        self._board_problems: list[str] = []
        self._state_sent = b""
        self._assignment = self._load_assignment()
        self.game: str | None = None
        """The game this board plays (its records' game), once the board says it: an
        assignment of another game is refused (``refuses``): no record carries its id."""
        self._tournament = self._done_file("tournament") == "yes"
        """The hub runs a tournament (its presence says so; remembered across restarts)."""
        self._command: dict[str, Any] | None = None
        self._resend: str | None = None
        """The hub's request to send every game again (a rebuild), until it is done."""
        self.follower = Follower(
            self.folder,
            config.board,
            config.hmac_key,
            assignment=self._assignment_id,
            refuses=lambda game: self.refuses(self._assignment, game),
        )
        self.client = self._make_client(client_id or f"board-{config.board}")

    # ------------------------------------------------------------------ public API

    def start(self) -> Link:
        if self._thread is not None:
            return self
        self._stopping.clear()
        host = self.config.host.strip("[]")
        self.client.connect_async(host, self.config.port, keepalive=self.keepalive)
        self.client.loop_start()
        self._thread = threading.Thread(target=self._run, name="damath-link", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Send what the journal has now and wait up to ``timeout`` for the hub to acknowledge
        it, say offline, disconnect. Whatever is still not acknowledged stays in the journal
        and goes at the next start."""
        if self._thread is None:
            return
        self._stopping.set()
        self._wake.set()
        self._thread.join(timeout)
        self._thread = None
        deadline = time.monotonic() + timeout
        while self._connected and time.monotonic() < deadline:
            with self._lock:
                self._publish(self.follower.scan())
            if not self.status().unacked:
                break
            time.sleep(0.05)
        with contextlib.suppress(Exception):
            if self._connected:
                info = self.client.publish(
                    board_topic(self.config.board, PRESENCE),
                    presence_payload(False, time.time()),
                    qos=1,
                    retain=True,
                )
                info.wait_for_publish(min(timeout, 2.0))
        with contextlib.suppress(Exception):
            self.client.disconnect()
        self.client.loop_stop()
        with self._lock:
            self.follower.save()

    def nudge(self) -> None:
        """Something was journaled: look now rather than at the next poll (never blocks)."""
        self._wake.set()

    def assignment(self) -> dict[str, Any] | None:
        """The last assignment the hub addressed to this board (kept across restarts)."""
        with self._lock:
            return dict(self._assignment) if self._assignment else None

    def tournament(self) -> bool:
        """The hub runs a tournament: this board's games are tournament games, whose clocks
        wait for the round's start (the hub's presence says so; the last word is kept)."""
        return self._tournament

    def started(self) -> set[str]:
        """The assignments whose game has started on this board (kept across restarts): a
        new game under one of them waits for the next round, not for that one's start."""
        return set(self._done_file("started").split())

    def mark_started(self, asg: str) -> None:
        kept = [a for a in self._done_file("started").split() if a != asg][-19:]
        self.obeyed(" ".join([*kept, asg]), "started")

    def command(self) -> dict[str, Any] | None:
        """The desk's last command to this board, unless it was obeyed already (``obeyed``)."""
        with self._lock:
            command = self._command
        if command is None or command["id"] == self._obeyed():
            return None
        return dict(command)

    def _obeyed(self) -> str:
        return self._done_file("command-done")

    def _done_file(self, name: str) -> str:
        try:
            return (self.link_dir / name).read_text(encoding="utf-8").strip()
        except OSError:
            return ""

    def obeyed(self, ident: str, name: str = "command-done") -> None:
        """The command ``ident`` was carried out (or refused): never again, even after a
        restart, when the broker hands the retained command over once more."""
        path = self.link_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(ident, encoding="utf-8")
        os.replace(tmp, path)

    def report(self, problems: list[str] | None = None, firmware: str | None = None) -> None:
        """What the board wants the organiser to see (a stuck sensor, a clock out of sync)."""
        with self._lock:
            if problems is not None:
                self._board_problems = list(problems)
            if firmware is not None:
                self.firmware = firmware
        self._wake.set()

    def status(self) -> LinkStatus:
        with self._lock:
            games = [s for s in self.follower.sealed.values() if not s.tracked.done]
            unacked = sum(len(s.envelopes) - s.tracked.acked for s in games)
            return LinkStatus(
                self._connected,
                self._hub_online,
                unacked,
                len(games),
                self._last_error,
                list(self.follower.problems),
                self._connects,
            )

    # ------------------------------------------------------------------ MQTT client

    def _make_client(self, client_id: str) -> mqtt.Client:
        c = self.config
        return new_client(
            client_id,
            c.username,
            c.password,
            will=(board_topic(c.board, PRESENCE), presence_payload(False, 0.0, reason="lost")),
            clean_session=True,
            tls=c.tls,
            ca_file=c.ca_file,
            reconnect=(1, 8),
            inflight=self.window,
            handlers={
                "on_connect": self._on_connect,
                "on_disconnect": self._on_disconnect,
                "on_message": self._on_message,
            },
        )

    def _on_connect(
        self,
        client: mqtt.Client,
        userdata: object,
        flags: mqtt.ConnectFlags,
        reason_code: ReasonCode,
        properties: Properties | None,
    ) -> None:
        if reason_code.is_failure:
            self._last_error = CONNECT_ERRORS.get(reason_code.value, f"refused: {reason_code}")
            log.warning("hub %s: %s", self.config.url, self._last_error)
            return
        board = self.config.board
        client.subscribe(
            [
                (board_topic(board, ACK), 1),
                (board_topic(board, ASSIGNMENT), 1),
                (board_topic(board, COMMAND), 1),
                (board_topic(board, RESEND), 1),
                (HUB_PRESENCE, 1),
            ]
        )
        self._say_presence(client)
        with self._lock:
            self._connected = True
            self._connects += 1
            self._last_error = ""
            self._rewind = True
            self._state_sent = b""
        self._wake.set()

    def _on_disconnect(
        self,
        client: mqtt.Client,
        userdata: object,
        flags: mqtt.DisconnectFlags,
        reason_code: ReasonCode,
        properties: Properties | None,
    ) -> None:
        # Never waits for ``_lock``: paho calls this with its outgoing-message lock held (a
        # reconnection's resend that fails at once, the broker gone again), while the worker
        # may hold ``_lock`` and wait in ``client.publish`` for paho's lock: both froze for
        # ever, and the board's link with them. Two plain assignments need no lock.
        self._connected = False
        if not self._stopping.is_set() and not self._last_error:
            self._last_error = f"disconnected ({reason_code})"

    def _on_message(self, client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
        topic = message.topic
        try:
            if topic == HUB_PRESENCE:
                data = load_json(message.payload)
                online = bool(data.get("online")) if isinstance(data, dict) else False
                with self._lock:
                    if online and not self._hub_online:
                        self._rewind = True
                    self._hub_online = online
                flag = data.get("tournament") if isinstance(data, dict) and online else None
                if isinstance(flag, bool) and flag != self._tournament:
                    self._tournament = flag
                    self.obeyed("yes" if flag else "no", "tournament")
            elif topic.endswith("/" + ACK):
                self._on_ack(message.payload)
            elif topic.endswith("/" + ASSIGNMENT):
                self._on_assignment(message.payload)
            elif topic.endswith("/" + COMMAND):
                command = parse_command(message.payload)
                with self._lock:
                    self._command = command
            elif topic.endswith("/" + RESEND):
                ident = parse_resend(message.payload)
                if ident is not None and ident != self._done_file("resend-done"):
                    with self._lock:
                        self._resend = ident
        except Rejected:  # not JSON, nested too deep: nothing the hub sends
            log.warning("link: ignored a malformed message on %s", topic)
        except Exception:  # a bad message from the broker never stops the link
            log.exception("link: cannot handle a message on %s", topic)
        self._wake.set()

    def _on_ack(self, payload: bytes | bytearray) -> None:
        ack = parse_ack(payload)
        if ack is None:
            return
        game, seq = ack
        with self._lock:
            conflict = load_json(payload).get("conflict")
            if conflict:
                self.follower.conflict(game)
                return
            if self.follower.acknowledge(game, seq):
                self._progress = time.monotonic()
                self._backoff = self.resend_seconds
                if self._sent.get(game, 0) < seq:
                    self._sent[game] = seq

    # ------------------------------------------------------------------ assignments

    def _assignment_path(self) -> Path:
        return self.link_dir / "assignment.json"

    def _load_assignment(self) -> dict[str, Any] | None:
        try:
            data = json.loads(self._assignment_path().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def _say_presence(self, client: mqtt.Client) -> None:
        """The board online, its software, and the game it plays once it says it (``plays``:
        the hub sends it no table of another game's division)."""
        extra: dict[str, Any] = {"software": software_version()}
        if self.game is not None:
            extra["plays"] = self.game
        payload = presence_payload(True, time.time(), **extra)
        client.publish(board_topic(self.config.board, PRESENCE), payload, qos=1, retain=True)

    def set_game(self, game: str) -> None:
        """The game this board plays from now: said in its presence at once when connected
        (and at every connection), so the hub knows it before it sends a table."""
        if game == self.game:
            return
        self.game = game
        with self._lock:
            connected = self._connected
        if connected:
            self._say_presence(self.client)

    def refuses(self, assignment: dict[str, Any] | None, game: str | None = None) -> bool:
        """An assignment of another game than ``game`` (by default this board's): a table of
        a division of another game (docs/tournament.md), never played here. An assignment
        naming no game is a Damath table's (every assignment before divisions had a game)."""
        game = game or self.game
        if not assignment or game is None:
            return False
        return bool(assignment.get("game", DAMATH) != game)

    def _assignment_id(self) -> str | None:
        a = self._assignment
        if self.refuses(a):
            return None
        ident = a.get("id") if a else None
        return ident if isinstance(ident, str) and GAME_ID.match(ident) else None

    def _on_assignment(self, payload: bytes | bytearray) -> None:
        if not payload:  # the hub cleared it
            data = None
        else:
            try:
                data = load_json(payload)
            except Rejected:
                return
            if not isinstance(data, dict) or not is_version(data.get("v"), VERSION):
                return
        with self._lock:
            if data == self._assignment:
                return
            self._assignment = data
            path = self._assignment_path()
            path.parent.mkdir(parents=True, exist_ok=True)
            if data is None:
                path.unlink(missing_ok=True)
            else:
                tmp = path.with_name(path.name + ".tmp")
                tmp.write_text(json.dumps(data), encoding="utf-8")
                os.replace(tmp, path)

    # ------------------------------------------------------------------ the worker

    def _run(self) -> None:
        last_save = 0.0
        while not self._stopping.is_set():
            self._wake.wait(self.poll_seconds)
            self._wake.clear()
            try:
                with self._lock:
                    if self._resend is not None:
                        self._resend_all(self._resend)
                    games = self.follower.scan()
                    self._publish(games)
                    now = time.monotonic()
                    if now - last_save >= 1.0:
                        self.follower.save()
                        last_save = now
            except Exception as exc:  # a full disk, a vanished folder: report, keep going
                self._last_error = f"link: {exc}"
                log.exception("link worker")
                time.sleep(self.poll_seconds)

    def _resend_all(self, ident: str) -> None:
        """The hub rebuilds its store: every game again from its first record, once per
        request (``link/resend-done``, as for commands: a retained request seen again after
        a restart is not done twice). The hub stores each record once."""
        n = self.follower.resend_all()
        self.follower.save()
        self.obeyed(ident, "resend-done")
        self._resend = None
        self._rewind = True
        log.warning("the hub asked for every game again (%s): sending %d game(s)", ident, n)

    def _publish(self, games: list[Sealed]) -> None:
        if not self._connected:
            return
        now = time.monotonic()
        unacked = any(self._sent.get(s.tracked.id, 0) > s.tracked.acked for s in games)
        if unacked and now - self._progress > self._backoff and self._hub_online is not False:
            self._rewind = True
            self._backoff = min(self._backoff * 2, 60.0)
        if self._rewind:
            self._sent = {s.tracked.id: s.tracked.acked for s in games}
            self._progress = now
            self._rewind = False
        board = self.config.board
        # the window holds for all games together: a board sending many games again (after
        # an outage, or for a hub rebuilding its store) sends them one flight at a time
        room = self.window - sum(
            max(0, self._sent.get(s.tracked.id, 0) - s.tracked.acked) for s in games
        )
        for sealed in games:
            g = sealed.tracked
            sent = max(self._sent.get(g.id, 0), g.acked)
            top = min(len(sealed.envelopes), g.acked + self.window, sent + max(0, room))
            if sent < top and not unacked:
                self._progress = now  # a new flight: time its acknowledgement from now
                unacked = True
            while sent < top:
                env = sealed.envelopes[sent]
                info = self.client.publish(board_topic(board, RECORDS), env.payload(), qos=1)
                if info.rc != mqtt.MQTT_ERR_SUCCESS:
                    return
                sent += 1
                room -= 1
            self._sent[g.id] = sent
        self._publish_state()

    def _publish_state(self) -> None:
        live = self.follower.live_game()
        state: dict[str, Any] = {
            "v": VERSION,
            "board": self.config.board,
            "game": live.tracked.id if live else None,
            "seq": len(live.envelopes) if live else 0,
            "software": software_version(),
            "firmware": self.firmware,
            "problems": self._board_problems + self.follower.problems[-5:],
            "assignment": None
            if live is not None and self.refuses(self._assignment, live.state.kind)
            else self._assignment_id(),
        }
        if live is not None:
            state.update(live.state.summary())
        payload = canonical(state)
        if payload != self._state_sent:
            info = self.client.publish(
                board_topic(self.config.board, STATE), payload, qos=1, retain=True
            )
            if info.rc == mqtt.MQTT_ERR_SUCCESS:
                self._state_sent = payload
