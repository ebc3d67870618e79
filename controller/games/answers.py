"""What ``damath-board rules moves`` and ``rules perft`` ask of a game: its opening, a position
read from JSON, its moves said in words or JSON, and its perft. Each game answers in its own
folder (``controller/games/<name>/answers.py``, named by its registry entry), so the command
holds no game's name; the plain draughts answers every draughts game shares are here."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TextIO

from controller.games.draughts.record import DraughtsRules
from controller.rules.draughts import number_map
from controller.rules.game import Game
from controller.rules.move import Move
from controller.rules.movegen import Board, RawMove
from controller.rules.notation import NotationError, load_json
from controller.rules.pdn import board_from_fen
from controller.rules.pdn_game import move_text
from controller.rules.perft import divide, perft


@dataclass(frozen=True)
class Ask:
    """The options beside the position: Damath's variant and rules profile (None: not given)."""

    variant: str | None = None
    rules: str | None = None

    def refuse_damath_options(self) -> None:
        if self.variant or self.rules:
            raise NotationError("--variant and --rules are for damath positions")


@dataclass
class PerftAsk:
    """``rules perft``'s question: the depth, the options, the position's file (None: the
    opening; read only once the options fit the game), and where the divided counts go as
    they come."""

    game: str
    depth: int
    divide: bool = False
    unique: bool = False
    throw: int | None = None
    fen: str | None = None
    position: str | None = None
    variant: str = "integer"
    rules: str = "official"
    show: Callable[[str, int], None] = lambda text, count: None
    read: Callable[[str], str] = lambda path: path
    """How the position's file is read (``-``: standard input; a size bound)."""
    rows: list[tuple[str, int]] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)
    """What the answer adds to the JSON answer (Damath: its variant)."""

    def text(self) -> str:
        """The position's JSON text (its file read now)."""
        assert self.position is not None
        return self.read(self.position)

    def row(self, text: str, count: int) -> None:
        self.rows.append((text, count))
        self.show(text, count)


class Answers(Protocol):
    """A game's answers to the rules command."""

    def opening(self, ask: Ask) -> object: ...

    def from_json(self, obj: dict[str, Any], ask: Ask) -> object: ...

    def print_moves(self, position: object, as_json: bool, out: TextIO) -> None: ...

    def perft(self, ask: PerftAsk) -> int: ...


def parse_object(text: str) -> dict[str, Any]:
    obj = load_json(text)
    if not isinstance(obj, dict):
        raise NotationError("a position must be a JSON object with variant, to_move and pieces")
    return obj


def refuse_throw(ask: PerftAsk) -> None:
    """Only Dadama throws dice."""
    if ask.throw is not None:
        raise NotationError("--throw is for dadama")


def board_perft(ask: PerftAsk, board: Board, describe: Callable[[RawMove], str]) -> int:
    """The generator board's perft (Damath and the draughts games), divided when asked."""
    if not ask.divide:
        return perft(board, ask.depth, ask.unique)
    if ask.depth == 0:
        return 1
    for raw, count in divide(board, ask.depth, ask.unique):
        ask.row(describe(raw), count)
    return sum(c for _, c in ask.rows)


def draughts_move_json(name: str, move: Move) -> dict[str, Any]:
    """A draughts move as ``rules moves --json`` gives it, ``pdn`` in the game's own numbers."""
    return {
        "path": [list(sq) for sq in move.path],
        "captures": [list(sq) for sq in move.captures],
        "promotes": move.promotes,
        "pdn": move_text(name, move),
    }


def print_draughts(game: Game, colours: tuple[str, str], as_json: bool, out: TextIO) -> None:
    """A plain draughts game's moves (Dam, English, Italian ...), in its own square numbers."""
    name = game.rules.name
    moves = game.legal_moves()
    ending = game.ending()
    if as_json:
        answer: dict[str, Any] = {
            "game": name,
            "to_move": colours[game.side_to_move],
            "moves": [draughts_move_json(name, m) for m in moves],
        }
        if ending is not None:
            answer["ending"] = {"reason": ending.reason, "text": ending.describe()}
        out.write(json.dumps(answer) + "\n")
        return
    side = colours[game.side_to_move].capitalize()
    if not moves:
        out.write(f"{side} to move has no legal move.\n")
        return
    kind = "takings (taking is compulsory)" if moves[0].captures else "moves"
    out.write(f"{side} to move: {len(moves)} legal {kind}\n")
    for move in moves:
        label = "king" if move.chip is not None and move.chip.dama else "man"
        extra = " (crowned)" if move.promotes else ""
        out.write(f"  {label} {move_text(name, move):<16} {move}{extra}\n")


def pdn_describer(name: str, board: Board) -> Callable[[RawMove], str]:
    """A generator move in the rule set's own square numbers (``11-15``, ``22x15``)."""
    _, by_square = number_map(name)
    squares = board.geo.squares

    def describe(raw: RawMove) -> str:
        sep = "x" if raw[1] else "-"
        return sep.join(str(by_square[squares[i]]) for i in raw[0])

    return describe


@dataclass(frozen=True)
class RuleSetPerft:
    """A draughts rule set of the engine counted from its start or a PDN FEN (International
    and Brazilian among them: rules, not the board's games, so ``rules perft`` only)."""

    name: str

    def refuse(self, ask: PerftAsk) -> None:
        refuse_throw(ask)
        if ask.position:
            raise NotationError("--position-json is for damath and dam; use --fen for the others")

    def perft(self, ask: PerftAsk) -> int:
        self.refuse(ask)
        board = board_from_fen(self.name, ask.fen)
        return board_perft(ask, board, pdn_describer(self.name, board))


@dataclass(frozen=True)
class FenDraughts(RuleSetPerft):
    """A plain draughts game of the board whose positions are PDN FEN (English and Italian
    draughts, and any later one): its moves from its own opening or JSON positions."""

    rules: DraughtsRules | None = None

    def _rules(self) -> DraughtsRules:
        assert self.rules is not None, "a board game's rules are given"
        return self.rules

    def opening(self, ask: Ask) -> object:
        ask.refuse_damath_options()
        return self._rules().opening({})

    def from_json(self, obj: dict[str, Any], ask: Ask) -> object:
        ask.refuse_damath_options()
        try:
            return self._rules().from_json(obj, {})
        except ValueError as exc:
            raise NotationError(str(exc)) from None

    def print_moves(self, position: object, as_json: bool, out: TextIO) -> None:
        assert isinstance(position, Game)
        print_draughts(position, self._rules().colours, as_json, out)


def fen_answers(rules: DraughtsRules) -> FenDraughts:
    return FenDraughts(rules.name, rules)
