"""``damath-board selftest --profile …``: check every device of a board before a tournament.

1. LEDs: every playable square lit in turn (the clocks show its number), so a wrong chain order
   or a dead LED shows at once. 2. Sensors: for ``--seconds`` the board lights every square whose
   sensor reads a chip; lift each chip (and put one on each empty square) and watch its square.
   A sensor never seen empty is reported stuck-on, one never seen occupied stuck-off.
3. The buzzer plays every pattern; 4. the clocks show 88:88 and the scoresheet a test page.
Exit code 0 when nothing was stuck, 1 otherwise.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from controller.rules.damath_data import OPERATORS

WALK_COLOUR = (240, 240, 240)
SEEN_COLOUR = (86, 180, 233)
PLAYABLE = sorted(OPERATORS, key=lambda s: (s[1], s[0]))


@dataclass
class SelftestReport:
    walked: int = 0
    seen_occupied: set = field(default_factory=set)
    seen_empty: set = field(default_factory=set)
    patterns: list[str] = field(default_factory=list)

    @property
    def stuck_on(self) -> list:
        return [sq for sq in PLAYABLE if sq not in self.seen_empty]

    @property
    def stuck_off(self) -> list:
        return [sq for sq in PLAYABLE if sq not in self.seen_occupied]

    def lines(self) -> list[str]:
        out = [f"LEDs: walked {self.walked} squares"]
        out.append(f"buzzer: played {', '.join(self.patterns) or 'nothing (no buzzer)'}")
        fmt = ", ".join
        out.append(
            "sensors stuck on (never read empty): "
            + (fmt(f"({x},{y})" for x, y in self.stuck_on) or "none")
        )
        out.append(
            "sensors stuck off (never read a chip): "
            + (fmt(f"({x},{y})" for x, y in self.stuck_off) or "none")
        )
        return out


def selftest(
    devices,
    clock: Callable[[], float],
    sleep: Callable[[float], None],
    step_seconds: float = 0.15,
    sensor_seconds: float = 60.0,
    on_frame: Callable[[float], None] | None = None,
    say: Callable[[str], None] = print,
) -> SelftestReport:
    report = SelftestReport()
    if devices.clocks is not None:
        devices.clocks.show("88:88", "88:88", True)
    if devices.scoresheet is not None:
        devices.scoresheet.show(["SELFTEST", "LEDs, sensors,", "buzzer, clocks"])
    if devices.leds is not None:
        say("LEDs: each square in turn, Blue's side first")
        for i, square in enumerate(PLAYABLE, start=1):
            devices.leds.show({square: WALK_COLOUR})
            if devices.clocks is not None:
                devices.clocks.show(f"{i:>2}", f"{square[0]}{square[1]}", False)
            report.walked += 1
            sleep(step_seconds)
        devices.leds.show({})
    if devices.buzzer is not None:
        for name in devices.buzzer.patterns:
            devices.buzzer.play(name)
            devices.buzzer.wait(2.0)
            report.patterns.append(name)
    if devices.sensors is not None:
        say(f"sensors: for {sensor_seconds:.0f} s, lift every chip and cover every empty square")
        end = clock() + sensor_seconds
        if on_frame is not None:
            on_frame(clock())
        devices.sensors.scan()
        occupied = devices.sensors.current.occupied
        while True:
            report.seen_occupied |= occupied
            report.seen_empty |= set(PLAYABLE) - occupied
            if devices.leds is not None:
                devices.leds.show({sq: SEEN_COLOUR for sq in occupied})
            if devices.scoresheet is not None:
                left = len(report.stuck_on) + len(report.stuck_off)
                devices.scoresheet.show(
                    ["SENSORS", f"{len(occupied)} chips read", f"{left} to check"]
                )
            now = clock()
            if now >= end:
                break
            if on_frame is not None:
                on_frame(now)
            frame = devices.sensors.scan()
            if frame is not None:
                occupied = frame.occupied
            sleep(0.005)
    if devices.leds is not None:
        devices.leds.show({})
    if devices.scoresheet is not None:
        ok = not (report.stuck_on or report.stuck_off)
        devices.scoresheet.show(
            [
                "SELFTEST",
                "all sensors OK" if ok else "stuck sensors:",
                f"on {len(report.stuck_on)} off {len(report.stuck_off)}",
            ]
        )
    return report


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", required=True, help="board profile (hardware/*.toml)")
    parser.add_argument("--seconds", type=float, default=60.0, help="time to map the sensors")
    parser.add_argument("--step", type=float, default=0.15, help="seconds per square in the walk")


def run(args: argparse.Namespace) -> int:
    from drivers.factory import DeviceError, build_devices
    from drivers.profile import load_profile

    if args.seconds < 0 or args.step < 0:
        raise ValueError("--seconds and --step must not be negative")
    profile = load_profile(args.profile)
    try:
        devices = build_devices(profile)
    except DeviceError as exc:
        print(f"damath-board selftest: error: {exc}", file=sys.stderr)
        return 2
    with devices:
        report = selftest(devices, time.monotonic, time.sleep, args.step, args.seconds)
    for line in report.lines():
        print(line)
    return 0 if not (report.stuck_on or report.stuck_off) else 1
