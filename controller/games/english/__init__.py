"""English draughts on the board: its kind (``kind.py``, a plain draughts game) and its answers
to the rules command (``answers.py``)."""
