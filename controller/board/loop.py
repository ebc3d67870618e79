"""The scan loop, one for every game: each pass scans the sensors, polls the buttons, lets the
game's time advance, renders what it shows on the devices, plays the buzzer cues, keeps a
finished game and feeds the systemd watchdog. Time is one injected monotonic clock, so the loop
runs the same under a test's fake clock, in the simulator (one pass per page action) and on the
Pi (``run_loop`` at ``--scan-hz``).

The scoresheet display and the clock displays are drawn off the loop (``off_the_loop``): an
OLED page is ~1 KB of I2C, which would stall the sensors for up to 95 ms a redraw. An I/O error of
a device the loop uses every pass (a sensor read, an LED frame, the co-processor's link) is caught
by the drivers, which keep the last good frame and count it (``drivers.health``); the loop reads
their health once a render and, while a device keeps failing, says so on the display (before the
game's own lines) and in the game's problems, for every game alike. The game goes on.
"""

from __future__ import annotations

import os
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from controller.games import BoardGame
from controller.games.keeper import Keeper
from controller.i18n import _
from drivers.factory import Devices

if TYPE_CHECKING:
    from controller.link.board import BoardLink

RENDER_PERIOD = 0.04
"""Outputs are refreshed at 25 Hz (and at once after any event): blinking needs no more, and the
LED strip re-sends nothing that did not change."""
MIRROR_PAGE = (40, 24)
"""A mirror of the scoresheet (``run --mirror-serial``): a terminal's page, in characters."""
DARK_CLOCKS = ("", "", False)
"""The clock displays of a game played without clocks."""


class Mirror(Protocol):
    """A second display of the scoresheet lines (``run --mirror-serial``)."""

    def show(self, lines: list[str]) -> None: ...

    def close(self) -> None: ...


class ScanLoop:
    """A game wired to the devices. ``step(t)`` is one pass of the scan loop; a finished game's
    record and sheets are kept by the ``keeper`` (none: nothing written)."""

    def __init__(
        self,
        game: BoardGame,
        devices: Devices,
        keeper: Keeper | None = None,
        mirrors: Sequence[Mirror] = (),
        link: BoardLink | None = None,
    ) -> None:
        self.game = game
        self.devices = devices
        self.keeper = keeper
        self.mirrors = tuple(mirrors)
        self.link = link
        """The board's link to a hub (``--hub``): told after every pass."""
        self.link_line = ""
        """A line of the hub's link the display shows first (a table of another game refused):
        the link's own when the loop has one, else what the simulator's links say."""
        if link is not None:
            link.set_game(game.kind.name)  # another game's assignment is refused from now
        self._rendered_at = float("-inf")
        self.device_problem: str | None = None
        """What a failing device makes the board say now (``Devices.health``), or None."""
        size = devices.scoresheet.size if devices.scoresheet is not None else (128, 64)
        from drivers.scoresheet import capacity

        self.page_size = capacity(size)
        if keeper is not None:
            keeper.already(game)  # a finished game resumed was kept when it finished
        if devices.sensors is not None:  # the board as it stands at start: the scanner only
            current = devices.sensors.current  # reports changes after this
            game.feed_frame(current.t, current.occupied)

    def replace(self, game: BoardGame) -> None:
        """Another game on the board (a new game in the simulator): the same devices."""
        self.game = game
        self._rendered_at = float("-inf")
        if self.keeper is not None:
            self.keeper.already(game)

    def step(self, t: float) -> None:
        g = self.game
        d = self.devices
        changed = False
        if d.sensors is not None:
            frame = d.sensors.scan()  # an I/O error: counted by the driver, no new frame
            if frame is not None:
                g.feed_frame(frame.t, frame.occupied)
                changed = True
        if d.buttons is not None:
            for press in d.buttons.poll():
                g.press(press.t, press.name, press.kind)
                changed = True
        if g.tick(t):
            changed = True
        if changed or t - self._rendered_at >= RENDER_PERIOD:
            self.render(t)
        if self.keeper is not None:
            try:
                self.keeper.step(g)
            except OSError as exc:
                g.problems.append(_("cannot export the game: {exc}").format(exc=exc))
        if self.link is not None:  # every game's records go to the hub; every game is driven by
            linked = g.linked()  # it too (assignments, the desk's pause, the round's start)
            if linked is not None:
                self.link.after_step(linked, t)
            else:
                self.link.watch(t, g.kind.name)

    def render(self, t: float) -> None:
        g = self.game
        d = self.devices
        out = g.outputs(t, *self.page_size)
        problem = self._device_problem()
        line = self.link.refused if self.link is not None else self.link_line
        if line:  # another game's table refused: one line
            problem = "; ".join(x for x in (problem, line) if x)
        if d.leds is not None:
            d.leds.show(out.leds)  # a frame not sent is sent again at the next render
        if d.clocks is not None:
            d.clocks.show(*(out.clocks or DARK_CLOCKS))
            self._report_fault(_("clock displays"), d.clocks)
        if d.scoresheet is not None:
            page = list(out.page)
            if problem:  # a failing device first: the board cannot be trusted until it works
                cols, rows = self.page_size
                page = (textwrap.wrap(problem, cols) + page)[:rows]
            d.scoresheet.show(page)
            self._report_fault(_("scoresheet display"), d.scoresheet)
        if self.mirrors:
            long_page = g.outputs(t, *MIRROR_PAGE).page
            for mirror in self.mirrors:
                mirror.show(list(long_page))
        for cue in g.take_cues():
            if d.buzzer is not None:
                d.buzzer.play(cue)
        self._rendered_at = t

    def _device_problem(self) -> str | None:
        """The devices' health: a problem said once when it comes, and when it goes."""
        problem = self.devices.health().problem
        if problem != self.device_problem:
            if problem:
                self._say(problem)
            elif self.device_problem:
                self._say(_("the devices work again"))
            self.device_problem = problem
        return problem

    def _report_fault(self, what: str, device: object) -> None:
        """A display drawn in the background that failed: said once, play goes on."""
        error = getattr(device, "error", None)
        if error is not None and not getattr(device, "error_reported", False):
            device.error_reported = True  # type: ignore[attr-defined]
            self._say(_("the {what} failed: {error}").format(what=what, error=error))

    def _say(self, text: str) -> None:
        self.game.problems.append(text)
        print(_("damath-board run: {text}").format(text=text), file=sys.stderr)


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
    """One pass of a board's loop at ``t`` (``ScanLoop``)."""

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
