"""One bad read never ends the board (drivers/health.py): the scanner retries a failed read,
keeps the last good frame, counts it; the LED strip sends a failed frame again; after a run of
failures ``Devices.health()`` has a problem to show, gone after a run of good reads. A whole game
on the hall build, one I2C read in 50 failing, ends as a clean run does."""

from __future__ import annotations

from pathlib import Path

import pytest

from drivers.factory import build_devices
from drivers.health import CLEAR_AFTER, PROBLEM_AFTER, Faults
from drivers.leds import LedStrip, MockLedWriter
from drivers.link import Link
from drivers.profile import load_profile
from drivers.sensors import MockSource, Scanner
from drivers.virtual import VirtualPi
from tests.drivers.test_run_on_virtual_pi import ROOT, moves_of, play, write_trace

HALL = ROOT / "hardware" / "pi-hall.toml"


class Flaky(MockSource):
    """The sensors' source (the driver interface) with reads that fail on demand."""

    def __init__(self) -> None:
        super().__init__()
        self.failures = 0  # the next reads to fail

    def read_mask(self) -> int:
        if self.failures:
            self.failures -= 1
            raise OSError(121, "Remote I/O error")
        return super().read_mask()


def test_a_failed_read_is_tried_again_in_the_same_scan(ticker):
    source = Flaky()
    scanner = Scanner(source, 1, ticker)
    source.set({(1, 0)})
    source.failures = 2  # two of the three attempts fail: the third reads the board
    assert scanner.scan().occupied == {(1, 0)}
    health = scanner.faults.snapshot()
    assert (health.errors, health.missed, health.failing) == (2, 0, 0)
    assert health.last_error == "OSError: [Errno 121] Remote I/O error"


def test_a_scan_whose_every_attempt_fails_keeps_the_last_good_frame(ticker):
    source = Flaky()
    scanner = Scanner(source, 2, ticker)
    source.set({(1, 0)})
    assert scanner.scan() is None  # one scan of two seen
    source.failures = 3
    assert scanner.scan() is None  # nothing read: nothing changes, the debounce waits
    assert scanner.current.occupied == frozenset()
    assert scanner.scan().occupied == {(1, 0)}  # the second good read completes the debounce
    assert (scanner.faults.errors, scanner.faults.missed) == (3, 1)


def test_a_run_of_failed_scans_makes_a_problem_and_a_run_of_good_ones_clears_it(ticker):
    source = Flaky()
    scanner = Scanner(source, 1, ticker)
    source.set({(1, 0)})
    source.failures = 3 * PROBLEM_AFTER - 1
    for _ in range(PROBLEM_AFTER - 1):
        assert scanner.scan() is None
    assert scanner.faults.snapshot().problem is None  # one scan short of the threshold
    assert scanner.scan().occupied == {(1, 0)}  # its last attempt read: the failures stop
    assert scanner.faults.failing == 0 and scanner.faults.problem is None
    source.failures = 10**9  # the expander is gone
    for _ in range(PROBLEM_AFTER):
        scanner.scan()
    problem = scanner.faults.snapshot().problem
    assert problem == (
        "sensor reading failing (Remote I/O error): check the sensors' wiring and connectors"
    )
    source.failures = 0
    for _ in range(CLEAR_AFTER - 1):
        scanner.scan()
    assert scanner.faults.problem == problem  # still shown: not yet a long run of good reads
    scanner.scan()
    assert scanner.faults.problem is None


def test_sensors_that_cannot_be_read_at_start_do_not_start(ticker):
    source = Flaky()
    source.failures = 10**9
    with pytest.raises(OSError, match=r"the sensors could not be read: OSError: .*Remote I/O"):
        Scanner(source, 1, ticker)


class FailingWriter(MockLedWriter):
    def __init__(self) -> None:
        super().__init__()
        self.failures = 0

    def write(self, data: bytes) -> None:
        if self.failures:
            self.failures -= 1
            raise OSError(5, "Input/output error")
        super().write(data)


def test_an_led_frame_that_failed_is_sent_again_at_the_next_show():
    writer = FailingWriter()
    strip = LedStrip(writer, {(1, 0): (0,)}, 1)
    writer.failures = 1
    assert strip.show({(1, 0): (0, 0, 255)}) is False
    assert writer.frames == [] and strip.faults.missed == 1
    assert strip.show({(1, 0): (0, 0, 255)}) is True  # the same colours: sent this time
    assert writer.frames == [b"\x00\x00\xff"]
    assert strip.show({(1, 0): (0, 0, 255)}) is False and len(writer.frames) == 1
    writer.failures = 1
    strip.close()  # the dark frame fails: counted, the strip closes all the same
    assert strip.closed and strip.faults.errors == 2


def test_devices_health_of_the_hall_build_through_its_real_drivers(ticker):
    """The real MCP23017 backend on the virtual Pi's I2C bus: a read that fails now and then is
    counted and never seen; an expander that stops answering is a problem on the display."""
    profile = load_profile(HALL)
    pi = VirtualPi(profile, fail_one_read_in=5, seed=3)
    with build_devices(profile, clock=ticker, **pi.hardware) as devices:
        pi.set_board({(1, 0), (6, 7)})
        for _ in range(50):
            devices.sensors.scan()
        assert devices.sensors.current.occupied == {(1, 0), (6, 7)}
        health = devices.health()
        assert health.errors == health.of("sensors").errors == pi.i2c.failed_reads > 0
        assert health.problem is None and health.of("leds").errors == 0
        missed = health.of("sensors").missed
        pi.i2c.fail_one_read_in = 1  # every read fails: the expanders are unplugged
        pi.set_board(set())
        for _ in range(PROBLEM_AFTER):
            devices.sensors.scan()
        assert devices.sensors.current.occupied == {(1, 0), (6, 7)}  # the last good frame
        assert devices.health().problem == (
            "sensor reading failing (Remote I/O error): check the sensors' wiring and connectors"
        )
        pi.i2c.fail_one_read_in = None
        for _ in range(CLEAR_AFTER):
            devices.sensors.scan()
        assert devices.sensors.current.occupied == frozenset()
        assert devices.health().problem is None
        assert devices.health().of("sensors").missed == missed + PROBLEM_AFTER


