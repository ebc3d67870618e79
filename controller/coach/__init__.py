"""The computer opponent and the coach on a board (the simulator's and the real one): the
engine's searches run in worker processes, never in the board's loop."""
