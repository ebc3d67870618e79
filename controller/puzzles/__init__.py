"""Puzzles from real games: positions with one clearly best move, found by the engine in the
games the class's boards kept and in the engine's own games, each with its solution line and
its arithmetic, the themes a teacher recognises, the answers' refutations for a child's wrong
try, and a Glicko-2 rating that moves with every attempt (docs/puzzles.md). The
class's store (``store``) keeps them in one SQLite file beside the class list."""
