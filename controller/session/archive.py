"""The games a board has kept: each finished (or put away) game's journal in its ``games/``
folder, read back to list them and to print their scoresheets and records.

Reading only: a kept journal is never rewritten here (``journal.read`` reports damage without
touching the file), and each game is replayed in memory, as the board resumed it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from controller.i18n import _
from controller.record.journal_file import GAME_NAME, read

from .session import Session

MAX_LISTED = 200


class ArchiveError(ValueError):
    """No such kept game, or a name that is not one."""


@dataclass(frozen=True)
class KeptGame:
    name: str
    saved: float
    """When it was put away (the file's time, seconds since the epoch)."""
    variant: str
    rules: str
    blue: str
    red: str
    moves: int
    result: str
    """The result, or that the game was put away unfinished."""
    problems: tuple[str, ...] = ()

    def json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "saved": self.saved,
            "variant": self.variant,
            "rules": self.rules,
            "blue": self.blue,
            "red": self.red,
            "moves": self.moves,
            "result": self.result,
            "problems": list(self.problems),
        }


_cache: dict[tuple[str, float, int], tuple[Session, KeptGame]] = {}


def _load(path: Path) -> tuple[Session, KeptGame]:
    stat = path.stat()
    key = (str(path), stat.st_mtime, stat.st_size)
    if key not in _cache:
        loaded = read(path)
        session = Session.replayed(loaded.records, loaded.problems)
        outcome = session.outcome
        sheet = session.sheet()
        result = sheet.result_text if outcome is None else f"{outcome.result_text}: {outcome.text}"
        summary = KeptGame(
            name=path.stem,
            saved=stat.st_mtime,
            variant=session.variant,
            rules=session.profile_name,
            blue=session.info.get("blue", ""),
            red=session.info.get("red", ""),
            moves=session.game.ply,
            result=result,
            problems=tuple(session.problems),
        )
        if len(_cache) > 256:
            _cache.clear()
        _cache[key] = (session, summary)
    return _cache[key]


def kept_games(folder: str | Path) -> list[KeptGame]:
    """The games kept in ``folder``, newest first (at most ``MAX_LISTED``)."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    paths = sorted(
        (p for p in folder.glob("game-*.jsonl") if GAME_NAME.match(p.stem) and p.is_file()),
        key=lambda p: p.stat().st_mtime,
        reverse=True,
    )
    return [_load(p)[1] for p in paths[:MAX_LISTED]]


def kept_game(folder: str | Path, name: str) -> Session:
    """The kept game ``name`` replayed (its sheet, record and final position)."""
    if not GAME_NAME.match(name):
        raise ArchiveError(_("{name!r} is not the name of a kept game").format(name=name[:40]))
    path = Path(folder) / f"{name}.jsonl"
    if not path.is_file():
        raise ArchiveError(_("there is no kept game {name!r}").format(name=name))
    return _load(path)[0]
