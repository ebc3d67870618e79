"""Italian draughts answering ``rules moves`` and ``rules perft`` (PDN FEN positions)."""

from controller.games.answers import fen_answers

from .record import RULES

ANSWERS = fen_answers(RULES)
