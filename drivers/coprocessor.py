"""Sensors and LEDs on the RP2040 co-processor, through one shared Link.

The RP2040 scans and debounces; `LinkScanner` turns its OCCUPANCY messages into frames stamped by
the Pi's clock (the Pico's ticks are not the Pi's time). `LinkLedWriter` sends each LED frame's
bytes; the Pico puts them on the chain unchanged.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from drivers.base import FrameReader
from drivers.link import Link
from drivers.occupancy import OccupancyFrame, squares_of
from firmware import protocol
from firmware.framing import FrameError


class LinkScanner(FrameReader):
    def __init__(self, link: Link, clock: Callable[[], float] = time.monotonic) -> None:
        self.link = link
        self.clock = clock
        self._current = OccupancyFrame(clock(), frozenset())
        self.heartbeats: list[tuple[int, int]] = []  # (Pico uptime ms, scans in that second)
        self.bad_messages = 0

    def scan(self) -> OccupancyFrame | None:
        """Poll the link; the newest occupancy it brought, if it differs from the current one."""
        frame = None
        for msg_type, body in self.link.poll():
            try:
                if msg_type == protocol.OCCUPANCY:
                    mask, _ticks = protocol.parse_occupancy(body)
                    occupied = squares_of(mask)
                    if occupied != self._current.occupied:
                        frame = self._current = OccupancyFrame(self.clock(), occupied)
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
    def __init__(self, link: Link) -> None:
        self.link = link

    def write(self, data: bytes) -> None:
        self.link.send(protocol.LEDS, data)

    def close(self) -> None:
        pass
