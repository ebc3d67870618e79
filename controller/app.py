"""``damath-board run --profile hardware/<board>.toml``: the board itself.

The command only reads its options: the board's profile becomes its devices
(``drivers.factory``), its state folder becomes its host (``controller.board.host``: the game in
the journal resumed, finished games kept), and the scan loop (``controller.board.loop``) runs
until systemd stops it. ``--profile`` is the board's file; ``--rules`` the rules profile.

For tests only, ``DAMATH_BOARD_HARNESS=module:function`` names a harness that supplies the
hardware handles (drivers/virtual.py), the loop's clock and a hook called on every pass: the same
``run`` then drives the real drivers on mock pins and fake buses (docs/wiring.md, "Testing").
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from controller import i18n
from controller.board import (
    BoardHost,
    ScanLoop,
    Watchdog,
    default_state_dir,
    freeze_startup_objects,
    off_the_loop,
    run_loop,
)
from controller.board.hub import announce_link, close_link, open_link
from controller.board.options import parse_settings
from controller.i18n import _
from controller.rules_options import RULES, add_variant
from controller.session import SessionConfig

if TYPE_CHECKING:
    from collections.abc import Callable

    from drivers.factory import Devices
    from drivers.profile import BoardProfile

HARNESS_ENV = "DAMATH_BOARD_HARNESS"


class Harness(Protocol):
    """What ``DAMATH_BOARD_HARNESS`` names (tests only): the hardware handles for
    ``build_devices``, the loop's clock and sleep, a hook before every pass (False ends the
    run) and one before the devices close."""

    hardware: dict[str, Any]

    def clock(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...

    def step(self, t: float, devices: Devices) -> bool: ...

    def finish(self, devices: Devices) -> None: ...


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", required=True, help=_("board profile (hardware/*.toml)"))
    add_variant(parser)
    parser.add_argument("--rules", choices=RULES, default="official", help=_("rule profile"))
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=_("a rule setting, e.g. touch_move=true or move_seconds=30 (repeatable)"),
    )
    parser.add_argument(
        "--state-dir", default=None, help=_("journal and exported games (default $STATE_DIRECTORY)")
    )
    parser.add_argument("--scan-hz", type=float, default=200.0, help=_("scan rate (default 200)"))
    parser.add_argument(
        "--mirror-serial", default=None, metavar="URL", help=_("also stream the scoresheet lines")
    )
    parser.add_argument(
        "--hub",
        default=None,
        metavar="BOARD.toml",
        help=_(
            "publish every game to a tournament hub (the board's connection file, written by "
            "damath-board hub board-add)"
        ),
    )
    parser.add_argument(
        "--exit-after", type=float, default=None, metavar="S", help=argparse.SUPPRESS
    )
    parser.add_argument("--ready-file", default=None, help=argparse.SUPPRESS)


def load_harness(profile: BoardProfile) -> Harness | None:
    """The test harness named by DAMATH_BOARD_HARNESS, built for this profile (None normally)."""
    spec = os.environ.get(HARNESS_ENV)
    if not spec:
        return None
    module, _sep, name = spec.partition(":")
    harness: Harness = getattr(importlib.import_module(module), name or "harness")(profile)
    return harness


def _stop_on_sigterm() -> list[int]:
    """systemd stops the service with SIGTERM: finish the pass, darken the LEDs, exit 0."""
    import signal

    flag: list[int] = []
    signal.signal(signal.SIGTERM, lambda signum, frame: flag.append(signum))
    return flag


DAM_SQUARES = 72
"""The playable squares of a 12×12 Dam board."""


def _run_dadama(
    args: argparse.Namespace,
    profile: BoardProfile,
    settings: dict[str, Any],
    state: Path,
    harness: Harness | None,
    clock: Callable[[], float],
    sleep: Callable[[float], None],
) -> int:
    from controller.board.dadama import run_dadama
    from controller.board.dam import run_dam
    from drivers.factory import build_devices

    runner = run_dam if settings.get("game") == "dam" else run_dadama
    if runner is run_dam and profile.leds.count < DAM_SQUARES:  # an 8x8 board cannot play it
        raise ValueError(
            _(
                "board {name} has {count} squares' LEDs; Dam needs {need} (hardware/dam-12x12.md)"
            ).format(name=profile.name, count=profile.leds.count, need=DAM_SQUARES)
        )
    devices = build_devices(profile, clock=clock, **(harness.hardware if harness else {}))
    deadline = None if args.exit_after is None else clock() + args.exit_after

    def running() -> bool:
        if deadline is not None and clock() >= deadline:
            return False
        return harness is None or harness.step(clock(), devices)

    period = 1.0 / args.scan_hz
    return runner(profile.name, devices, settings, state, clock, sleep, period, running)


def _run_mathchess(args: argparse.Namespace) -> int:
    """``run`` on a Mathematical Chess profile (controller/board/mathchess_run.py)."""
    from controller.board.mathchess_run import run_mathchess
    from drivers.buttons import GpioButtons

    settings = parse_settings(args.set)
    if settings.get("game", "mathchess") != "mathchess":
        raise ValueError(
            f"{args.profile} is a Mathematical Chess board: --set game={settings['game']} "
            "is not played on it"
        )
    if args.scan_hz <= 0 or args.scan_hz > 2000:
        raise ValueError(f"--scan-hz {args.scan_hz}: use 1..2000")
    state = Path(args.state_dir) if args.state_dir else default_state_dir()
    clock = time.monotonic
    deadline = None if args.exit_after is None else clock() + args.exit_after
    stop = _stop_on_sigterm()

    def running() -> bool:
        return not stop and (deadline is None or clock() < deadline)

    def buttons(pins: dict[str, int]) -> GpioButtons:
        return GpioButtons(pins, bounce_seconds=0.02, clock=clock)

    period = 1.0 / args.scan_hz
    return run_mathchess(args.profile, settings, state, clock, time.sleep, period, running, buttons)


def run(args: argparse.Namespace) -> int:
    from controller.board.mathchess_run import is_mathchess_profile
    from drivers.factory import DeviceError, build_devices
    from drivers.profile import load_profile
    from drivers.scoresheet import SerialScoresheet

    if is_mathchess_profile(args.profile):  # its own format: [board] game = "mathchess"
        return _run_mathchess(args)
    profile = load_profile(args.profile)  # ProfileError is a ValueError: one clear line
    if profile.language and not getattr(args, "lang", None):  # --lang or DAMATH_LANG come first
        i18n.set_language(profile.language)
    harness = load_harness(profile)
    clock: Callable[[], float] = harness.clock if harness else time.monotonic
    sleep: Callable[[float], None] = harness.sleep if harness else time.sleep
    settings = parse_settings(args.set)
    if args.scan_hz <= 0 or args.scan_hz > 2000:
        raise ValueError(f"--scan-hz {args.scan_hz}: use 1..2000")
    state = Path(args.state_dir) if args.state_dir else default_state_dir()
    if settings.get("game") == "mathchess":
        raise ValueError(
            _(
                "board {name} is not a Mathematical Chess board: run it with its own profile "
                "(hardware/mathchess-pico.toml)"
            ).format(name=profile.name)
        )
    if profile.size != 8 and settings.get("game") != "dam":  # 12 x 12: only Dam is played on it
        raise ValueError(
            _("board {name} is {size}×{size}: play Dam on it (--set game=dam)").format(
                name=profile.name, size=profile.size
            )
        )
    if settings.get("game") in ("dadama", "dam"):  # controller/board/dadama.py, board/dam.py
        return _run_dadama(args, profile, settings, state, harness, clock, sleep)
    config = SessionConfig(variant=args.variant, rules=args.rules, rule_settings=settings)
    link = open_link(args.hub, state, "run")  # a wrong connection file stops here, clearly
    host = BoardHost(state)
    session = host.open(config, clock())  # a wrong rule setting fails here, clearly
    for problem in session.problems:
        print(f"damath-board run: {problem}", file=sys.stderr)
    mirrors: tuple[SerialScoresheet, ...] = ()
    if args.mirror_serial:
        mirrors = (SerialScoresheet(args.mirror_serial),)
    watchdog = Watchdog()
    stop = _stop_on_sigterm()
    try:
        devices = build_devices(profile, clock=clock, **(harness.hardware if harness else {}))
    except DeviceError as exc:
        print(_("damath-board run: error: {exc}").format(exc=exc), file=sys.stderr)
        return 2
    off_the_loop(devices)
    deadline = None if args.exit_after is None else clock() + args.exit_after

    def running() -> bool:
        if stop or (deadline is not None and clock() >= deadline):
            return False
        return harness is None or harness.step(clock(), devices)

    if link is not None:
        link.start()
    with devices:
        from controller.coach.board import BoardCoach  # the computer and hints (practice)

        loop = ScanLoop(session, devices, host, mirrors, link, coach=BoardCoach())
        loop.render(clock())
        watchdog.notify("READY=1")
        print(f"damath-board run: {session.ready_line(profile.name)}", flush=True)
        announce_link(link, "run")  # after the ready line: what the board says first
        watchdog.notify(f"STATUS=board {profile.name}: {session.phase}")
        if args.ready_file:
            Path(args.ready_file).write_text(f"{time.time():.6f}\n")
        freeze_startup_objects()
        try:
            run_loop(loop, clock, sleep, 1.0 / args.scan_hz, running, watchdog)
        finally:
            watchdog.notify("STOPPING=1")
            host.close(session, clock())
            for mirror in mirrors:
                mirror.close()
            if link is not None:
                close_link(link, "run", timeout=5.0)  # systemd waits 10 s at most
            if harness is not None:
                harness.finish(devices)
    return 0
