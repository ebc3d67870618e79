"""Sri Lankan Dam answering ``rules moves`` and ``rules perft``: JSON positions (its 12×12
board has no PDN FEN of its own in the sources) or a FEN, in its own square numbers."""

from __future__ import annotations

from typing import Any, TextIO

from controller.games.answers import (
    Ask,
    PerftAsk,
    board_perft,
    parse_object,
    pdn_describer,
    print_draughts,
    refuse_throw,
)
from controller.rules.dam import COLOURS, DamGame
from controller.rules.dam_notation import dam_from_json
from controller.rules.notation import NotationError
from controller.rules.pdn import board_from_fen


class DamAnswers:
    def opening(self, ask: Ask) -> object:
        ask.refuse_damath_options()
        return DamGame.opening()

    def from_json(self, obj: dict[str, Any], ask: Ask) -> object:
        ask.refuse_damath_options()
        return dam_from_json(obj)

    def print_moves(self, position: object, as_json: bool, out: TextIO) -> None:
        assert isinstance(position, DamGame)
        print_draughts(position, COLOURS, as_json, out)

    def perft(self, ask: PerftAsk) -> int:
        refuse_throw(ask)
        if ask.position and ask.fen:
            raise NotationError("give either --fen or --position-json, not both")
        if ask.position:
            board = dam_from_json(parse_object(ask.text())).generator_board()
        else:
            board = board_from_fen("dam", ask.fen)
        return board_perft(ask, board, pdn_describer("dam", board))


ANSWERS = DamAnswers()
