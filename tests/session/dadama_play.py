"""Players for Dadama sessions: they act on the board and the buttons only (frames and
presses), as people do, choosing from what the game allows with a generator seeded by the
game's state, so a game restarted after a power cut is played on exactly as before."""

from __future__ import annotations

import random

from controller.games.dadama.session import DadamaSession
from controller.games.dadama.tracker import loose, occupied
from controller.rules.dadama import Phase, Throw, jumped
from controller.rules.move import Square


def shown(s: DadamaSession) -> frozenset[Square]:
    """The board set as the game stands (taken pieces of the turn under way lifted)."""
    return occupied(s.game) - loose(s.game)


def _rng(s: DadamaSession, salt: str) -> random.Random:
    return random.Random(f"{salt}/{len(s.game.history)}/{s.throws}")


def act(s: DadamaSession, t: float, salt: str = "p") -> float:
    """One player's action (a few frames or presses); returns the time after it."""
    g = s.game
    rng = _rng(s, salt)
    board = shown(s)
    if s.phase == "setup":
        s.feed_frame(t, board)
        return t + 0.1
    if s.pending is not None:
        options = s.options()
        keeps = sorted({o.kept for o in options})
        want = rng.choice(keeps)
        for _ in range(len(keeps)):
            if s.keep == want:
                break
            s.press(t, "next")
        landings = sorted({o.to for o in options if o.kept == s.keep and o.to is not None})
        if not landings:
            s.press(t, "confirm")
            return t + 0.2
        to = rng.choice(landings)
        square = s.pending[0]
        taken = jumped(square, to)
        s.feed_frame(t, board - {square})
        s.feed_frame(t + 0.3, (board - {square}) | {to})
        s.feed_frame(t + 0.6, (board - {square, taken}) | {to})
        return t + 1.0
    if g.phase is Phase.GO_ON:
        s.press(t, "next" if g.can_stop and rng.random() < 0.3 else "confirm")
        return t + 0.5
    if g.phase is Phase.THROW:
        throwers = g.throwers()
        square = rng.choice(throwers)
        if len(throwers) > 1:
            s.feed_frame(t, board - {square})
            s.feed_frame(t + 0.2, board)
        s.press(t + 0.4, "confirm")
        return t + 1.0
    moves = g.quiet_moves()
    move = rng.choice(moves)
    s.feed_frame(t, board - {move.start})
    s.feed_frame(t + 0.4, (board - {move.start}) | {move.end})
    return t + 1.0


def play_out(s: DadamaSession, limit: int = 4000, salt: str = "p") -> float:
    """Act until the game is over (or ``limit`` actions: a bounded test)."""
    t = 0.0
    for _ in range(limit):
        if s.phase == "over":
            break
        t = act(s, t, salt)
    return t


def throws_of(s: DadamaSession) -> list[Throw]:
    return [p.step for p in s.game.history if isinstance(p.step, Throw)]
