"""Moves played on a virtual board through its page's own channel (the WebSocket the page uses,
the same messages its clicks send), without a browser: a browser test sets up the game it is
about this way, and clicks only where the clicks are what it tests. A page open on the board
follows every move as it would a player's."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Sequence
from typing import Any

from websockets.sync.client import ClientConnection, connect

Square = tuple[int, int]
Move = tuple[Sequence[Square], Sequence[Square]]

WAIT = 120.0
"""A bound for a hung board, never a pace."""


class Hands:
    """A player's hands on board ``board_id`` of the simulator at ``url``; ``advance`` moves
    the test's clock (the tracker needs time to pass before it takes a move)."""

    def __init__(self, url: str, board_id: str, advance: Callable[[float], None]) -> None:
        self.advance = advance
        self.state: dict[str, Any] = {}
        self._open = contextlib.ExitStack()
        self.ws: ClientConnection = self._open.enter_context(
            connect(url.replace("http://", "ws://") + f"/ws/{board_id}", open_timeout=WAIT)
        )

    def close(self) -> None:
        self._open.close()

    def __enter__(self) -> Hands:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _reply(self) -> dict[str, Any]:
        """Until the board answers the message sent; the states that come meanwhile are kept."""
        deadline = time.monotonic() + WAIT
        while True:
            message = json.loads(self.ws.recv(timeout=max(deadline - time.monotonic(), 0.1)))
            if message["type"] == "state":
                self.state = message["state"]
            elif message["type"] in ("done", "error"):
                return message

    def send(self, message: dict[str, Any]) -> dict[str, Any]:
        self.ws.send(json.dumps(message))
        reply = self._reply()
        assert reply["type"] == "done", reply
        return reply

    def until(self, ok: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        """Until a state of the board satisfies ``ok``."""
        deadline = time.monotonic() + WAIT
        while not (self.state and ok(self.state)):
            assert time.monotonic() < deadline, f"the board never showed {what}: {self.state}"
            message = json.loads(self.ws.recv(timeout=WAIT))
            if message["type"] == "state":
                self.state = message["state"]
        return self.state

    def play(self, moves: Sequence[Move], first_ply: int, step: float) -> None:
        """``moves`` one after the other from ply ``first_ply``: the chip lifted and set down,
        the taken chips taken off, the clock moved ``step``, a new dama crowned."""
        for ply, (path, captures) in enumerate(moves, start=first_ply):
            for square in (path[0], path[-1], *captures):
                self.send({"type": "click", "square": list(square)})
            self.advance(step)
            state = self.until(lambda s, p=ply: s.get("ply") == p, f"ply {ply}")
            if state.get("crown"):
                self.send({"type": "crown", "square": state["crown"]})
                self.until(lambda s: not s.get("crown"), "the dama crowned")
