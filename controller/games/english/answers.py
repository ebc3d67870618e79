"""English draughts answering ``rules moves`` and ``rules perft`` (PDN FEN positions)."""

from controller.games.answers import fen_answers
from controller.games.english.record import RULES as ENGLISH

ANSWERS = fen_answers(ENGLISH)
