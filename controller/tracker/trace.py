"""Sensor traces as JSON Lines (docs/tracker.md): a header, then frames and button presses.

Reading is strict: every problem is a ``TraceError`` naming the line, because a trace is
evidence (a disputed game, a bug report) and must never be half-understood.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from controller.rules.damath_data import is_playable
from controller.rules.move import Square
from controller.rules.notation import NotationError, load_json

from .tracker import BUTTONS


class TraceError(ValueError):
    """A trace line that cannot be read; the message names the line and the problem."""


@dataclass(frozen=True)
class Frame:
    t: float
    occupied: frozenset[Square]


@dataclass(frozen=True)
class Press:
    t: float
    button: str


@dataclass
class Trace:
    variant: str = "integer"
    profile: str = "official"
    position: dict[str, Any] | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    records: list[Frame | Press] = field(default_factory=list)


MAX_LINE = 16_384
"""Characters in one line: a frame takes under 400, a header with a position under 3,000."""
MAX_RECORDS = 200_000
"""Frames and presses in one trace: a 20-minute game recorded at 200 Hz gives about 5,000
(only changes are written); the bound keeps a hostile file from filling the memory."""


def lines_of(fh: IO[str], max_line: int = MAX_LINE) -> Iterator[str]:
    """The lines of an open file, each read with a limit, so a file without line breaks is
    refused after ``max_line`` characters instead of being read whole into memory."""
    while True:
        line = fh.readline(max_line + 1)
        if not line:
            return
        yield line


def read_trace(lines: Iterable[str]) -> Trace:
    """Parse a trace; blank lines are skipped, times must not go backwards."""
    trace: Trace | None = None
    last_t = float("-inf")
    for n, line in enumerate(lines, start=1):
        if len(line) > MAX_LINE:
            raise TraceError(f"line {n}: longer than {MAX_LINE} characters: not a trace line")
        if not line.strip():
            continue
        try:
            obj = load_json(line)
        except NotationError as exc:
            raise TraceError(f"line {n}: {exc}") from None
        if not isinstance(obj, dict):
            raise TraceError(f"line {n}: expected a JSON object")
        if trace is None:
            trace = _header(obj, n)
            continue
        if len(trace.records) >= MAX_RECORDS:
            raise TraceError(f"line {n}: more than {MAX_RECORDS} records: not one game's trace")
        record = _record(obj, n)
        if record.t < last_t:
            raise TraceError(f"line {n}: time {record.t} goes back (previous line {last_t})")
        last_t = record.t
        trace.records.append(record)
    if trace is None:
        raise TraceError('the trace is empty: line 1 must be the header {"trace": 1, ...}')
    return trace


def _header(obj: dict[str, Any], n: int) -> Trace:
    version = obj.get("trace")
    if type(version) is not int or version != 1:  # ``true == 1`` in Python: not a version
        raise TraceError(f'line {n}: the header must start with "trace": 1')
    unknown = set(obj) - {"trace", "variant", "profile", "position", "settings"}
    if unknown:
        raise TraceError(f"line {n}: unknown header key {_short(sorted(unknown)[0])}")
    for key in ("variant", "profile"):
        if key in obj and not isinstance(obj[key], str):
            raise TraceError(f"line {n}: {key} must be text")
    position = obj.get("position")
    if position is not None and not isinstance(position, dict):
        raise TraceError(f"line {n}: position must be a JSON position object")
    settings = obj.get("settings", {})
    if not isinstance(settings, dict):
        raise TraceError(f"line {n}: settings must be an object")
    return Trace(
        variant=obj.get("variant", "integer"),
        profile=obj.get("profile", "official"),
        position=position,
        settings=settings,
    )


def _record(obj: dict[str, Any], n: int) -> Frame | Press:
    t = obj.get("t")
    if not isinstance(t, int | float) or isinstance(t, bool) or t != t or abs(t) > 1e9:
        raise TraceError(f'line {n}: "t" must be a number of seconds, got {str(t)[:20]!r}')
    if "occupied" in obj and "button" in obj:
        raise TraceError(f"line {n}: a line is either a frame or a button, not both")
    if "occupied" in obj:
        extra = set(obj) - {"t", "occupied"}
        if extra:
            raise TraceError(f"line {n}: unknown key {_short(sorted(extra)[0])}")
        return Frame(float(t), _squares(obj["occupied"], n))
    if "button" in obj:
        extra = set(obj) - {"t", "button"}
        if extra:
            raise TraceError(f"line {n}: unknown key {_short(sorted(extra)[0])}")
        name = obj["button"]
        if name not in BUTTONS:
            raise TraceError(
                f"line {n}: unknown button {_short(name)}; buttons are: {', '.join(BUTTONS)}"
            )
        return Press(float(t), name)
    raise TraceError(f'line {n}: expected "occupied" or "button"')


def _squares(raw: object, n: int) -> frozenset[Square]:
    if not isinstance(raw, list):
        raise TraceError(f'line {n}: "occupied" must be a list of [x, y]')
    if len(raw) > 32:
        raise TraceError(f"line {n}: {len(raw)} squares occupied: the board has 32")
    out = set()
    for item in raw:
        ok = (
            isinstance(item, list)
            and len(item) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in item)
        )
        if not ok:
            shown = json.dumps(item)
            shown = shown if len(shown) <= 40 else shown[:40] + "…"
            raise TraceError(f"line {n}: {shown} is not a square [x, y]")
        x, y = item
        if not (0 <= x < 8 and 0 <= y < 8):
            raise TraceError(f"line {n}: ({x}, {y}) is off the board (x and y run from 0 to 7)")
        if not is_playable((x, y)):
            raise TraceError(f"line {n}: ({x}, {y}) is not a playable square (x + y must be odd)")
        out.add((x, y))
    return frozenset(out)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "…"


def frame_line(t: float, occupied: Iterable[Square]) -> str:
    """One frame as a trace line (squares sorted, time rounded to the millisecond)."""
    squares = sorted(occupied, key=lambda s: (s[1], s[0]))
    return json.dumps({"t": round(t, 3), "occupied": [list(s) for s in squares]})


def header_line(
    variant: str = "integer",
    profile: str = "official",
    position: dict[str, Any] | None = None,
    settings: dict[str, Any] | None = None,
) -> str:
    obj: dict[str, Any] = {"trace": 1, "variant": variant, "profile": profile}
    if position is not None:
        obj["position"] = position
    if settings:
        obj["settings"] = settings
    return json.dumps(obj)
