"""Every game's record, without the board: the journal's grammar (one record key, ``k``, for
every game; its kinds and what makes one impossible), each game's one applier (Damath's
``state.DamathState``; every other game's ``games.Recorded``: the live session, its resume, the
board's link and the hub read records through them), what a game record carries (players and
event, practice settings, the tally, the PDN) and the one TOML string writer.

Pure: it knows the rules engine and the scoresheet, nothing of the tracker, the clocks' running,
the journal's writing or a device, so the hub rebuilds a game with it and imports nothing of the
board (tests/test_architecture.py checks every import, and the imports of those imports).
"""
