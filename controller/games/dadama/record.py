"""A Dadama game's record, without the board (docs/rules-dadama.md, "On the board"): the journal's
records (``start`` with the game's seed, ``throw`` with the faces as they fell, ``step``), the one
reading of them (``DadamaRecord``) that the board's session, the board's link and the hub share,
and the throws themselves: drawn from a generator seeded by the game's seed and the throw's
number (``throw_faces``), so anyone holding the records can check every throw of the board's dice.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from controller.i18n import _
from controller.record.games import Record, Recorded, Refused, board_picture, square_of
from controller.rules.dadama import COLOURS as DADAMA_COLOURS
from controller.rules.dadama import (
    DEFAULT,
    DadamaGame,
    Phase,
    Quiet,
    Step,
    Stop,
    Throw,
)
from controller.rules.dadama_notation import (
    dadama_from_json,
    dadama_to_json,
    record_text,
    result_of,
)
from controller.rules.move import Square

GAME = "dadama"
DICE_MODES = ("board", "real")
"""Where the throws come from: the board's seeded dice, or real dice entered with the buttons."""


def throw_faces(seed: int, number: int, count: int) -> tuple[int, ...]:
    """The faces of throw ``number`` of a game: uniform on 1–6, the same for the same seed."""
    rng = random.Random(f"dadama/{seed}/{number}")
    return tuple(rng.randint(1, 6) for _ in range(count))


def step_to_json(step: Step) -> dict[str, Any]:
    if isinstance(step, Quiet):
        return {"move": [list(step.start), list(step.end)]}
    if isinstance(step, Stop):
        return {"stop": list(step.square)}
    return {
        "throw": list(step.square),
        "dice": list(step.dice),
        "keep": step.kept,
        "to": list(step.to) if step.to is not None else None,
    }


def step_from_json(raw: object) -> Step:
    if not isinstance(raw, dict):
        raise ValueError(_("not a step: {raw!r}").format(raw=raw))
    if "move" in raw and isinstance(raw["move"], list) and len(raw["move"]) == 2:
        return Quiet(square_of(raw["move"][0]), square_of(raw["move"][1]))
    if "stop" in raw:
        return Stop(square_of(raw["stop"]))
    if "throw" in raw:
        dice = raw.get("dice")
        keep = raw.get("keep")
        if not isinstance(dice, list) or not all(isinstance(v, int) for v in dice):
            raise ValueError(_("not a step: {raw!r}").format(raw=raw))
        if not isinstance(keep, int):
            raise ValueError(_("not a step: {raw!r}").format(raw=raw))
        to = raw.get("to")
        return Throw(
            square_of(raw["throw"]), tuple(dice), keep, None if to is None else square_of(to)
        )
    raise ValueError(_("not a step: {raw!r}").format(raw=raw))


@dataclass
class DadamaRecord:
    """A Dadama game as its records build it: the start, the game, the throws made and the one
    waiting for its taking. ``apply`` reads one record or raises (ValueError, IllegalStep)
    with the reason, changing nothing."""

    dice_mode: str = "board"
    seed: int = 0
    start: DadamaGame = field(default_factory=DadamaGame.opening)
    game: DadamaGame = field(default_factory=DadamaGame.opening)
    throws: int = 0
    """Throws made so far: the number of the next one (``throw_faces``)."""
    pending: tuple[Square, tuple[int, ...]] | None = None
    """A throw waiting for its step: the die's square and the faces."""

    def apply(self, rec: Record) -> Step | None:
        """One record read into the game; the step it played (None for a start or a throw)."""
        kind = rec.get("k")
        if kind == "start":
            self._start(rec)
            return None
        if kind == "throw":
            self._throw(rec)
            return None
        if kind == "step":
            return self._step(step_from_json(rec.get("step")))
        raise ValueError(_("unknown record {kind!r}").format(kind=kind))

    def _start(self, rec: Record) -> None:
        seed = rec.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool) or rec.get("game") != GAME:
            raise ValueError(_("not the start of a Dadama game"))
        settings = DEFAULT.with_settings(rec.get("settings") or {})
        position = rec.get("position")
        if position is not None:
            start = dadama_from_json({**position, "settings": settings.changed()})
        else:
            start = DadamaGame.opening(settings)
        mode = rec.get("dice")
        self.dice_mode = mode if isinstance(mode, str) and mode in DICE_MODES else "board"
        self.seed = seed
        self.start = start
        self.game = start.copy()
        self.throws = 0
        self.pending = None

    def _throw(self, rec: Record) -> None:
        if self.pending is not None:
            raise ValueError(_("a throw while the last one waits for its step"))
        square = square_of(rec.get("sq"))
        raw = rec.get("dice")
        if not isinstance(raw, list) or not all(type(v) is int for v in raw):
            raise ValueError(_("a throw's dice are whole numbers, not {raw!r}").format(raw=raw))
        dice = tuple(raw)
        self.game.throw_options(square, dice)  # checks the die and the faces
        if self.dice_mode == "board":
            fell = throw_faces(self.seed, self.throws, len(dice))
            if dice != fell:
                raise ValueError(
                    _("throw {n}: the board's dice fell {fell}, not {dice}").format(
                        n=self.throws + 1, fell=list(fell), dice=list(dice)
                    )
                )
        self.pending = (square, dice)
        self.throws += 1

    def _step(self, step: Step) -> Step:
        if isinstance(step, Throw) and (
            self.pending is None or self.pending != (step.square, step.dice)
        ):
            raise ValueError(_("a taking without its throw"))
        self.game.play(step)
        self.pending = None
        return step


