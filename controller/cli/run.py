"""``damath-board run --profile hardware/<board>.toml``: the board itself, whatever its game.

The command only reads its options: the board's profile names its game (``[board] game``,
found in the registry, ``controller.games``) and becomes its devices (``drivers.factory``); its
state folder becomes its host (``controller.board.host``: the game in the journal resumed), and
the one scan loop (``controller.board.loop``: finished games kept, the watchdog fed) runs until
systemd stops it. ``--set`` and the profile's ``[game]`` are the game's settings; ``--variant``
and ``--rules`` are Damath's.

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
from controller.games import GameKind, find_game
from controller.games.keeper import Keeper
from controller.i18n import _
from controller.rules.options import RULES, add_variant

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
    add_variant(parser, default=None, help=_("Damath: the variant (default integer)"))
    parser.add_argument(
        "--rules",
        choices=RULES,
        default=None,
        help=_("Damath: the rule profile (default official)"),
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=_(
            "a setting of the board's game, e.g. touch_move=true or move_seconds=30 "
            "(repeatable; over the profile's [game])"
        ),
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


def game_settings(
    args: argparse.Namespace, profile: BoardProfile, kind: GameKind
) -> dict[str, Any]:
    """The game's settings: the profile's ``[game]``, then ``--set`` (which wins), then
    ``--variant`` and ``--rules`` when given. ``game`` may only name the profile's own game."""
    settings = {**profile.settings, **parse_settings(args.set)}
    named = settings.pop("game", kind.name)
    if named != kind.name:
        raise ValueError(
            _(
                "board {name} plays {game} (its profile's [board] game): --set game={other} "
                "is not played on it"
            ).format(name=profile.name, game=kind.name, other=named)
        )
    for option in ("variant", "rules"):
        value = getattr(args, option, None)
        if value is not None:
            settings[option] = value
    return settings


def run(args: argparse.Namespace) -> int:
    from drivers.factory import DeviceError, build_devices
    from drivers.profile import load_profile
    from drivers.scoresheet import SerialScoresheet

    profile = load_profile(args.profile)  # ProfileError is a ValueError: one clear line
    if profile.language and not getattr(args, "lang", None):  # --lang or DAMATH_LANG come first
        i18n.set_language(profile.language)
    kind = find_game(profile.game)  # the registry: a name no game has is one line
    kind.check_board(profile.size, profile.grid, profile.leds.count, profile.name)
    settings = game_settings(args, profile, kind)
    harness = load_harness(profile)
    clock: Callable[[], float] = harness.clock if harness else time.monotonic
    sleep: Callable[[float], None] = harness.sleep if harness else time.sleep
    if args.scan_hz <= 0 or args.scan_hz > 2000:
        raise ValueError(f"--scan-hz {args.scan_hz}: use 1..2000")
    state = Path(args.state_dir) if args.state_dir else default_state_dir()
    link = open_link(args.hub, state, "run")  # a wrong connection file stops here, clearly
    host = BoardHost(state)
    game = host.open(kind, settings, clock())  # a wrong setting fails here, clearly
    for problem in game.problems:
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
        host.close(game, clock())
        return 2
    off_the_loop(devices)
    deadline = None if args.exit_after is None else clock() + args.exit_after

    def running() -> bool:
        if stop or (deadline is not None and clock() >= deadline):
            return False
        return harness is None or harness.step(clock(), devices)

    if link is not None:
        link.set_game(kind.name)  # before its first record: another game's table is refused
        link.start()
    with devices:
        loop = ScanLoop(game, devices, Keeper.of_board(state, host.wall), mirrors, link)
        loop.render(clock())
        watchdog.notify("READY=1")
        print(f"damath-board run: {game.ready_line(profile.name)}", flush=True)
        announce_link(link, "run")  # after the ready line: what the board says first
        watchdog.notify(f"STATUS=board {profile.name}: {game.status()}")
        if args.ready_file:
            Path(args.ready_file).write_text(f"{time.time():.6f}\n")
        freeze_startup_objects()
        try:
            run_loop(loop, clock, sleep, 1.0 / args.scan_hz, running, watchdog)
        finally:
            watchdog.notify("STOPPING=1")
            host.close(loop.game, clock())
            for mirror in mirrors:
                mirror.close()
            if link is not None:
                close_link(link, "run", timeout=5.0)  # systemd waits 10 s at most
            if harness is not None:
                harness.finish(devices)
    return 0
