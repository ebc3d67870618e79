"""A hall's uplink of the test's own: TCP relays on 127.0.0.1 between the hall (its Mosquitto's
bridge, its hub's submission) and the far ends (each node of the broker cluster, the
federation's HTTPS port). Whatever the test does to the uplink happens to every relay at once,
as to a school's one line to the internet:

- ``cut()``: every connection reset (RST, no goodbye) and new ones reset as they come, until
  ``restore()``;
- ``stall()``: nothing forwarded either way, connections left open (a half-open link: the
  ends find out by their own keepalives); new connections taken and left hanging;
- ``slow(rate)``: every byte through, at ``rate`` bytes a second (a saturated line);
- ``cut_uploads(after, times)``: the next ``times`` connections that send more than ``after``
  bytes towards the far end are reset there (an upload cut midway); ``cut_answers(after,
  times)``: the next ``times`` that have sent ``after`` bytes are reset as the far end's answer
  comes back, once ``when()`` says the far end has it (the upload arrived whole, its answer is
  lost);
- ``captured``: the first bytes each way of every connection, for what crosses the link (a
  capture of the traffic, as tcpdump on the link would show it).

Every address and port is the test's own; nothing else on the machine is touched (this kernel
has no netem, and a namespace would need root: a relay needs neither).
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

CAPTURE = 8192
"""Bytes kept of each direction of each connection."""


@dataclass
class Flow:
    """One connection through the uplink and what of it was seen."""

    target: tuple[str, int]
    up: bytearray = field(default_factory=bytearray)  # hall → far end
    down: bytearray = field(default_factory=bytearray)
    sent_up: int = 0


def _reset(sock: socket.socket) -> None:
    """The connection dropped at once: RST (no lingering), and the relay's thread blocked
    reading it woken (a close alone leaves the socket to that thread until it reads)."""
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        sock.close()


class Uplink:
    def __init__(self, targets: list[tuple[str, int]]) -> None:
        self.state = "up"
        self.rate: float | None = None
        self.flows: list[Flow] = []
        self.cuts_left = 0
        self.cut_after = 0
        self.uploads_cut = 0
        self.answers_left = 0
        self.answer_after = 0
        self.answer_when: Callable[[], bool] = lambda: True
        self.answers_cut = 0
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._flowing = threading.Event()
        self._flowing.set()
        self._stopped = False
        self.listeners = []
        for target in targets:
            server = socket.create_server(("127.0.0.1", 0))
            self.listeners.append(server)
            threading.Thread(target=self._accept, args=(server, target), daemon=True).start()

    def port(self, n: int) -> int:
        return int(self.listeners[n].getsockname()[1])

    # -- what the test does -----------------------------------------------------------------

    def cut(self) -> None:
        with self._lock:
            self.state = "cut"
            socks, self._open = list(self._open), set()
        self._flowing.set()  # stalled pipes wake up to find their sockets gone
        for sock in socks:
            _reset(sock)

    def stall(self) -> None:
        self.state = "stall"
        self._flowing.clear()

    def slow(self, rate: float) -> None:
        self.rate = rate

    def restore(self) -> None:
        self.state, self.rate = "up", None
        self._flowing.set()

    def cut_uploads(self, after: int, times: int) -> None:
        self.cut_after, self.cuts_left = after, times

    def cut_answers(self, after: int, times: int, when: Callable[[], bool]) -> None:
        self.answer_after, self.answers_left, self.answer_when = after, times, when

    def captured(self, direction: str = "up") -> list[bytes]:
        with self._lock:
            return [bytes(getattr(f, direction)) for f in self.flows]

    def close(self) -> None:
        self._stopped = True
        for server in self.listeners:
            server.close()
        self.cut()

    # -- the relays -------------------------------------------------------------------------

    def _accept(self, server: socket.socket, target: tuple[str, int]) -> None:
        while not self._stopped:
            try:
                client, _ = server.accept()
            except OSError:
                return
            if self.state == "cut":
                _reset(client)
                continue
            threading.Thread(target=self._connect, args=(client, target), daemon=True).start()

    def _connect(self, client: socket.socket, target: tuple[str, int]) -> None:
        self._flowing.wait()  # a stalled link takes the connection and says nothing
        if self.state == "cut" or self._stopped:
            _reset(client)
            return
        try:
            far = socket.create_connection(target, timeout=5)
        except OSError:
            _reset(client)
            return
        far.settimeout(None)
        flow = Flow(target)
        with self._lock:
            self.flows.append(flow)
            self._open |= {client, far}
        for a, b, up in ((client, far, True), (far, client, False)):
            threading.Thread(target=self._pipe, args=(a, b, flow, up), daemon=True).start()

    def _pipe(self, a: socket.socket, b: socket.socket, flow: Flow, up: bool) -> None:
        seen = flow.up if up else flow.down
        try:
            while True:
                self._flowing.wait()
                data = a.recv(16384)
                if not data:
                    break
                self._flowing.wait()  # stalled while this was in hand: held, not lost
                if len(seen) < CAPTURE:
                    seen += data[: CAPTURE - len(seen)]
                if up:
                    flow.sent_up += len(data)
                    if self.cuts_left and flow.sent_up > self.cut_after:
                        self.cuts_left -= 1
                        self.uploads_cut += 1
                        raise ConnectionResetError("the upload is cut")
                elif self.answers_left and flow.sent_up >= self.answer_after:
                    # what comes back once the upload is whole: held until the far end has
                    # taken it (``answer_when``), then the link goes, the answer with it
                    deadline = time.monotonic() + 60
                    while not self.answer_when() and time.monotonic() < deadline:
                        time.sleep(0.05)
                    self.answers_left -= 1
                    self.answers_cut += 1
                    raise ConnectionResetError("the answer is lost")
                if self.rate:
                    time.sleep(len(data) / self.rate)
                b.sendall(data)
        except OSError:
            pass
        _reset(a)
        _reset(b)
        with self._lock:
            self._open -= {a, b}
