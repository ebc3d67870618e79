"""Every record a Damath session makes goes through the writer: appended to the journal and
synced before it takes effect. A record that cannot be written is never fatal: a move or a
takeback is then not confirmed (the session refuses it and asks for it again); anything else (a
pause, a result, a clock checkpoint) takes effect at once and waits in memory, to be written in
order as soon as the disk takes records again. Until then the board says so and the clocks wait.
"""

from __future__ import annotations

from typing import Any

from controller.i18n import _

from . import texts
from .host import WriterHost
from .journal import Journal, JournalError
from .kinds import CueName

Record = dict[str, Any]


class JournalWriter:
    """The journal of one board's session, and what waits for it while the disk refuses."""

    def __init__(self, session: WriterHost, journal: Journal | None) -> None:
        self.session = session
        self.journal = journal
        self.reset()

    def reset(self) -> None:
        """A new game: nothing waits, nothing was refused."""
        self.problem = ""
        """While the journal cannot be written: what the board says instead of anything else."""
        self.unsaved: list[Record] = []
        self.refused = False
        self.last_retry = float("-inf")

    @property
    def reason(self) -> str:
        failure = self.journal.failure if self.journal is not None else None
        return failure.reason if failure is not None else _("disk error")

    def write(self, record: Record) -> bool:
        """Journal a record before it takes effect; True once it is on the disk."""
        s = self.session
        if "game_ms" in record:
            s.last_checkpoint = max(s.last_checkpoint, record["t"])
        if self.journal is None:
            return True
        try:
            self.flush()
            self.journal.append(record)
        except JournalError as exc:
            self.failed(record, exc)
            return False
        if self.problem:
            self.back(record.get("t", s.now))
        return True

    def failed(self, record: Record, exc: JournalError) -> None:
        s = self.session
        if record.get("k") not in ("move", "takeback"):
            if record.get("k") == "tick" and self.unsaved and self.unsaved[-1]["k"] == "tick":
                self.unsaved[-1] = record  # only the latest clock reading matters
            else:
                self.unsaved.append(record)
        if str(exc) not in s.problems:
            s.problems.append(str(exc))
        t = record.get("t", s.now)
        if not self.problem:
            s.cue(t, CueName.ERROR)
            s.log_event(t, "journal_failed", {"error": str(exc)})
        self.problem = texts.NOT_SAVED.format(reason=exc.reason).page
        if s.clocks.running:
            s.clocks.stop(t)

    def refuse(self) -> None:
        """A move that could not be saved: said until the disk takes records again."""
        self.problem = texts.MOVE_NOT_SAVED.format(reason=self.reason).page
        self.refused = True

    def flush(self) -> None:
        """Write the records kept while the disk refused them, oldest first."""
        while self.unsaved:
            assert self.journal is not None
            self.journal.append(self.unsaved[0])
            self.unsaved.pop(0)

    def retry(self, t: float) -> None:
        """While the journal fails: once a second, write what waits (or a clock checkpoint,
        to learn whether the disk takes records again)."""
        if not self.problem or t - self.last_retry < 1.0:
            return
        self.last_retry = t
        if self.journal is None:
            return
        try:
            self.flush()
            self.journal.append({"k": "tick", "t": t, **self.session.clocks.state(t)})
        except JournalError:
            return
        self.back(t)

    def back(self, t: float) -> None:
        s = self.session
        if self.refused:
            s.say(texts.SAVED_AGAIN)
        self.problem = ""
        self.refused = False
        s.log_event(t, "journal_saved", {})
        s.resume_time(t)
