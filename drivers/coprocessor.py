"""Sensors and LEDs on the RP2040 co-processor, through one shared Link.

The RP2040 scans and debounces; `LinkScanner` turns its OCCUPANCY messages into frames stamped by
the Pi's clock (the Pico's ticks are not the Pi's time). `LinkLedWriter` sends each LED frame's
bytes; the Pico puts them on the chain unchanged.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from drivers.base import FrameReader
from drivers.health import DeviceHealth
from drivers.link import Link
from drivers.occupancy import OccupancyFrame, Square, squares_of
from firmware import protocol
from firmware.framing import FrameError
from firmware.squares import dark_square

Decode = Callable[[int], frozenset[Square]]
"""An occupancy mask -> the occupied points (x, y) of one board's layout."""


def grid_points(size: int) -> Decode:
    """A board of size x size points (Mathematical Chess: 9): bit size * y + x is (x, y)."""
    return lambda mask: frozenset(
        (i % size, i // size) for i in range(size * size) if mask >> i & 1
    )


def dark_squares(size: int) -> Decode:
    """The playable squares of a size x size draughts board (12 x 12 Dam: 72), numbered as on
    8 x 8 (firmware/squares.py)."""
    count = size * size // 2
    return lambda mask: frozenset(dark_square(i, size) for i in range(count) if mask >> i & 1)


class LinkScanner(FrameReader):
    """`points` and `decode`: the board's sensor count and how a mask's bits are its squares
    (8 x 8 Damath by default). A co-processor that announces another size is named in
    `problem` (and in the link's status log); its occupancy frames, of another length, are
    counted in `bad_messages` and never read as a board."""

    def __init__(
        self,
        link: Link,
        clock: Callable[[], float] = time.monotonic,
        points: int | None = None,
        decode: Decode = squares_of,
    ) -> None:
        self.link = link
        self.clock = clock
        self.points = link.points if points is None else protocol.check_points(points)
        self.decode = decode
        self._current = OccupancyFrame(clock(), frozenset())
        self.heartbeats: list[tuple[int, int]] = []  # (Pico uptime ms, scans in that second)
        self.bad_messages = 0
        self.peer_points: int | None = None
        self.problem: str | None = None

    @property
    def occupied(self) -> frozenset[Square]:
        """The newest occupancy the co-processor reported (empty before its first report)."""
        return self._current.occupied

    def _hello(self, body: bytes) -> None:
        version, points = protocol.parse_hello(body)
        self.peer_points = points
        if points == self.points:
            self.problem = None
            return
        self.problem = (
            f"the co-processor scans {points} points (protocol {version}), this board has "
            f"{self.points}: copy the board's configuration to it (firmware/README.md)"
        )
        self.link.status_log.append((self.clock(), self.link.status, self.problem))

    def health(self) -> DeviceHealth:
        """The link's faults with this scanner's: garbled occupancy bodies counted, a
        co-processor of another size named first (``problem``)."""
        return self.link.health(self.problem, self.bad_messages)

    def scan(self) -> OccupancyFrame | None:
        """Poll the link; the newest occupancy it brought, if it differs from the current one."""
        frame = None
        for msg_type, body in self.link.poll():
            try:
                if msg_type == protocol.OCCUPANCY:
                    mask, _ticks = protocol.parse_occupancy(body, self.points)
                    occupied = self.decode(mask)
                    if occupied != self._current.occupied:
                        frame = self._current = OccupancyFrame(self.clock(), occupied)
                elif msg_type == protocol.HELLO:
                    self._hello(body)
                elif msg_type == protocol.HEARTBEAT:
                    self.heartbeats.append(protocol.parse_heartbeat(body))
                    del self.heartbeats[:-10]
            except FrameError:
                self.bad_messages += 1
        return frame


def release(
    link: Link,
    timeout: float = 3.0,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> bool:
    """Ask the co-processor to boot once into its REPL (so `mpremote` can update it); True once
    it acknowledged. Its watchdog cannot be stopped, so it reboots: firmware/startup.py."""
    end = clock() + timeout
    while link.status != "up" and clock() < end:
        link.poll()
        sleep(0.01)
    if link.status != "up":
        return False
    link.send(protocol.RELEASE, protocol.RELEASE_BODY)
    while clock() < end:
        link.poll()
        if not link.endpoint.pending(protocol.RELEASE):
            return True
        sleep(0.01)
    return False


class LinkLedWriter:
    """With `count` (the chain's LEDs), a frame of another length is refused here, before it
    leaves the Pi (the co-processor would drop it too, and keep the chain as it was)."""

    def __init__(self, link: Link, count: int | None = None) -> None:
        self.link = link
        self.count = count

    def write(self, data: bytes) -> None:
        if self.count is not None:
            try:
                protocol.check_leds(data, self.count)
            except FrameError as exc:
                raise ValueError(f"{exc}: the LED chain and the frame disagree") from None
        self.link.send(protocol.LEDS, data)

    def close(self) -> None:
        pass
