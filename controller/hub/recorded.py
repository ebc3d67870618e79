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


class RecordedResults:
    def __init__(self, folder: Path, store: Store, live: Live, every: float = EVERY) -> None:
        self.folder, self.store, self.live, self.every = folder, store, live, every
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._said = False

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="hub-recorded", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)

    def once(self) -> None:
        """Read the recorded results now and put them on the cards."""
        if not (self.folder / FILE_NAME).is_file():
            return  # no event: nothing is recorded
        t = Tournament.open(self.folder)
        try:
            self.live.set_recorded(sheets.corrections(self.store, t))
        finally:
            t.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.once()
                self._said = False
            except Exception as exc:  # the walls keep the boards' results; said once
                if not self._said:
                    log.warning("the recorded results could not be read for the walls: %s", exc)
                    self._said = True
            self._stop.wait(self.every)
