"""The class list (``players.txt``) edited by the teacher: add, rename, remove one name.

The file stays the teacher's: comments and the order of the other lines are kept, and it is
replaced atomically (written beside, then renamed), so a board reading it meanwhile sees the old
list or the new one, never half of it. Names are checked as the board's own form checks them
(``record.info.clean_value``).
"""

from __future__ import annotations

import os
from pathlib import Path

from controller.i18n import _
from controller.record.info import ROSTER_MAX, InfoError, clean_value, read_roster


class RosterError(ValueError):
    """A name that cannot be added, renamed or removed; the message says why."""


def clean_name(raw: object) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise RosterError(_("write the child's name"))
    try:
        name = clean_value("name", raw.strip())
    except InfoError as exc:
        raise RosterError(str(exc)) from None
    if "#" in name:
        raise RosterError(_("a name cannot hold '#' (it starts a comment in players.txt)"))
    return name


def _lines(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        return []


def _write(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".new")
    tmp.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    os.replace(tmp, path)


def _is(line: str, name: str) -> bool:
    return line.split("#", 1)[0].strip() == name


def add(path: Path, raw: object) -> str:
    name = clean_name(raw)
    names = read_roster(path)
    if name in names:
        raise RosterError(_("{name} is already on the class list").format(name=name))
    if len(names) >= ROSTER_MAX:
        raise RosterError(_("the class list holds {n} names at most").format(n=ROSTER_MAX))
    _write(path, [*_lines(path), name])
    return name


def rename(path: Path, old: object, new: object) -> str:
    before, after = clean_name(old), clean_name(new)
    names = read_roster(path)
    if before not in names:
        raise RosterError(_("{name} is not on the class list").format(name=before))
    if after in names and after != before:
        raise RosterError(_("{name} is already on the class list").format(name=after))
    _write(path, [after if _is(line, before) else line for line in _lines(path)])
    return after


def remove(path: Path, raw: object) -> str:
    name = clean_name(raw)
    if name not in read_roster(path):
        raise RosterError(_("{name} is not on the class list").format(name=name))
    _write(path, [line for line in _lines(path) if not _is(line, name)])
    return name
