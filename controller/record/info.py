"""Who plays, and where: the players' names, schools, grades and federation IDs, the event,
round, board (table) and date of a game, as the scoresheet's header and the game record's tags
carry them (a federation ID comes with a hub's assignment: docs/federation.md).

Plain text fields, checked once here: short, printable, no line breaks (they are written on a
scoresheet, a 21-character display and a PDN tag). The same names serve ``run --set blue=Ana``,
the simulator's form and the journal.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from controller.i18n import _
from controller.scoresheet.model import Event, Player

FIELDS: dict[str, str] = {
    "blue": "Blue player's name",
    "blue_school": "Blue player's school",
    "blue_grade": "Blue player's grade or year",
    "red": "Red player's name",
    "red_school": "Red player's school",
    "red_grade": "Red player's grade or year",
    "blue_fed_id": "Blue player's federation ID",
    "red_fed_id": "Red player's federation ID",
    "event": "the event (tournament, class)",
    "round": "the round",
    "table": "the board or table number",
    "date": "the date (2026-11-23)",
}
MAX_LENGTH = 60
ROSTER_FILE = "players.txt"
ROSTER_MAX = 60


class InfoError(ValueError):
    """A field that does not exist, or a value that cannot be written on a sheet."""


def clean_value(key: str, raw: Any) -> str:
    if isinstance(raw, bool) or not isinstance(raw, str | int):
        raise InfoError(_("{key}: expected text, got {raw!r}").format(key=key, raw=raw))
    text = " ".join(str(raw).split())
    if len(text) > MAX_LENGTH:
        raise InfoError(f"{key}: at most {MAX_LENGTH} characters (got {len(text)})")
    if any(unicodedata.category(c).startswith("C") for c in text):
        raise InfoError(_("{key}: control characters cannot be written on a sheet").format(key=key))
    if any(c in text for c in '"\\[]{}'):
        raise InfoError(
            _('{key}: the characters " \\ [ ] {{ }} cannot be used here').format(key=key)
        )
    return text


def clean(raw: Mapping[str, Any]) -> dict[str, str]:
    """Checked fields; unknown names and unwritable values are refused with a clear message."""
    out = {}
    for key, value in raw.items():
        if key not in FIELDS:
            raise InfoError(
                _("unknown field {key!r}; fields are: {join}").format(
                    key=key, join=", ".join(FIELDS)
                )
            )
        out[key] = clean_value(key, value)
    return out


def players(info: Mapping[str, str]) -> tuple[Player, Player]:
    return tuple(  # type: ignore[return-value]
        Player(
            info.get(side, ""),
            info.get(f"{side}_school", ""),
            info.get(f"{side}_grade", ""),
            info.get(f"{side}_fed_id", ""),
        )
        for side in ("blue", "red")
    )


def event(info: Mapping[str, str]) -> Event:
    return Event(
        info.get("event", ""), info.get("round", ""), info.get("table", ""), info.get("date", "")
    )


def read_roster(path: str | Path) -> tuple[str, ...]:
    """The class list a teacher keeps beside the journal (``players.txt``): one name a line,
    ``#`` starts a comment. Missing: an empty list. A bad line is skipped, never fatal: the
    board must start whatever the file holds."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ()
    names: list[str] = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            name = clean_value("name", line)
        except InfoError:
            continue
        if name not in names:
            names.append(name)
        if len(names) >= ROSTER_MAX:
            break
    return tuple(names)
