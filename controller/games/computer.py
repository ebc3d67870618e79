"""A game's computer opponent, through one interface: its levels and its tasks.

Every game a child may play against the board brings a ``Computer`` in its kind: the levels a
page offers (1 to N: the first loses often, the last plays its best) and the names of its tasks,
pure functions of JSON-ready data that the coach's worker processes run (``coach.worker``), so
a search never holds the board's loop. The tasks live in the game's own folder; nothing here
knows a game.

A task's request and answer (docs/engine.md, "Every game's computer"):

- ``choose``: ``{"start": <the game's JSON position>, "moves": [<the game's JSON moves>],
  "level": N, "seed": S}`` → ``{"move": <a JSON move>, "value": "<in the game's terms>",
  "depth": D, "nodes": K, "seconds": T}``. A hint is the top level's choice with ``"hint":
  true`` (at most ``HINT_SECONDS``).
- ``review``: ``{"start": …, "moves": […], "depth": D}`` → ``{"unit": "<the game's unit>",
  "moves": [{"index", "side", "played", "best", "loss", "forced", "best_found"}]}``: every move
  of a finished game weighed against the best the search finds (``loss`` an exact fraction as
  text, in the game's own unit: points, pieces).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Request = dict[str, Any]
Task = Callable[[Request], Request]

HINT_SECONDS = 1.5
"""A hint: the top level's move, within 1.5 s on the board's computer."""


@dataclass(frozen=True)
class Level:
    """One level of a game's computer, as data: how far it looks and how it picks.

    A level is weaker the way a person is weaker, never by random blunders: it looks fewer
    moves ahead (``depth``) and picks among the moves it finds good by a *temperature*: a move
    ``Δ`` below the best is chosen with weight ``exp(-Δ / T)``, only within ``3·T`` of the best
    (``T`` in the game's own unit; 0: its best move). The choice is seeded, so a game replays."""

    number: int
    name: str
    """In English, marked for the catalogue (``N_``): a page shows it in its language."""
    depth: int
    seconds: float | None
    """A time cap for the move (None: the depth alone limits it)."""
    temperature: float
    quiescence: bool = True
    """Whether takings are followed to the end at the horizon (a beginner's are not)."""


@dataclass(frozen=True)
class Computer:
    """A game's computer opponent: its levels and the dotted names of its tasks
    (``module:function``), imported in the worker that runs them."""

    levels: tuple[Level, ...]
    choose: str
    review: str | None = None

    def level(self, number: int) -> Level:
        """Level ``number``; ValueError says the range."""
        if not 1 <= number <= len(self.levels):
            raise ValueError(f"level {number}: levels run from 1 to {len(self.levels)}")
        return self.levels[number - 1]

    @property
    def top(self) -> Level:
        return self.levels[-1]


def task(name: str) -> Task:
    """The task a dotted name names (``controller.games.dam.computer:choose``)."""
    module, _, function = name.partition(":")
    found = getattr(importlib.import_module(module), function)
    if not callable(found):
        raise TypeError(f"{name} is not a task")
    return found  # type: ignore[no-any-return]


def run(request: Request) -> Request:
    """A worker's entry for every game's task: ``request["task"]`` names it (a picklable
    module-level function, whatever the game)."""
    return task(request["task"])(request)
