"""``damath-board selftest --profile …``: check every device of a board before a tournament.

Before anything is opened, each device node the profile needs and this Pi lacks is named with
its fix (/dev/spidev0.0 when SPI is off, /dev/i2c-1, the Pico's port). Then each device is
started on its own, so one that fails is reported and the others are still tested:

1. LEDs: every playable square lit in turn, Blue's side first (the clocks show its number);
2. the clocks show 88:88, the display a test page, the buzzer plays every pattern;
3. sensors and buttons, for up to ``--seconds`` with a countdown: lift every chip and cover every
   empty square, press each arbiter button once. It ends as soon as all have been seen. A board
   whose sensors and buttons are mocks (hardware/sim.toml) has no hands to do this: the
   selftest does it itself, covering and clearing each square and pressing each button.

The report has a line for every device (LEDs, buzzer, each clock, the display, each button) and
the sensors drawn as the board: the 32 squares of an 8 × 8 board, the 72 of a 12 × 12 Dam board,
the 81 points of a Mathematical Chess board (the profile's ``[board] size`` and ``grid``). Exit
code 0 when nothing failed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from controller.i18n import _
from controller.rules.damath_data import OPERATORS
from drivers.buttons import BUTTON_NAMES

if TYPE_CHECKING:
    from drivers.factory import Devices
    from drivers.occupancy import Square
    from drivers.profile import BoardProfile

WALK_COLOUR = (240, 240, 240)
SEEN_COLOUR = (86, 180, 233)
PLAYABLE = sorted(OPERATORS, key=lambda s: (s[1], s[0]))
SECTIONS = ("sensors", "leds", "clocks", "buzzer", "buttons", "scoresheet")
PROGRESS_EVERY = 5.0  # seconds between countdown lines when nothing changes


@dataclass
class Check:
    device: str
    ok: bool
    detail: str

    def line(self) -> str:
        return f"{'ok  ' if self.ok else 'FAIL'} {self.device}: {self.detail}"


@dataclass
class SelftestReport:
    walked: int = 0
    seen_occupied: set[Square] = field(default_factory=set)
    seen_empty: set[Square] = field(default_factory=set)
    patterns: list[str] = field(default_factory=list)
    buttons: tuple[str, ...] = ()  # the buttons the profile has
    pressed: set[str] = field(default_factory=set)
    checks: list[Check] = field(default_factory=list)
    sensors_tested: bool = False
    simulated: bool = False
    cells: tuple[Square, ...] = tuple(PLAYABLE)
    """The board's squares (or points), in the order they are walked: row by row."""
    size: int = 8

    @property
    def stuck_on(self) -> list[Square]:
        return [sq for sq in self.cells if sq not in self.seen_empty]

    @property
    def stuck_off(self) -> list[Square]:
        return [sq for sq in self.cells if sq not in self.seen_occupied]

    @property
    def unchecked(self) -> int:
        return len(set(self.stuck_on) | set(self.stuck_off))

    @property
    def ok(self) -> bool:
        sensors_ok = not self.sensors_tested or not (self.stuck_on or self.stuck_off)
        return sensors_ok and all(c.ok for c in self.checks) and self.pressed >= set(self.buttons)

    def sensor_board(self) -> list[str]:
        """The sensors as the board, the far side at the top: ok, ON (never read empty),
        off (never read a chip)."""
        rows = ["     " + " ".join(f"x{x:<2}" for x in range(self.size))]
        on, off = set(self.stuck_on), set(self.stuck_off)
        board = set(self.cells)
        for y in range(self.size - 1, -1, -1):
            cells = []
            for x in range(self.size):
                sq = (x, y)
                if sq not in board:
                    cells.append(" .  ")
                else:
                    cells.append("ON  " if sq in on else "off " if sq in off else "ok  ")
            rows.append(f"  y{y:<2}" + "".join(cells).rstrip())
        return rows

    def lines(self) -> list[str]:
        out = [c.line() for c in self.checks]
        if self.buttons:
            for name in self.buttons:
                if name in self.pressed:
                    out.append(_("ok   button {name}: pressed").format(name=name))
                else:
                    out.append(
                        _("FAIL button {name}: never pressed (its switch goes to GND)").format(
                            name=name
                        )
                    )
        if self.sensors_tested:
            fmt = ", ".join
            out.append(
                _("sensors stuck on (never read empty): ")
                + (fmt(f"({x},{y})" for x, y in self.stuck_on) or _("none"))
            )
            out.append(
                _("sensors stuck off (never read a chip): ")
                + (fmt(f"({x},{y})" for x, y in self.stuck_off) or _("none"))
            )
            out += self.sensor_board()
        out.append(
            _("selftest: all OK") if self.ok else _("selftest: problems above (FAIL, ON, off)")
        )
        return out


