"""The keeper of finished games: every game's record and sheets written into the board's
``games/`` once, whatever the game, under the one name of a kept game (``game-<second>``, the
wall-clock second it finished; two in one second get ``-2``, ``-3`` …).

Each file is written whole to a temporary file, fsynced and renamed into place, and the folder
synced, so a power cut or a full disk leaves either the whole file or none (OSError says why).
A kept game is never overwritten by another: a name is claimed by creating its first file
exclusively. The same game's files written again (the coach's review came) keep its name.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Hashable, Mapping
from pathlib import Path
from typing import Protocol

from controller.record.journal_file import KEPT_FOLDER, kept_name
from controller.session.journal import sync_dir


class Keepable(Protocol):
    def finished(self) -> Hashable | None: ...

    def files(self) -> dict[str, str]: ...

    def files_version(self) -> Hashable: ...


def write_whole(path: Path, data: bytes) -> None:
    """``data`` as the whole of ``path``, or nothing changed (OSError)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise


def claim(folder: Path, stem: str, suffixes: tuple[str, ...]) -> str:
    """A name no kept game uses (``stem``, else ``stem-2`` …), reserved by creating its first
    file exclusively (O_EXCL), so two games kept at once cannot both take it."""
    n = 1
    while True:
        candidate = stem if n == 1 else f"{stem}-{n}"
        n += 1
        if any((folder / f"{candidate}.{s}").exists() for s in suffixes):
            continue
        try:
            fd = os.open(
                folder / f"{candidate}.{suffixes[0]}", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644
            )
        except FileExistsError:
            continue
        os.close(fd)
        return candidate


def write_files(folder: Path, stem: str, files: Mapping[str, str]) -> list[Path]:
    """Every file of a kept game, each written whole; the folder synced after."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    try:
        for suffix, text in files.items():
            path = folder / f"{stem}.{suffix}"
            write_whole(path, text.encode("utf-8"))
            written.append(path)
    except OSError:
        first = folder / f"{stem}.{next(iter(files))}"
        if first.exists() and first.stat().st_size == 0:
            first.unlink(missing_ok=True)  # the claim of a game that could not be written
        raise
    sync_dir(folder)
    return written


def keep_files(folder: Path, stem: str, files: Mapping[str, str]) -> list[Path]:
    """A finished game's files under a new name in ``folder`` (``stem``, or the next free one)."""
    if not files:
        return []
    folder.mkdir(parents=True, exist_ok=True)
    return write_files(folder, claim(folder, stem, tuple(files)), files)


class Keeper:
    """Keeps each finished game of a board once; ``folder`` None keeps nothing (in memory)."""

    def __init__(self, folder: Path | None, wall: Callable[[], float] = time.time) -> None:
        self.folder = folder
        self.wall = wall
        self._finished: Hashable | None = None
        self._version: Hashable = None
        self._stem: str | None = None

    @classmethod
    def of_board(cls, board_folder: Path | None, wall: Callable[[], float] = time.time) -> Keeper:
        return cls(None if board_folder is None else board_folder / KEPT_FOLDER, wall)

    def already(self, game: Keepable) -> None:
        """The game as it stands is kept already (a finished game resumed after a restart)."""
        self._finished = game.finished()
        self._version = game.files_version()

    def step(self, game: Keepable) -> list[Path]:
        """Keep the game if it has finished since the last call (its files written again under
        the same name when they changed); the paths written. OSError says why not; the game
        stays in its journal, and is not tried again until it changes."""
        finished = game.finished()
        if finished is None:
            self._finished = None
            return []
        version = game.files_version()
        if finished == self._finished and version == self._version:
            return []
        again = finished == self._finished and self._stem is not None
        self._finished, self._version = finished, version
        if self.folder is None:
            return []
        files = game.files()
        if again:
            assert self._stem is not None
            return write_files(self.folder, self._stem, files)
        self._stem = None
        written = keep_files(self.folder, kept_name(self.wall()), files)
        self._stem = written[0].stem if written else None
        return written
