"""The one writer of a TOML string for the files the project writes (the hub's and the
federation's settings, an event's credential, a board's connection file): every text read back
as written, whatever it holds, so a quote, a backslash or a line break in a name never damages
the file or the value beside it."""

from __future__ import annotations

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f",
            "\r": "\\r"}  # fmt: skip


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string: quoted, its quotes, backslashes and control characters
    escaped (TOML 1.0 allows none of them bare)."""
    out = []
    for c in text:
        if c in _ESCAPES:
            out.append(_ESCAPES[c])
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\u{ord(c):04X}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'
