"""Where puzzles come from: the games a board kept (its journals ``game-*.jsonl``, and game
records in PDN or JSON, docs/game-files.md) and the engine's own games (seeded, at children's
levels). Each source is read as its start position and its moves; a file that cannot be read
is named and skipped, never half-used."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from controller.engine.game_record import read_record
from controller.record.journal_file import read
from controller.rules.damath_data import VARIANTS
from controller.rules.game import Game
from controller.rules.move import Square
from controller.session.session import Session

from .finder import engine_game, find_in_game
from .model import Puzzle

GAME_SUFFIXES = (".jsonl", ".pdn", ".json")
ENGINE_LEVELS = ((1, 3), (2, 4), (3, 5), (4, 6))
"""The level pairs of the engine's games, in turn: a child's mistakes at every strength."""


@dataclass(frozen=True)
class Source:
    name: str
    start: Game
    paths: tuple[tuple[Square, ...], ...]
    kind: str
    """``game`` (a kept game) or ``engine``."""


def game_files(folders: list[Path]) -> list[Path]:
    """Every game file under ``folders`` (recursively), in a stable order."""
    found: set[Path] = set()
    for folder in folders:
        if folder.is_file():
            found.add(folder)
            continue
        for suffix in GAME_SUFFIXES:
            found.update(p for p in folder.rglob(f"*{suffix}") if p.is_file())
    return sorted(found)


def read_game(path: Path) -> Source | None:
    """A kept game as its start and moves; None for a file that is not a Damath game (another
    kind of game, a journal being written, a roster); ValueError for a damaged one."""
    if path.suffix == ".jsonl":
        if not path.name.startswith("game-") and path.name != "journal.jsonl":
            return None
        loaded = read(path)
        if loaded.problems:  # a damaged journal is named and skipped, never half-used
            raise ValueError(f"{path}: a damaged journal ({loaded.problems[0]})")
        session = Session.replayed(loaded.records, loaded.problems)
        game = session.game
        if not isinstance(game, Game) or game.variant not in VARIANTS:
            return None
        moves = game.move_stack
        start = game  # the replayed session is ours alone: take its moves back to its start
        for _ in moves:
            start.pop()
        paths = tuple(m.path for m in moves)
    else:
        text = path.read_text(encoding="utf-8", errors="replace")
        if path.suffix == ".json" and '"moves"' not in text:
            return None  # a position or a settings file, not a game
        record = read_record(text, str(path))
        if record.start.variant not in VARIANTS:
            return None
        start, paths = record.start, record.paths
    if not paths:
        return None
    return Source(str(path), start, paths, "game")


def engine_sources(count: int, variants: tuple[str, ...]) -> Iterator[Source]:
    """``count`` engine games per variant, the level pairs in turn, seeded by their number."""
    for variant in variants:
        for n in range(count):
            levels = ENGINE_LEVELS[n % len(ENGINE_LEVELS)]
            start, paths = engine_game(variant, levels, seed=n + 1)
            name = f"engine {variant} levels {levels[0]}-{levels[1]} seed {n + 1}"
            yield Source(name, start, tuple(paths), "engine")


def puzzles_of(source: Source) -> list[Puzzle]:
    return find_in_game(source.start, source.paths, {"kind": source.kind, "game": source.name})


Report = Callable[[str], None]


def generate(
    folders: list[Path],
    engine_games: int,
    variants: tuple[str, ...],
    report: Report = lambda _line: None,
) -> tuple[list[Puzzle], list[str]]:
    """Every puzzle of the kept games under ``folders`` and of ``engine_games`` engine games
    per variant (only ``variants``), each once; and the files that could not be read."""
    skipped: list[str] = []
    sources: list[Source] = []
    for path in game_files(folders):
        try:
            source = read_game(path)
        except (ValueError, OSError) as exc:
            skipped.append(str(exc).splitlines()[0][:200])
            continue
        if source is not None and source.start.variant in variants:
            sources.append(source)
    found: dict[str, Puzzle] = {}
    for source in [*sources, *engine_sources(engine_games, variants)]:
        for p in puzzles_of(source):
            found.setdefault(p.id, p)
        report(source.name)
    return list(found.values()), skipped
