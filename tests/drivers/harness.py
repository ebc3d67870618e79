"""The test harness for ``damath-board run`` (controller/cli/run.py, DAMATH_BOARD_HARNESS).

``DAMATH_BOARD_HARNESS=tests.drivers.harness:TracePlayer`` plays the sensor trace in
DAMATH_TEST_TRACE on whatever the profile names, through the real drivers: the simulated matrix
on gpiozero's mock pins (pi-gpio), the Pico's own firmware under the MicroPython unix port behind
a pty (pico), or the mock devices (sim). The loop runs on a virtual clock: each pass moves it by
the scan period, so a whole game takes seconds and its timing is the trace's own. With a link,
the clock waits (in real time) until the Pi has read the board the trace has just set, so the
link's real latency never shortens what the tracker sees. At the end the harness writes what the
board showed to DAMATH_TEST_OUT: result.json (the page, the clocks, the LED bytes) and the
display's picture, scoresheet.png. With DAMATH_TEST_I2C_FAIL=N one I2C read in N fails at random
(seeded by DAMATH_TEST_SEED), as a NAK does on a Pi; result.json then holds the reads that
failed and what ``Devices.health()`` said at the end.
"""

from __future__ import annotations

import dataclasses
import errno
import json
import os
import subprocess
import sys
import time
from collections import deque
from pathlib import Path

from controller.tracker.trace import Frame, read_trace
from drivers.link import _open_serial
from drivers.occupancy import mask_of
from drivers.virtual import VirtualPi

ROOT = Path(__file__).resolve().parents[2]
PICO_PORT = "virtual-pico"  # the [link] port a test profile names for the pty
HOLD_LIMIT = 60.0  # real seconds to wait for the Pi to read a board: a bound for a hung Pico only
# (on two loaded cores the MicroPython process may go unscheduled for seconds)


