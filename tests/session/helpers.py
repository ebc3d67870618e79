"""Shared helpers: a session fed from a generated human trace, with no real time anywhere."""

from __future__ import annotations

import random
from typing import Any

from controller.board import BoardHost
from controller.games.damath.kind import DAMATH, DamathGame
from controller.rules.game import Game
from controller.session import Session, SessionConfig
from controller.tracker.generator import human_trace, random_game
from controller.tracker.trace import Frame, Trace, read_trace


def game_trace(seed: int, plies: int = 400, variant: str = "integer") -> Trace:
    """A whole random game (until it ends or ``plies``) played by human hands."""
    game = Game.new(variant)
    moves = random_game(game, plies, random.Random(seed))
    return read_trace(human_trace(game, moves, random.Random(seed + 1000)))


def feed(session: Session, records, until: float | None = None) -> float:
    """Feed trace records (up to time ``until``); returns the last time fed."""
    t = 0.0
    for rec in records:
        if until is not None and rec.t > until:
            break
        t = rec.t
        if isinstance(rec, Frame):
            session.feed_frame(rec.t, rec.occupied)
        else:
            session.press(rec.t, rec.button)
    return t


def new_session(**config) -> Session:
    config.setdefault("checkpoint_seconds", 0)
    s = Session.start(SessionConfig(**config), 0.0)
    return s


def snapshot_at(session: Session, t: float) -> dict[str, Any]:
    """The view's snapshot of ``session`` at ``t`` (built from its view input, as the page's)."""
    from controller.view.snapshot import snapshot

    return snapshot(session.view_input(t, page=True), t)


def damath_game(host: BoardHost, config: SessionConfig, t: float) -> DamathGame:
    """A Damath game on the board of ``host`` from a config made already (the game in the
    journal resumed, else a new one), through the board's one interface of a game."""
    game = host.open(DAMATH, {}, t, config=config)
    assert isinstance(game, DamathGame)
    return game


def open_session(host: BoardHost, config: SessionConfig, t: float) -> Session:
    """The session of ``damath_game``: what the Damath tests read and drive."""
    return damath_game(host, config, t).session
