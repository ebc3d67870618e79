"""The results the tournament recorded otherwise than the boards (an arbiter's correction, a
result typed over a game), kept on the live walls' cards: a thread reads them from the
tournament every few seconds, whoever recorded them (the desk, the command line, the API),
and the walls get the cards they change at once (``Live.set_recorded``)."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from controller.tournament.store import FILE_NAME
from controller.tournament.tournament import Tournament

from . import sheets
from .live import Live
from .store import Store

EVERY = 3.0
log = logging.getLogger("damath-board.hub")


BACKSTOP = 10
"""Polls between two reads when the tournament did not change (a board's game that ends after a
correction was typed changes only the hub's store)."""


class RecordedResults:
    def __init__(self, folder: Path, store: Store, live: Live, every: float = EVERY) -> None:
        self.folder, self.store, self.live, self.every = folder, store, live, every
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._said = False
        self._t: Tournament | None = None
        """One connection for the thread's life: opening the tournament writes (its schema's
        version), so it is opened once, and read only when it changed (``data_version``)."""
        self._seen: int | None = None
        self._idle = 0

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="hub-recorded", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        if self._t is not None:
            self._t.close()
            self._t = None

    def once(self, force: bool = True) -> None:
        """Read the recorded results and put them on the cards: at once with ``force``, else
        when the tournament changed since the last read (or every ``BACKSTOP`` polls)."""
        if self._t is None:
            if not (self.folder / FILE_NAME).is_file():
                return  # no event: nothing is recorded
            self._t = Tournament.open(self.folder)
        version = self._t.store.db.execute("PRAGMA data_version").fetchone()[0]
        self._idle += 1
        if not force and version == self._seen and self._idle < BACKSTOP:
            return
        self._seen, self._idle = version, 0
        self.live.set_recorded(sheets.corrections(self.store, self._t))

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.once(force=self._seen is None)
                self._said = False
            except Exception as exc:  # the walls keep the boards' results; said once
                if not self._said:
                    log.warning("the recorded results could not be read for the walls: %s", exc)
                    self._said = True
            self._stop.wait(self.every)
