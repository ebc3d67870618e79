"""The event folder is the organiser's alone: the folder 0700, every file in it 0600.

It holds every board's signing key (``hub.sqlite``), the desk's password hashes
(``desk.sqlite``), the hub's MQTT password and the organiser's token (``hub.toml``), the
broker's password file: a local user who could read any of them could forge a board's records
or log in. So the ``hub`` command runs with the umask 077 (every file it or its Mosquitto
creates is its owner's only), the stores are created 0600 before SQLite opens them (SQLite
gives a database's ``-wal`` and ``-shm`` the database's own mode), and at every start the hub
takes back whatever an earlier version or a copy left readable (``make_private``).
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

UMASK = 0o077


def private_umask() -> None:
    """Files and folders this process creates from now on: its owner's only."""
    os.umask(UMASK)


def private_folder(path: str | Path) -> Path:
    """The folder, created if new (with its parents), 0700."""
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    with contextlib.suppress(OSError):
        path.chmod(0o700)
    return path


def private_file(path: str | Path) -> Path:
    """Create the file empty if it is missing, 0600 either way (before SQLite opens it)."""
    path = Path(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    os.close(fd)
    path.chmod(0o600)
    return path


def sqlite_files(path: str | Path) -> list[Path]:
    """A database and the files SQLite keeps beside it."""
    path = Path(path)
    return [path, *(path.with_name(path.name + end) for end in ("-wal", "-shm", "-journal"))]


def make_private(folder: str | Path) -> list[Path]:
    """Every folder under ``folder`` 0700, every file 0600 (symbolic links are left alone);
    the paths whose mode was changed."""
    changed = []
    for root, dirs, files in os.walk(folder):
        for name in [".", *dirs, *files]:
            path = Path(root) / name
            try:
                st = path.lstat()
            except OSError:
                continue
            if stat.S_ISLNK(st.st_mode):
                continue
            want = 0o700 if stat.S_ISDIR(st.st_mode) else 0o600
            if stat.S_IMODE(st.st_mode) != want:
                with contextlib.suppress(OSError):
                    path.chmod(want)
                    changed.append(path)
    return changed
