"""Each child's progress across a term: the games the class's boards kept, reviewed by the coach,
counted per child in one SQLite file in the simulator's state folder (docs/class.md).

- ``store``: the SQLite file (schema version, damage reported, never overwritten);
- ``indexer``: reads the kept games, reviews each once (by the file's hash), stores the figures;
- ``figures``: what the teacher's page and the report show (per child, per week);
- ``roster``: the class list (``players.txt``) edited by the teacher;
- ``puzzles``: the one adapter to the puzzles' figures (``controller.puzzles.progress``).
"""
