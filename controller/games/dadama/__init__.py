"""Dadama on the board, its folder (docs/rules-dadama.md): its kind (``kind.py``), its session
(``session.py``), its view (``view.py``) and its answers to the rules command (``answers.py``)."""
