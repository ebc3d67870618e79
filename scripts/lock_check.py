"""Whether this environment holds exactly what a lock file locks (scripts/lock.sh).

    python scripts/lock_check.py requirements/test.txt

Prints one line per package that differs (missing, another version, or installed without being
locked) and a summary; exit 0 when the environment is the lock, 1 when it is not, 2 when the lock
cannot be read. ./test.sh runs it before the suite, so a run says what it ran on.
"""

from __future__ import annotations

import re
import sys
from importlib import metadata
from pathlib import Path

from packaging.markers import Marker
from packaging.utils import canonicalize_name

_ENTRY = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._\-]*)==([^\s;]+)\s*(?:;\s*(.*))?$")
NOT_LOCKED = {"damath-board"}
"""Installed beside the lock on purpose: the project itself (editable)."""


def locked(path: Path) -> dict[str, str]:
    """The lock's package -> version, for this machine (markers evaluated here)."""
    text = path.read_text(encoding="utf-8").replace("\\\n", " ")
    out: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        entry = line.split(" --hash=")[0].strip()
        if not entry or entry.startswith("#"):
            continue
        match = _ENTRY.match(entry)
        if match is None:
            raise ValueError(f"{path}:{number}: not an exact pin: {entry!r}")
        name, version, marker = match.groups()
        if marker is None or Marker(marker).evaluate():
            out[canonicalize_name(name)] = version
    return out


def installed() -> dict[str, str]:
    return {
        canonicalize_name(d.metadata["Name"]): d.version
        for d in metadata.distributions()
        if d.metadata["Name"]
    }


def differences(lock: dict[str, str], have: dict[str, str]) -> list[str]:
    out = []
    for name in sorted(lock.keys() | have.keys()):
        want, got = lock.get(name), have.get(name)
        if name in NOT_LOCKED or want == got:
            continue
        if got is None:
            out.append(f"{name}: locked {want}, not installed")
        elif want is None:
            out.append(f"{name}: installed {got}, not in the lock")
        else:
            out.append(f"{name}: locked {want}, installed {got}")
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    path = Path(argv[0])
    try:
        lock = locked(path)
    except (OSError, ValueError) as err:
        print(f"lock_check: {err}", file=sys.stderr)
        return 2
    found = differences(lock, installed())
    for line in found:
        print(f"lock_check: {line}")
    if found:
        print(f"lock_check: this environment is not {path} ({len(found)} differences)")
        return 1
    print(f"lock_check: {len(lock)} packages installed exactly as {path} locks them")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
