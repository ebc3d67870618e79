"""``damath-board run --profile hardware/<board>.toml``: the board itself, and its wiring.

Profile -> devices (drivers.factory) -> a ``Session`` resumed from the journal -> the scan loop:
every tick it scans the sensors, polls the buttons, lets the session's time advance, renders the
view on the devices, plays the buzzer cues and feeds the systemd watchdog. Time is one injected
monotonic clock, so the loop runs the same under a test's fake clock.

``build_session_for_sim(board_id, ...)`` gives the simulator the same session, journaled per board.

The scoresheet display and the clock displays are drawn off the scan loop (drivers/background.py):
an OLED page is ~1 KB of I2C, which would stall the sensors for up to 95 ms a redraw.

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
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller import i18n
from controller.i18n import _, ngettext
from controller.session import Session, SessionConfig
from controller.session.session import RULES, VARIANTS

HARNESS_ENV = "DAMATH_BOARD_HARNESS"
RENDER_PERIOD = 0.04
"""Outputs are refreshed at 25 Hz (and at once after any event): blinking needs no more, and the
LED strip re-sends nothing that did not change."""


def default_state_dir() -> Path:
    """systemd's ``StateDirectory=`` (``$STATE_DIRECTORY``), else ~/.local/state/damath-board."""
    env = os.environ.get("STATE_DIRECTORY")
    if env:
        return Path(env.split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "damath-board"


def build_session_for_sim(
    board_id: str,
    *,
    state_dir: str | Path | None = None,
    variant: str = "integer",
    rules: str = "official",
    t: float = 0.0,
    sync: bool = False,
    **settings: Any,
) -> Session:
    """A session for one simulated board. With ``state_dir`` it is journaled under
    ``state_dir/boards/<board_id>/journal.jsonl`` and resumed from there; without, in memory."""
    if not board_id or not all(c.isalnum() or c in "-_" for c in board_id):
        raise ValueError(f"board id {board_id!r}: use letters, digits, '-' and '_'")
    config = SessionConfig(variant=variant, rules=rules, **settings)
    config.profile()  # a wrong rule setting fails here, clearly
    if state_dir is None:
        session = Session(config)
        session._begin(t)
        return session
    return Session.open(config, str(journal_path(state_dir, board_id)), t, sync=sync)


def journal_path(state_dir: str | Path, board_id: str) -> Path:
    """Where a simulated board's game is journaled."""
    return Path(state_dir) / "boards" / board_id / "journal.jsonl"


class Board:
    """The session wired to the devices. ``step(t)`` is one pass of the scan loop."""

    def __init__(
        self,
        session: Session,
        devices,
        export_dir: Path | None = None,
        mirrors: tuple = (),
        link=None,
        coach=None,
    ) -> None:
        self.session = session
        self.coach = coach
        """``controller.coach.board.BoardCoach``: the computer's moves and hints (practice)."""
        self.devices = devices
        self.export_dir = export_dir
        self.mirrors = mirrors
        self.link = link
        """A ``controller.link.board.BoardLink`` (``--hub``): told after every pass."""
        self._rendered_at = float("-inf")
        self._exported: object = session.outcome
        self._reviewed: object = None
        self._kept_sheet: Path | None = None
        """The kept game's printable sheet, written again with the coach's review when it comes."""
        size = devices.scoresheet.size if devices.scoresheet is not None else (128, 64)
        from drivers.scoresheet import capacity

        self.page_size = capacity(size)
        if devices.sensors is not None:  # the board as it stands at start: the scanner only
            current = devices.sensors.current  # reports changes after this
            session.feed_frame(current.t, current.occupied)

    def step(self, t: float) -> None:
        s = self.session
        d = self.devices
        changed = False
        if d.sensors is not None:
            frame = d.sensors.scan()
            if frame is not None:
                s.feed_frame(frame.t, frame.occupied)
                changed = True
        if d.buttons is not None:
            for press in d.buttons.poll():
                s.press(press.t, press.name, press.kind)
                changed = True
        if s.tick(t):
            changed = True
        if self.coach is not None and self.coach.poll(s):
            changed = True
        if changed or t - self._rendered_at >= RENDER_PERIOD:
            self.render(t)
        if s.outcome is not None and s.outcome is not self._exported:
            self._exported = s.outcome
            self._export(t)
        if s.current_review() is not None and s.review is not self._reviewed:
            self._reviewed = s.review
            self._export_review()
        if self.link is not None:
            self.link.after_step(s, t)

    def render(self, t: float) -> None:
        from controller.view.compose import compose

        s = self.session
        d = self.devices
        out = compose(s.view_input(t), t, *self.page_size)
        if d.leds is not None:
            d.leds.show(out.leds)
        if d.clocks is not None:
            d.clocks.show(*out.clocks)
        if d.scoresheet is not None:
            d.scoresheet.show(list(out.page))
            self._report_fault(_("scoresheet display"), d.scoresheet)
        if self.mirrors:
            long_page = compose(s.view_input(t), t, 40, 24).page
            for mirror in self.mirrors:
                mirror.show(list(long_page))
        for cue in s.take_cues():
            if d.buzzer is not None:
                d.buzzer.play(cue.name)
        self._rendered_at = t

    def _report_fault(self, what: str, device) -> None:
        """A display drawn in the background that failed: said once, play goes on."""
        error = getattr(device, "error", None)
        if error is not None and not getattr(device, "error_reported", False):
            device.error_reported = True
            self.session.problems.append(f"the {what} failed: {error}")
            print(
                _("damath-board run: the {what} failed: {error}").format(what=what, error=error),
                file=sys.stderr,
            )

    def _export(self, t: float) -> None:
        if self.export_dir is None:
            return
        from controller.session.export import export_game

        try:
            written = export_game(self.session, self.export_dir, f"game-{int(time.time())}")
        except OSError as exc:
            self.session.problems.append(_("cannot export the game: {exc}").format(exc=exc))
            return
        self._kept_sheet = next((p for p in written if p.suffix == ".html"), None)

    def _export_review(self) -> None:
        """The kept game's sheet again, now with the review after the game (written whole)."""
        if self._kept_sheet is None:
            return
        from controller.session.export import write_whole

        try:
            write_whole(self._kept_sheet, self.session.export_html().encode("utf-8"))
        except OSError as exc:
            self.session.problems.append(_("cannot export the game: {exc}").format(exc=exc))


class Watchdog:
    """systemd notify: READY once, WATCHDOG=1 every half ``WATCHDOG_USEC``; silent elsewhere."""

    def __init__(self) -> None:
        self._notifier = None
        if os.environ.get("NOTIFY_SOCKET"):
            import sdnotify

            self._notifier = sdnotify.SystemdNotifier()
        usec = int(os.environ.get("WATCHDOG_USEC", "0") or 0)
        self.period = usec / 2e6 if usec else None
        self._last = float("-inf")

    def notify(self, text: str) -> None:
        if self._notifier is not None:
            self._notifier.notify(text)

    def feed(self, t: float) -> None:
        if self.period is not None and t - self._last >= self.period:
            self.notify("WATCHDOG=1")
            self._last = t


def run_loop(
    board: Board,
    clock: Callable[[], float],
    sleep: Callable[[float], None],
    period: float,
    running: Callable[[], bool],
    watchdog: Watchdog | None = None,
) -> None:
    """The scan loop: a fixed period from the clock (no drift from the work done each pass)."""
    next_t = clock()
    while running():
        t = clock()
        board.step(t)
        if watchdog is not None:
            watchdog.feed(t)
        next_t += period
        delay = next_t - clock()
        if delay > 0:
            sleep(delay)
        else:
            next_t = clock()  # late (a slow pass): don't try to catch up in a burst


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", required=True, help=_("board profile (hardware/*.toml)"))
    parser.add_argument("--variant", choices=VARIANTS, default="integer")
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


def parse_settings(items: list[str]) -> dict[str, Any]:
    """``touch_move=true`` -> {"touch_move": True}; numbers and booleans as such."""
    out: dict[str, Any] = {}
    for item in items:
        name, sep, raw = item.partition("=")
        if not sep or not name:
            raise ValueError(f"--set {item!r}: expected NAME=VALUE")
        low = raw.strip().lower()
        value: Any = raw
        if low in ("true", "yes", "on"):
            value = True
        elif low in ("false", "no", "off"):
            value = False
        elif low.isdigit():
            value = int(low)
        out[name.strip()] = value
    return out


def load_harness(profile):
    """The test harness named by DAMATH_BOARD_HARNESS, built for this profile (None normally).

    It has ``hardware`` (keyword arguments for build_devices), ``clock()`` and ``sleep(s)`` for
    the loop, ``step(t, devices) -> bool`` called before every pass (False ends the run) and
    ``finish(devices)`` called before the devices close."""
    spec = os.environ.get(HARNESS_ENV)
    if not spec:
        return None
    module, _sep, name = spec.partition(":")
    return getattr(importlib.import_module(module), name or "harness")(profile)


def off_the_loop(devices) -> None:
    """The displays that cost milliseconds of I2C are sent by their own threads."""
    from drivers.background import Background

    if devices.scoresheet is not None:
        devices.scoresheet = Background(devices.scoresheet, "scoresheet")
    if devices.clocks is not None:
        devices.clocks = Background(devices.clocks, "clocks")


def freeze_startup_objects() -> None:
    """Keep the garbage collector's full passes short in play: everything made at start-up
    (modules, fonts, the game so far) is set aside where the collector no longer walks it.
    Measured (bench/bench_scan_gap.py): the worst gap between scans drops from 30-75 ms to
    about 16 ms; the collector was the last thing stalling the loop once the displays left it."""
    import gc

    gc.collect()
    gc.freeze()


def _stop_on_sigterm() -> list[int]:
    """systemd stops the service with SIGTERM: finish the pass, darken the LEDs, exit 0."""
    import signal

    flag: list[int] = []
    signal.signal(signal.SIGTERM, lambda signum, frame: flag.append(signum))
    return flag


def run(args: argparse.Namespace) -> int:
    from drivers.factory import DeviceError, build_devices
    from drivers.profile import load_profile

    profile = load_profile(args.profile)  # ProfileError is a ValueError: one clear line
    if profile.language and not getattr(args, "lang", None):  # --lang or DAMATH_LANG come first
        i18n.set_language(profile.language)
    harness = load_harness(profile)
    clock = harness.clock if harness else time.monotonic
    sleep = harness.sleep if harness else time.sleep
    config = SessionConfig(
        variant=args.variant, rules=args.rules, rule_settings=parse_settings(args.set)
    )
    config.profile()
    if args.scan_hz <= 0 or args.scan_hz > 2000:
        raise ValueError(f"--scan-hz {args.scan_hz}: use 1..2000")
    state = Path(args.state_dir) if args.state_dir else default_state_dir()
    link = open_link(args.hub, state, "run")  # a wrong connection file stops here, clearly
    session = Session.open(config, str(state / "journal.jsonl"), clock())
    for problem in session.problems:
        print(f"damath-board run: {problem}", file=sys.stderr)
    mirrors = ()
    if args.mirror_serial:
        from drivers.scoresheet import SerialScoresheet

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

        board = Board(session, devices, state / "games", mirrors, link, coach=BoardCoach())
        board.render(clock())
        watchdog.notify("READY=1")
        print(f"damath-board run: {session.ready_line(profile.name)}", flush=True)
        announce_link(link, "run")  # after the ready line: what the board says first
        watchdog.notify(f"STATUS=board {profile.name}: {session.phase}")
        if args.ready_file:
            Path(args.ready_file).write_text(f"{time.time():.6f}\n")
        freeze_startup_objects()
        try:
            run_loop(board, clock, sleep, 1.0 / args.scan_hz, running, watchdog)
        finally:
            watchdog.notify("STOPPING=1")
            session.checkpoint(clock())
            if session.journal is not None:
                session.journal.close()
            for mirror in mirrors:
                mirror.close()
            if link is not None:
                close_link(link, "run", timeout=5.0)  # systemd waits 10 s at most
            if harness is not None:
                harness.finish(devices)
    return 0


def open_link(conn: str | None, folder: Path, command: str):
    """The board's link to its hub (``--hub``), not started yet; None without one. A wrong
    connection file is a ValueError naming the file and the field."""
    if not conn:
        return None
    from controller.link.board import BoardLink

    def say(text: str) -> None:
        print(f"damath-board {command}: {text}", file=sys.stderr, flush=True)

    return BoardLink.open(conn, folder, say)


def announce_link(link, command: str) -> None:
    if link is not None:
        said = _("damath-board {command}: publishing to the hub {url} as board {board}")
        print(said.format(command=command, url=link.link.config.url, board=link.board), flush=True)


def close_link(link, command: str, timeout: float) -> int:
    """Stop the link; say what the hub has not acknowledged yet (it goes at the next start)."""
    left = link.stop(timeout)
    if left:
        said = ngettext(
            "damath-board {command}: {left} record not acknowledged by the hub yet: it stays in "
            "the journal and is sent at the next start",
            "damath-board {command}: {left} records not acknowledged by the hub yet: they stay "
            "in the journal and are sent at the next start",
            left,
        )
        print(said.format(command=command, left=left), file=sys.stderr, flush=True)
    return left
