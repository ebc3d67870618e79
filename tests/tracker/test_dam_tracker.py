"""Dam (12×12) through the board's tracker: the generic tracker follows a Dam game on the 72
playable squares, a king's taking that turns at the edge included (docs/rules-dam.md, M-6)."""

from __future__ import annotations

from controller.rules.dam import DamGame
from controller.tracker.events import BoardReady, MoveCommitted
from controller.tracker.tracker import Tracker

from ..rules.test_dam_rules import dam


class Feeder:
    def __init__(self, game) -> None:
        self.tracker = Tracker(game)
        self.t = 0.0

    def show(self, occupied) -> list:
        """The board held still long enough to count."""
        events = []
        for wait in (0.5, 2.0, 0.0):
            events += self.tracker.feed_frame(self.t, frozenset(occupied))
            self.t += wait
        return events


def test_a_kings_taking_that_turns_at_the_edge_is_read_from_the_board():
    g = dam({(5, 0): "B", (7, 2): "w", (8, 9): "w", (10, 3): "w", (1, 10): "b"})
    f = Feeder(g)
    board = set(g.occupied())
    assert any(isinstance(e, BoardReady) for e in f.show(board))
    board -= {(5, 0)}
    f.show(board)
    board |= {(11, 6)}  # the king set down on the edge on its way
    assert not any(isinstance(e, MoveCommitted) for e in f.show(board))
    board = (board - {(11, 6)}) | {(7, 10)}  # ... and on along the other diagonal
    f.show(board)
    board -= {(7, 2)}
    f.show(board)
    done = [e for e in f.show(board - {(8, 9)}) if isinstance(e, MoveCommitted)]
    assert [e.move.path for e in done] == [((5, 0), (11, 6), (7, 10))]
    assert done[0].move.captures == ((7, 2), (8, 9))


def test_the_opening_of_thirty_men_a_side_and_a_first_move():
    g = DamGame.opening()
    f = Feeder(g)
    board = set(g.occupied())
    assert len(board) == 60
    assert any(isinstance(e, BoardReady) for e in f.show(board))
    move = next(m for m in g.legal_moves() if not m.captures)
    start, end = move.path[0], move.path[-1]
    f.show(board - {start})
    done = [e for e in f.show((board - {start}) | {end}) if isinstance(e, MoveCommitted)]
    assert [e.move.path for e in done] == [move.path]
