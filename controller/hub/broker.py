"""The hub's own Mosquitto: generated configuration, password file, ACL, and a supervisor.

Mosquitto (Debian's package) does what a broker must do and the hub should not: sessions,
QoS 1, retained messages, last wills, TLS, thousands of connections. The hub writes its
configuration into ``DIR/broker/`` (no anonymous access, one password per board made with
``mosquitto_passwd``, an ACL block per board so a board can publish only under its own topics
and read only its own acknowledgements, assignments, commands and resend requests, every
client's id its user name, limits per client and for the whole broker, persistence), starts it,
restarts it if it dies, and it dies with the hub (``PR_SET_PDEATHSIG``), so a hub killed hard
leaves no broker holding the port. A board that floods the hub is cut off here: its password
line is held aside for a while (``hold``, ``release_due``) and the broker told to reload.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import getpass
import json
import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from controller.link.protocol import (
    BOARD_ID,
    BOARD_READS,
    BOARD_WRITES,
    HUB_PRESENCE,
    HUB_USER,
    MAX_PAYLOAD,
    ROOT,
)

log = logging.getLogger("damath-board.hub.broker")
MESSAGE_LIMIT = 2 * MAX_PAYLOAD
"""The broker drops anything larger; between the two limits the hub sees it and reports it."""
QUEUED_MESSAGES = 20_000
QUEUED_BYTES = 32 * 1024 * 1024
INFLIGHT = 0
"""No limit on QoS 1 messages in flight to one client: with a limit (20 was tried), Mosquitto
2.0.11 (Debian 12) stopped delivering anything to the hub for good after a flood of QoS-0
messages (bench/bench_hub_flood.py --hold-minutes 0: no record acknowledged for minutes
after the flood had ended); without one it delivers again as soon as the flood stops. A slow
client's messages are bounded by ``QUEUED_BYTES`` and the broker's ``MEMORY_LIMIT``."""
MEMORY_LIMIT = 256 * 1024 * 1024
MAX_CONNECTIONS = 1000
HUNG_AFTER = 30.0
"""Seconds the hub may go unanswered by a running Mosquitto before it is killed and restarted:
Debian's 2.0.11 can spin for ever in its main loop after its bridge's TLS connect failed in one
way (a link that accepts the TCP connection and closes it at once: the bridge's socket is left
in its socket table, the next attempt adds it twice, and every walk of the table loops;
upstream fixed it in 2.0.16). The hub's own connection is the probe: it pings every 10 s."""


class BrokerError(RuntimeError):
    """Mosquitto is missing, cannot start, or a password cannot be set."""


@dataclass(frozen=True)
class Tls:
    cert: str
    key: str
    port: int = 8883


def acl_text(boards: list[str], quiet: frozenset[str] = frozenset()) -> str:
    """The ACL: the hub reads and writes everything of version 1; each board, in a block of its
    own, publishes its own ``records``, ``state`` and ``presence`` and reads its own ``ack``,
    ``assignment``, ``command`` and ``resend`` and the hub's presence. Per-user blocks rather
    than ``pattern`` lines: Mosquitto warns at every start about a pattern without ``%u``, and
    a board in ``quiet`` (one that floods) keeps its reading rights but may publish nothing."""
    lines = [
        "# Written by damath-board hub: who may publish and read what (docs/mqtt.md).",
        f"user {HUB_USER}",
        f"topic readwrite {ROOT}/#",
    ]
    for board in boards:
        lines += ["", f"user {board}"]
        if board not in quiet:
            lines += [f"topic write {ROOT}/boards/{board}/{leaf}" for leaf in BOARD_WRITES]
        lines += [f"topic read {ROOT}/boards/{board}/{leaf}" for leaf in BOARD_READS]
        lines.append(f"topic read {HUB_PRESENCE}")
    return "\n".join(lines) + "\n"