def _walk_leds(
    devices: Devices,
    report: SelftestReport,
    sleep: Callable[[float], None],
    step_seconds: float,
    say: Callable[[str], None],
) -> None:
    leds = devices.leds
    assert leds is not None  # walked only when the profile has them
    say(
        _("LEDs: each square in turn, Blue's side first ({len} squares)").format(
            len=len(report.cells)
        )
    )
    for i, square in enumerate(report.cells, start=1):
        leds.show({square: WALK_COLOUR})
        if devices.clocks is not None:
            devices.clocks.show(f"{i:>2}", f"{square[0]}{square[1]}", False)
        report.walked += 1
        sleep(step_seconds)
    leds.show({})


class MockHands:
    """For a board whose sensors and buttons are mocks: cover and clear each square in turn,
    then press each button, as a person testing the board would."""

    def __init__(
        self, devices: Devices, dwell: float = 0.02, cells: tuple[Square, ...] = tuple(PLAYABLE)
    ) -> None:
        self.controls = devices.controls()
        self.dwell = dwell
        self.steps = [(sq, on) for sq in cells for on in (True, False)]
        if not self.controls.senses:
            self.steps = []
        self.names = list(BUTTON_NAMES) if self.controls.presses else []
        self.next_at: float | None = None

    def __call__(self, t: float) -> None:
        if self.next_at is not None and t < self.next_at:
            return
        self.next_at = t + self.dwell
        if self.steps:
            square, on = self.steps.pop(0)
            self.controls.set_occupied({square} if on else set())
        elif self.names:
            self.controls.press(self.names.pop(0))


def _map_sensors(
    devices: Devices,
    report: SelftestReport,
    clock: Callable[[], float],
    sleep: Callable[[float], None],
    seconds: float,
    on_frame: Callable[[float], None] | None,
    say: Callable[[str], None],
) -> None:
    end = clock() + seconds
    sensors = devices.sensors
    scan_sensors = sensors is not None
    report.sensors_tested = scan_sensors
    if on_frame is not None:
        on_frame(clock())
    occupied: frozenset[Square] = frozenset()
    if sensors is not None:
        sensors.scan()
        occupied = sensors.current.occupied
    said_at: float | None = None
    said: tuple[int, int] | None = None
    while True:
        if scan_sensors:
            report.seen_occupied |= occupied
            report.seen_empty |= set(report.cells) - occupied
        if devices.buttons is not None:
            report.pressed |= {press.name for press in devices.buttons.poll()}
        if devices.leds is not None:
            devices.leds.show({sq: SEEN_COLOUR for sq in occupied})
        now = clock()
        left_buttons = [b for b in report.buttons if b not in report.pressed]
        todo = (report.unchecked if scan_sensors else 0, len(left_buttons))
        if devices.scoresheet is not None:
            devices.scoresheet.show(
                [
                    _("SELFTEST"),
                    _("{n} squares to check").format(n=todo[0]),
                    _("{n} buttons to press").format(n=todo[1]),
                ]
            )
        if todo == (0, 0) or now >= end:
            break
        changed = said_at is None or (said != todo and now - said_at >= 1.0)
        if changed or (said_at is not None and now - said_at >= PROGRESS_EVERY):
            say(
                _(
                    "  {max:3.0f} s left: {todo} of {count} squares still to read both ways, "
                    "buttons not yet pressed: {value}"
                ).format(
                    max=max(0.0, end - now),
                    todo=todo[0],
                    count=len(report.cells),
                    value=", ".join(left_buttons) or _("none"),
                )
            )
            said, said_at = todo, now
        if on_frame is not None:
            on_frame(now)
        if sensors is not None:
            frame = sensors.scan()
            if frame is not None:
                occupied = frame.occupied
        sleep(0.005)


