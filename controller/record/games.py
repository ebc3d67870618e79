"""Every game's record read the same way, whatever the game: the games a journal can hold, known
by its first record (``game_of``), and for each game but Damath (whose record is ``state``'s) a
``Recorded`` game that applies its records one at a time with that game's rules and says what
each meant, what the game is now, and its record as the board exports it.

The board's link describes each record it publishes with it, and the hub re-applies every
record it receives with it: a record the game's rules refuse raises ``Refused`` with the
reason, and nothing changes. Pure: the rules engine only, nothing of a board.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from typing import Any

from controller import registry
from controller.i18n import _
from controller.rules.dadama import COLOURS as DADAMA_COLOURS
from controller.rules.dadama import IllegalStep, Phase, Quiet, Stop, Throw
from controller.rules.dadama_notation import dadama_to_json, record_text, result_of
from controller.rules.game import Game, IllegalMove
from controller.rules.mathchess import (
    SIDES,
    IllegalAction,
    MathChessGame,
    NotationError,
    position_from_json,
    position_to_json,
)
from controller.rules.pdn_game import move_text, write_pdn
from controller.rules.settings import SettingsError

from . import dadama, draughts, mathchess
from .draughts import DraughtsRules
from .table import TableState, is_table

Record = dict[str, Any]
DAMATH = registry.DAMATH
NAMES = registry.NAMES
"""Every game whose journal the board keeps, as its records name it (``controller.registry``)."""


def board_picture(
    size: int, grid: str, colours: tuple[str, str], pieces: list[dict[str, Any]]
) -> dict[str, Any]:
    """What a spectator's page draws of a game, whatever the game: the board (``size`` × ``size``
    dark squares, or the points of a grid), the sides' colours (the first mover first) and each
    piece: ``at`` ``[x, y]``, ``side`` (its colour), ``label`` (a die's value, a Mathematical
    Chess piece's digit or operator, or empty), ``king``."""
    return {"size": size, "grid": grid, "colours": list(colours), "pieces": pieces}


class Refused(ValueError):
    """A record the game's rules refuse; the text says which rule, or what is wrong."""


def game_of(first: Record) -> str | None:
    """The game a journal holds, from its first record (a journal written before the one record
    key read too); None for a record that starts none."""
    first = mathchess.upgraded(first)
    if first.get("k") != "start":
        return None
    name = first.get("game", DAMATH)
    return name if name in NAMES else None


class Recorded(ABC):
    """One game as its records build it, for a game other than Damath."""

    name: str
    export_as: str
    """The kind of the board's own record of the game (``BoardGame.files``): ``pdn`` or
    ``json``; ``export`` is that text."""

    def __init__(self) -> None:
        self.count = 0
        self.table = TableState()
        """The tournament table's records (``record.table``): players, hold, start, pause."""

    def apply(self, record: Record) -> dict[str, Any]:
        """Apply one record; what it meant (the ``info`` a link publishes with it). Refused,
        with the reason, when the game's rules refuse it: nothing changes then. A move while
        the table is held or paused is refused too, as the board refuses it."""
        try:
            if is_table(record):
                if self.count == 0:
                    raise Refused(_("the game has not started: its first record is not its start"))
                summary = self.summary()
                info = self.table.apply(
                    record, played=bool(summary["ply"]), over=summary["phase"] == "over"
                )
                self.count += 1
                return info
            if self.count and (blocked := self.table.blocks()) is not None:
                raise Refused(blocked)
            info = self._apply(record)
        except Refused:
            raise
        except (
            IllegalAction,
            IllegalMove,
            IllegalStep,
            NotationError,
            SettingsError,
            KeyError,
            TypeError,
            ValueError,
        ) as exc:
            raise Refused(str(exc) or type(exc).__name__) from None
        self.count += 1
        return info

    @abstractmethod
    def _apply(self, record: Record) -> dict[str, Any]: ...

    @abstractmethod
    def summary(self) -> dict[str, Any]:
        """The game now: ``phase`` (``setup`` before a start, ``play``, ``over``), ``ply``
        (steps played), ``to_move`` (the side's colour), ``position`` (the game's JSON
        position), ``picture`` (``board_picture``: what a spectator's page draws), ``result``
        (``1-0``, ``0-1``, ``1/2-1/2``, or None while it goes on), ``ending`` (why it ended, or
        None) and ``ending_text`` (that, in words)."""

    @abstractmethod
    def export(self) -> str | None:
        """The game's record, the same text the board exports for it (None before a start)."""


class DraughtsRecorded(Recorded):
    """Dam and English draughts: a ``start``, then ``move`` records, each a legal move."""

    export_as = "pdn"

    def __init__(self, rules: DraughtsRules) -> None:
        super().__init__()
        self.rules = rules
        self.name = rules.name
        self.start: Game | None = None
        self.game: Game | None = None

    def _apply(self, record: Record) -> dict[str, Any]:
        kind = record.get("k")
        if kind == "start":
            self.start = draughts.start_game(self.rules, record)
            self.game = self.start.copy()
            return {"game": self.name, "to_move": self.rules.colours[self.game.side_to_move]}
        if self.game is None:
            raise Refused(_("the game has not started: its first record is not its start"))
        if kind != "move":
            raise Refused(_("unknown record {kind!r}").format(kind=kind))
        move = draughts.recorded_move(self.game, record)
        side = self.game.side_to_move
        self.game.push(move)
        return {"side": self.rules.colours[side], "move": move_text(self.name, move)}

    def summary(self) -> dict[str, Any]:
        game = self.game
        if game is None:
            return {"phase": "setup", "ply": 0, "to_move": None, "position": None,
                    "result": None, "ending": None}  # fmt: skip
        ending = game.ending()
        result = draughts.result_of(ending)
        colours = self.rules.colours
        pieces = [
            {"at": list(square), "side": colours[chip.side], "label": "", "king": chip.dama}
            for square, chip in sorted(game.chips().items())
        ]
        return {
            "phase": "over" if ending is not None else "play",
            "ply": game.ply,
            "to_move": self.rules.colours[game.side_to_move],
            "picture": board_picture(game.rules.size, "dark-squares", colours, pieces),
            "position": self.rules.to_json(game),
            "result": None if result == "*" else result,
            "ending": ending.reason.value if ending is not None else None,
            "ending_text": draughts.describe(self.rules, ending) if ending is not None else None,
        }

    def export(self) -> str | None:
        if self.game is None or self.start is None:
            return None
        result = draughts.result_of(self.game.ending())
        tags = {"Event": _(self.rules.title), **self.table.tags(self.rules.colours)}
        return write_pdn(self.game, self.start, result, tags)


class DadamaRecorded(Recorded):
    """Dadama: a ``start`` with its seed, then ``throw`` and ``step`` records; a throw of the
    board's dice must be the one its seed and number give (``dadama.throw_faces``)."""

    name = dadama.GAME
    export_as = "pdn"

    def __init__(self) -> None:
        super().__init__()
        self.state: dadama.DadamaRecord | None = None
        self.last_throw: dict[str, Any] | None = None
        """The last throw: the die's square, its faces, and (once its step is played) the value
        the die kept."""

    def _apply(self, record: Record) -> dict[str, Any]:
        if record.get("k") == "start":
            state = dadama.DadamaRecord()
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

    def summary(self) -> dict[str, Any]:
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
        return record_text(state.game, state.start, tags=self.table.tags(DADAMA_COLOURS))


def _step_text(step: Quiet | Throw | Stop) -> str:
    """A step as the journal names it (its JSON), for the record's ``info``."""
    return json.dumps(dadama.step_to_json(step), separators=(",", ":"))


class MathChessRecorded(Recorded):
    """Mathematical Chess: a start position, then placements, moves, removals, Done and passes,
    each through the rules engine (a removal must be one its rule allows)."""

    name = mathchess.GAME
    export_as = "json"

    def __init__(self) -> None:
        super().__init__()
        self.game: MathChessGame | None = None

    def _apply(self, record: Record) -> dict[str, Any]:
        record = mathchess.upgraded(record)
        if record.get("k") == mathchess.START:
            raw = record.get("position")
            if not isinstance(raw, dict):
                raise Refused(_("the start record's position is not an object"))
            self.game = MathChessGame(position_from_json(raw))
            return {"game": self.name, "to_move": SIDES[self.game.position.to_move]}
        if self.game is None:
            raise Refused(_("the game has not started: its first record is not its start"))
        side = self.game.position.to_move
        before = len(self.game.actions)
        mathchess.apply_record(self.game, record)
        white, black = self.game.position.score()
        return {
            "side": SIDES[side],
            "actions": len(self.game.actions) - before,
            "score": {"white": white, "black": black},
        }

    def summary(self) -> dict[str, Any]:
        game = self.game
        if game is None:
            return {"phase": "setup", "ply": 0, "to_move": None, "position": None,
                    "result": None, "ending": None}  # fmt: skip
        position = game.position
        ending = position.ending()
        white, black = position.score()
        pieces = [
            {"at": list(point), "side": SIDES[piece.side], "label": piece.symbol, "king": False}
            for point, piece in sorted(position.board.pieces())
        ]
        return {
            "picture": board_picture(position.board.size, "points", SIDES, pieces),
            "phase": "over" if ending is not None else "play",
            "ply": len(game.actions),
            "to_move": SIDES[position.to_move],
            "position": position_to_json(position),
            "result": ending.result() if ending is not None else None,
            "ending": ending.reason if ending is not None else None,
            "ending_text": ending.describe() if ending is not None else None,
            "score": {"white": white, "black": black},
        }

    def export(self) -> str | None:
        if self.game is None:
            return None
        return mathchess.record_text(self.game, self.table)


def dam_recorded() -> Recorded:
    return DraughtsRecorded(draughts.DAM)


def english_recorded() -> Recorded:
    return DraughtsRecorded(draughts.ENGLISH)


def reads_its_own(name: str) -> bool:
    """Whether the game ``name`` has a reader of its own here (``recorded``); Damath's records
    are ``record.state``'s, with its scoresheet and clocks."""
    return registry.entry(name).record is not None


def recorded(name: str) -> Recorded:
    """A new record of the game ``name`` (a game that ``reads_its_own``): the reader its
    registry entry names."""
    try:
        reader = registry.entry(name).new_record()
    except ValueError:
        raise ValueError(f"no record reader for the game {name!r}") from None
    assert isinstance(reader, Recorded)
    return reader
