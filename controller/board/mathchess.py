"""A Mathematical Chess board's runtime: the 81 point sensors read each scan, the session fed
when they change, the LED under each point lit from the tracker's reading (what may still be
removed, a refused removal, a piece to name), and the players' buttons (a name, the end of the
turn) handed to the session. The same on the board (a co-processor's sensor frames and LED
chain, ``mathchess_profile``) and in the tests (any callable for the sensors, the LED strip's
mock writer)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from controller.board.mathchess_profile import MathChessProfile
from controller.i18n import _
from controller.rules.mathchess import Point
from controller.session.mathchess import MathChessSession
from controller.view.leds import RGB
from controller.view.mathchess_leds import point_colours
from drivers.coprocessor import LinkLedWriter, LinkScanner, grid_points
from drivers.leds import LedStrip
from drivers.link import Link


class PointLeds(Protocol):
    def show(self, colours: Mapping[Point, RGB]) -> bool: ...


def point_chain(size: int = 9, serpentine: bool = True) -> dict[Point, tuple[int]]:
    """Which LED of the chain sits under each point: row 0 (White's edge) first, left to
    right, and with ``serpentine`` every other row right to left (one wire down the rows)."""
    out: dict[Point, tuple[int]] = {}
    for y in range(size):
        for i in range(size):
            x = size - 1 - i if serpentine and y % 2 else i
            out[(x, y)] = (y * size + i,)
    return out


class MathChessScan:
    """One scan at a time: ``step(t)`` reads the points and lights the LEDs."""

    def __init__(
        self,
        session: MathChessSession,
        sensors: Callable[[], frozenset[Point]],
        leds: PointLeds | None = None,
    ) -> None:
        self.session = session
        self.sensors = sensors
        self.leds = leds
        self.choice = 0
        """Prepare now!: which of the names the piece may have the display shows."""
        self.scanner: LinkScanner | None = None
        """On the board: the co-processor's reader (its ``problem``, ``bad_messages``)."""

    def step(self, t: float) -> None:
        occupied = self.sensors()
        if occupied != self.session.sensors:
            self.session.frame(occupied)
        if self.leds is not None:
            self.leds.show(point_colours(self.session.tracker, t))

    def press(self, button: str) -> None:
        """The board's buttons: ``next`` shows the next name the piece just put down may have,
        ``confirm`` names it, or ends the turn during Play now!. Others are not this game's."""
        names = self.session.tracker.names()
        if button == "next" and names:
            self.choice = (self.choice + 1) % len(names)
        elif button == "confirm" and names:
            self.name(names[self.choice % len(names)])
        elif button == "confirm":
            self.done()

    def display(self) -> str:
        """The display's line: the name on offer, else what the board asks or said."""
        names = self.session.tracker.names()
        if names:
            return _("Name it: {piece} ({n} of {count}; next, confirm)").format(
                piece=names[self.choice % len(names)],
                n=self.choice % len(names) + 1,
                count=len(names),
            )
        said = self.session.said
        if said is not None:
            return (
                f"{said.rule}: {said.text}"
                if said.rule and said.rule not in said.text
                else said.text
            )
        return self.session.tracker.problem() or ""

    def name(self, symbol: str) -> None:
        """Prepare now!: the piece just put down is named (the display's choice confirmed)."""
        self.session.name(symbol)
        self.choice = 0

    def done(self) -> None:
        """Play now!: the player's button."""
        self.session.done()


def open_link(data: Mapping[str, Any], profile: MathChessProfile) -> Link:
    """The profile's ``[link]`` to the Pico, announcing the board's size * size points."""
    link = data.get("link", {})
    return Link(
        str(link.get("port", "/dev/ttyACM0")),
        int(link.get("baudrate", 115200)),
        points=profile.size * profile.size,
    )


def coprocessor_scan(
    session: MathChessSession, profile: MathChessProfile, link: Link
) -> MathChessScan:
    """The board as built (hardware/mathchess-pico.toml): the points read from the Pico's
    occupancy frames, the LEDs sent to its chain, both through `link`."""
    scanner = LinkScanner(link, decode=grid_points(profile.size))

    def sensors() -> frozenset[Point]:
        scanner.scan()
        return scanner.occupied

    strip = LedStrip(
        LinkLedWriter(link, profile.led_count),
        point_chain(profile.size, profile.serpentine),
        profile.led_count,
        profile.order,
        profile.supply_amps,
        profile.ma_per_led,
        profile.max_brightness,
    )
    scan = MathChessScan(session, sensors, strip)
    scan.scanner = scanner
    return scan
