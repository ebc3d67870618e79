"""What every game of the board does with its journal, written once: a record is journaled
before it takes effect, and one ``apply`` reads it, live and on a resume; a record the journal
cannot keep is not played (the board says why); a game put away is kept in ``games/`` when
anything was played in it.

Dadama and the draughts games (Dam, English) are built on it; their ``apply`` is all they add.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path

from controller.i18n import _
from controller.record.journal_file import JournalLoad, Record, replay

from .journal import Journal, JournalError


class JournaledGame(ABC):
    """A game whose state is its journal's records, applied in order by ``apply``."""

    def __init__(self, journal: Journal | None = None) -> None:
        self.journal = journal
        self.problems: list[str] = []
        self.cues: list[str] = []
        self.message = ""

    @abstractmethod
    def apply(self, rec: Record) -> str | None:
        """Read one record into the game: the one path for play and for resume. Returns why a
        record cannot be applied (nothing changed), or None."""

    @abstractmethod
    def played(self) -> bool:
        """Anything was played (a game nobody moved in is not kept)."""

    def resumed(self, loaded: JournalLoad) -> None:
        """Every record of a journal read back, through ``apply``; what does not fit is said and
        stops the replay there. The journal then holds exactly what was resumed (its damaged
        copy every line): the game goes on from there, and what it journals next follows what
        the hub can read, never a record nobody can replay."""
        self.problems += loaded.problems
        done, refused = replay(loaded.records, self.apply)
        self.problems += refused
        if refused:
            self.problems += keep_resumed(self.journal, loaded, done)

    def commit(self, rec: Record) -> bool:
        """Journal then apply; a record the journal cannot keep is not played (said why)."""
        if self.journal is not None:
            try:
                self.journal.append(rec)
            except JournalError as exc:
                self.message = str(exc)
                self.cues.append("error")
                return False
        problem = self.apply(rec)
        if problem:
            self.problems.append(problem)
            self.message = problem
            return False
        return True

    def take_cues(self) -> list[str]:
        out, self.cues = self.cues, []
        return out

    def put_away(self, wall: float) -> str | None:
        return put_away(self.journal, self.played(), wall)

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()


def put_away(journal: Journal | None, played: bool, wall: float) -> str | None:
    """Before another game on the board: its journal kept in ``games/`` when anything was
    played, dropped otherwise, and left empty. What went wrong, or None."""
    if journal is None:
        return None
    try:
        if played:
            journal.keep(wall)
        journal.close()
        journal.path.unlink(missing_ok=True)
    except (JournalError, OSError) as exc:
        return str(exc)
    return None


def open_journal(
    path: str | Path | None, *, sync: bool = True
) -> tuple[Journal | None, JournalLoad]:
    """The journal at ``path`` and what it holds (in memory without a path)."""
    if path is None:
        return None, JournalLoad()
    return Journal.open(path, sync=sync)


def without_start(loaded: JournalLoad, journal: Journal | None) -> list[str]:
    """A journal whose first good record is not its game's start (the start's line lost or
    damaged) holds a game nobody can replay faithfully: its seed, settings and position are
    gone, and a replay onto a fresh start would be another game. It is emptied (every line kept
    first in its damaged copy) and the game begins anew; the sentences to say. Empty when the
    journal starts with its start, or holds nothing."""
    if not loaded.records or loaded.records[0].get("k") == "start":
        return []
    problems = [*loaded.problems, _("the journal has no start record; new game")]
    if journal is not None:
        try:
            saved = loaded.saved_as or journal.set_aside()
            problems.append(_("the damaged journal was kept as {saved_as}").format(saved_as=saved))
            journal.replace([])
        except (OSError, JournalError) as exc:
            problems.append(str(exc))
    return problems


def keep_resumed(journal: Journal | None, loaded: JournalLoad, done: int) -> list[str]:
    """A resume that stopped at a record the game refuses: the journal made exactly the
    ``done`` records resumed (a copy of it kept aside first, unless its repair kept one), so
    the game goes on after what the hub can read; what went wrong, as sentences."""
    if journal is None:
        return []
    try:
        said = []
        if not loaded.saved_as:
            saved = journal.set_aside()
            said.append(_("the damaged journal was kept as {saved_as}").format(saved_as=saved))
        journal.replace(loaded.records[:done])
        return said
    except (OSError, JournalError) as exc:
        return [str(exc)]
