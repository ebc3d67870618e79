"""A game's journal file, as every reader sees it: one record a line (``CRC32`` in 8 hex digits,
a space, compact JSON), numbered by ``seq``; read back without ever raising for what is in the
file (a torn last line dropped, a damaged line in the middle skipped and the gap it leaves told
by the ``seq`` numbers: ``JournalLoad``); and the one name of a kept game. The board's session
writes it (``session/journal.py``: append, fsync, repair); the board's host, the link, the
progress indexer, the puzzles and the archive only read it, through this module.
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.i18n import _

Record = dict[str, Any]

KEPT_FOLDER = "games"
"""Where a board keeps its finished games: beside its journal."""
GAME_NAME = re.compile(r"^game-[0-9][0-9.]*(?:-[0-9]+)?$")
"""A kept game's name, without its suffix (``game-1732400000``, ``game-1732400000-2``); older
boards named games by their clock reading (``game-12.345``), which still reads."""


def kept_name(wall: float) -> str:
    """The one name of a kept game (its journal, sheet and record): the wall-clock second it was
    put away. Two in one second get ``-2``, ``-3`` … where they are written."""
    return f"game-{int(wall)}"


@dataclass
class JournalLoad:
    """What was read back: the good records, and what was wrong, as sentences."""

    records: list[Record] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    dropped: int = 0
    """Lines that could not be read (torn, damaged, or a write that never counted)."""
    saved_as: str | None = None
    breaks: dict[int, int | None] = field(default_factory=dict)
    """Index in ``records`` -> how many confirmed records were lost just before it (None: not
    known, a journal written before records were numbered)."""
    existed: bool = False
    """The file was there (an empty one is reported: nothing had been saved)."""


def replay(records: list[Record], apply: Callable[[Record], str | None]) -> tuple[int, list[str]]:
    """A resumed game's records, each through the game's one ``apply``, until one is refused:
    how many were applied, and the problem to report (the game before that record is kept)."""
    for done, rec in enumerate(records):
        problem = apply(rec)
        if problem:
            n = rec.get("seq", "?")
            return done, [_("journal record {n}: {problem}").format(n=n, problem=problem)]
    return len(records), []


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
    except (ValueError, RecursionError):
        return None
    return record if isinstance(record, dict) else None


def seq_of(record: Record) -> int | None:
    """A record's number in its journal, or None (a record written before they were numbered)."""
    seq = record.get("seq")
    return seq if type(seq) is int and seq > 0 else None


def read(path: str | Path) -> JournalLoad:
    """Read the journal at ``path`` (a missing file is an empty journal, not a problem)."""
    out = JournalLoad()
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return out
    except OSError as exc:
        out.problems.append(
            _("{path}: cannot read the journal ({value}); new game").format(
                path=path, value=exc.strerror or exc
            )
        )
        return out
    out.existed = True
    lines = data.split(b"\n")
    torn = lines.pop()  # after the last newline: empty unless the last write was torn
    kept: list[tuple[int, Record]] = []  # (line number, record)
    damaged: list[int] = []
    for n, line in enumerate(lines, start=1):
        record = decode(line)
        if record is None:
            damaged.append(n)
            continue
        seq = seq_of(record)
        while seq is not None and kept and (seq_of(kept[-1][1]) or 0) >= seq:
            kept.pop()  # written again: the earlier line never counted
            out.dropped += 1
        kept.append((n, record))
    _report(out, path, kept, damaged, len(lines), bool(torn))
    return out


def _report(
    out: JournalLoad,
    path: Path,
    kept: list[tuple[int, Record]],
    damaged: list[int],
    count: int,
    torn: bool,
) -> None:
    """Fill ``out`` from the lines kept: where confirmed records are missing, and why."""
    last_seq = 0
    previous_line = 0
    for i, (n, record) in enumerate(kept):
        seq = seq_of(record)
        bad_before = [d for d in damaged if previous_line < d < n]
        if seq is not None and last_seq is not None and seq > last_seq + 1:
            out.breaks[i] = seq - last_seq - 1
            out.problems.append(
                (
                    _(
                        "{path}: record {first} is damaged or missing (before line {n}); kept "
                        "every good record after it"
                    )
                    if seq == last_seq + 2
                    else _(
                        "{path}: records {first} to {last} are damaged or missing (before line "
                        "{n}); kept every good record after it"
                    )
                ).format(path=path, first=last_seq + 1, last=seq - 1, n=n)
            )
        elif bad_before and (seq is None or last_seq is None):
            out.breaks[i] = None
            out.problems.append(
                _("{path}: line {bad_before} is damaged; kept every good record after it").format(
                    path=path, bad_before=bad_before[0]
                )
            )
        elif bad_before:
            out.problems.append(
                _(
                    "{path}: line {bad_before} was a write that never counted (the disk was full "
                    "or failing); nothing was lost"
                ).format(path=path, bad_before=bad_before[0])
            )
        out.dropped += len(bad_before)
        last_seq = seq if seq is not None else None  # type: ignore[assignment]
        previous_line = n
        out.records.append(record)
    tail = [d for d in damaged if d > previous_line]
    if tail:
        rest = count - tail[0] + 1
        where = (
            _("last record")
            if rest == 1 and not torn
            else _("record {n}").format(n=len(out.records) + 1)
        )
        out.problems.append(
            _(
                "{path}: {where} is damaged; kept the {len} records before it, dropped {value} "
                "line(s)"
            ).format(path=path, where=where, len=len(out.records), value=rest + torn)
        )
        out.dropped += len(tail) + torn
    elif torn:
        out.problems.append(
            _(
                "{path}: the last record was cut short (power cut while writing); dropped it, "
                "kept {len} records"
            ).format(path=path, len=len(out.records))
        )
        out.dropped += 1
