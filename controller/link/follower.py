"""Which journal files hold which games, what has been sealed, and what the hub has acknowledged.

A board's folder holds ``journal.jsonl`` (the game being played) and ``games/*.jsonl`` (finished
games, moved there whole by the session). A game keeps its identity when its file is moved: the
follower knows each file by device and inode (a rename keeps them) and by its first record, and
gives each game an id of its own the first time it sees it. The link's own state
(``link/state.json`` beside the journal: the games, what the hub acknowledged) is written
atomically, so a power cut leaves the old or the new state, and acknowledgements are only ever
behind the hub's (a resend is harmless; a record is never skipped).

Files are read only through the journal's public reader (``controller.session.journal.read``):
a torn or damaged last line is simply not there yet. If the records already acknowledged change
(the session repaired a damaged journal, a power cut lost a record the link had read), the game
is continued under a new id that says which game it supersedes: the hub keeps both, nothing is
rewritten behind its back.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from controller.record.journal_file import read as read_journal

from .gamestate import GameState
from .protocol import GENESIS, Envelope, canonical, is_version, seal

STATE_VERSION = 1
JOURNAL = "journal.jsonl"
ARCHIVE = "games"
KEEP_DONE = 500


def new_game_id(now: float | None = None) -> str:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(time.time() if now is None else now))
    return f"{stamp}-{secrets.token_hex(3)}"


def first_hash(record: dict[str, Any]) -> str:
    return hashlib.sha256(canonical(record)).hexdigest()


@dataclass
class Tracked:
    """One game as the link keeps it across restarts."""

    id: str
    dev: int
    ino: int
    first: str
    path: str
    acked: int = 0
    acked_hash: str = GENESIS
    done: bool = False
    supersedes: str | None = None
    asgs: list[list[Any]] = field(default_factory=list)
    """``[first seq, assignment id]`` each time the assignment on its records changed: a
    record sealed again (after a restart, or for a hub rebuilding its store) carries the
    assignment it was first sent with, so its hash is the one the hub had."""
    sealed: int = 0
    """The highest record number sealed so far (what ``asgs`` covers)."""


@dataclass
class Sealed:
    """One game as read now: its records, their envelopes and the game rebuilt from them."""

    tracked: Tracked
    records: list[dict[str, Any]] = field(default_factory=list)
    envelopes: list[Envelope] = field(default_factory=list)
    state: GameState = field(default_factory=GameState)
    live: bool = False
    signature: tuple[int, int, int, int] | None = None

    @property
    def head(self) -> str:
        return self.envelopes[-1].hash if self.envelopes else GENESIS


class Follower:
    """Reads a board's journal folder and seals every record of every game it holds."""

    def __init__(
        self,
        folder: str | os.PathLike[str],
        board: str,
        key: bytes,
        state_path: str | os.PathLike[str] | None = None,
        assignment: Callable[[], str | None] = lambda: None,
        refuses: Callable[[str], bool] = lambda _game: False,
    ) -> None:
        self.folder = Path(folder)
        self.board = board
        self.key = key
        self.state_path = Path(state_path) if state_path else self.folder / "link" / "state.json"
        self.assignment = assignment
        self.refuses = refuses
        """Whether the assignment held now is of another game than ``game`` (the records'):
        a record of one game never carries a table of another (docs/tournament.md)."""
        self.games: list[Tracked] = []
        self.skip: set[tuple[int, int]] = set()
        self.sealed: dict[str, Sealed] = {}
        self.problems: list[str] = []
        self._dirty = False
        self._new_ids = False
        """A game got its id since the last save: saved before any of it is published, or a
        power cut would give the same game a second id (and the hub two copies)."""
        self._load()

    # ------------------------------------------------------------------ persisted state

    def _load(self) -> None:
        try:
            data = json.loads(self.state_path.read_text(encoding="utf-8"))
            if not is_version(data.get("v"), STATE_VERSION) or data.get("board") != self.board:
                raise ValueError("written for another board or version")
            self.games = [Tracked(**g) for g in data["games"]]
            self.skip = {(int(d), int(i)) for d, i in data["skip"]}
            return
        except FileNotFoundError:
            pass
        except (OSError, ValueError, KeyError, TypeError) as exc:
            self.problems.append(f"{self.state_path}: unreadable ({exc}); starting afresh")
        # First start: games finished before the board joined a hub stay on the board.
        self.skip = {key for key, _ in self._archived()}
        self._dirty = True
        self.save()

    def save(self) -> None:
        """Write the state atomically (write, fsync, rename); only when something changed."""
        if not self._dirty:
            return
        done = [g for g in self.games if g.done]
        keep = [g for g in self.games if not g.done or g in done[-KEEP_DONE:]]
        data = {
            "v": STATE_VERSION,
            "board": self.board,
            "games": [asdict(g) for g in keep],
            "skip": sorted(self.skip),
        }
        self.state_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.state_path.with_name(self.state_path.name + ".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(data, f, separators=(",", ":"))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.state_path)
        self._dirty = self._new_ids = False

    # ------------------------------------------------------------------ files

    def _archived(self) -> list[tuple[tuple[int, int], Path]]:
        try:
            paths = sorted((self.folder / ARCHIVE).glob("*.jsonl"))
        except OSError:
            return []
        out = []
        for path in paths:
            try:
                st = path.stat()
            except OSError:
                continue
            out.append(((st.st_dev, st.st_ino), path))
        return out

    def _files(self) -> list[tuple[Path, os.stat_result, bool]]:
        files = []
        for key, path in self._archived():
            if key in self.skip:
                continue
            try:
                files.append((path, path.stat(), False))
            except OSError:
                continue
        live = self.folder / JOURNAL
        with contextlib.suppress(OSError):
            files.append((live, live.stat(), True))
        return files

    # ------------------------------------------------------------------ scanning

    def scan(self) -> list[Sealed]:
        """Read what changed; return every game not yet fully acknowledged, oldest first."""
        seen: set[str] = set()
        by_inode = {(g.dev, g.ino): g for g in self.games if not g.done}
        done_inodes = {(g.dev, g.ino) for g in self.games if g.done}
        for path, st, live in self._files():
            key = (st.st_dev, st.st_ino)
            if key in done_inodes and not live:
                continue
            tracked = by_inode.get(key)
            if tracked is not None and tracked.id in seen:
                continue
            sealed = self.sealed.get(tracked.id) if tracked else None
            signature = (st.st_size, st.st_mtime_ns, st.st_dev, st.st_ino)
            if tracked is not None and sealed is not None and sealed.signature == signature:
                sealed.live = live
                if str(path) != tracked.path:
                    tracked.path = str(path)
                    self._dirty = True
                seen.add(tracked.id)
                continue
            records = read_journal(path).records
            if not records:
                continue
            tracked = self._identify(tracked, key, path, records)
            if tracked is None:
                continue
            seen.add(tracked.id)
            sealed = self._reseal(tracked, records)
            sealed.live = live
            sealed.signature = signature
        pending = []
        for tracked in self.games:
            if tracked.done:
                continue
            sealed = self.sealed.get(tracked.id)
            if sealed is None:
                continue
            if tracked.id not in seen:
                sealed.live = False
            if not sealed.live and tracked.acked >= len(sealed.envelopes) and tracked.id in seen:
                tracked.done = True  # archived and all at the hub
                self._dirty = True
                continue
            pending.append(sealed)
        if self._new_ids:
            self.save()
        return pending

    def _identify(
        self,
        tracked: Tracked | None,
        key: tuple[int, int],
        path: Path,
        records: list[dict[str, Any]],
    ) -> Tracked | None:
        first = first_hash(records[0])
        if tracked is not None and tracked.first == first:
            if str(path) != tracked.path:
                tracked.path = str(path)
                self._dirty = True
            return tracked
        # Not known by inode: a file rewritten after damage keeps its first record.
        present = {k for k, _ in self._archived()}
        for g in self.games:
            if not g.done and g.first == first and (g.dev, g.ino) not in present:
                g.dev, g.ino, g.path = key[0], key[1], str(path)
                self._dirty = True
                return g
        if tracked is not None:  # the inode was reused by a new file
            tracked.done = True
        g = Tracked(new_game_id(), key[0], key[1], first, str(path))
        self.games.append(g)
        self._dirty = self._new_ids = True
        return g

    def _reseal(self, tracked: Tracked, records: list[dict[str, Any]]) -> Sealed:
        """Seal the records not sealed yet; fork the game if what was sealed has changed."""
        sealed = self.sealed.get(tracked.id)
        if sealed is not None:
            same = len(records) >= len(sealed.records) and all(
                a == b for a, b in zip(sealed.records, records, strict=False)
            )
            if not same:
                sealed = None
        if sealed is None:
            sealed = Sealed(tracked)
            self.sealed[tracked.id] = sealed
        for record in records[len(sealed.records) :]:
            self._append(sealed, record)
        if tracked.acked and (
            len(sealed.envelopes) < tracked.acked
            or sealed.envelopes[tracked.acked - 1].hash != tracked.acked_hash
        ):
            return self.fork(tracked, records, "the journal changed under acknowledged records")
        return sealed

    def _append(self, sealed: Sealed, record: dict[str, Any]) -> None:
        info = sealed.state.apply(record)
        if not sealed.envelopes and sealed.tracked.supersedes:
            info = {**info, "supersedes": sealed.tracked.supersedes}
        seq = len(sealed.envelopes) + 1
        env = seal(
            self.board,
            sealed.tracked.id,
            seq,
            sealed.head,
            record,
            self.key,
            info=info,
            asg=self._asg_for(sealed.tracked, seq, sealed.state.kind),
            kind=sealed.state.kind,
        )
        sealed.records.append(record)
        sealed.envelopes.append(env)

    def _asg_for(self, tracked: Tracked, seq: int, game: str) -> str | None:
        """The assignment on record ``seq``: the one it was first sealed with, else now's."""
        if seq <= tracked.sealed and tracked.asgs:
            found = None
            for first, asg in tracked.asgs:
                if first > seq:
                    break
                found = asg
            return found
        now = self.assignment()
        if now is not None and self.refuses(game):
            now = None  # a table of another game than this record's
        if seq > tracked.sealed:
            if not tracked.asgs or tracked.asgs[-1][1] != now:
                tracked.asgs.append([seq, now])
            tracked.sealed = seq
            self._dirty = True
        return now

    def resend_all(self) -> int:
        """The hub lost its store: every game whose journal file is still here is to be sent
        again from its first record (games it superseded are not: their records are no
        longer in any file). Returns how many games."""
        superseded = {g.supersedes for g in self.games if g.supersedes}
        n = 0
        for g in self.games:
            if g.id in superseded:
                continue
            try:
                st = os.stat(g.path)
            except OSError:
                continue
            if (st.st_dev, st.st_ino) != (g.dev, g.ino):
                continue  # the file is another game's now
            g.done, g.acked, g.acked_hash = False, 0, GENESIS
            n += 1
        self.sealed.clear()
        self._dirty = True
        return n

    def fork(self, tracked: Tracked, records: list[dict[str, Any]] | None, why: str) -> Sealed:
        """Continue ``tracked``'s file as a new game that supersedes it."""
        if records is None:
            records = read_journal(tracked.path).records
        tracked.done = True
        g = Tracked(
            new_game_id(), tracked.dev, tracked.ino, tracked.first, tracked.path,
            supersedes=tracked.id,
        )  # fmt: skip
        self.games.append(g)
        self._new_ids = True
        self.problems.append(f"game {tracked.id}: {why}; continued as game {g.id}")
        self._dirty = True
        self.sealed.pop(tracked.id, None)
        sealed = Sealed(g)
        self.sealed[g.id] = sealed
        for record in records:
            self._append(sealed, record)
        return sealed

    # ------------------------------------------------------------------ acknowledgements

    def acknowledge(self, game: str, seq: int) -> bool:
        """The hub holds ``game`` up to ``seq``; True if that changed anything. The hub's word
        wins even when it is lower (a hub that lost its store gets everything again)."""
        for g in self.games:
            if g.id == game and not g.done:
                sealed = self.sealed.get(game)
                if sealed is None or seq > len(sealed.envelopes) or seq == g.acked:
                    return False
                g.acked = seq
                g.acked_hash = sealed.envelopes[seq - 1].hash if seq else GENESIS
                self._dirty = True
                return True
        return False

    def conflict(self, game: str) -> None:
        """The hub holds records of ``game`` that the journal no longer has: fork it."""
        for g in self.games:
            if g.id == game and not g.done:
                self.fork(g, None, "the hub holds records the journal no longer has")
                return

    def live_game(self) -> Sealed | None:
        for sealed in self.sealed.values():
            if sealed.live and not sealed.tracked.done:
                return sealed
        return None
