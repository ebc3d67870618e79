"""English draughts answering ``rules moves`` and ``rules perft`` (PDN FEN positions)."""

from controller.games.answers import fen_answers
from controller.record.draughts import ENGLISH

ANSWERS = fen_answers(ENGLISH)