def selftest(
    devices: Devices,
    clock: Callable[[], float],
    sleep: Callable[[float], None],
    step_seconds: float = 0.15,
    sensor_seconds: float = 60.0,
    on_frame: Callable[[float], None] | None = None,
    say: Callable[[str], None] = print,
    buttons: tuple[str, ...] = (),
    simulated: bool = False,
    cells: tuple[Square, ...] = tuple(PLAYABLE),
    size: int = 8,
) -> SelftestReport:
    """Test the devices that were built (any may be None). ``buttons``: the ones to press.
    ``simulated``: the sensors and buttons are mocks; the selftest moves them itself.
    ``cells``: the board's squares or points, row by row (8 × 8 Damath's by default)."""
    report = SelftestReport(
        buttons=tuple(buttons), simulated=simulated, cells=tuple(cells), size=size
    )
    if devices.clocks is not None:
        devices.clocks.show("88:88", "88:88", True)
    if devices.scoresheet is not None:
        devices.scoresheet.show([_("SELFTEST"), _("LEDs, sensors,"), _("buzzer, clocks")])
    if devices.leds is not None:
        _walk_leds(devices, report, sleep, step_seconds, say)
    if devices.buzzer is not None:
        for name in devices.buzzer.patterns:
            devices.buzzer.play(name)
            devices.buzzer.wait(2.0)
            report.patterns.append(name)
    if devices.sensors is not None or buttons:
        if simulated:
            say(_("sensors and buttons are simulated: the selftest covers and clears every square"))
            say(_("and presses every button itself (on the simulator page, do it with the mouse)"))
            on_frame = on_frame or MockHands(devices, cells=report.cells)
        else:
            say(
                _(
                    "sensors: for up to {sensor_seconds:.0f} s, lift every chip and cover every"
                ).format(sensor_seconds=sensor_seconds)
            )
            say(_("empty square (each lights up while it reads a chip); press each button once"))
        _map_sensors(devices, report, clock, sleep, sensor_seconds, on_frame, say)
    if devices.leds is not None:
        devices.leds.show({})
    if devices.scoresheet is not None:
        devices.scoresheet.show(
            [
                _("SELFTEST"),
                _("all OK") if report.ok else _("problems:"),
                _("stuck on {len} off {len2}").format(
                    len=len(report.stuck_on), len2=len(report.stuck_off)
                )
                if report.sensors_tested
                else "",
            ]
        )
    return report


def device_checks(profile: BoardProfile, devices: Devices, report: SelftestReport) -> None:
    """A line for each device that started, saying what was done and what to look at."""
    if devices.leds is not None:
        report.checks.append(
            Check(
                f"LEDs ({profile.leds.count}, {profile.leds.backend})",
                True,
                _("lit {walked} squares in turn: each must have lit, in order").format(
                    walked=report.walked
                ),
            )
        )
    if devices.buzzer is not None:
        played = ", ".join(report.patterns) or _("nothing")
        pin = profile.buzzer.pin
        where = _(" on GPIO{pin}").format(pin=pin) if pin is not None else ""
        what = _("buzzer ({backend}{where})").format(backend=profile.buzzer.backend, where=where)
        report.checks.append(Check(what, True, played))
    if devices.clocks is not None:
        sides = (_("left (Blue)"), _("right (Red)"))
        for side, address in zip(sides, profile.clocks.addresses, strict=False):
            at = _(" at {address}").format(address=f"{address:#04x}")
            where = at if profile.clocks.backend == "ht16k33" else ""
            report.checks.append(
                Check(
                    _("clock {side} ({backend}{where})").format(
                        side=side, backend=profile.clocks.backend, where=where
                    ),
                    True,
                    _("showed 88:88 with the colon: every segment must have lit"),
                )
            )
    if devices.scoresheet is not None:
        error = getattr(devices.scoresheet, "error", None)
        report.checks.append(
            Check(
                _("display ({backend})").format(backend=profile.scoresheet.backend),
                error is None,
                _("showed the SELFTEST page")
                if error is None
                else _("failed: {error}").format(error=error),
            )
        )


