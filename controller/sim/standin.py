"""A stand-in for the session while ``controller/session`` is being written.

It wires the real rules engine, the real tracker, the real arbiter clocks, the real LED view and
the real scoresheet exactly as the replay driver does, behind the small interface the simulator
needs (``feed_frame``, ``press``, ``tick``, ``snapshot``, exports). Once the session offers that,
``engine.py`` delegates to it and this module goes away: it holds no rule of its own.
"""

from __future__ import annotations

import datetime as _dt
from collections import deque
from typing import Any

from controller.rules.damath_data import OPERATORS
from controller.rules.game import Game
from controller.rules.move import Move, Square, side_name
from controller.scoresheet import build_scoresheet, render_csv, render_html
from controller.scoresheet.render import side_columns
from controller.session.clocks import ArbiterClocks
from controller.tracker import (
    Ambiguity,
    BoardNeeded,
    BoardReady,
    Choice,
    Crowned,
    Event,
    Lifted,
    Mismatch,
    MoveCommitted,
    MustTake,
    Promoted,
    PutBack,
    Recovered,
    Rotated,
    Settings,
    Tracker,
)
from controller.view.leds import LEGEND, square_lights
from drivers.clocks import format_clock

BUTTONS = ("confirm", "next", "pause", "takeback", "new_game")


def _sq(square: Square) -> str:
    return f"({square[0]}, {square[1]})"


