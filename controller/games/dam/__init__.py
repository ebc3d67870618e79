"""Dam, the 12 × 12 draughts of Sri Lanka, on the board (docs/rules-dam.md): its kind
(``kind.py``, a plain draughts game) and its answers to the rules command (``answers.py``)."""
