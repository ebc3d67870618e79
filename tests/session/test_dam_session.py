"""A Dam game (12×12) on a board: moves read from the 72 squares, journaled, resumed after a
restart, a king's taking that turns at the edge, the result told by the pieces and its PDN
kept in ``games/`` once (controller/games/draughts/session.py, controller/games/dam/, the
keeper)."""

from __future__ import annotations

import json

from controller.games.dam.kind import DAM
from controller.games.dam.kind import RULES as DAM_RULES
from controller.games.draughts.kind import DraughtsGame
from controller.games.draughts.session import DraughtsConfig, DraughtsSession
from controller.games.draughts.view import compose_draughts, snapshot
from controller.games.keeper import Keeper
from controller.rules.pdn_game import read_pdn

EDGE = {
    "game": "dam",
    "to_move": "black",
    "pieces": [
        {"square": [5, 0], "side": "black", "king": True},
        {"square": [7, 2], "side": "white"},
        {"square": [8, 9], "side": "white"},
    ],
}


class Hands:
    """The board's sensors under a player's hands: every change held still long enough."""

    def __init__(self, s: DraughtsSession) -> None:
        self.s = s
        self.t = 0.0
        self.board = set(s.game.occupied())

    def show(self) -> None:
        for _ in range(3):
            self.s.feed_frame(self.t, self.board)
            self.t += 1.0
            self.s.tick(self.t)

    def move(self, *path: tuple[int, int], taken: tuple[tuple[int, int], ...] = ()) -> None:
        self.board.discard(path[0])
        self.show()
        for sq in path[1:-1]:
            self.board.add(sq)
            self.show()
            self.board.discard(sq)
            self.show()
        self.board.add(path[-1])
        for sq in taken:
            self.show()
            self.board.discard(sq)
        self.show()


def test_moves_are_read_journaled_and_resumed_after_a_restart(tmp_path):
    journal = str(tmp_path / "dam.jsonl")
    s = DraughtsSession.open(DAM_RULES, DraughtsConfig(), journal)
    h = Hands(s)
    h.show()
    assert s.phase == "play"
    for _ in range(3):
        move = s.game.legal_moves()[0]
        h.move(*move.path, taken=move.captures)
    assert s.view().ply == 3
    kinds = [
        json.loads(line.split(" ", 1)[1])["k"]
        for line in (tmp_path / "dam.jsonl").read_text().splitlines()
    ]
    assert kinds == ["start", "move", "move", "move"]
    s.close()
    again = DraughtsSession.open(DAM_RULES, DraughtsConfig(), journal)
    assert again.problems == []
    assert again.position() == s.position() and again.phase == "setup"
    Hands(again).show()  # the board shows the game again: play goes on
    assert again.phase == "play"
    again.close()


def test_a_kings_taking_turning_at_the_edge_ends_the_game_and_keeps_its_pdn(tmp_path):
    s = DraughtsSession.begin(DAM_RULES, DraughtsConfig(position=EDGE))
    h = Hands(s)
    h.show()
    assert snapshot(s.view(), 0.0)["lights"]["5,0"] == "must_take"
    h.move((5, 0), (11, 6), (7, 10), taken=((7, 2), (8, 9)))
    v = s.view()
    assert v.last is not None and v.last.path == ((5, 0), (11, 6), (7, 10))
    assert s.phase == "over" and v.result == "1-0"
    assert "Game over (1-0)" in compose_draughts(v, 0.0).page[0]
    keeper = Keeper(tmp_path / "games", wall=lambda: 1_700_000_000.0)
    game = DraughtsGame(DAM, s)
    written = keeper.step(game)
    assert [p.name for p in written] == ["game-1700000000.pdn"]
    assert keeper.step(game) == []  # written once
    text = written[0].read_text(encoding="utf-8")
    assert '[Result "1-0"]' in text and "FEN" in text
    replayed = read_pdn(text, "dam")
    assert replayed.game.occupied() == s.game.occupied()


def test_a_record_the_rules_refuse_is_named_and_changes_nothing():
    s = DraughtsSession.begin(DAM_RULES, DraughtsConfig())
    before = s.position()
    problem = s.apply({"k": "move", "path": [[0, 0], [5, 5]]})
    assert problem is not None and "not a legal move" in problem
    assert s.apply({"k": "move", "path": "x"}) is not None
    assert s.apply({"k": "nonsense"}) is not None
    assert s.position() == before


def test_a_wrong_setting_is_refused_with_its_name():
    try:
        DAM.check({"capture_priority": "fewest"}, None)
    except ValueError as exc:
        assert "capture_priority" in str(exc)
    else:
        raise AssertionError("a wrong setting was accepted")
