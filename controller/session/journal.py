"""The journal: one game's records, appended and synced to disk before the board confirms them.

A record is one line: ``CRC32 (8 hex digits) + space + compact JSON + newline``. Each line is
written with one ``os.write`` and made durable with ``fsync`` before ``append`` returns, so after a
power cut the file holds every confirmed record and at most one damaged one at its end. Every
record carries ``seq``, its number in the journal (1, 2, 3 …); ``seq`` advances only when a
record is durable.

A write that fails (a full disk, a file-size limit, an I/O error) or comes back short is not
confirmed: ``append`` raises JournalError, and the partial line is cut off the file at once
(``ftruncate`` back to the last good byte). If even that fails, the next record starts on a
fresh line, so a partial line never swallows the records after it.

Reading never raises for what is inside the file. A torn last line is reported and dropped. A
damaged line in the middle does not end what can be trusted: every later line whose checksum
is right is kept, and the ``seq`` numbers tell what is missing. No gap: the damaged line was a
write that never counted, nothing was lost. A gap: that many confirmed records were lost there,
and ``JournalLoad.breaks`` says where, so the session can prove whether the records after it
still fit the game (``Session._replay``). A record that repeats an earlier ``seq`` replaces it
(the earlier one was a write that failed after reaching the file). Whenever anything was wrong,
the whole file is first copied aside as ``<name>.damaged-<n>`` (synced before the journal is
rewritten), so nothing is lost for an arbiter to inspect. The service always starts: a journal
that cannot be opened is retried at every write, and the session shows why.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from controller.i18n import N_, _
from controller.record.journal_file import (
    KEPT_FOLDER,
    JournalLoad,
    Record,
    encode,
    kept_name,
    read,
    seq_of,
)


class JournalError(OSError):
    """The journal cannot be written (disk full, read-only, gone): the record is not confirmed.
    ``reason`` is a few words for a small display (``disk full``)."""

    def __init__(self, message: str, reason: str = "") -> None:
        super().__init__(message)
        self.reason = reason or _("disk error")


_REASONS = {
    errno.ENOSPC: N_("disk full"),
    errno.EDQUOT: N_("disk quota full"),
    errno.EFBIG: N_("file too large"),
    errno.EROFS: N_("disk read-only"),
    errno.EACCES: N_("no permission"),
    errno.EPERM: N_("no permission"),
    errno.EISDIR: N_("not a file"),
}


def _reason(exc: OSError) -> str:
    return _(_REASONS.get(exc.errno or 0, N_("disk error")))


class Journal:
    """Append-only, fsync'd records in ``path``; ``open`` repairs a damaged file first."""

    def __init__(self, path: str | Path, *, sync: bool = True) -> None:
        self.path = Path(path)
        self.sync = sync
        self._fd: int | None = None
        self._good_size = 0
        self._dirty = False
        self.count = 0
        """The ``seq`` of the last durable record."""
        self.failure: JournalError | None = None
        """Why the last write (or the opening) failed; None once a write succeeds."""

    @classmethod
    def open(cls, path: str | Path, *, sync: bool = True) -> tuple[Journal, JournalLoad]:
        """Read what is there, repair the file if needed, and open it for appending. Never
        raises: a journal that cannot be opened now is retried by ``append``."""
        journal = cls(path, sync=sync)
        journal._move_aside_if_not_a_file()
        loaded = read(journal.path)
        if journal.failure is not None:
            loaded.problems.insert(0, str(journal.failure))
            journal.failure = None
        journal.count = max([seq_of(r) or 0 for r in loaded.records], default=0) or len(
            loaded.records
        )
        try:
            journal.path.parent.mkdir(parents=True, exist_ok=True)
            if loaded.problems and journal.path.exists():
                loaded.saved_as = journal._set_aside()
                journal._rewrite(loaded.records)
            journal._open()
        except OSError as exc:
            journal.failure = JournalError(
                _("{path}: cannot open the journal: {value}").format(
                    path=journal.path, value=exc.strerror or exc
                ),
                _reason(exc),
            )
        return journal, loaded

    def _move_aside_if_not_a_file(self) -> None:
        """A directory (or a device, a socket) where the journal should be is moved aside
        (never deleted) so a journal can be written; the problem is reported."""
        try:
            mode = os.stat(self.path).st_mode
        except OSError:
            return
        if stat.S_ISREG(mode):
            return
        aside = self._free_name("damaged")
        try:
            os.replace(self.path, aside)
        except OSError as exc:
            self.failure = JournalError(
                _("{path} is not a file and cannot be moved aside ({value})").format(
                    path=self.path, value=exc.strerror or exc
                ),
                "not a file",
            )
            return
        self.failure = JournalError(
            _("{path} was not a file; moved it to {aside}").format(path=self.path, aside=aside), ""
        )

    def _free_name(self, what: str) -> Path:
        n = 1
        while (candidate := self.path.with_name(f"{self.path.name}.{what}-{n}")).exists():
            n += 1
        return candidate

    def _open(self) -> None:
        self._fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o640)
        size = os.fstat(self._fd).st_size
        self._good_size = _whole_lines(self._fd, size)
        self._dirty = self._good_size != size  # a torn tail no repair could cut (disk full)
        if self.sync:
            sync_dir(self.path.parent)

    def set_aside(self) -> str:
        """A copy of the journal as it stands, kept aside before the board empties it (a
        journal whose game cannot be resumed); its name."""
        return self._set_aside()

    def _set_aside(self) -> str:
        """Copy the damaged file aside, durably, before anything rewrites it (never overwrite
        an earlier copy: O_EXCL)."""
        data = self.path.read_bytes()
        while True:
            aside = self._free_name("damaged")
            try:
                fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o640)
            except FileExistsError:
                continue
            break
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            if self.sync:
                os.fsync(fd)
        finally:
            os.close(fd)
        if self.sync:
            sync_dir(self.path.parent)
        return str(aside)

    def _rewrite(self, records: list[Record]) -> None:
        """Replace the file atomically by ``records`` (write, fsync, rename, sync the folder)."""
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            with open(tmp, "wb") as f:
                for record in records:
                    f.write(encode(record))
                f.flush()
                if self.sync:
                    os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except OSError:
            tmp.unlink(missing_ok=True)  # a half-written copy must not take the space
            raise
        if self.sync:
            sync_dir(self.path.parent)

    def replace(self, records: list[Record]) -> None:
        """Make ``records`` the whole journal, numbered afresh (after a repair the session
        decided what to keep); JournalError if the disk refuses."""
        numbered = [{**r, "seq": n} for n, r in enumerate(records, start=1)]
        self.close()
        try:
            self._rewrite(numbered)
            self._open()
        except OSError as exc:
            raise JournalError(
                _("{path}: cannot rewrite the journal: {value}").format(
                    path=self.path, value=exc.strerror or exc
                ),
                _reason(exc),
            ) from exc
        self._dirty = False
        self.count = len(numbered)

    def append(self, record: Record) -> None:
        """Write one record and make it durable; JournalError if that is impossible, and then
        nothing of it stays in the file (or, failing that, it is cut off by a line break)."""
        if self._fd is None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._open()
            except OSError as exc:
                self.failure = JournalError(
                    _("{path}: cannot open the journal: {value}").format(
                        path=self.path, value=exc.strerror or exc
                    ),
                    _reason(exc),
                )
                raise self.failure from exc
        fd = self._fd
        assert fd is not None
        data = encode({**record, "seq": self.count + 1})
        if self._dirty and not self._cut_partial():
            data = b"\n" + data  # the partial line ends here; this record starts afresh
        try:
            written = os.write(fd, data)
            if written != len(data):
                raise OSError(
                    errno.ENOSPC,
                    _("short write ({written} of {len} bytes)").format(
                        written=written, len=len(data)
                    ),
                )
            if self.sync:
                os.fsync(fd)
        except OSError as exc:
            self._dirty = True
            self._cut_partial()
            self.failure = JournalError(
                _("{path}: cannot write the journal: {value}").format(
                    path=self.path, value=exc.strerror or exc
                ),
                _reason(exc),
            )
            raise self.failure from exc
        self._good_size += len(data)
        self._dirty = False
        self.failure = None
        self.count += 1

    def _cut_partial(self) -> bool:
        """Cut what a failed write left at the end of the file; True once the file ends on a
        whole record again."""
        if self._fd is None:
            return False
        try:
            os.ftruncate(self._fd, self._good_size)
            if self.sync:
                os.fsync(self._fd)
        except OSError:
            return False
        self._dirty = False
        return True

    def archive(self, folder: str | Path, name: str) -> Path | None:
        """Move the finished game's journal into ``folder`` and start an empty one."""
        self.close()
        target = Path(folder) / name
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            n = 1
            while target.exists():  # never overwrite a kept game
                n += 1
                target = Path(folder) / f"{Path(name).stem}-{n}{Path(name).suffix}"
            if self.path.exists():
                os.replace(self.path, target)
                if self.sync:
                    sync_dir(target.parent)
            else:
                target = None  # type: ignore[assignment]
            self._open()
        except OSError as exc:
            raise JournalError(
                _("{path}: cannot archive the journal: {value}").format(
                    path=self.path, value=exc.strerror or exc
                ),
                _reason(exc),
            ) from exc
        self.count = 0
        return target

    def keep(self, wall: float) -> Path | None:
        """Put the game away in the kept games beside the journal, under its one name
        (``kept_name``), and start an empty journal."""
        return self.archive(self.path.parent / KEPT_FOLDER, kept_name(wall) + ".jsonl")

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _whole_lines(fd: int, size: int) -> int:
    """The length of the file up to its last line break (the whole records)."""
    end = size
    while end > 0:
        start = max(0, end - 4096)
        chunk = os.pread(fd, end - start, start)
        cut = chunk.rfind(b"\n")
        if cut >= 0:
            return start + cut + 1
        end = start
    return 0


def sync_dir(folder: Path) -> None:
    """Make a created or renamed file's directory entry durable too."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
