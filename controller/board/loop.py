"""The scan loop: every pass scans the sensors, polls the buttons, lets the session's time
advance, renders the view on the devices, plays the buzzer cues and feeds the systemd watchdog.
Time is one injected monotonic clock, so the loop runs the same under a test's fake clock, in
the simulator (one pass per page action) and on the Pi (``run_loop`` at ``--scan-hz``).

The scoresheet display and the clock displays are drawn off the loop (``off_the_loop``): an
OLED page is ~1 KB of I2C, which would stall the sensors for up to 95 ms a redraw.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from controller.i18n import _
from controller.session import Session
from drivers.factory import Devices

if TYPE_CHECKING:
    from controller.coach.board import BoardCoach
    from controller.link.board import BoardLink

    from .host import BoardHost

RENDER_PERIOD = 0.04
"""Outputs are refreshed at 25 Hz (and at once after any event): blinking needs no more, and the
LED strip re-sends nothing that did not change."""


class Mirror(Protocol):
    """A second display of the scoresheet lines (``run --mirror-serial``)."""

    def show(self, lines: list[str]) -> None: ...

    def close(self) -> None: ...


class ScanLoop:
    """The session wired to the devices. ``step(t)`` is one pass of the scan loop; a finished
    game's record and sheets are kept by the ``host`` (none: nothing written)."""

    def __init__(
        self,
        session: Session,
        devices: Devices,
        host: BoardHost | None = None,
        mirrors: Sequence[Mirror] = (),
        link: BoardLink | None = None,
        coach: BoardCoach | None = None,
    ) -> None:
        self.session = session
        self.coach = coach
        """The computer's moves and hints (practice)."""
        self.devices = devices
        self.host = host
        self.mirrors = tuple(mirrors)
        self.link = link
        """The board's link to a hub (``--hub``): told after every pass."""
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
            self._keep_record()
        if s.current_review() is not None and s.review is not self._reviewed:
            self._reviewed = s.review
            self._keep_review()
        if self.link is not None:
            self.link.after_step(s, t)

    def render(self, t: float) -> None:
        from controller.view.compose import compose

        s = self.session
        d = self.devices
        view = s.view_input(t)
        out = compose(view, t, *self.page_size)
        if d.leds is not None:
            d.leds.show(out.leds)
        if d.clocks is not None:
            d.clocks.show(*out.clocks)
        if d.scoresheet is not None:
            d.scoresheet.show(list(out.page))
            self._report_fault(_("scoresheet display"), d.scoresheet)
        if self.mirrors:
            long_page = compose(view, t, 40, 24).page
            for mirror in self.mirrors:
                mirror.show(list(long_page))
        for cue in s.take_cues():
            if d.buzzer is not None:
                d.buzzer.play(cue.name)
        self._rendered_at = t

    def _report_fault(self, what: str, device: object) -> None:
        """A display drawn in the background that failed: said once, play goes on."""
        error = getattr(device, "error", None)
        if error is not None and not getattr(device, "error_reported", False):
            device.error_reported = True  # type: ignore[attr-defined]
            self.session.problems.append(f"the {what} failed: {error}")
            print(
                _("damath-board run: the {what} failed: {error}").format(what=what, error=error),
                file=sys.stderr,
            )

    def _keep_record(self) -> None:
        if self.host is None:
            return
        try:
            written = self.host.keep_record(self.session)
        except OSError as exc:
            self.session.problems.append(_("cannot export the game: {exc}").format(exc=exc))
            return
        self._kept_sheet = next((p for p in written if p.suffix == ".html"), None)

    def _keep_review(self) -> None:
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


class Steps(Protocol):
    """One pass of a board's loop at ``t`` (``ScanLoop``, or a Dadama board's ``DadamaLoop``)."""

    def step(self, t: float) -> None: ...


def run_loop(
    loop: Steps,
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
        loop.step(t)
        if watchdog is not None:
            watchdog.feed(t)
        next_t += period
        delay = next_t - clock()
        if delay > 0:
            sleep(delay)
        else:
            next_t = clock()  # late (a slow pass): don't try to catch up in a burst


def off_the_loop(devices: Devices) -> None:
    """The displays that cost milliseconds of I2C are sent by their own threads."""
    from drivers.background import Background

    if devices.scoresheet is not None:
        devices.scoresheet = Background(devices.scoresheet, "scoresheet")  # type: ignore[assignment]
    if devices.clocks is not None:
        devices.clocks = Background(devices.clocks, "clocks")  # type: ignore[assignment]


def freeze_startup_objects() -> None:
    """Keep the garbage collector's full passes short in play: everything made at start-up
    (modules, fonts, the game so far) is set aside where the collector no longer walks it.
    Measured (bench/bench_scan_gap.py): the worst gap between scans drops from 30-75 ms to
    about 16 ms; the collector was the last thing stalling the loop once the displays left it."""
    import gc

    gc.collect()
    gc.freeze()