class StandInSession:
    """One game on one board: frames and buttons in, a JSON-ready snapshot out."""

    def __init__(
        self, variant: str, profile: str, t: float, settings: Settings | None = None
    ) -> None:
        self.game = Game.new(variant, profile)
        self.variant = variant
        self.profile_name = profile
        prof = self.game.profile
        assert prof is not None
        self.tracker = Tracker(self.game, settings, mode="setup")
        self.clocks = ArbiterClocks(prof.game_seconds, prof.move_seconds, prof.warn_seconds)
        self.phase = "setup"
        self.paused = False
        self.cues: deque[dict[str, Any]] = deque(maxlen=20)
        self.messages: deque[str] = deque(maxlen=8)
        self.cue_seq = 0
        self.version = 0
        self.started = _dt.datetime.now()
        self.messages.append("Set up the board: every chip on its starting square.")
        del t

    # ------------------------------------------------------------------ input

    def feed_frame(self, t: float, occupied: frozenset[Square]) -> None:
        self._take(t, self.tracker.feed_frame(t, occupied))

    def press(self, t: float, name: str) -> None:
        if name not in BUTTONS:
            raise ValueError(f"unknown button {name!r}; buttons are: {', '.join(BUTTONS)}")
        if name == "pause":
            self._pause(t)
        elif name == "takeback":
            self._takeback(t)
        elif name in ("confirm", "next"):
            self._take(t, self.tracker.feed_button(t, name))
        self.version += 1

    def tick(self, t: float) -> bool:
        """Let time pass; True when something the outputs show changed (besides the clocks)."""
        before = self.version
        if not self.paused:
            self._take(t, self.tracker.tick(t))
        for ev in self.clocks.poll(t):
            cue = {"warning": "warning", "move_timeout": "time_up", "game_over": "game_over"}
            self._cue(cue[ev.kind])
            if ev.kind == "game_over":
                self.phase = "over"
                self.messages.append("Game time is over.")
            elif ev.kind == "move_timeout":
                self.messages.append(
                    f"{side_name(self.game.side_to_move).capitalize()}: move time is up."
                )
            else:
                self.messages.append("Reminder: the move clock is running out.")
            self.version += 1
        return self.version != before

    # ------------------------------------------------------------------ arbiter

    def _pause(self, t: float) -> None:
        if self.phase != "play":
            self.messages.append("Pause works while the game is being played.")
            return
        self.paused = not self.paused
        if self.paused:
            self.clocks.stop(t)
            self.messages.append("Paused by the arbiter: clocks stopped.")
        else:
            self.clocks.start(t)
            self.messages.append("Play resumes.")

    def _takeback(self, t: float) -> None:
        if not self.game.ply:
            self.messages.append("No move to take back.")
            return
        undone = self.game.pop()
        self.messages.append(
            f"Takeback of {undone}: put the board back as the LEDs show (yellow: put a chip)."
        )
        if self.phase == "over":
            self.phase = "play"
        self.clocks.new_move(t)
        self._take(t, self.tracker.set_position(self.game, t))

    # ------------------------------------------------------------------ events

    def _cue(self, name: str) -> None:
        self.cue_seq += 1
        self.cues.append({"seq": self.cue_seq, "name": name})

    def _take(self, t: float, events: list[Event]) -> None:
        for ev in events:
            self.version += 1
            self._event(t, ev)

    def _event(self, t: float, ev: Event) -> None:
        say = self.messages.append
        if isinstance(ev, MoveCommitted):
            mover = side_name(self.game.side_to_move).capitalize()
            self.game.push(ev.move)
            self.clocks.new_move(ev.t)
            self._cue("move")
            say(f"{mover} played {ev.move}.")
            ending = self.game.ending()
            if ending is not None:
                self.phase = "over"
                self.clocks.stop(ev.t)
                self._cue("game_over")
                say(f"Game over: {ending.describe()}.")
        elif isinstance(ev, BoardReady):
            if self.phase != "over":
                self.phase = "play"
            if not self.paused and self.phase == "play":
                self.clocks.start(ev.t)
            say("The board is ready: Blue to move." if ev.mode == "setup" else "Board restored.")
        elif isinstance(ev, BoardNeeded):
            say("Bring the board to the expected position (yellow: put a chip, blue: take off).")
        elif isinstance(ev, Lifted):
            if ev.reason:
                self._cue("error")
                say(f"The chip on {_sq(ev.square)} may not move: {ev.reason}.")
        elif isinstance(ev, Mismatch):
            self._cue("error")
            parts = []
            if ev.missing:
                parts.append("put a chip on " + ", ".join(_sq(s) for s in ev.missing))
            if ev.extra:
                parts.append("take the chip off " + ", ".join(_sq(s) for s in ev.extra))
            say("The board matches no legal move: " + "; ".join(parts) + ".")
        elif isinstance(ev, Recovered):
            say("The board is right again.")
        elif isinstance(ev, Ambiguity):
            self._cue("warning")
            say("Several paths fit: touch a blinking square, or press Next then Confirm.")
        elif isinstance(ev, Choice):
            say(f"Chosen path: {ev.move}. Press Confirm to play it.")
        elif isinstance(ev, Promoted):
            say(f"Promotion! Crown the chip on {_sq(ev.square)}: it is a dama now.")
        elif isinstance(ev, Crowned):
            say(f"The dama on {_sq(ev.square)} is crowned.")
        elif isinstance(ev, MustTake):
            say("Taking is mandatory: an orange square must take.")
        elif isinstance(ev, Rotated):
            say("The board stands turned half round: press Confirm to accept it.")
        elif isinstance(ev, PutBack):
            pass

    # ------------------------------------------------------------------ output

    def expected_chips(self) -> dict[Square, Any]:
        return self.game.chips()

    def sheet(self):
        prof = self.game.profile.name if self.game.profile else self.profile_name
        return build_scoresheet(self.game.played(), self.game.chips(), self.variant, prof)

    def snapshot(self, t: float) -> dict[str, Any]:
        g = self.tracker.guidance()
        lights = square_lights(g)
        squares = []
        for sq in sorted(OPERATORS):
            light = lights.get(sq)
            squares.append(
                {
                    "square": list(sq),
                    "led": None
                    if light is None
                    else {"name": light.name, "rgb": list(light.colour), "pattern": light.pattern},
                }
            )
        reading = self.clocks.reading(t)
        sheet = self.sheet()
        rows = []
        for blue, red in side_columns(sheet):
            ends = {r.kind for r in (blue, red) if r is not None} - {"move", "take"}
            if ends and self.phase != "over":
                continue  # remaining chips and grand totals are written when the game ends
            rows.append(
                [
                    [r.entry, r.score, r.total, r.kind] if r is not None else None
                    for r in (blue, red)
                ]
            )
        totals = {side_name(s.side): s.total_text for s in sheet.game.sides}
        ending = self.game.ending()
        return {
            "phase": "paused" if self.paused else self.phase,
            "tracker_phase": g.phase,
            "mode": g.mode,
            "to_move": side_name(self.game.side_to_move),
            "ply": self.game.ply,
            "variant": self.variant,
            "profile": self.profile_name,
            "squares": squares,
            "place": [[list(s), text] for s, text in g.place],
            "choices": [str(m) for m in g.choices],
            "selected": str(g.selected) if g.selected else None,
            "crown": list(g.crown) if g.crown else None,
            "clocks": {
                "game": format_clock(reading.game_left),
                "move": format_clock(reading.move_left),
                "running": reading.running,
                "warned": reading.warned,
                "timed_out": reading.move_timed_out,
            },
            "cues": list(self.cues),
            "messages": list(self.messages),
            "sheet": {
                "rows": rows,
                "totals": totals,
                "result": sheet.result_text if self.phase == "over" else None,
            },
            "ending": ending.describe() if ending else None,
            "moves": [str(m) for m in self.game.move_stack],
        }

    # ------------------------------------------------------------------ exports

    def export_csv(self) -> str:
        return render_csv(self.sheet())

    def export_html(self) -> str:
        return render_html(self.sheet())

    def export_pdn(self) -> str:
        return game_pdn(self.game, self.started, "*" if self.phase != "over" else self._result())

    def _result(self) -> str:
        winner = self.sheet().game.winner
        return {None: "1/2-1/2", 0: "1-0", 1: "0-1"}[winner]


def _alg(square: Square) -> str:
    return f"{'abcdefgh'[square[0]]}{square[1] + 1}"


def move_pdn(move: Move) -> str:
    """Algebraic squares (column a-h from x, row 1-8 from y), ``x`` between takings."""
    return ("x" if move.captures else "-").join(_alg(s) for s in move.path)


def game_pdn(game: Game, when: _dt.datetime, result: str) -> str:
    """The game as PDN, Blue as the first mover ("White" in PDN's headers)."""
    headers = {
        "Event": "Damath on the simulated board",
        "Site": "damath-board sim",
        "Date": when.strftime("%Y.%m.%d"),
        "White": "Blue",
        "Black": "Red",
        "Result": result,
        "GameType": f"Damath {game.variant}",
    }
    out = [f'[{k} "{v}"]' for k, v in headers.items()]
    out.append("")
    words = []
    for i, move in enumerate(game.move_stack):
        if i % 2 == 0:
            words.append(f"{i // 2 + 1}.")
        words.append(move_pdn(move))
    words.append(result)
    line = ""
    for w in words:
        if len(line) + len(w) + 1 > 78:
            out.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    out.append(line)
    return "\n".join(out) + "\n"


__all__ = ["BUTTONS", "LEGEND", "StandInSession", "game_pdn"]
