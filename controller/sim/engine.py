"""One simulated board: the physical table, the mock devices and the session, wired as on the Pi.

Every action of the page changes the table (``table.py``); the occupied squares go into the mock
sensor source built by ``drivers.factory.build_devices`` from ``hardware/sim.toml``, the scanner
turns them into a frame, and the frame goes to the session, exactly as the Pi's loop feeds the
real scanner's frames. What the page shows comes back from the session's snapshot and the LED
view; this module decides nothing about the game.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.rules.damath_data import OPERATORS, PROFILES, VARIANTS
from controller.rules.move import RED, Square, side_from_name
from controller.tracker import Settings
from controller.view.leds import LEGEND
from drivers.buzzer import PATTERNS
from drivers.factory import Devices, build_devices
from drivers.profile import BoardProfile, load_profile, parse_profile

from .standin import BUTTONS, StandInSession
from .table import Table, TableError

SIM_PROFILE = Path(__file__).resolve().parents[2] / "hardware" / "sim.toml"
_FALLBACK_PROFILE = {
    "board": {"name": "sim"},
    "sensors": {"backend": "mock", "debounce_scans": 1},
    "leds": {"backend": "mock", "count": 32, "cells": "playable", "serpentine": False},
    "clocks": {"backend": "mock"},
    "buzzer": {"backend": "none"},
    "buttons": {"backend": "mock"},
    "scoresheet": {"backend": "mock"},
}


class SimError(ValueError):
    """A message from the page that cannot be acted on; the text is shown to the user."""


def sim_profile() -> BoardProfile:
    """``hardware/sim.toml`` (all mock devices); the same data inline when not installed beside
    the package. The buzzer is left to the page, which plays the cues itself."""
    if SIM_PROFILE.is_file():
        profile = load_profile(SIM_PROFILE)
    else:
        profile = parse_profile(_FALLBACK_PROFILE, "<sim>")
    return profile


class SimBoard:
    """A board on the table of the simulator: actions in, a JSON-ready snapshot out."""

    def __init__(
        self,
        board_id: str,
        clock: Callable[[], float],
        *,
        variant: str = "integer",
        profile: str = "official",
        settings: Settings | None = None,
    ) -> None:
        self.board_id = board_id
        self.clock = clock
        self.settings = settings
        self.devices: Devices = build_devices(sim_profile(), clock=clock)
        self.version = 0
        self.notice = ""
        self.new_game(variant, profile)

    # ------------------------------------------------------------------ life

    def new_game(self, variant: str, profile: str) -> None:
        if variant not in VARIANTS:
            raise SimError(f"unknown variant {variant!r}; variants are: {', '.join(VARIANTS)}")
        if profile not in PROFILES:
            raise SimError(f"unknown profile {profile!r}; profiles are: {', '.join(PROFILES)}")
        t = self.clock()
        self.session = StandInSession(variant, profile, t, self.settings)
        self.table = Table(self.session.expected_chips())
        self._sense(force=True)
        self.version += 1

    def close(self) -> None:
        self.devices.close()

    def _sense(self, force: bool = False) -> None:
        """The table's occupancy through the mock sensor driver into the session; ``force``
        hands a new session the current frame even when the sensors saw no change."""
        sensors = self.devices.sensors
        assert sensors is not None
        sensors.source.set(self.table.occupied())
        frame = sensors.scan()
        if frame is None and force:
            frame = sensors.current
        if frame is not None:
            self.session.feed_frame(frame.t, frame.occupied)

    def tick(self) -> bool:
        """Let time pass; True when the snapshot changed beyond the running clocks."""
        changed = self.session.tick(self.clock())
        if changed:
            self.version += 1
        return changed

    # ------------------------------------------------------------------ actions from the page

    def act(self, message: Any) -> str:
        """One message from the page; returns a sentence saying what was done."""
        if not isinstance(message, dict):
            raise SimError("a message must be a JSON object with a 'type'")
        kind = message.get("type")
        table = self.table
        try:
            if kind == "click":
                mover = side_from_name(self.session.snapshot(self.clock())["to_move"])
                done = table.click(_square(message), mover)
            elif kind == "lift":
                done = f"lifted the {table.lift(_square(message)).describe()}"
            elif kind == "place":
                done = f"set the {table.place(_square(message)).describe()} down"
            elif kind == "remove":
                done = f"took the {table.remove(_square(message)).describe()} off the board"
            elif kind == "drag":
                a, b = _square(message, "from"), _square(message, "to")
                chip = table.lift(a)
                self._sense()
                try:
                    table.place(b)
                except TableError:
                    table.place(a)  # the hand puts it back where it was
                    raise
                done = f"moved the {chip.describe()}"
            elif kind == "put_aside":
                done = f"put the {table.put_aside().describe()} aside"
            elif kind == "from_tray":
                chip_id = message.get("chip")
                if not isinstance(chip_id, int) or isinstance(chip_id, bool):
                    raise SimError("'chip' must be the number of a chip beside the board")
                done = f"picked up the {table.take_from_tray(chip_id).describe()}"
            elif kind == "crown":
                done = self._crown(message)
            elif kind == "arrange":
                table.arrange(self.session.expected_chips())
                done = "arranged the chips as the board expects them"
            elif kind == "button":
                name = message.get("name")
                if name not in BUTTONS:
                    raise SimError(f"unknown button {name!r}; buttons are: {', '.join(BUTTONS)}")
                if name == "new_game":
                    self.new_game(self.session.variant, self.session.profile_name)
                else:
                    self.session.press(self.clock(), name)
                done = f"pressed {name}"
            elif kind == "new_game":
                variant = message.get("variant", self.session.variant)
                profile = message.get("profile", self.session.profile_name)
                self.new_game(str(variant), str(profile))
                done = f"new game: {variant}, {profile} rules"
            else:
                raise SimError(
                    f"unknown message type {kind!r}; types are: click, lift, place, remove, drag, "
                    "put_aside, from_tray, crown, arrange, button, new_game"
                )
        except TableError as exc:
            raise SimError(str(exc)) from None
        self._sense()
        self.notice = done
        self.version += 1
        return done

    def _crown(self, message: dict[str, Any]) -> str:
        """Crowning on the real board: lift the chip, turn it over, set it back."""
        table = self.table
        if message.get("square") is None:
            chip = table.turn_over()
            return f"turned the {chip.describe()} over"
        square = _square(message)
        table.lift(square)
        self._sense()
        chip = table.turn_over()
        table.place(square)
        return f"crowned: the {chip.describe()} stands on ({square[0]}, {square[1]})"

    # ------------------------------------------------------------------ output

    def snapshot(self) -> dict[str, Any]:
        snap = self.session.snapshot(self.clock())
        chips = self.table.board
        for cell in snap["squares"]:
            sq = (cell["square"][0], cell["square"][1])
            cell["operator"] = OPERATORS[sq]
            chip = chips.get(sq)
            cell["chip"] = chip.json() if chip else None
        snap.update(self.table.json())
        snap["board"] = self.board_id
        snap["version"] = self.version
        snap["notice"] = self.notice
        return snap

    def export(self, what: str) -> tuple[str, str]:
        """(text, media type) of a download: ``csv``, ``html`` or ``pdn``."""
        if what == "csv":
            return self.session.export_csv(), "text/csv; charset=utf-8"
        if what == "html":
            return self.session.export_html(), "text/html; charset=utf-8"
        if what == "pdn":
            return self.session.export_pdn(), "application/x-pdn; charset=utf-8"
        raise SimError(f"unknown download {what!r}: csv, html or pdn")


def static_facts() -> dict[str, Any]:
    """What every page needs once: variants, profiles, the LED legend, the buzzer patterns."""
    return {
        "variants": list(VARIANTS),
        "profiles": list(PROFILES),
        "buttons": list(BUTTONS),
        "legend": [
            {"name": x.name, "rgb": list(x.colour), "pattern": x.pattern, "meaning": x.meaning}
            for x in LEGEND.values()
        ],
        "patterns": {k: [[f, s] for f, s in v] for k, v in PATTERNS.items()},
        "red": RED,
    }


def _square(message: dict[str, Any], key: str = "square") -> Square:
    raw = message.get(key)
    if (
        not isinstance(raw, list | tuple)
        or len(raw) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
    ):
        raise SimError(f"'{key}' must be a square [x, y] with whole numbers from 0 to 7")
    return (raw[0], raw[1])
