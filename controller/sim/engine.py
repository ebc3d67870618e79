"""One simulated board: the physical table, the mock devices and the session, wired as on the Pi.

Every action of the page changes the table (``table.py``); the occupied squares go into the mock
sensor source built by ``drivers.factory.build_devices`` from ``hardware/sim.toml``, the arbiter's
buttons into the mock buttons, and one pass of the Pi's own scan loop (``controller.app.Board``)
scans them into the session built by ``controller.app.build_session_for_sim`` and renders the
view on the mock LEDs, clocks, buzzer and scoresheet display. What the page shows is the
session's snapshot; this module decides nothing about the game.
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.app import Board, build_session_for_sim, journal_path
from controller.rules.damath_data import OPERATORS, PROFILES, VARIANTS
from controller.rules.move import Square
from controller.rules.notation import NotationError, game_from_json, game_to_json
from controller.session import Session
from controller.session.journal import JournalError
from controller.tracker import BUTTONS
from controller.view.session_leds import ALL_LIGHTS
from controller.view.snapshot import snapshot
from drivers.buzzer import PATTERNS
from drivers.factory import Devices, build_devices
from drivers.profile import BoardProfile, load_profile, parse_profile

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
        settings: dict[str, Any] | None = None,
        state_dir: Path | None = None,
    ) -> None:
        self.board_id = board_id
        self.clock = clock
        self.settings = dict(settings or {})
        self.state_dir = state_dir
        self.devices: Devices = build_devices(sim_profile(), clock=clock)
        self.version = 0
        self.notice = ""
        self.said: deque[str] = deque(maxlen=8)
        if state_dir is not None and journal_path(state_dir, board_id).is_file():
            self._resume()
        else:
            self.new_game(variant, profile)

    # ------------------------------------------------------------------ life

    def new_game(self, variant: str, profile: str, position: dict[str, Any] | None = None) -> None:
        """A fresh game on this board: the opening of ``variant``, or ``position`` (the JSON
        position format, docs/notation.md: a lesson's position, or one saved from a game)."""
        if position is not None:
            variant = _check_position(position, variant, profile)
        if variant not in VARIANTS:
            raise SimError(f"unknown variant {variant!r}; variants are: {', '.join(VARIANTS)}")
        if profile not in PROFILES:
            raise SimError(f"unknown profile {profile!r}; profiles are: {', '.join(PROFILES)}")
        t = self.clock()
        old = getattr(self, "session", None)
        if old is not None and old.journal is not None:
            self._put_away(old)
        self.session = build_session_for_sim(
            self.board_id,
            state_dir=self.state_dir,
            variant=variant,
            rules=profile,
            t=t,
            sync=True,  # every record on the disk before it counts, as on the real board
            tracker_settings=self.settings,
            position=position,
        )
        self.table = Table(self.session.expected_chips())
        self._wire()

    def _put_away(self, old: Session) -> None:
        """A game with moves is kept in the board's ``games/`` folder, as on the real board; a
        game nobody moved in is dropped, so that the new game starts from an empty journal."""
        journal = old.journal
        try:
            if old.game.ply:
                journal.archive(journal.path.parent / "games", f"game-{time.time():.0f}.jsonl")
            journal.close()
            journal.path.unlink(missing_ok=True)
        except (JournalError, OSError) as exc:
            self.notice = f"the last game could not be put away: {exc}"

    def _resume(self) -> None:
        """The board's game as its journal left it (the simulator was stopped): the chips stand
        where the game has them and the taken ones lie in the trays, so the session's restore
        completes by itself and play goes on; damage in the journal is shown, never fatal."""
        self.session = build_session_for_sim(
            self.board_id,
            state_dir=self.state_dir,
            t=self.clock(),
            sync=True,
            tracker_settings=self.settings,
        )
        self.table = Table(self.session.start_chips())
        self.table.arrange(self.session.expected_chips())
        self.notice = "; ".join(self.session.problems) or "the game was resumed where it stood"
        self._wire()

    def _wire(self) -> None:
        self.loop = Board(self.session, self.devices)
        self.said.clear()
        self._sense(force=True)
        self.version += 1

    def close(self) -> None:
        """The simulator stops: the clocks are journaled as they stand, so no time is lost."""
        self.devices.close()
        if self.session.journal is not None:
            self.session.checkpoint(self.clock())
            self.session.journal.close()

    def _sense(self, force: bool = False) -> None:
        """The table's occupancy on the mock sensors, then one pass of the scan loop; ``force``
        hands a new session the current frame even when the sensors saw no change."""
        sensors = self.devices.sensors
        assert sensors is not None
        sensors.source.set(self.table.occupied())
        if force:
            frame = sensors.scan() or sensors.current
            self.session.feed_frame(frame.t, frame.occupied)
        self.loop.step(self.clock())

    def tick(self) -> None:
        """One pass of the scan loop: time passes (settle, error delay, the clocks), outputs
        are rendered on the mock devices and buzzer cues played."""
        self.loop.step(self.clock())

    # ------------------------------------------------------------------ actions from the page

    def act(self, message: Any) -> str:
        """One message from the page; returns a sentence saying what was done."""
        if not isinstance(message, dict):
            raise SimError("a message must be a JSON object with a 'type'")
        kind = message.get("type")
        table = self.table
        try:
            if kind == "click":
                mover = self.session.game.side_to_move
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
                hold = message.get("hold", False) is True
                self.devices.buttons.inject(name, "hold" if hold else "press")  # type: ignore[union-attr]
                done = f"{'held' if hold else 'pressed'} {name.replace('_', ' ')}"
            elif kind == "new_game":
                variant = message.get("variant", self.session.variant)
                profile = message.get("profile", self.session.profile_name)
                position = message.get("position")
                self.new_game(str(variant), str(profile), position)
                done = f"new game: {self.session.variant}, {profile} rules"
                if position is not None:
                    done += ", from the position loaded"
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
        snap = snapshot(self.session, self.clock())
        snap.pop("leds", None)  # shaded for this instant: the page blinks from the pattern
        chips = self.table.board
        for cell in snap["squares"]:
            sq = (cell["square"][0], cell["square"][1])
            cell["operator"] = OPERATORS[sq]
            chip = chips.get(sq)
            cell["chip"] = chip.json() if chip else None
            led = cell["led"]
            if led is not None and led["name"] in ALL_LIGHTS:
                light = ALL_LIGHTS[led["name"]]
                led["rgb"] = list(light.colour)  # the colour of the meaning, at full level
                led["brightness"] = light.brightness
        message = snap.get("message") or ""
        if message and (not self.said or self.said[-1] != message):
            self.said.append(message)
        snap["messages"] = list(self.said)
        snap.update(self.table.json())
        snap["board"] = self.board_id
        snap["version"] = self.version
        snap["notice"] = self.notice
        return snap

    def oled_png(self) -> bytes:
        """The scoresheet display as the mock device last showed it, drawn as on the OLED."""
        import io

        display = self.devices.scoresheet
        assert display is not None
        image = display.render(list(display.last or []))
        out = io.BytesIO()
        image.convert("L").resize((image.width * 3, image.height * 3)).save(out, "PNG")
        return out.getvalue()

    def export(self, what: str) -> tuple[str, str]:
        """(text, media type) of a download: ``csv``, ``html`` or ``pdn``."""
        if what == "csv":
            return self.session.export_csv(), "text/csv; charset=utf-8"
        if what == "html":
            return self.session.export_html(), "text/html; charset=utf-8"
        if what == "pdn":
            return self.session.export_pdn(), "application/x-pdn; charset=utf-8"
        if what == "position":
            text = json.dumps(game_to_json(self.session.game), ensure_ascii=False, indent=1)
            return text + "\n", "application/json; charset=utf-8"
        raise SimError(f"unknown download {what!r}: csv, html, pdn or position")


def static_facts() -> dict[str, Any]:
    """What every page needs once: variants, profiles, the LED legend, the buzzer patterns."""
    return {
        "variants": list(VARIANTS),
        "profiles": list(PROFILES),
        "buttons": list(BUTTONS),
        "legend": [
            {"name": x.name, "rgb": list(x.colour), "pattern": x.pattern, "meaning": x.meaning}
            for x in ALL_LIGHTS.values()
        ],
        "patterns": {k: [[f, s] for f, s in v] for k, v in PATTERNS.items()},
    }


def _check_position(position: Any, variant: str, profile: str) -> str:
    """The variant of a position from the page, or a SimError saying what is wrong with it."""
    if not isinstance(position, dict):
        raise SimError("a position must be a JSON object (docs/notation.md)")
    data = {"variant": variant, **position, "profile": profile}
    try:
        game = game_from_json(data)
    except NotationError as exc:
        raise SimError(f"this position cannot be played: {exc}") from None
    if not game.legal_moves():
        raise SimError("this position cannot be played: the side to move has no legal move")
    return str(data["variant"])


def _square(message: dict[str, Any], key: str = "square") -> Square:
    raw = message.get(key)
    if (
        not isinstance(raw, list | tuple)
        or len(raw) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
    ):
        raise SimError(f"'{key}' must be a square [x, y] with whole numbers from 0 to 7")
    return (raw[0], raw[1])