def start_each(
    profile: BoardProfile,
    hardware: dict[str, Any],
    clock: Callable[[], float],
    say: Callable[[str], None],
) -> tuple[Devices, list[Check]]:
    """Every device of the profile started on its own; (devices, checks for those that failed)."""
    from drivers.factory import DeviceError, Devices, build_devices

    devices = Devices()
    failed: list[Check] = []
    groups: list[tuple[str, ...]] = []
    linked = tuple(s for s in ("sensors", "leds") if getattr(profile, s).backend == "link")
    if linked:
        groups.append(linked)
    groups += [(s,) for s in SECTIONS if s not in linked]
    for group in groups:
        try:
            part = build_devices(profile, clock=clock, only=group, **hardware)
        except DeviceError as exc:
            failed.append(Check(" and ".join(group), False, str(exc).split(": ", 1)[-1]))
            continue
        for name in (*group, "link"):
            if getattr(part, name) is not None:
                setattr(devices, name, getattr(part, name))
    return devices, failed


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", required=True, help=_("board profile (hardware/*.toml)"))
    parser.add_argument(
        "--seconds",
        type=float,
        default=60.0,
        help=_("at most this long for the sensors and buttons"),
    )
    parser.add_argument(
        "--step", type=float, default=0.15, help=_("seconds per square in the walk")
    )


def check_board(
    profile: BoardProfile,
    hardware: dict[str, Any],
    clock: Callable[[], float],
    sleep: Callable[[float], None],
    seconds: float,
    step: float,
    say: Callable[[str], None],
    exists: Callable[[str], bool],
    on_frame: Callable[[float], None] | None = None,
) -> SelftestReport:
    """The whole selftest of one profile; returns the report (missing nodes included).
    ``hardware``: handles for build_devices (drivers/virtual.py in the tests)."""
    from drivers.system import missing

    report_checks: list[Check] = []
    for node in missing(profile, exists):
        fix = _("missing ({used_by}): {fix}").format(used_by=node.used_by, fix=node.fix)
        report_checks.append(Check(node.path, False, fix))
    devices, failed = start_each(profile, hardware, clock, say)
    simulated = profile.sensors.backend == "mock" and profile.buttons.backend in ("mock", "none")
    buttons: tuple[str, ...] = ()
    if devices.buttons is not None:
        names = profile.buttons.pins if profile.buttons.backend == "gpio" else BUTTON_NAMES
        buttons = tuple(n for n in BUTTON_NAMES if n in names)
    with devices:
        report = selftest(
            devices,
            clock,
            sleep,
            step,
            seconds,
            on_frame,
            say=say,
            buttons=buttons,
            simulated=simulated,
            cells=tuple(sorted(profile.cells, key=lambda s: (s[1], s[0]))),
            size=profile.size,
        )
        flush = getattr(devices.scoresheet, "flush", None)
        if flush is not None:  # a display drawn in the background: its last page sent
            flush()
        device_checks(profile, devices, report)
    report.checks[:0] = report_checks + failed
    return report


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from drivers.profile import load_profile

    if args.seconds < 0 or args.step < 0:
        raise ValueError(_("--seconds and --step must not be negative"))
    profile = load_profile(args.profile)
    say = _progress_printer()
    report = check_board(
        profile,
        {},
        time.monotonic,
        time.sleep,
        args.seconds,
        args.step,
        say,
        lambda p: Path(p).exists(),
    )
    for line in report.lines():
        print(line)
    return 0 if report.ok else 1


def _progress_printer() -> Callable[[str], None]:
    """Countdown lines overwrite each other on a terminal; elsewhere each is a line."""
    tty = sys.stdout.isatty()
    state = {"open": False}

    def say(text: str) -> None:
        if tty and text.startswith("  "):
            sys.stdout.write("\r" + text.ljust(100)[:100])
            sys.stdout.flush()
            state["open"] = True
            return
        if state["open"]:
            sys.stdout.write("\n")
            state["open"] = False
        print(text, flush=True)

    return say
