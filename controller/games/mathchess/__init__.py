"""Mathematical Chess on the board, its folder (docs/mathchess-board.md): its kind (``kind.py``),
session, LEDs, page, words and sheet, and its answers to the rules command (``answers.py``)."""