class DadamaRecorded(Recorded):
    """Dadama: a ``start`` with its seed, then ``throw`` and ``step`` records; a throw of the
    board's dice must be the one its seed and number give (``throw_faces``)."""

    name = GAME
    export_as = "pdn"

    def __init__(self) -> None:
        super().__init__()
        self.state: DadamaRecord | None = None
        self.last_throw: dict[str, Any] | None = None
        """The last throw: the die's square, its faces, and (once its step is played) the value
        the die kept."""

    def _apply(self, record: Record) -> dict[str, Any]:
        if record.get("k") == "start":
            state = DadamaRecord()
            state.apply(record)
            self.state = state
            return {"game": self.name, "dice": state.dice_mode, "seed": state.seed}
        if self.state is None:
            raise Refused(_("the game has not started: its first record is not its start"))
        side = self.state.game.side_to_move
        step = self.state.apply(record)
        if isinstance(step, Throw):
            self.last_throw = {"at": list(step.square), "dice": list(step.dice), "kept": step.kept}
        if step is None:  # a throw
            assert self.state.pending is not None
            square, dice = self.state.pending
            self.last_throw = {"at": list(square), "dice": list(dice), "kept": None}
            return {"side": DADAMA_COLOURS[side], "throw": self.state.throws,
                    "dice": list(self.state.pending[1])}  # fmt: skip
        return {"side": DADAMA_COLOURS[side], "step": _step_text(step)}

    def _summary(self) -> dict[str, Any]:
        state = self.state
        if state is None:
            return {"phase": "setup", "ply": 0, "to_move": None, "position": None,
                    "result": None, "ending": None}  # fmt: skip
        game = state.game
        over = game.phase is Phase.OVER
        ending = game.ending() if over else None
        pieces = [
            {"at": list(square), "side": DADAMA_COLOURS[die.side], "label": str(die.value),
             "king": die.dadama}
            for square, die in sorted(game.pieces().items())
        ]  # fmt: skip
        return {
            "picture": board_picture(8, "dark-squares", DADAMA_COLOURS, pieces),
            "last_throw": self.last_throw,
            "phase": "over" if over else "play",
            "ply": len(game.history),
            "to_move": DADAMA_COLOURS[game.side_to_move],
            "position": dadama_to_json(game),
            "result": result_of(game) if over else None,
            "ending": ending.reason.value if ending is not None else None,
            "ending_text": ending.describe() if ending is not None else None,
            "dice": state.dice_mode,
            "throws": state.throws,
        }

    def export(self) -> str | None:
        state = self.state
        if state is None:
            return None
        tags = self.table.tags(DADAMA_COLOURS)
        return record_text(state.game, state.start, self.table.result("*"), tags)


def _step_text(step: Quiet | Throw | Stop) -> str:
    """A step as the journal names it (its JSON), for the record's ``info``."""
    return json.dumps(step_to_json(step), separators=(",", ":"))
