"""Italian draughts on the board (docs/rules-italian.md): the rules engine's Italian rule set,
whole in this folder: its records (``record.py``, pure: the hub reads them without the board)
and its board game (``kind.py``), registered by one line of ``controller/registry``."""
