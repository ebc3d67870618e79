"""The progress of one simulator's class: the store, its indexer thread, the teacher's acts.

The indexer runs in one background thread: at start, then every ``POLL_SECONDS`` (a scan of
files whose size and time did not change costs a ``stat`` each), and at once when ``poke`` is
called. A game that ends is so counted within seconds, and no page waits for a review: a page
reads the store as it stands. One lock keeps the thread's writes and the pages' reads apart.
"""

from __future__ import annotations

import datetime as dt
import logging
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.engine.coach import REVIEW_DEPTH
from controller.i18n import _
from controller.record.info import ROSTER_FILE, read_roster

from . import figures, indexer, puzzles, roster
from .store import (
    SCHEMA_VERSION,
    ProgressError,
    Store,
    forget_plays,
    open_store,
    rename_plays,
    store_path,
)

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

POLL_SECONDS = 5.0
BATCH = 20
log = logging.getLogger("damath-board.progress")


class PrivacyError(Exception):
    """A teacher's act on a child's data refused whole: a store could not be used. The message
    says what was not done and why; nothing was changed."""


class Progress:
    def __init__(
        self, state_dir: Path, roster_file: Path | None = None, depth: int = REVIEW_DEPTH
    ) -> None:
        self.state_dir = Path(state_dir)
        self.roster_file = roster_file or self.state_dir / ROSTER_FILE
        self.depth = depth
        self.lock = threading.Lock()
        self.problem = ""
        """Why the store cannot be used (shown on the page), or ''."""
        self._store: Store | None = None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.last: indexer.Indexed | None = None
        self._pool: ProcessPoolExecutor | None = None
        self._rounds = threading.Condition()
        """Notified after each of the thread's rounds (``wait_indexed``)."""

    # ------------------------------------------------------------------ the store

    def store(self) -> Store | None:
        if self._store is None and not self.problem:
            try:
                self._store = open_store(store_path(self.state_dir))
            except ProgressError as exc:
                self.problem = str(exc)
                log.error("%s", exc)
        return self._store

    def roster(self) -> tuple[str, ...]:
        return read_roster(self.roster_file)

    # ------------------------------------------------------------------ indexing

    def index_now(self, limit: int = BATCH, reader: Any = None) -> indexer.Indexed:
        """One bounded round of indexing (the thread's, its reviews in a worker process;
        tests and the bench call it in their own process). It has its own connection to the
        store and holds no lock while it reviews: the pages read meanwhile (SQLite's WAL)."""
        if self.problem:
            return indexer.Indexed()
        try:
            store = open_store(store_path(self.state_dir))
        except ProgressError as exc:
            self.problem = str(exc)
            return indexer.Indexed()
        try:
            done = indexer.index(
                store, self.state_dir, self.roster(), limit=limit, depth=self.depth,
                stop=self._stop.is_set, reader=reader,
            )  # fmt: skip
        except ProgressError as exc:
            self.problem = str(exc)
            return indexer.Indexed()
        finally:
            store.close()
        self.last = done
        return done

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="progress", daemon=True)
            self._thread.start()

    def poke(self) -> None:
        self._wake.set()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        with self.lock:
            if self._store is not None:
                self._store.close()
                self._store = None

    def wait_indexed(self, until: Callable[[], bool], timeout: float) -> bool:
        """Wait until ``until()`` holds, checked after each of the thread's rounds (a test
        waits for a game to be counted, not for the clock); whether it held in time."""
        with self._rounds:
            return self._rounds.wait_for(until, timeout)

    def _pooled(self, path: Path, board: str, names: set[str], depth: int) -> indexer.GameRead:
        """``indexer.read_game`` in the worker process: a review holds the CPU for seconds, and
        in this process it would hold the interpreter the boards' clocks and pages run on."""
        if self._pool is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(1, mp_context=context, initializer=_lower_priority)
        return self._pool.submit(indexer.read_game, path, board, names, depth).result()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                done = self.index_now(reader=self._pooled)
            except Exception:  # a bug here must never stop the boards
                log.exception("progress indexing failed")
                done = indexer.Indexed()
            with self._rounds:
                self._rounds.notify_all()
            if done.left and not self._stop.is_set():
                continue
            self._wake.wait(POLL_SECONDS)
            self._wake.clear()

    # ------------------------------------------------------------------ the pages

    def _read(self, fn: Callable[[Store], Any], default: Any) -> Any:
        with self.lock:
            store = self.store()
            if store is None:
                return default
            try:
                return fn(store)
            except ProgressError as exc:
                self.problem = str(exc)
                return default

    def class_json(self) -> dict[str, Any]:
        plays = self._read(lambda s: s.plays(), [])
        counts = self._read(lambda s: s.counts(), {})
        return {
            "children": figures.class_figures(self.roster(), plays, self.state_dir),
            "games_read": counts,
            "indexing": bool(self.last and self.last.left),
            "problem": self.problem,
            "store": str(store_path(self.state_dir)),
        }

    def child_json(self, child: str) -> dict[str, Any]:
        plays = self._read(lambda s: s.plays(child), [])
        page = figures.child_page(child, plays, self.state_dir)
        page["on_roster"] = child in self.roster()
        page["problem"] = self.problem
        return page

    def known(self, child: str) -> bool:
        return child in self.roster() or bool(self._read(lambda s: s.plays(child), []))

    @contextmanager
    def _both(self, refused: str) -> Iterator[tuple[sqlite3.Connection, sqlite3.Connection | None]]:
        """The progress store and the puzzles' in one write transaction each, committed
        together when the block ends. Every store is checked first: if one cannot be used, or
        the block raises, neither changes (the class list is written last, inside), and
        ``PrivacyError`` says what could not be done and why (``refused``: ``{why}`` in it)."""
        with self.lock:
            try:
                store = self.store()
                if store is None:
                    raise ProgressError(self.problem)
                with store.held() as db, puzzles.held(self.state_dir) as answers:
                    yield db, answers
            except (ProgressError, puzzles.StoreError, sqlite3.Error, OSError) as exc:
                raise PrivacyError(refused.format(why=exc)) from None

    def export(self, child: str) -> dict[str, Any]:
        """One child's data, whole: every game's figures, the summary, the puzzles;
        ``PrivacyError`` when a store cannot be read (never an empty file for a full one)."""
        refused = _("The export was not made: {why}")
        with self.lock:
            try:
                store = self.store()
                if store is None:
                    raise ProgressError(self.problem)
                plays = store.plays(child)
                puzzles.check(self.state_dir)
                solved = puzzles.summary(self.state_dir, child)
                weeks = puzzles.weeks(self.state_dir, child)
                answers = puzzles.attempts(self.state_dir, child)
            except (ProgressError, puzzles.StoreError, sqlite3.Error, OSError) as exc:
                raise PrivacyError(refused.format(why=exc)) from None
        return {
            "format": "damath-board child progress",
            "schema": SCHEMA_VERSION,
            "exported": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "child": child,
            "on_class_list": child in self.roster(),
            "games": [p.json() for p in plays],
            "figures": figures.child_summary(child, plays, self.state_dir),
            "weeks": figures.child_weeks(child, plays, self.state_dir),
            "puzzles": {
                "solved": solved.solved,
                "tried": solved.tried,
                "rating": solved.rating,
                "deviation": solved.deviation,
                "weeks": [w.__dict__ for w in weeks],
                "attempts": answers,
            },
        }

    def delete(self, child: str) -> dict[str, int]:
        """Delete one child's data: the figures, the puzzle attempts, the name on the list;
        all of it or nothing (``PrivacyError`` says which store could not be used)."""
        with self._both(_("Nothing was deleted: {why}")) as (db, answers):
            games = forget_plays(db, child)
            tried = puzzles.forget_in(answers, child)
            removed = 0
            if child in self.roster():
                roster.remove(self.roster_file, child)
                removed = 1
        return {"games": games, "puzzles": tried, "roster": removed}

    # ------------------------------------------------------------------ the class list

    def add(self, name: object) -> str:
        added = roster.add(self.roster_file, name)
        self._read(lambda s: s.forget_status("no-roster"), 0)  # their games may count now
        self.poke()
        return added

    def rename(self, old: object, new: object) -> str:
        """A child renamed on the class list, in the figures and in the puzzles, together or
        not at all (a wrong name is a RosterError, a store that cannot be used a
        ``PrivacyError``; nothing changes for either)."""
        before, after = roster.clean_name(old), roster.clean_name(new)
        with self._both(_("Nothing was renamed: {why}")) as (db, answers):
            rename_plays(db, before, after)
            puzzles.rename_in(answers, before, after)
            roster.rename(self.roster_file, old, new)  # last: its refusal undoes the others
        return after

    def remove(self, name: object) -> str:
        return roster.remove(self.roster_file, name)


def _lower_priority() -> None:
    """The reviews' worker yields the CPU to the boards, and ends itself once the simulator
    that started it is gone (killed: the parent's sentinel says so)."""
    import contextlib
    import multiprocessing
    import os

    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)
    parent = multiprocessing.parent_process()
    if parent is not None and parent.sentinel is not None:
        threading.Thread(target=_orphaned, args=(parent.sentinel,), daemon=True).start()


def _orphaned(sentinel: int) -> None:
    """Wait for the simulator's end (its sentinel), then end this worker with it."""
    import os
    from multiprocessing.connection import wait

    wait([sentinel])
    os._exit(0)
