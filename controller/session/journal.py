"""The journal: one game's records, appended and synced to disk before the board confirms them.

A record is one line: ``CRC32 (8 hex digits) + space + compact JSON + newline``. Each line is
written with one ``os.write`` and made durable with ``fsync`` before ``append`` returns, so after a
power cut the file holds every confirmed record and at most one damaged one at its end.

Reading never raises for what is inside the file. A torn or damaged last line is reported and
dropped. A damaged line in the middle (a flipped bit on the card) ends what can be trusted: the
records before it are kept, the whole file is copied aside as ``<name>.damaged-<n>`` so nothing
is lost for an arbiter to inspect, and the journal is rewritten with the good records only. The
service always starts.
"""

from __future__ import annotations

import json
import os
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Record = dict[str, Any]


class JournalError(OSError):
    """The journal cannot be written (disk full, read-only, gone): the move is not confirmed."""


@dataclass
class JournalLoad:
    """What was read back: the good records, and what was wrong, as sentences."""

    records: list[Record] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    dropped: int = 0
    saved_as: str | None = None


def encode(record: Record) -> bytes:
    body = json.dumps(record, separators=(",", ":"), sort_keys=True, ensure_ascii=True)
    data = body.encode("ascii")
    return b"%08x %s\n" % (zlib.crc32(data), data)


def decode(line: bytes) -> Record | None:
    """The record on one line (without its newline), or None when it is damaged."""
    if len(line) < 10 or line[8:9] != b" ":
        return None
    try:
        crc = int(line[:8], 16)
    except ValueError:
        return None
    body = line[9:]
    if zlib.crc32(body) != crc:
        return None
    try:
        record = json.loads(body)
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


def read(path: str | Path) -> JournalLoad:
    """Read the journal at ``path`` (a missing file is an empty journal, not a problem)."""
    out = JournalLoad()
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        return out
    except OSError as exc:
        out.problems.append(f"{path}: cannot read the journal ({exc.strerror or exc}); new game")
        return out
    lines = data.split(b"\n")
    torn = lines.pop()  # after the last newline: empty unless the last write was torn
    for n, line in enumerate(lines, start=1):
        record = decode(line)
        if record is None:
            rest = len(lines) - n + 1
            where = "last record" if rest == 1 and not torn else f"record {n}"
            out.problems.append(
                f"{path}: {where} is damaged; kept the {n - 1} records before it, "
                f"dropped {rest + bool(torn)} line(s)"
            )
            out.dropped = rest + bool(torn)
            return out
        out.records.append(record)
    if torn:
        out.problems.append(
            f"{path}: the last record was cut short (power cut while writing); dropped it, "
            f"kept {len(out.records)} records"
        )
        out.dropped = 1
    return out


class Journal:
    """Append-only, fsync'd records in ``path``; ``open`` repairs a damaged file first."""

    def __init__(self, path: str | Path, *, sync: bool = True) -> None:
        self.path = Path(path)
        self.sync = sync
        self._fd: int | None = None
        self.count = 0

    @classmethod
    def open(cls, path: str | Path, *, sync: bool = True) -> tuple[Journal, JournalLoad]:
        """Read what is there, repair the file if needed, and open it for appending."""
        journal = cls(path, sync=sync)
        loaded = read(journal.path)
        try:
            journal.path.parent.mkdir(parents=True, exist_ok=True)
            if loaded.problems and journal.path.exists():
                loaded.saved_as = journal._set_aside()
                journal._rewrite(loaded.records)
            journal._open()
        except OSError as exc:
            raise JournalError(f"{journal.path}: cannot open the journal: {exc}") from exc
        journal.count = len(loaded.records)
        return journal, loaded

    def _open(self) -> None:
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)
        if self.sync:
            _sync_dir(self.path.parent)

    def _set_aside(self) -> str:
        """Copy the damaged file aside (never overwrite an earlier copy)."""
        n = 1
        while (aside := self.path.with_name(f"{self.path.name}.damaged-{n}")).exists():
            n += 1
        aside.write_bytes(self.path.read_bytes())
        return str(aside)

    def _rewrite(self, records: list[Record]) -> None:
        """Replace the file atomically by the good records (write, fsync, rename)."""
        tmp = self.path.with_name(self.path.name + ".tmp")
        with open(tmp, "wb") as f:
            for record in records:
                f.write(encode(record))
            f.flush()
            if self.sync:
                os.fsync(f.fileno())
        os.replace(tmp, self.path)
        if self.sync:
            _sync_dir(self.path.parent)

    def append(self, record: Record) -> None:
        """Write one record and make it durable; JournalError if that is impossible."""
        if self._fd is None:
            raise JournalError(f"{self.path}: the journal is closed")
        data = encode(record)
        try:
            written = os.write(self._fd, data)
            if written != len(data):
                raise OSError(f"short write ({written} of {len(data)} bytes)")
            if self.sync:
                os.fsync(self._fd)
        except OSError as exc:
            raise JournalError(f"{self.path}: cannot write the journal: {exc}") from exc
        self.count += 1

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
            else:
                target = None  # type: ignore[assignment]
            self._open()
        except OSError as exc:
            raise JournalError(f"{self.path}: cannot archive the journal: {exc}") from exc
        self.count = 0
        return target

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _sync_dir(folder: Path) -> None:
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
