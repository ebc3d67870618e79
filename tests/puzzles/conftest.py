"""Puzzles for the tests: found by the finder in one seeded engine game of Integer Damath (the
same seed gives the same game and the same puzzles every run), once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.puzzles.finder import engine_game, find_in_game
from controller.puzzles.model import Puzzle
from controller.puzzles.store import add_puzzles


@pytest.fixture(scope="session")
def engine_puzzles() -> list[Puzzle]:
    start, paths = engine_game("integer", (1, 3), seed=1, max_plies=60)
    found = find_in_game(start, paths, {"kind": "engine", "game": "integer seed 1"})
    assert len(found) >= 3, "the seeded game gives the tests at least three puzzles"
    return found


@pytest.fixture
def class_dir(tmp_path: Path, engine_puzzles: list[Puzzle]) -> Path:
    """A class's state folder: the class list and a store with the engine game's puzzles."""
    (tmp_path / "players.txt").write_text("Ana Cruz\nBen Reyes\n")
    add_puzzles(tmp_path / "puzzles.sqlite", engine_puzzles)
    return tmp_path


@pytest.fixture(scope="session")
def variant_puzzles() -> dict[str, list[Puzzle]]:
    """Puzzles of three more variants, each from one seeded engine game (a few seconds): the
    long chips and the long differences of Radical and Polynomial Damath, and Fraction's."""
    out = {}
    for variant in ("fraction", "radical", "polynomial"):
        start, paths = engine_game(variant, (1, 3), seed=1, max_plies=40)
        out[variant] = find_in_game(start, paths, {"kind": "engine", "game": f"{variant} 1"})
        assert out[variant], f"the seeded {variant} game gives a puzzle"
    return out


@pytest.fixture
def mixed_dir(class_dir: Path, variant_puzzles: dict[str, list[Puzzle]]) -> Path:
    """A class whose store mixes four variants, as the starting set mixes seven."""
    for found in variant_puzzles.values():
        add_puzzles(class_dir / "puzzles.sqlite", found)
    return class_dir