def test_a_coprocessor_port_that_cannot_be_opened_is_a_problem(ticker):
    def refuse(url: str, baudrate: int) -> object:
        raise PermissionError(1, "Operation not permitted")

    link = Link("/dev/ttyACM0", clock=ticker, open_port=refuse)
    health = link.health()
    assert health.problem == (
        "co-processor port /dev/ttyACM0 cannot be opened ([Errno 1] Operation not permitted): "
        "is it plugged in?"
    )
    assert (health.errors, health.failing) == (1, 1)
    assert health.last_error == "PermissionError: [Errno 1] Operation not permitted"


def test_faults_need_positive_thresholds():
    with pytest.raises(ValueError, match="at least 1"):
        Faults("sensors", "x", "y", problem_after=0)


@pytest.mark.slow
def test_a_whole_game_with_one_i2c_read_in_50_failing_loses_nothing(tmp_path, monkeypatch):
    """``damath-board run`` on the hall profile, its real drivers on the virtual Pi; one I2C read
    in 50 fails at random (a NAK: OSError 121). The game ends as the clean run's: the journal
    the same byte for byte, the same record, page and LEDs; every failed read is in the health
    the devices report, and none became a problem."""
    trace = write_trace(tmp_path / "game.jsonl")
    clean = play(tmp_path, "clean", HALL, trace)
    monkeypatch.setenv("DAMATH_TEST_I2C_FAIL", "50")
    monkeypatch.setenv("DAMATH_TEST_SEED", "7")
    flaky = play(tmp_path, "flaky", HALL, trace)
    journal = [Path(tmp_path, r, "state", "journal.jsonl").read_text() for r in ("clean", "flaky")]
    assert journal[0] == journal[1] and '"k":"end"' in journal[0]
    assert flaky["sheet"] == clean["sheet"] and moves_of(flaky["pdn"]) == moves_of(clean["pdn"])
    assert flaky["result"]["page"] == clean["result"]["page"]
    assert flaky["result"]["leds"] == clean["result"]["leds"]
    sensors = {d["device"]: d for d in flaky["result"]["health"]["devices"]}["sensors"]
    failed = flaky["result"]["failed_reads"]
    assert failed > 300  # about 600 reads a second for a game of 48 s
    assert sensors["errors"] == failed and sensors["problem"] is None
    assert sensors["missed"] >= 1  # a scan lost all three attempts and kept the last good frame
    assert sensors["last_error"] == "OSError: [Errno 121] Remote I/O error"
    assert clean["result"]["health"]["devices"][0]["errors"] == 0
    print(f"{failed} I2C reads failed, {sensors['missed']} scans kept the last good frame")


class SilentPort:
    """A serial port whose peer never answers (a Pico that hung)."""

    in_waiting = 0

    def write(self, data: bytes) -> None:
        pass

    def close(self) -> None:
        pass


def test_a_coprocessor_that_stops_answering_is_a_problem(ticker):
    link = Link("/dev/ttyACM0", clock=ticker, open_port=lambda url, baud: SilentPort())
    assert link.health().problem is None  # opened, waiting for its HELLO
    ticker.t += 3.5
    link.poll()
    health = link.health()
    assert health.problem == "co-processor lost (no answer for 3 s): check its cable"
    assert health.missed == 1  # the port was closed once, and is opened again in a second


def test_the_ports_write_timeout_is_the_profiles(ticker):
    """A write that waits longer than write_timeout_ms for room in the port drops the link; the
    value reaches the opened port (pyserial's `write_timeout`, in seconds)."""

    class TimedPort(SilentPort):
        write_timeout: float | None = None

    opened: list[TimedPort] = []

    def open_port(url: str, baud: int) -> TimedPort:
        opened.append(TimedPort())
        return opened[-1]

    Link("/dev/ttyACM0", clock=ticker, open_port=open_port, write_timeout_ms=1500)
    assert opened[0].write_timeout == 1.5
    Link("/dev/ttyACM0", clock=ticker, open_port=open_port)
    assert opened[1].write_timeout == 0.5  # the default: a Pico that stopped reading


def test_a_gpio_read_that_lgpio_refuses_is_a_read_error_not_a_crash(tmp_path):
    """On a Pi 5, gpiozero's lgpio pins let ``lgpio.error`` through (an Exception, not an
    OSError): the scanner counts it as any failed read. Run with a stand-in lgpio module, as
    the real one exists only on a Pi."""
    import subprocess
    import sys

    (tmp_path / "lgpio.py").write_text("class error(Exception):\n    pass\n")
    script = """
import lgpio
from drivers.health import IO_ERRORS
from drivers.sensors import MockSource, Scanner

class Refusing(MockSource):
    fail = 1
    def read_mask(self):
        if self.fail:
            self.fail -= 1
            raise lgpio.error("bad read")
        return super().read_mask()

assert lgpio.error in IO_ERRORS
source = Refusing()
scanner = Scanner(source, 1, lambda: 0.0)
source.set({(1, 0)})
print(sorted(scanner.scan().occupied), scanner.faults.errors, scanner.faults.snapshot().last_error)
"""
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True, text=True, timeout=60,
        env={**__import__("os").environ, "PYTHONPATH": f"{tmp_path}:{ROOT}"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[(1, 0)] 1 error: bad read"