class TracePlayer:
    def __init__(self, profile) -> None:
        self.trace = read_trace(Path(os.environ["DAMATH_TEST_TRACE"]).read_text().splitlines())
        self.out = Path(os.environ["DAMATH_TEST_OUT"])
        self.out.mkdir(parents=True, exist_ok=True)
        self.records = deque(self.trace.records)
        self.t = 1000.0
        self.start = self.t + 0.5
        self.end = self.start + self.trace.records[-1].t + 3.0
        self.board: frozenset | None = None
        self.applied_at = 0.0
        self.holding = False
        self.period: float | None = None
        self.pressed: list[tuple[object, float]] = []
        fail = int(os.environ.get("DAMATH_TEST_I2C_FAIL", "0")) or None
        seed = int(os.environ.get("DAMATH_TEST_SEED", "0"))
        self.pi = (
            None
            if profile.sensors.backend == "mock"
            else VirtualPi(profile, fail_one_read_in=fail, seed=seed)
        )
        self.hardware = dict(self.pi.hardware) if self.pi else {}
        self.pico = None
        if profile.link is not None:
            self._start_pico()

    def _start_pico(self) -> None:
        home = self.out / "pico"
        home.mkdir(exist_ok=True)
        (home / "board").write_text("0")
        master, slave = os.openpty()
        self._pty = (master, slave)
        exe = Path(sys.executable).with_name("micropython")
        runner = ROOT / "tests" / "firmware" / "mp" / "mp_pico.py"
        self.pico = subprocess.Popen(
            [str(exe), str(runner), str(ROOT)], stdin=master, stdout=master, cwd=home
        )
        path = os.ttyname(slave)
        self.hardware["open_port"] = lambda url, baud: _open_serial(
            path if url == PICO_PORT else url, baud
        )

    # the loop's time
    def clock(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        """One scan period of virtual time; none while the Pi waits for the Pico (real time
        passes instead). The loop asks to catch up after such a wait: it is given one period,
        so the wait never becomes a jump in the board's time."""
        if self.period is None:
            self.period = seconds
        if self.holding:
            time.sleep(0.0005)
        else:
            self.t += min(seconds, self.period)

    # called before every pass of the scan loop
    def step(self, t: float, devices) -> bool:
        if self._waiting(devices):
            self.holding = True
            return True
        self.holding = False
        while self.records and self.start + self.records[0].t <= t:
            rec = self.records.popleft()
            if isinstance(rec, Frame):
                self._set_board(rec.occupied, devices)
            else:
                self._press(rec.button, devices)
        return bool(self.records) or t < self.end

    def _waiting(self, devices) -> bool:
        now = time.monotonic()
        for pin, since in list(self.pressed):
            if now - since < 0.05:  # a press lasts longer than gpiozero's bounce time
                return True
            pin.drive_high()
            self.pressed.remove((pin, since))
        if self.pico is None or self.board is None:
            return False
        seen = devices.sensors.current.occupied == self.board
        return not seen and now - self.applied_at < HOLD_LIMIT

    def _set_board(self, occupied: frozenset, devices) -> None:
        self.board = frozenset(occupied)
        self.applied_at = time.monotonic()
        if self.pico is not None:
            path = self.out / "pico" / "board"
            path.with_suffix(".new").write_text(str(mask_of(occupied)))
            path.with_suffix(".new").replace(path)
        elif self.pi is not None:
            self.pi.set_board(occupied)
        else:
            devices.controls().set_occupied(occupied)

    def _press(self, name: str, devices) -> None:
        if self.pi is None:
            devices.controls().press(name)
            return
        pin = self.pi.button_pin(name)
        pin.drive_low()
        self.pressed.append((pin, time.monotonic()))

    def _pico_leds(self, devices) -> str:
        """What the Pico's chain shows, once the Pi's last frame has crossed the link (its
        latency is real time; the Pi keeps polling so the frame is retried if it was lost)."""
        wanted = (devices.leds._last or b"").hex()
        sent = self.out / "pico" / "leds"
        end = time.monotonic() + HOLD_LIMIT
        while time.monotonic() < end:
            devices.link.poll()
            if sent.exists() and sent.read_text() == wanted:
                break
            time.sleep(0.005)
        return sent.read_text() if sent.exists() else ""

    def finish(self, devices) -> None:
        sheet = devices.scoresheet
        if hasattr(sheet, "flush"):
            sheet.flush()
        picture = sheet.render(sheet.last) if self.pi is None else self.pi.display.dummy.image
        picture.convert("1").save(self.out / "scoresheet.png")
        leds = devices.leds.writer
        if self.pico is not None:
            led_bytes = self._pico_leds(devices)
        elif self.pi is not None:
            led_bytes = self.pi.leds_sent().hex()
        else:
            led_bytes = leds.frames[-1].hex()
        clocks = devices.clocks
        if hasattr(clocks, "flush"):
            clocks.flush()
        result = {"page": sheet.last, "leds": led_bytes, "unplayed": len(self.records)}
        result["health"] = dataclasses.asdict(devices.health())
        if self.pi is not None:
            result["failed_reads"] = self.pi.i2c.failed_reads
        status = dict(
            line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines()
        )
        result["peak_rss_kb"] = int(status["VmHWM"].split()[0])  # for the unit's MemoryMax
        result["threads"] = int(status["Threads"])  # and TasksMax
        if devices.link is not None:
            result["link"] = [list(entry) for entry in devices.link.status_log]
            result["rejected"] = devices.link.frames_rejected
            result["pico_exit"] = self.pico.poll()
        (self.out / "result.json").write_text(json.dumps(result, indent=1))
        if self.pico is not None:
            self.pico.kill()
            self.pico.wait(5)
            for fd in self._pty:
                os.close(fd)


class StartupProbe:
    """What ``run`` opens at start on a Pi, inside the service's sandbox (test_service_sandbox):
    gpiozero's own Pi detection (``get_pi_revision``: /proc/device-tree, then /proc/cpuinfo)
    feeds the mock pin factory; Blinka's platform detection must name the Pi and import its pin
    module (``import board``); lgpio's notification FIFO is made in the working directory, as
    lgpio does when gpiozero starts it. I2C, SPI and the display are the virtual Pi's. The
    identities found are written to $STATE_DIRECTORY/identity.json; the run lasts one second."""

    def __init__(self, profile) -> None:
        from gpiozero.pins.local import get_pi_revision

        revision = f"{get_pi_revision():x}"
        os.environ.pop("BLINKA_OS_AGNOSTIC", None)
        from drivers.blinka import board, detected

        pins = board()
        fifo = Path(".lgd-nfy-probe")
        os.mkfifo(fifo)
        fifo.unlink()
        self.pi = VirtualPi(profile, revision=revision)
        self.hardware = self.pi.hardware
        self.identity = {
            "gpiozero_revision": revision,
            "gpiozero_model": self.pi.factory.board_info.model,
            "blinka_board": detected(),
            "blinka_has_mosi": hasattr(pins, "MOSI"),
        }
        self.clock = time.monotonic
        self.sleep = time.sleep

    def step(self, t: float, devices) -> bool:
        return True

    def _pico_leds(self, devices) -> str:
        """What the Pico's chain shows, once the Pi's last frame has crossed the link (its
        latency is real time; the Pi keeps polling so the frame is retried if it was lost)."""
        wanted = (devices.leds._last or b"").hex()
        sent = self.out / "pico" / "leds"
        end = time.monotonic() + HOLD_LIMIT
        while time.monotonic() < end:
            devices.link.poll()
            if sent.exists() and sent.read_text() == wanted:
                break
            time.sleep(0.005)
        return sent.read_text() if sent.exists() else ""

    def finish(self, devices) -> None:
        state = Path(os.environ["STATE_DIRECTORY"])
        (state / "identity.json").write_text(json.dumps(self.identity))


class LatePico:
    """A Pico plugged in after the start (test_service_sandbox): ``run`` on pico.toml inside the
    service's sandbox, its link opening /dev/ttyACM0 through pyserial as the service's user,
    every attempt's outcome recorded (the errno's name, or "opened"). Once an attempt has found
    no node, a line on stdout tells the test to make it; the run ends after the first
    attempt that finds it (or after 30 s) and writes the attempts and what
    ``Devices.health()`` said to $STATE_DIRECTORY/pico.json."""

    def __init__(self, profile) -> None:
        self.state = Path(os.environ["STATE_DIRECTORY"])
        self.pi = VirtualPi(profile)
        self.hardware = dict(self.pi.hardware, open_port=self._open)
        self.attempts: list[str] = []
        self.clock = time.monotonic
        self.sleep = time.sleep
        self.until = time.monotonic() + 30.0
        self.said = False

    def _open(self, url: str, baudrate: int):
        try:
            port = _open_serial(url, baudrate)
        except OSError as exc:  # pyserial's SerialException keeps the errno of the open
            self.attempts.append(errno.errorcode.get(exc.errno or 0, str(exc)))
            raise
        self.attempts.append("opened")
        return port

    def step(self, t: float, devices) -> bool:
        if self.attempts == ["ENOENT"] and not self.said:
            print("LatePico: no /dev/ttyACM0 yet", flush=True)
            self.said = True
        found = any(a != "ENOENT" for a in self.attempts)
        return not found and time.monotonic() < self.until

    def finish(self, devices) -> None:
        found = {"attempts": self.attempts, "problem": devices.health().problem}
        (self.state / "pico.json").write_text(json.dumps(found))
