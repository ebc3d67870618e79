"""The plain draughts games' shared parts (Dam, English and Italian draughts, and any rule set of
the rules engine's generic core a game's folder brings): their rules on the board and record
reader (``record.py``), session (``session.py``), view (``view.py``) and kind (``kind.py``).
Each game's own folder names its rules and registers it."""
