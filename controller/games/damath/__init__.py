"""Damath on the board, its folder: its kind (``kind.py``: its settings checked, a game opened or
resumed, its journal known), one game on a board (``game.py``), the puzzle mode (``puzzle.py``)
and its answers to the rules command (``answers.py``)."""
