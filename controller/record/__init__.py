"""A Damath game's record, without the board: the journal's grammar (its kinds of record and
what makes one impossible), the game state those records build (``state.DamathState``: the one
``apply`` the live session, its resume, the board's link and the hub all read records through),
and what a game record carries (players and event, practice settings, the tally, the PDN).

Pure: it knows the rules engine and the scoresheet, nothing of the tracker, the clocks' running,
the journal's file or a device, so the hub rebuilds a game with it and imports nothing of the
board (tests/test_architecture.py checks every import, and the imports of those imports).
"""
