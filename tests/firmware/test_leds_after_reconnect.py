"""The LED picture after the Pico comes back: a frame shown while the link was down, or one
still waiting for its ACK when the link dropped, reaches the chain of the Pico that reset, and
so does the picture of a Pico that reset behind a port that stayed open (the UART link). The
firmware loop (fake machine and rp2) and the Pi's own Link, LedStrip and LinkLedWriter, on an
in-memory wire, one pass of each a simulated millisecond."""

from __future__ import annotations

import pytest

from drivers.coprocessor import LinkLedWriter, LinkScanner
from drivers.ledmap import layout_map
from drivers.leds import LedStrip
from drivers.link import Link
from firmware import config, fakes

machine, rp2 = fakes.install()
from firmware import app, hw  # noqa: E402  (needs the fakes installed first)

RED = {(1, 0): (255, 0, 0)}
GREEN = {(3, 4): (0, 255, 0)}


class Wire:
    """The USB cable: bytes each way, and whether the Pico's port is there at all."""

    def __init__(self) -> None:
        self.to_pico = bytearray()
        self.to_pi = bytearray()
        self.plugged = True

    def replug(self) -> None:
        self.to_pico.clear()
        self.to_pi.clear()
        self.plugged = True


class PiPort:
    """What pyserial gives the Pi; a port whose Pico went away fails as /dev/ttyACM0 does."""

    def __init__(self, wire: Wire) -> None:
        self.wire = wire

    def _check(self) -> None:
        if not self.wire.plugged:
            raise OSError(5, "Input/output error")

    @property
    def in_waiting(self) -> int:
        self._check()
        return len(self.wire.to_pi)

    def read(self, n: int) -> bytes:
        data = bytes(self.wire.to_pi[:n])
        del self.wire.to_pi[:n]
        return data

    def write(self, data: bytes) -> None:
        self._check()
        self.wire.to_pico += data

    def close(self) -> None:
        pass


class PicoStream:
    def __init__(self, wire: Wire) -> None:
        self.wire = wire

    def read(self) -> bytes:
        data = bytes(self.wire.to_pico[: hw.READ_BUDGET])
        del self.wire.to_pico[: hw.READ_BUDGET]
        return data

    def write(self, data: bytes) -> None:
        self.wire.to_pi += data


class Ticks:
    """The Pico's counters, wrapping at 2**30 as the RP2040's."""

    def __init__(self) -> None:
        self.us = 0

    def ticks_ms(self) -> int:
        return (self.us // 1000) & (hw.TICKS_PERIOD - 1)

    def ticks_us(self) -> int:
        return self.us & (hw.TICKS_PERIOD - 1)

    def ticks_diff(self, a: int, b: int) -> int:
        return hw.ticks_diff(a, b)

    def ticks_add(self, a: int, b: int) -> int:
        return hw.ticks_add(a, b)

    def sleep_us(self, n: int) -> None:
        self.us += n


class Bench:
    """A Pico (booted again by ``boot``) and the Pi's link, stepped together."""

    def __init__(self) -> None:
        self.wire = Wire()
        self.t = 0.0
        self.link = Link(
            "/dev/ttyACM0",
            clock=lambda: self.t,
            open_port=self._open,
            heartbeat_ms=100,
            timeout_ms=300,
            reconnect_seconds=0.05,
        )
        self.scanner = LinkScanner(self.link, clock=lambda: self.t)
        self.strip = LedStrip(LinkLedWriter(self.link, 32), layout_map(), 32)
        self.pico: app.Firmware | None = None
        self.boot()

    def _open(self, url: str, baudrate: int) -> PiPort:
        if not self.wire.plugged:
            raise OSError(2, f"could not open port {url}")
        return PiPort(self.wire)

    def boot(self) -> None:
        """The Pico starts (power, a watchdog reset): its chain dark, nothing sent yet."""
        machine.clear()
        machine.input_hook = lambda pin: 1  # an empty board
        ticks = Ticks()
        self.pico = app.Firmware(
            hw.MatrixPins(config.ROW_PINS, config.COLUMN_PINS, settle_us=0),
            hw.Ws2812(config.LED_PIN, clock=ticks),
            PicoStream(self.wire),
            hw.Watchdog(config.WATCHDOG_MS),
            ticks,
            heartbeat_ms=100,
            led_count=32,
        )

    def chain(self) -> bytes:
        assert self.pico is not None
        return bytes(w >> 24 for w in self.pico.leds.sm.words[-96:])

    def run_until(self, predicate, pico: bool = True, limit_ms: int = 5000) -> None:
        for _ in range(limit_ms):
            if predicate():
                return
            self.t += 0.001
            if pico and self.pico is not None:
                self.pico.step()
                self.pico.clock.sleep_us(1000)
            self.scanner.scan()
        raise AssertionError(f"not within {limit_ms} simulated ms; link {self.link.status}")


def picture(colours) -> bytes:
    return LedStrip(LinkLedWriter(None, 32), layout_map(), 32).encode(colours)  # type: ignore[arg-type]


@pytest.mark.parametrize("when", ["while the link is down", "waiting for its ACK"])
def test_the_current_picture_reaches_a_pico_that_came_back(when):
    bench = Bench()
    bench.run_until(lambda: bench.link.status == "up")
    bench.strip.show(RED)
    bench.run_until(lambda: bench.chain() == picture(RED))
    if when == "waiting for its ACK":
        bench.strip.show(GREEN)  # the Pico stalls before it reads it: no ACK comes
        bench.run_until(lambda: bench.link.endpoint.pending(0x20), pico=False)
    bench.wire.plugged = False  # the Pico resets: its USB port goes away
    bench.run_until(lambda: bench.link.status == "lost", pico=False)
    if when == "while the link is down":
        bench.strip.show(GREEN)  # the game goes on: the next picture, nowhere to send it
    bench.boot()
    bench.wire.replug()
    bench.run_until(lambda: bench.link.status == "up")
    bench.run_until(lambda: bench.chain() == picture(GREEN))
    assert bench.link.resends >= 1


def test_a_pico_that_reset_behind_an_open_port_gets_the_picture_again():
    """On the UART link the port never closes: the Pico's HELLO at boot says it started afresh."""
    bench = Bench()
    bench.run_until(lambda: bench.link.status == "up")
    bench.strip.show(RED)
    bench.run_until(lambda: bench.chain() == picture(RED))
    bench.run_until(lambda: not bench.link.endpoint.pending())
    bench.boot()  # a watchdog reset, faster than the link's timeout
    assert bench.chain() == b"" and bench.link.status == "up"
    bench.run_until(lambda: bench.chain() == picture(RED))
    assert bench.link.status_log[-1][1] == "up"  # never counted as lost