def write_private(path: Path, text: str) -> None:
    """Write a file readable by its owner only, whole (write, rename)."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def find_tool(name: str) -> str:
    for candidate in (shutil.which(name), f"/usr/sbin/{name}", f"/usr/bin/{name}"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    raise BrokerError(
        f"{name} is not installed: install Debian's mosquitto package "
        "(sudo apt-get install mosquitto), or give an existing broker with --broker URL"
    )


class BrokerFiles:
    """The broker's folder: configuration, passwords, ACL, persistence, log, pid."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder / "broker"
        self.conf = self.folder / "mosquitto.conf"
        self.passwd = self.folder / "passwd"
        self.acl = self.folder / "acl"
        self.data = self.folder / "data"
        self.log = self.folder / "mosquitto.log"
        self.pid = self.folder / "mosquitto.pid"

    def prepare(self, quiet: frozenset[str] = frozenset()) -> None:
        """The folder (owner-only) and the ACL for the users in the password file: every one
        but the hub and the organiser's own readers (``acl.extra``, docs/hall.md) is a board."""
        self.data.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(self.folder, 0o700)
        extra = self.folder / "acl.extra"
        more = extra.read_text(encoding="utf-8") if extra.exists() else ""
        readers = set(re.findall(r"(?m)^\s*user\s+(\S+)", more))
        users = self.users() + [u for u in self.held() if u not in self.users()]
        boards = [u for u in users if u != HUB_USER and u not in readers]
        text = acl_text([b for b in boards if BOARD_ID.match(b)], quiet)
        write_private(self.acl, text + ("\n" + more if more else ""))

    def users(self) -> list[str]:
        """The user names in the password file, in its order."""
        try:
            text = self.passwd.read_text(encoding="utf-8")
        except OSError:
            return []
        return [line.split(":", 1)[0] for line in text.splitlines() if ":" in line]

    def set_password(self, user: str, password: str) -> None:
        """Add or replace a user in the password file (hashed by mosquitto_passwd), and write
        the ACL that names it."""
        self.prepare()
        tool = find_tool("mosquitto_passwd")
        args = [tool, "-b", str(self.passwd), user, password]
        if not self.passwd.exists():
            args.insert(1, "-c")
        result = subprocess.run(args, capture_output=True, text=True, timeout=30)
        if result.returncode != 0:
            raise BrokerError(
                f"mosquitto_passwd failed: {(result.stderr or result.stdout).strip()}"
            )
        os.chmod(self.passwd, 0o600)
        self.prepare()

    def remove(self, user: str) -> bool:
        """Revoke ``user``'s credential for good (a board retired): its line out of the
        password file (and out of ``passwd.held``), the ACL written without it. True if it
        had one; the running broker must be told (``reload``)."""
        if user == HUB_USER:
            return False
        try:
            lines = self.passwd.read_text(encoding="utf-8").splitlines()
        except OSError:
            lines = []
        kept = [x for x in lines if x.split(":", 1)[0] != user]
        held = self.held()
        had = len(kept) != len(lines) or user in held
        if len(kept) != len(lines):
            write_private(self.passwd, "".join(x + "\n" for x in kept))
        if user in held:
            del held[user]
            write_private(self.held_file, json.dumps(held))
        self.prepare()
        return had

    def render_conf(self, port: int, bind: str, tls: Tls | None) -> str:
        plain_bind = "127.0.0.1" if tls else bind
        lines = [
            "# Written by damath-board hub at every start: edit the hub's options, not this file.",
            "per_listener_settings false",
            "allow_anonymous false",
            f"password_file {self.passwd}",
            f"acl_file {self.acl}",
            "persistence true",
            f"persistence_location {self.data}/",
            "autosave_interval 10",
            # Per client: what waits for a slow or absent client (the hub's backlog while it
            # is down: a round of 200 boards; boards resend whatever is dropped beyond it),
            # in messages and bytes, what is in flight to it (no limit: see INFLIGHT), the
            # largest packet (a larger one disconnects its sender), and a ceiling for the
            # whole broker (a flood cannot take the laptop).
            f"max_queued_messages {QUEUED_MESSAGES}",
            f"max_queued_bytes {QUEUED_BYTES}",
            f"max_inflight_messages {INFLIGHT}",
            f"max_packet_size {MESSAGE_LIMIT}",
            f"memory_limit {MEMORY_LIMIT}",
            "log_dest stdout",  # read by the hub: refusals are reported, the rest filed
            "log_type all",
            "connection_messages true",
            f"listener {port} {plain_bind}",
            # After its listener (before any, Mosquitto opens a default one on 1883 for it):
            # a client's id is its user name, so no credential can take over another
            # client's connection (a board connecting as 'damath-hub' used to drop the hub).
            "use_username_as_clientid true",
            f"max_connections {MAX_CONNECTIONS}",
        ]
        if os.geteuid() == 0:
            lines.insert(2, f"user {getpass.getuser()}")
        if tls is not None:
            lines += [
                f"listener {tls.port} {bind}",
                "use_username_as_clientid true",
                f"max_connections {MAX_CONNECTIONS}",
                f"certfile {Path(tls.cert).resolve()}",
                f"keyfile {Path(tls.key).resolve()}",
                "tls_version tlsv1.2",
            ]
        bridge = self.folder / "bridge.conf"  # the federation's bridge, last (hub/fedlink.py)
        if bridge.exists():
            lines.append(bridge.read_text(encoding="utf-8"))
        return "\n".join(lines) + "\n"

    # -- holding a flooding board at the broker ------------------------------------------

    @property
    def held_file(self) -> Path:
        return self.folder / "passwd.held"

    def held(self) -> dict[str, dict[str, object]]:
        """Boards whose credential is held: user → {"line": its password line, "until": t}."""
        try:
            data = json.loads(self.held_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def hold(self, user: str, until: float) -> bool:
        """Take ``user``'s line out of the password file until ``until`` (the running broker,
        told to read it again, drops the user's connection and refuses its logins); kept in
        ``passwd.held`` to be put back. False if the user has no line."""
        try:
            lines = self.passwd.read_text(encoding="utf-8").splitlines()
        except OSError:
            return False
        mine = [x for x in lines if x.split(":", 1)[0] == user]
        if not mine or user == HUB_USER:
            return False
        held = self.held()
        held[user] = {"line": mine[0], "until": until}
        write_private(self.held_file, json.dumps(held))
        write_private(self.passwd, "".join(x + "\n" for x in lines if x not in mine))
        return self.reload()

    def release_due(self, now: float | None = None) -> list[str]:
        """Put back the held credentials whose time is over (a credential issued again
        meanwhile by ``board-add --replace`` is kept as it is). Returns the users released."""
        held = self.held()
        now = time.time() if now is None else now
        due = [u for u, h in held.items() if float(str(h.get("until", 0))) <= now]
        if not due:
            return []
        try:
            lines = self.passwd.read_text(encoding="utf-8").splitlines()
        except OSError:
            return []
        present = {x.split(":", 1)[0] for x in lines}
        lines += [str(held[u]["line"]) for u in due if u not in present]
        write_private(self.passwd, "".join(x + "\n" for x in lines))
        for u in due:
            del held[u]
        write_private(self.held_file, json.dumps(held))
        self.reload()
        return due

    def reload(self) -> bool:
        """Ask a running broker to read its passwords and ACL again (SIGHUP)."""
        try:
            pid = int(self.pid.read_text().strip())
            os.kill(pid, signal.SIGHUP)
            return True
        except (OSError, ValueError):
            return False


@dataclass(frozen=True)
class Refusal:
    """Something the broker refused: a login (bad credential), a publish outside the ACL, or
    a connection replaced by another with the same credential."""

    kind: str  # "login", "publish" or "takeover"
    user: str  # the user name when the broker said it, else the address
    detail: str


DENIED = re.compile(r"Denied PUBLISH from (\S+) \(.*?'([^']*)'")
CONNECTED = re.compile(r"New client connected from (\S+) as (\S+) \(.*u'([^']*)'\)")
NEW_CONNECTION = re.compile(r"New connection from (\S+) on port")
CONNACK = re.compile(r"Sending CONNACK to (\S+) \(\d+, (\d+)\)")
TAKEOVER = re.compile(r"Client (\S+) already connected, closing old connection")
REFUSED_CODES = {"4": "bad user name or password", "5": "not authorised"}
REFUSED_CODES.update({"134": REFUSED_CODES["4"], "135": REFUSED_CODES["5"]})
CHATTER = ("Received ", "Sending ", "No will message", "Will message", "\t", " ")


class LogWatcher:
    """Reads Mosquitto's log lines: who is who, and what it refused."""

    def __init__(self, report: Callable[[Refusal], None]) -> None:
        self.report = report
        self.users: dict[str, str] = {}
        self.last_address = ""

    def feed(self, line: str) -> bool:
        """Handle one line; True if it belongs in the log file."""
        text = line.split(": ", 1)[1] if ": " in line[:14] else line
        if m := DENIED.search(text):
            client, topic = m.group(1), m.group(2)
            user = self.users.get(client, client)
            self.report(Refusal("publish", user, f"{user} may not publish to {topic}"))
            return True
        if m := CONNACK.search(text):
            code = m.group(2)
            if code in REFUSED_CODES:
                who = self.last_address or m.group(1)
                self.report(Refusal("login", who, f"login from {who} refused: "
                                    f"{REFUSED_CODES[code]}"))  # fmt: skip
                return True
            return False
        if m := TAKEOVER.search(text):
            user, where = m.group(1), self.last_address or "?"
            self.report(Refusal("takeover", user, f"a second connection with {user}'s "
                                f"credential (from {where}) replaced the first: is its "
                                "connection file used twice?"))  # fmt: skip
            return True
        if m := NEW_CONNECTION.search(text):
            self.last_address = m.group(1).rsplit(":", 1)[0]
        elif m := CONNECTED.search(text):
            self.users[m.group(2)] = m.group(3)
        return not text.startswith(CHATTER)


def _die_with_parent() -> None:
    """In the child: receive SIGTERM when the hub (the thread that started us) dies."""
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def wait_for_port(host: str, port: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.05)
    return False


class Broker:
    """Starts Mosquitto, restarts it when it dies or stops answering, stops it with the hub."""

    def __init__(
        self,
        files: BrokerFiles,
        port: int,
        bind: str,
        tls: Tls | None = None,
        hung_after: float = HUNG_AFTER,
    ) -> None:
        self.files = files
        self.port = port
        self.bind = bind
        self.tls = tls
        self.on_refusal: Callable[[Refusal], None] = lambda refusal: None
        self.answering: Callable[[], bool] | None = None
        """True while the broker answers its hub (the hub's client is connected); None: not
        watched."""
        self.hung_after = hung_after
        self.last_lines: deque[str] = deque(maxlen=20)
        self.proc: subprocess.Popen[bytes] | None = None
        self.restarts = 0
        self.problem = ""
        self._stopping = threading.Event()
        self._started = threading.Event()
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None

    def start(self, timeout: float = 20.0) -> None:
        self.files.prepare()
        write_private(self.files.conf, self.render())
        find_tool("mosquitto")
        self._thread = threading.Thread(target=self._supervise, name="mosquitto", daemon=True)
        self._thread.start()
        if not self._started.wait(timeout) or self._error is not None:
            raise BrokerError(
                f"mosquitto did not start on port {self.port}: {self._error or self.problem} "
                f"(see {self.files.log})"
            )

    def render(self) -> str:
        return self.files.render_conf(self.port, self.bind, self.tls)

    def _spawn(self) -> subprocess.Popen[bytes]:
        # Mosquitto's stdout to a pipe is block-buffered: line-buffer it so refusals are
        # reported when they happen (coreutils' stdbuf, always on Debian).
        stdbuf = shutil.which("stdbuf")
        line_buffered = [stdbuf, "-oL"] if stdbuf else []
        proc = subprocess.Popen(
            [*line_buffered, find_tool("mosquitto"), "-c", str(self.files.conf)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            preexec_fn=_die_with_parent,
        )
        assert proc.stdout is not None
        with contextlib.suppress(OSError):  # room for a burst while the reader is busy
            fcntl.fcntl(proc.stdout.fileno(), 1031, 1 << 20)  # F_SETPIPE_SZ
        with contextlib.suppress(OSError):  # a full disk: board-add's reload waits for a restart
            self.files.pid.write_text(f"{proc.pid}\n")
        threading.Thread(
            target=self._read_log, args=(proc,), name="mosquitto-log", daemon=True
        ).start()
        return proc

    def _wait_running(self, proc: subprocess.Popen[bytes], timeout: float) -> bool:
        """True once this Mosquitto says it runs (and its port answers); False if it exits."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                return False
            if getattr(proc, "running", False):
                return wait_for_port("127.0.0.1", self.port, max(0.1, deadline - time.monotonic()))
            time.sleep(0.02)
        return False

    def _read_log(self, proc: subprocess.Popen[bytes]) -> None:
        """File what an operator needs; turn refusals into reports; drop per-message chatter."""
        assert proc.stdout is not None
        watcher = LogWatcher(lambda refusal: self.on_refusal(refusal))
        out = None
        failing = ""
        for raw in proc.stdout:  # read to the end whatever happens: a full pipe stops it
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self.last_lines.append(line)
            if "mosquitto version" in line and line.endswith("running"):
                proc.running = True  # type: ignore[attr-defined]
            if not watcher.feed(line):
                continue
            try:
                if out is None:
                    out = open(self.files.log, "a", encoding="utf-8", errors="replace")  # noqa: SIM115
                out.write(line + "\n")
                out.flush()
            except OSError as exc:  # a full disk: said once, the lines lost until it is over
                if out is not None:
                    with contextlib.suppress(OSError):
                        out.close()
                out = None
                if not failing:
                    log.error("hub: cannot write the broker's log %s (%s)", self.files.log, exc)
                failing = str(exc)
            else:
                if failing:
                    log.warning("hub: the broker's log is written again")
                failing = ""
        if out is not None:
            with contextlib.suppress(OSError):
                out.close()

    def _supervise(self) -> None:
        backoff = 0.2
        first_deadline = time.monotonic() + 5.0
        while not self._stopping.is_set():
            try:
                self.proc = self._spawn()
            except OSError as exc:
                self._error = exc
                self._started.set()
                return
            if self._wait_running(self.proc, 10.0):
                self._started.set()
                self.problem = ""
                backoff = 0.2
            elif not self._started.is_set():
                self.proc.wait()
                last = self.last_lines[-1] if self.last_lines else "no log"
                if "in use" in last and time.monotonic() < first_deadline:
                    self._stopping.wait(0.25)  # a broker of a hub just killed is going away
                    continue
                self._error = BrokerError(last)  # the first start failed: say why, give up
                self._started.set()
                return
            code = self._wait_or_kill_hung(self.proc)
            if self._stopping.is_set():
                return
            last = self.last_lines[-1] if self.last_lines else ""
            self.restarts += 1
            self.problem = f"mosquitto stopped (exit {code}){': ' + last[-200:] if last else ''}"
            log.warning("%s; restarting", self.problem)
            self._stopping.wait(backoff)
            backoff = min(backoff * 2, 5.0)

    def _wait_or_kill_hung(self, proc: subprocess.Popen[bytes]) -> int:
        """Until the process ends; killed (SIGKILL: a spinning Mosquitto never reads its
        SIGTERM) once it has not answered the hub for ``hung_after`` seconds."""
        answered = time.monotonic()
        while True:
            try:
                return proc.wait(min(1.0, self.hung_after / 4))
            except subprocess.TimeoutExpired:
                pass
            if self.answering is None or self.answering() or self._stopping.is_set():
                answered = time.monotonic()
            elif time.monotonic() - answered > self.hung_after:
                self.last_lines.append(
                    f"pid {proc.pid} ran but had not answered the hub for {self.hung_after:g} s"
                )
                proc.kill()

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None and self.proc.poll() is None else None

    def stop(self, timeout: float = 5.0) -> None:
        self._stopping.set()
        proc = self.proc
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if self._thread is not None:
            self._thread.join(timeout)
        self.files.pid.unlink(missing_ok=True)
