"""The Pi's end of the serial link to the co-processor: the port, reconnection, and the protocol.

Framing, acknowledgement, retry and heartbeat are firmware/endpoint.py, the very code the RP2040
runs. This module adds what only the Pi does: open the port (any pyserial URL: /dev/ttyACM0,
loop://, socket://host:port, a pty), notice a peer that has gone quiet, report it, close the
port and keep reopening it until the peer answers again (a Pico that reset re-enumerates on USB),
and give a peer that comes back the state it lost: the newest LED picture is kept and sent again
whenever the link comes up and whenever the peer says HELLO (it started afresh), so a reset or a
USB glitch never leaves the board showing an old picture until the next change.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any

from drivers.base import Device
from drivers.health import DeviceHealth, describe
from firmware import protocol
from firmware.endpoint import Endpoint


def _open_serial(url: str, baudrate: int) -> Any:
    import serial

    return serial.serial_for_url(url, baudrate=baudrate, timeout=0, write_timeout=0.5)


RESENT = (protocol.LEDS,)
"""The state messages the Pi owns: the newest of each is sent again to a peer that came back
(the peer's own, OCCUPANCY, it sends itself when the Pi says HELLO)."""


class Link(Device):
    """poll() often (every scan); it returns the peer's messages as (type, body) pairs.

    `status` is "connecting" (port closed or nothing heard yet), "up" or "lost"; every change is
    appended to `status_log` as (t, status, reason) so the session can show and record it.
    """

    def __init__(
        self,
        url: str,
        baudrate: int = 115200,
        clock: Callable[[], float] = time.monotonic,
        open_port: Callable[[str, int], object] = _open_serial,
        retry_ms: int = 100,
        heartbeat_ms: int = 1000,
        timeout_ms: int = 3000,
        reconnect_seconds: float = 1.0,
        points: int = protocol.DEFAULT_POINTS,
        write_timeout_ms: int = 500,
    ) -> None:
        """`points`: the board's sensor count, announced in this side's HELLO (protocol.py).
        `write_timeout_ms`: how long a frame may wait for room in the port before the peer counts
        as lost (a Pico that stopped reading); a scan is never held longer than that."""
        self.write_timeout = write_timeout_ms / 1000
        self.points = protocol.check_points(points)
        self.url = url
        self.baudrate = baudrate
        self.clock = clock
        self._open_port = open_port
        self.reconnect_seconds = reconnect_seconds
        self.port: Any = None
        self.endpoint = Endpoint(
            self._write,
            lambda: int(self.clock() * 1000),
            retry_ms=retry_ms,
            heartbeat_ms=heartbeat_ms,
            timeout_ms=timeout_ms,
        )
        self.status = "connecting"
        self._state: dict[int, bytes] = {}  # the newest body of each RESENT type sent
        self.resends = 0  # times the state went again to a peer that came back
        self.status_log: list[tuple[float, str, str]] = []
        self.connects = 0
        self.port_errors = 0  # failed opens and port errors (each counted)
        self.drops = 0  # times the port was closed on an error or a silent peer
        self.failed_opens = 0  # opens that failed in a row, up to now
        self.last_error: str | None = None
        self._open_error = ""
        self._next_attempt = clock()
        self._connect()

    def _set_status(self, status: str, reason: str) -> None:
        if status != self.status:
            self.status = status
            self.status_log.append((self.clock(), status, reason))

    def _write(self, data: bytes) -> None:
        if self.port is not None:
            self.port.write(data)

    def _connect(self) -> None:
        self._next_attempt = self.clock() + self.reconnect_seconds
        try:
            self.port = self._open_port(self.url, self.baudrate)  # a serial.Serial or a fake
            if hasattr(self.port, "write_timeout"):  # pyserial's ports; the tests' fakes have none
                self.port.write_timeout = self.write_timeout
        except (OSError, ValueError) as exc:  # serial.SerialException is an OSError
            self.port = None
            self.port_errors += 1
            self.failed_opens += 1
            self.last_error = describe(exc)
            self._open_error = str(exc)
            self._set_status("lost" if self.connects else "connecting", f"cannot open: {exc}")
            return
        self.failed_opens = 0
        self.connects += 1
        self.endpoint.reset()
        self._started = self.clock()
        self._safely(lambda: self.endpoint.send(protocol.HELLO, protocol.hello_body(self.points)))

    def _drop(self, reason: str) -> None:
        self.drops += 1
        port, self.port = self.port, None
        if port is not None:
            with contextlib.suppress(OSError):
                port.close()
        self._set_status("lost", reason)
        self._next_attempt = self.clock() + self.reconnect_seconds

    def _safely(self, action: Callable[[], object]) -> bool:
        try:
            action()
        except OSError as exc:
            self.port_errors += 1
            self.last_error = describe(exc)
            self._drop(f"port error: {exc}")
            return False
        return True

    def poll(self) -> list[tuple[int, bytes]]:
        if self.port is None:
            if self.closed or self.clock() < self._next_attempt:
                return []
            self._connect()
            if self.port is None:
                return []
        messages: list[tuple[int, bytes]] = []

        def exchange() -> None:
            waiting = self.port.in_waiting
            if waiting:
                messages.extend(self.endpoint.feed(self.port.read(waiting)))
            self.endpoint.poll()

        if not self._safely(exchange):
            return messages
        if self.endpoint.peer_alive():
            came_back = self.status != "up" or any(t == protocol.HELLO for t, _ in messages)
            self._set_status("up", "peer answered")
            if came_back and self._state:
                self._resend()
        else:
            quiet_since = self._started if not self.endpoint.heard_ever() else None
            timeout = self.endpoint.timeout_ms / 1000
            if quiet_since is None or self.clock() - quiet_since >= timeout:
                self._drop(f"no answer for {timeout:g} s")
        return messages

    def _resend(self) -> None:
        self.resends += 1
        for msg_type, body in self._state.items():
            if not self._send_now(msg_type, body):
                return

    def _send_now(self, msg_type: int, body: bytes) -> bool:
        return self._safely(lambda: self.endpoint.send(msg_type, body))

    def send(self, msg_type: int, body: bytes) -> None:
        """Send now if the port is open; a RESENT type is kept either way, and goes again when
        the peer comes back (a frame while the link is down is not lost, only late)."""
        if msg_type in RESENT:
            self._state[msg_type] = bytes(body)
        if self.port is not None:
            self._send_now(msg_type, body)

    @property
    def frames_rejected(self) -> int:
        return self.endpoint.decoder.bad + self.endpoint.rejected

    def health(self, problem: str | None = None, bad_messages: int = 0) -> DeviceHealth:
        """The link's faults (drivers/health.py): port errors and rejected frames; a problem
        while the port cannot be opened or the peer is lost (``problem``: the scanner's own,
        which comes first)."""
        if problem is None and self.failed_opens:
            problem = f"co-processor port {self.url} cannot be opened ({self._open_error})"
            problem += ": is it plugged in?"
        elif problem is None and self.status == "lost":
            reason = self.status_log[-1][2] if self.status_log else ""
            problem = f"co-processor lost ({reason}): check its cable"
        return DeviceHealth(
            "link",
            self.port_errors + self.frames_rejected + bad_messages,
            self.drops,
            self.failed_opens,
            self.last_error,
            problem,
        )

    def close(self) -> None:
        if not self.closed and self.port is not None:
            self.port.close()
            self.port = None
        super().close()
